package cluster

import (
	"slices"
	"testing"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/config"
	"kafkascope/core/event"
	"kafkascope/core/kafkazk"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// reassign sends one AlterPartitionReassignments (nil replicas cancel)
// and returns the partition's error code.
func reassign(t *testing.T, c *Cluster, topic string, p int32, replicas []int32) protocol.ErrorCode {
	t.Helper()
	var code *protocol.ErrorCode
	host, err := c.SpawnClient("reassign", func(host string) sim.Process {
		admin := client.NewAdmin(sim.Addr(host+":1"), []sim.Addr{BrokerAddr(2)}, client.DefaultAdminConfig())
		return &client.Process{Handlers: []client.Handler{admin}, OnStart: func(env *sim.Env) {
			admin.Call(env, "alterPartitionReassignments", func() protocol.Request {
				return &protocol.AlterPartitionReassignmentsRequest{TimeoutMs: 30000, Topics: []protocol.ReassignableTopic{{
					Name: topic, Partitions: []protocol.ReassignablePartition{{PartitionIndex: p, Replicas: replicas}},
				}}}
			}, func(_ *sim.Env, resp protocol.Response, err *client.Error) {
				if err != nil {
					t.Errorf("reassign: %v", err)
					c := protocol.UNKNOWN_SERVER_ERROR
					code = &c
					return
				}
				r := resp.(*protocol.AlterPartitionReassignmentsResponse)
				c := r.ErrorCode
				if c == protocol.NONE {
					c = r.Responses[0].Partitions[0].ErrorCode
				}
				code = &c
			})
		}}
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.RunUntil(func() bool { return code != nil }, time.Minute); err != nil || code == nil {
		t.Fatalf("reassign: no answer (%v)", err)
	}
	c.StopClient(host)
	return *code
}

// A move completes as soon as the ISR that holds its target is written:
// through AlterIsr (2.8's default) or, below inter.broker.protocol.version
// 2.7-IV2 where the leader writes the ISR itself, through the
// controller's watch on the moving partition's state znode — not the
// /isr_change_notification, which comes 5 s or more after the change.
func TestZkReassignmentCompletesWhenTheIsrIsWritten(t *testing.T) {
	for _, ibp := range []string{"2.8-IV1", "2.6"} {
		c, err := New(Config{Brokers: 4, Seed: 1, Version: release.Version{Major: 2, Minor: 8}, ZooKeepers: 1,
			Static: config.Static{"inter.broker.protocol.version": ibp}})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.CreateTopic("admin", "t", 1, 3, [][]int32{{1, 2, 3}}, nil); err != nil {
			t.Fatal(err)
		}
		idle(c, time.Second)
		tp := storage.TopicPartition{Topic: "t", Partition: 0}
		var joined, completed sim.Time
		c.OnNote(func(e sim.TraceEvent) {
			switch n := e.Note.(type) {
			case event.ISRChanged:
				if n.TP == tp && slices.Contains(n.ISR, 4) && joined == 0 {
					joined = e.At
				}
			case event.ReassignmentCompleted:
				if n.TP == tp {
					completed = e.At
				}
			}
		})
		if err := c.Cut(1, 4, false); err != nil {
			t.Fatal(err)
		}
		if code := reassign(t, c, "t", 0, []int32{4, 2, 3}); code != protocol.NONE {
			t.Fatalf("IBP %s: %v", ibp, code)
		}
		data, _, err := c.ZooKeeperServer(1).Tree().GetData(kafkazk.TopicPath("t"), 0)
		if err != nil {
			t.Fatal(err)
		}
		moving, _ := kafkazk.DecodeTopic(data)
		if !slices.Equal(moving.Partitions[0], []int32{4, 2, 3, 1}) || !slices.Equal(moving.Adding[0], []int32{4}) || !slices.Equal(moving.Removing[0], []int32{1}) {
			t.Fatalf("IBP %s: topic znode during the move %s", ibp, data)
		}
		_ = c.Heal(1, 4, false)
		idle(c, 40*time.Second)
		if joined == 0 || completed == 0 {
			t.Fatalf("IBP %s: broker 4 joined the ISR at %v, move completed at %v", ibp, joined, completed)
		}
		if d := completed.Sub(joined); d < 0 || d > time.Second {
			t.Errorf("IBP %s: the move completed %v after broker 4 joined the ISR", ibp, d)
		}
		s, _ := zkState(t, c, "t", 0)
		data, _, _ = c.ZooKeeperServer(1).Tree().GetData(kafkazk.TopicPath("t"), 0)
		done, _ := kafkazk.DecodeTopic(data)
		if s.Leader != 4 || !slices.Equal(s.ISR, []int32{2, 3, 4}) || !slices.Equal(done.Partitions[0], []int32{4, 2, 3}) || len(done.Adding) > 0 || len(done.Removing) > 0 {
			t.Errorf("IBP %s: after the move: state %+v, topic znode %s", ibp, s, data)
		}
		if c.Node(1).Broker.Partition(tp) != nil {
			t.Errorf("IBP %s: broker 1 still holds a replica of t-0", ibp)
		}
		c.Close()
	}
}
