package broker

import (
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// handleDescribeLogDirs answers DescribeLogDirs as ReplicaManager's
// describeLogDirs does for the partitions asked about: each log directory,
// with the asked-for partitions it holds a log of. A kafkascope broker has
// one log directory (log.dirs), so there is one result.
func (b *Broker) handleDescribeLogDirs(env *sim.Env, from sim.Addr, req *protocol.DescribeLogDirsRequest) {
	dir := protocol.DescribeLogDirsResult{LogDir: b.logDir, Topics: []protocol.DescribeLogDirsTopic{}}
	for _, t := range req.Topics {
		var parts []protocol.DescribeLogDirsPartition
		for _, i := range t.Partitions {
			if b.partitions[tp(t.Topic, i)] != nil {
				parts = append(parts, protocol.DescribeLogDirsPartition{PartitionIndex: i})
			}
		}
		if len(parts) > 0 {
			dir.Topics = append(dir.Topics, protocol.DescribeLogDirsTopic{Name: t.Topic, Partitions: parts})
		}
	}
	b.respond(env, from, &protocol.DescribeLogDirsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID},
		Results: []protocol.DescribeLogDirsResult{dir}})
}
