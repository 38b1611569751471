package simulate

import (
	"fmt"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/cluster"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/rpc"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// createTopic creates a topic with one partition per assignment entry and
// the given configs, and lets every replica learn it.
func createTopic(c *cluster.Cluster, name string, assignment [][]int32, configs map[string]string) error {
	if err := c.CreateTopic("admin", name, -1, -1, assignment, configs); err != nil {
		return err
	}
	return c.Advance(time.Second)
}

// reader is a consumer-side raw client: it sends Fetch requests with
// replica id -1, as a consumer does, and sees the answers exactly.
type reader struct {
	c    *cluster.Cluster
	host string
	conn *rpc.Client
}

func newReader(c *cluster.Cluster) (*reader, error) {
	rd := &reader{c: c}
	host, err := c.SpawnClient("sim-reader", func(host string) sim.Process {
		rd.conn = rpc.NewClient(sim.Addr(host+":1"), "sim-reader")
		return &client.Process{Handlers: []client.Handler{rd.conn}}
	})
	rd.host = host
	return rd, err
}

// fetchResult is one consumer fetch's answer.
type fetchResult struct {
	done    bool
	err     error
	code    protocol.ErrorCode
	hw      int64
	lso     int64 // the answer's last stable offset
	records []record.Record
	decode  error
}

// fetch sends one consumer Fetch of tp at offset to broker id; the answer
// lands in the returned result (when the world has run far enough).
func (rd *reader) fetch(id int32, tp storage.TopicPartition, offset int64) (*fetchResult, error) {
	fr := &fetchResult{}
	err := rd.c.World.Call(rd.host, "fetch", func(env *sim.Env) {
		req := &protocol.FetchRequest{ReplicaID: protocol.ConsumerReplicaID, ReplicaEpoch: -1, MaxWaitMs: 0, MinBytes: 1, MaxBytes: 1 << 20}
		req.Add(tp.Topic, protocol.FetchPartition{Index: tp.Partition, CurrentLeaderEpoch: -1, FetchOffset: offset, LastFetchedEpoch: -1, LogStartOffset: -1, PartitionMaxBytes: 1 << 20})
		rd.conn.Send(env, cluster.BrokerAddr(id), req, time.Minute, func(env *sim.Env, resp protocol.Response, err error) {
			fr.done, fr.err = true, err
			r, ok := resp.(*protocol.FetchResponse)
			if err != nil || !ok || len(r.Topics) != 1 || len(r.Topics[0].Partitions) != 1 {
				if fr.err == nil {
					fr.err = fmt.Errorf("unexpected answer %T", resp)
				}
				return
			}
			pr := r.Topics[0].Partitions[0]
			fr.code, fr.hw, fr.lso = pr.ErrorCode, pr.HighWatermark, pr.LastStableOffset
			data := pr.Records
			for len(data) > 0 {
				b, n, err := record.Decode(data)
				if err != nil {
					fr.decode = err
					return
				}
				for _, rec := range b.Records {
					if rec.Offset >= offset {
						fr.records = append(fr.records, rec)
					}
				}
				data = data[n:]
			}
		})
	})
	return fr, err
}
