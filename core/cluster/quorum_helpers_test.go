package cluster

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/event"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// adminCall is an admin request in flight from its own client process.
type adminCall struct {
	host string
	resp protocol.Response
	err  *client.Error
}

func (a *adminCall) done() bool { return a.resp != nil || a.err != nil }

// startCreate sends CreateTopics for name through broker via and returns
// at once; the outcome arrives in the returned call.
func startCreate(t testing.TB, c *Cluster, via int32, name string) *adminCall {
	t.Helper()
	call := &adminCall{}
	host, err := c.SpawnClient("admin", func(host string) sim.Process {
		admin := client.NewAdmin(sim.Addr(host+":1"), []sim.Addr{BrokerAddr(via)}, client.DefaultAdminConfig())
		return &client.Process{Handlers: []client.Handler{admin}, OnStart: func(env *sim.Env) {
			admin.Call(env, "createTopics", func() protocol.Request {
				return &protocol.CreateTopicsRequest{Topics: []protocol.CreatableTopic{{Name: name, NumPartitions: 1, ReplicationFactor: 1}}, TimeoutMs: 30000}
			}, func(_ *sim.Env, resp protocol.Response, err *client.Error) {
				call.resp, call.err = resp, err
			})
		}}
	})
	if err != nil {
		t.Fatal(err)
	}
	call.host = host
	return call
}

// createdOK reports whether the call created its topic.
func (a *adminCall) createdOK() bool {
	r, ok := a.resp.(*protocol.CreateTopicsResponse)
	return ok && a.err == nil && len(r.Topics) == 1 && r.Topics[0].ErrorCode == protocol.NONE
}

// activeNode is the node id of the active controller, or -1.
func activeNode(c *Cluster) int32 {
	if ctl := c.Controller(); ctl != nil {
		return ctl.NodeID()
	}
	return -1
}

// metaEntry is one entry of the __cluster_metadata log.
type metaEntry struct {
	epoch   int32
	control bool
	payload []byte
}

func (e metaEntry) equal(o metaEntry) bool {
	return e.epoch == o.epoch && e.control == o.control && bytes.Equal(e.payload, o.payload)
}

// metadataLog reads node id's metadata log entries in [from, to).
func metadataLog(c *Cluster, id int32, from, to int64) (map[int64]metaEntry, error) {
	rn := c.Node(id).Raft
	if !rn.Started() || rn.Log() == nil {
		return nil, nil
	}
	bs, err := rn.Log().Batches(from, to)
	if err != nil {
		return nil, err
	}
	out := map[int64]metaEntry{}
	for _, b := range bs {
		for _, r := range b.Records {
			if r.Offset >= from && r.Offset < to {
				out[r.Offset] = metaEntry{epoch: b.PartitionLeaderEpoch, control: b.IsControl(), payload: slices.Clone(r.Value)}
			}
		}
	}
	return out, nil
}

// quorumChecker watches a cluster for Raft's safety properties at the
// level of the whole product: at most one quorum leader per epoch (from
// the raft.transition notes), committed metadata never lost or changed
// (every running voter's log below its high watermark agrees with what
// any voter ever committed there), and every broker's image equal to the
// replay of a prefix of the committed log.
type quorumChecker struct {
	leaders    map[int32]int32     // quorum epoch -> the node that led it
	committed  map[int64]metaEntry // offset -> what was committed there
	violations []string
}

func newQuorumChecker(c *Cluster) *quorumChecker {
	q := &quorumChecker{leaders: map[int32]int32{}, committed: map[int64]metaEntry{}}
	for _, e := range c.World.Trace().Since(0) { // what happened while the cluster started
		if e.Kind == sim.TraceNote {
			q.observe(e)
		}
	}
	prev := c.observe
	c.World.SetNoteHook(func(e sim.TraceEvent) {
		prev(e)
		q.observe(e)
	})
	return q
}

