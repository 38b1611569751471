package console

import (
	"strconv"
	"strings"
	"time"

	"kafkascope/core/cluster"
)

// cmdZooKeeper is `zookeeper kill N` and `zookeeper start N`: an ensemble
// member of a 2.8 cluster crashes (kill -9, its disk kept) or starts
// again and rejoins (cluster/zkservers.go). N is 1..3 or zookeeper-N.
func (s *Session) cmdZooKeeper(args []string) {
	usage := "usage: zookeeper kill N | zookeeper start N"
	if len(args) != 2 || (args[0] != "kill" && args[0] != "start") {
		s.print(usage)
		return
	}
	if !s.needCluster("zookeeper") {
		return
	}
	verb := args[0]
	n, err := strconv.Atoi(strings.TrimPrefix(args[1], "zookeeper-"))
	if err != nil {
		s.printf("zookeeper %s: %q is not a ZooKeeper server (1..%d or zookeeper-N)", verb, args[1], cluster.MaxZooKeepers)
		return
	}
	if verb == "kill" {
		err = s.cluster.KillZooKeeper(n)
	} else if err = s.cluster.StartZooKeeper(n); err == nil {
		srv := s.cluster.ZooKeeperServer(n)
		s.wait(&pending{
			done:     srv.Serving,
			deadline: s.world().Now().Add(time.Minute),
			onTimeout: func(*pending) {
				s.printf("zookeeper start: %s started but does not serve yet (%v)", cluster.ZooKeeperHost(n), srv.PeerState())
			},
		})
	}
	if err != nil {
		s.printf("zookeeper %s: %v", verb, err)
	}
}
