package view

import "kafkascope/core/cluster"

// viewState is what the view computes incrementally and keeps on the
// cluster itself (cluster.ViewState): the metadata log's entries read so
// far (metalog.go) and the ZooKeeper tree's last listing (zookeeper.go).
type viewState struct {
	meta *metaCache
	zk   *zkCache
}

func stateFor(c *cluster.Cluster) *viewState {
	vs, _ := c.ViewState.(*viewState)
	if vs == nil {
		vs = &viewState{}
		c.ViewState = vs
	}
	return vs
}
