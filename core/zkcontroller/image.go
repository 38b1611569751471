package zkcontroller

import (
	"slices"

	"kafkascope/core/metadata"
)

// Image is the active controller's view as a metadata image: the brokers
// it counts as alive (their epochs are their znodes' czxids; one shutting
// down is InControlledShutdown), the topics and every partition's state as
// it last read or wrote its state znode (PartitionEpoch is the znode's
// version). Nil when the controller is not active. It is built on each
// call, for the checkers and views that read a controller's decisions.
func (c *Controller) Image() *metadata.Image {
	if !c.active || c.ctx == nil {
		return nil
	}
	img := metadata.NewImage()
	var live []metadata.BrokerRegistration
	for _, id := range c.ctx.liveIDs() {
		lb := c.ctx.live[id]
		r := metadata.BrokerRegistration{ID: id, Epoch: lb.epoch, Rack: lb.info.Rack, InControlledShutdown: c.ctx.shuttingDown[id]}
		for _, e := range lb.info.Endpoints {
			r.Endpoints = append(r.Endpoints, endpointOf(e))
		}
		live = append(live, r)
	}
	img.SetLiveBrokers(live)
	for _, name := range c.ctx.topicNames() {
		t := c.ctx.topics[name]
		for p, replicas := range t.assignment {
			st := metadata.PartitionState{Replicas: slices.Clone(replicas), Leader: metadata.NoLeader}
			if li := c.ctx.states[storageTP(name, p)]; li != nil {
				st.Leader, st.LeaderEpoch, st.ISR, st.PartitionEpoch = li.leader, li.leaderEpoch, slices.Clone(li.isr), li.zkVersion
			}
			img.PutPartition(name, t.id, int32(p), st)
		}
	}
	return img
}
