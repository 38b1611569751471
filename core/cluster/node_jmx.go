package cluster

import (
	"kafkascope/core/jmx"
	"kafkascope/core/sim"
)

// serveJMX answers a JMX client's query on jmx.Port with the MBeans this
// process has registered, read now. It takes only jmx.Query messages
// (anything else there is refused like any unknown port's).
func (n *Node) serveJMX(env *sim.Env, e *sim.Envelope) bool {
	q, ok := e.Msg.(*jmx.Query)
	if !ok {
		return false
	}
	env.Send(e.To, e.From, jmx.Serve(q, n.jmxServer, nodeRegistry{n, env.Now()}))
	return true
}

// nodeRegistry is a node's platform MBean server: the broker's MBeans,
// then the controller's on a voter.
type nodeRegistry struct {
	n   *Node
	now sim.Time
}

func (r nodeRegistry) MBeans() []jmx.MBean {
	beans := r.n.Broker.MBeans(r.now)
	if r.n.Controller != nil {
		beans = append(beans, r.n.Controller.MBeans()...)
	}
	return beans
}

// MBeans is what node id's JMX server would answer now (nil when the node
// is not running), for tests and the UI.
func (c *Cluster) MBeans(id int32) []jmx.MBean {
	n := c.nodes[id]
	if n == nil || c.state[id] != NodeRunning {
		return nil
	}
	return nodeRegistry{n, c.World.Now()}.MBeans()
}
