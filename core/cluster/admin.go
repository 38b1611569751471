package cluster

import (
	"fmt"
	"sort"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// CreateTopic creates a topic through a short-lived admin client named
// clientName and waits (at most a minute) for the answer. With an
// assignment (one replica list per partition, the first being the
// preferred leader) partitions and rf must be -1; configs are topic
// configs. It returns once the controller has answered, not when every
// replica knows the topic: callers advance time as they need.
func (c *Cluster) CreateTopic(clientName, name string, partitions int32, rf int16, assignment [][]int32, configs map[string]string) error {
	keys := make([]string, 0, len(configs))
	for k := range configs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var entries []protocol.ConfigEntry
	for _, k := range keys {
		v := configs[k]
		entries = append(entries, protocol.ConfigEntry{Name: k, Value: &v})
	}
	var result *protocol.CreateTopicsResponse
	var failure *client.Error
	host, err := c.SpawnClient(clientName, func(host string) sim.Process {
		admin := client.NewAdmin(sim.Addr(host+":1"), []sim.Addr{BrokerAddr(1)}, client.DefaultAdminConfig())
		return &client.Process{Handlers: []client.Handler{admin}, OnStart: func(env *sim.Env) {
			admin.Call(env, "createTopics", func() protocol.Request {
				return &protocol.CreateTopicsRequest{TimeoutMs: 30000, Topics: []protocol.CreatableTopic{{
					Name: name, NumPartitions: partitions, ReplicationFactor: rf, Assignments: assignment, Configs: entries,
				}}}
			}, func(_ *sim.Env, resp protocol.Response, err *client.Error) {
				failure = err
				if resp != nil {
					result = resp.(*protocol.CreateTopicsResponse)
				}
			})
		}}
	})
	if err != nil {
		return err
	}
	if err := c.RunUntil(func() bool { return result != nil || failure != nil }, time.Minute); err != nil {
		return err
	}
	c.StopClient(host)
	switch {
	case failure != nil:
		return fmt.Errorf("create %s: %v", name, failure)
	case result == nil:
		return fmt.Errorf("create %s: no answer within a minute", name)
	case result.Topics[0].ErrorCode != protocol.NONE:
		return fmt.Errorf("create %s: %s", name, result.Topics[0].ErrorCode)
	}
	return nil
}
