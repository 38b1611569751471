package simulate

import (
	"fmt"

	"kafkascope/core/client"
	"kafkascope/core/cluster"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// member is one consumer of a group of the workload.
type member struct {
	group string
	name  string
	host  string
	c     *client.Consumer
}

// startGroups spawns every group's members: subscribed to every topic,
// reading from the earliest offset, committing automatically every
// auto.commit.interval.ms (5 s). Each record a member receives is checked
// against the partition's HW (read-above-hw).
func (run *Run) startGroups() error {
	var topics []string
	for _, t := range run.Plan.Topics {
		topics = append(topics, t.Name)
	}
	for _, g := range run.Plan.Groups {
		for i := 0; i < g.Members; i++ {
			m := &member{group: g.ID, name: fmt.Sprintf("%s-consumer-%d", g.ID, i+1)}
			cfg := client.DefaultConsumerConfig()
			cfg.ClientID, cfg.GroupID, cfg.AutoOffsetReset = m.name, g.ID, "earliest"
			host, err := run.C.SpawnClient(m.name, func(host string) sim.Process {
				m.c = client.NewConsumer(sim.Addr(host+":1"), []sim.Addr{cluster.BrokerAddr(1)}, cfg, run.clientLog(m.name))
				m.c.OnRecords(func(env *sim.Env, recs []client.ConsumerRecord) { run.consumed(m, recs) })
				return &client.Process{Handlers: []client.Handler{m.c}, OnStart: func(env *sim.Env) {
					m.c.Subscribe(env, sim.Addr(host+":2"), topics)
				}}
			})
			if err != nil {
				return err
			}
			m.host = host
			run.members = append(run.members, m)
		}
	}
	return nil
}

// consumed (read-above-hw): a consumer is only given records below the
// high watermark, so each record's offset is below the highest HW any
// replica of its partition has now (read under the lockstep, as
// cluster/loss.go does).
func (run *Run) consumed(m *member, recs []client.ConsumerRecord) {
	for _, r := range recs {
		tp := storage.TopicPartition{Topic: r.Topic, Partition: r.Partition}
		hw := run.highestHW(tp)
		if r.Offset >= hw {
			run.violate("read-above-hw", "%s received %s offset %d, but no replica's HW is above %d", m.name, tp, r.Offset, hw)
		}
	}
	run.Stats.Consumed += len(recs)
}

// highestHW is the highest HW any replica of tp has now or had at a sample.
func (run *Run) highestHW(tp storage.TopicPartition) int64 {
	hw := run.maxHW[tp]
	for _, id := range run.C.NodeIDs() {
		if p := run.C.Node(id).Broker.Partition(tp); p != nil {
			hw = max(hw, p.Log().HighWatermark())
		}
	}
	return hw
}

// closeGroups closes every member (a last commit, then LeaveGroup).
func (run *Run) closeGroups() error {
	closed := 0
	for _, m := range run.members {
		m := m
		if err := run.C.World.Call(m.host, "close", func(env *sim.Env) {
			m.c.Close(env, func(*sim.Env) { closed++ })
		}); err != nil {
			return err
		}
	}
	if err := run.advanceUntil(func() bool { return closed == len(run.members) }, settleLimit); err != nil {
		return err
	}
	for _, m := range run.members {
		run.C.StopClient(m.host)
	}
	return nil
}