func (q *quorumChecker) fail(format string, args ...any) {
	if len(q.violations) < 20 {
		q.violations = append(q.violations, fmt.Sprintf(format, args...))
	}
}

func (q *quorumChecker) observe(e sim.TraceEvent) {
	n, ok := e.Note.(event.RaftTransition)
	if !ok || n.Role != "Leader" {
		return
	}
	node, epoch := n.Node, n.Epoch
	if prev, ok := q.leaders[epoch]; ok && prev != node {
		q.fail("t=%s: epoch %d has two leaders, %d and %d", e.At, epoch, prev, node)
	}
	q.leaders[epoch] = node
}

// check compares every running voter's committed prefix with the record
// of what was committed, then every running broker's image with the
// replay of the committed log up to the broker's offset.
func (q *quorumChecker) check(c *Cluster) {
	now := c.World.Now()
	for _, id := range c.NodeIDs() {
		if !c.IsVoter(id) || c.State(id) != NodeRunning {
			continue
		}
		rn := c.Node(id).Raft
		hw := rn.HighWatermark()
		if hw <= 0 {
			continue
		}
		entries, err := metadataLog(c, id, rn.LogStartOffset(), hw)
		if err != nil {
			q.fail("t=%s: node %d: reading its metadata log: %v", now, id, err)
			continue
		}
		for off := rn.LogStartOffset(); off < hw; off++ {
			e, ok := entries[off]
			if !ok {
				q.fail("t=%s: node %d has no entry at committed offset %d (HW %d)", now, id, off, hw)
				break
			}
			if prev, seen := q.committed[off]; seen && !prev.equal(e) {
				q.fail("t=%s: node %d's committed entry at %d (epoch %d) differs from the one committed before (epoch %d)", now, id, off, e.epoch, prev.epoch)
			} else if !seen {
				q.committed[off] = e
			}
		}
	}
	for _, id := range c.NodeIDs() {
		if c.State(id) != NodeRunning {
			continue
		}
		img := c.Node(id).Broker.Image()
		if img.Offset < 0 {
			continue
		}
		want, ok := q.replay(img.Offset)
		if !ok {
			continue // the committed record does not reach that far yet (seen from the voters checked)
		}
		if !sameImage(want, img) {
			q.fail("t=%s: broker %d's image at offset %d differs from the replay of the committed log", now, id, img.Offset)
		}
	}
}

// replay rebuilds the image of the committed log up to offset upTo, or
// reports false if some committed entry up to there is not known.
func (q *quorumChecker) replay(upTo int64) (*metadata.Image, bool) {
	img := metadata.NewImage()
	for off := int64(0); off <= upTo; off++ {
		e, ok := q.committed[off]
		if !ok {
			return nil, false
		}
		if e.control {
			continue
		}
		r, err := metadata.Decode(e.payload)
		if err != nil {
			q.fail("committed entry %d does not decode: %v", off, err)
			return nil, false
		}
		if err := img.Apply(off, r); err != nil {
			q.fail("committed entry %d does not apply: %v", off, err)
			return nil, false
		}
	}
	img.Offset = upTo
	return img, true
}

// sameImage compares two images through their snapshot records (a
// deterministic restatement of everything an image holds).
func sameImage(a, b *metadata.Image) bool {
	if a.Offset != b.Offset {
		return false
	}
	ra, rb := metadata.SnapshotRecords(a), metadata.SnapshotRecords(b)
	if len(ra) != len(rb) {
		return false
	}
	for i := range ra {
		if !bytes.Equal(metadata.Encode(ra[i], 0), metadata.Encode(rb[i], 0)) {
			return false
		}
	}
	return true
}

// runFor advances the cluster in steps of step, checking after each.
func (q *quorumChecker) runFor(t testing.TB, c *Cluster, d, step time.Duration) {
	t.Helper()
	for end := c.World.Now().Add(d); c.World.Now() < end; {
		if err := c.Advance(min(step, end.Sub(c.World.Now()))); err != nil {
			t.Fatal(err)
		}
		q.check(c)
	}
}
