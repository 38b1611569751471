package view_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"kafkascope/core/console"
	"kafkascope/core/metadata"
	"kafkascope/core/view"
)

// session is a console session with a cluster (the default one unless
// create says otherwise).
func session(t testing.TB, create string) *console.Session {
	t.Helper()
	s := console.NewSession()
	if create == "" {
		create = "cluster create --brokers 3"
	}
	out := s.Exec(create, nil)
	if s.Cluster() == nil {
		t.Fatalf("%s: %v", create, out)
	}
	return s
}

func advance(t testing.TB, s *console.Session, d time.Duration) {
	t.Helper()
	if err := s.Cluster().Advance(d); err != nil {
		t.Fatal(err)
	}
}

func types(ml view.MetaLog) []string {
	var out []string
	for _, e := range ml.Entries {
		out = append(out, e.Type)
	}
	return out
}

func findEntries(ml view.MetaLog, typ string) []view.MetaEntry {
	var out []view.MetaEntry
	for _, e := range ml.Entries {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

func TestQuorumOfAFreshCluster(t *testing.T) {
	s := session(t, "")
	snap := view.Take(s.Cluster())
	q := snap.Quorum
	if q.Status != view.QuorumOK || q.Frozen() || q.Majority != 2 || q.Running != 3 || q.Connected != 3 {
		t.Fatalf("quorum %+v", q)
	}
	leaders := 0
	for _, v := range q.Voters {
		if v.Role == "Leader" {
			leaders++
			if v.ID != q.LeaderID || !v.Active || v.ID != snap.Controller.NodeID {
				t.Errorf("leader %+v; quorum leader %d, controller %d", v, q.LeaderID, snap.Controller.NodeID)
			}
		} else if v.Role != "Follower" || v.LeaderID != q.LeaderID || v.Active {
			t.Errorf("voter %+v", v)
		}
		if v.Epoch != q.Epoch || v.LEO <= 0 || v.HW <= 0 || v.HW > v.LEO || v.LeaderViewLEO < 0 || v.LastFetchAgoMs < 0 {
			t.Errorf("voter %+v (epoch %d)", v, q.Epoch)
		}
	}
	if leaders != 1 {
		t.Fatalf("%d leaders", leaders)
	}
	if q.HighWatermark != snap.Controller.HighWatermark {
		t.Errorf("quorum HW %d, controller HW %d", q.HighWatermark, snap.Controller.HighWatermark)
	}
	if len(q.Nodes) != 3 {
		t.Fatalf("nodes %+v", q.Nodes)
	}
	for _, n := range q.Nodes {
		if !n.Running || !n.Voter || n.Applied < 0 || n.Lag < 0 || n.Lag > 2 {
			t.Errorf("replay %+v (HW %d)", n, q.HighWatermark)
		}
	}

	ml := snap.MetaLog
	if ml.Source != q.LeaderID || ml.HighWatermark != q.HighWatermark || ml.From != 0 {
		t.Fatalf("metadata log from %d, HW %d, from offset %d", ml.Source, ml.HighWatermark, ml.From)
	}
	got := types(ml)
	for _, want := range []string{"LeaderChange", "FeatureLevelRecord", "RegisterBrokerRecord", "BrokerRegistrationChangeRecord"} {
		if !slices.Contains(got, want) {
			t.Errorf("no %s in %v", want, got)
		}
	}
	if n := len(findEntries(ml, "RegisterBrokerRecord")); n != 3 {
		t.Errorf("%d RegisterBrokerRecords", n)
	}
	lc := findEntries(ml, "LeaderChange")[0]
	if !lc.Control || lc.LeaderChange == nil || lc.LeaderChange.LeaderID != q.LeaderID && len(findEntries(ml, "LeaderChange")) == 1 {
		t.Errorf("LeaderChange %+v", lc)
	}
	if j := lc.JSON(); !strings.HasPrefix(j, `{"version":0,"leaderId":`) || !strings.Contains(j, `"voters":[{"voterId":1},{"voterId":2},{"voterId":3}]`) {
		t.Errorf("LeaderChange JSON %s", j)
	}
	// Offsets ascend without gaps; NoOpRecords fold into runs.
	next := ml.From
	for _, e := range ml.Entries {
		if e.Offset != next || e.LastOffset < e.Offset || e.Pending {
			t.Fatalf("entry %+v, expected offset %d", e, next)
		}
		if e.Count() > 1 && e.Type != "NoOpRecord" {
			t.Errorf("a run of %s", e.Type)
		}
		next = e.LastOffset + 1
	}
	if next != ml.HighWatermark {
		t.Errorf("entries end at %d, HW %d", next, ml.HighWatermark)
	}
	reg := findEntries(ml, "RegisterBrokerRecord")[0]
	if j := reg.JSON(); !strings.HasPrefix(j, `{"type":"REGISTER_BROKER_RECORD"`) {
		t.Errorf("RegisterBrokerRecord JSON %s", j)
	}
}

func TestMetaLogNamesTopicsAndGrows(t *testing.T) {
	s := session(t, "")
	before := view.Take(s.Cluster()).MetaLog
	out := s.Exec("kafka-topics.sh --create --topic orders --partitions 2 --replication-factor 3", nil)
	if !slices.Contains(out, "Created topic orders.") {
		t.Fatalf("create: %v", out)
	}
	after := view.Take(s.Cluster()).MetaLog
	if after.HighWatermark <= before.HighWatermark {
		t.Fatalf("HW %d then %d", before.HighWatermark, after.HighWatermark)
	}
	tr := findEntries(after, "TopicRecord")
	if len(tr) != 1 || tr[0].Topic != "orders" || tr[0].Record.(*metadata.TopicRecord).Name != "orders" {
		t.Fatalf("TopicRecords %+v", tr)
	}
	parts := findEntries(after, "PartitionRecord")
	if len(parts) != 2 {
		t.Fatalf("%d PartitionRecords in %v", len(parts), types(after))
	}
	for i, p := range parts {
		r := p.Record.(*metadata.PartitionRecord)
		if p.Topic != "orders" || r.PartitionID != int32(i) || len(r.Replicas) != 3 || p.Offset <= tr[0].Offset {
			t.Errorf("PartitionRecord %+v %+v", p, r)
		}
	}
	// The list read incrementally is the list read from scratch.
	s.Cluster().ViewState = nil // forget what was read incrementally
	fresh := view.Take(s.Cluster()).MetaLog
	if fmt.Sprint(brief(fresh)) != fmt.Sprint(brief(after)) {
		t.Errorf("incremental %v\nfrom scratch %v", brief(after), brief(fresh))
	}
	// Nothing new: the same entries, not a copy.
	again := view.Take(s.Cluster()).MetaLog
	if len(again.Entries) > 0 && &again.Entries[0] != &fresh.Entries[0] {
		t.Error("an unchanged log was copied")
	}
}

// brief is what identifies the listed entries.
func brief(ml view.MetaLog) []string {
	var out []string
	for _, e := range ml.Entries {
		out = append(out, fmt.Sprintf("%d-%d/%d/%s/%s/%t", e.Offset, e.LastOffset, e.Epoch, e.Type, e.Topic, e.Pending))
	}
	return out
}

func TestQuorumFailoverAndLoss(t *testing.T) {
	s := session(t, "")
	c := s.Cluster()
	first := view.Take(c).Quorum
	old := first.LeaderID
	if err := c.Kill(old, false); err != nil {
		t.Fatal(err)
	}
	q := view.Take(c).Quorum
	if q.Status != view.QuorumElecting || q.LeaderID != -1 || q.Running != 2 || !q.Frozen() {
		t.Fatalf("right after the kill: %+v", q)
	}
	for _, v := range q.Voters {
		if v.ID == old && (v.Running || v.Role != "" || v.LEO != -1 || v.State != "killed") {
			t.Errorf("killed voter %+v", v)
		}
	}
	// Kafka's controller.quorum.election.timeout.ms is 1 s, and the
	// followers notice the leader is gone after the fetch timeout (2 s).
	var at time.Duration
	for at = 0; at < 10*time.Second && view.Take(c).Quorum.Status != view.QuorumOK; at += 100 * time.Millisecond {
		advance(t, s, 100*time.Millisecond)
	}
	q = view.Take(c).Quorum
	if q.Status != view.QuorumOK || q.LeaderID == old || q.Epoch <= first.Epoch {
		t.Fatalf("after %s: %+v (was leader %d epoch %d)", at, q, old, first.Epoch)
	}
	t.Logf("voter %d leads epoch %d after %s", q.LeaderID, q.Epoch, at)
	ml := view.Take(c).MetaLog
	lcs := findEntries(ml, "LeaderChange")
	if last := lcs[len(lcs)-1]; last.Epoch != q.Epoch || last.LeaderChange.LeaderID != q.LeaderID {
		t.Errorf("last LeaderChange %+v, leader %d epoch %d", last, q.LeaderID, q.Epoch)
	}
	// A second voter down: no majority.
	if err := c.Kill(q.LeaderID, false); err != nil {
		t.Fatal(err)
	}
	advance(t, s, 5*time.Second)
	q = view.Take(c).Quorum
	if q.Status != view.QuorumLost || q.LeaderID != -1 || q.Running != 1 || q.Connected != 1 {
		t.Fatalf("with 1 of 3 voters: %+v", q)
	}
	for _, n := range q.Nodes {
		if n.Running && n.Lag != 0 {
			t.Errorf("node %+v lags a frozen log", n)
		}
	}
}

func TestBrokerCutFromTheQuorumLags(t *testing.T) {
	s := session(t, "cluster create --brokers 4")
	c := s.Cluster()
	q := view.Take(c).Quorum
	if len(q.Voters) != 3 || len(q.Nodes) != 4 || q.Nodes[3].Voter {
		t.Fatalf("quorum %+v", q)
	}
	for _, id := range []int32{1, 2, 3} {
		if err := c.Cut(4, id, false); err != nil {
			t.Fatal(err)
		}
	}
	var lags []int64
	for i := 0; i < 3; i++ {
		advance(t, s, 3*time.Second)
		q = view.Take(c).Quorum
		n := q.Nodes[3]
		if !n.CutFromLeader || !n.Running {
			t.Fatalf("node 4 %+v", n)
		}
		lags = append(lags, n.Lag)
	}
	if !(lags[0] > 0 && lags[1] > lags[0] && lags[2] > lags[1]) {
		t.Fatalf("lag of the cut broker: %v", lags)
	}
	for _, n := range q.Nodes[:3] {
		if n.Lag > 2 {
			t.Errorf("node %d lags %d", n.ID, n.Lag)
		}
	}
	if err := c.Heal(0, 0, true); err != nil {
		t.Fatal(err)
	}
	advance(t, s, 3*time.Second)
	if n := view.Take(c).Quorum.Nodes[3]; n.Lag > 2 || n.CutFromLeader {
		t.Errorf("after healing: %+v", n)
	}
}

func TestMessageCategories(t *testing.T) {
	s := session(t, "")
	c := s.Cluster()
	if err := c.Kill(view.Take(c).Quorum.LeaderID, false); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i := 0; i < 20000 && !seen["Vote"]; i++ {
		if !c.World.Step() {
			break
		}
		for _, m := range view.Take(c).InFlight {
			if strings.HasPrefix(m.Kind, "Vote") {
				// 4.x asks in a pre-vote first (KIP-996).
				if m.Category != "quorum" || !(strings.HasPrefix(m.Label, "Vote e") || strings.HasPrefix(m.Label, "PreVote e")) {
					t.Fatalf("%+v", m)
				}
				seen["Vote"] = true
			}
		}
	}
	if !seen["Vote"] {
		t.Fatal("no Vote on the wire after the leader died")
	}
}

var benchSink *view.Snapshot

// Take runs every animation frame: with the metadata log cached it must
// stay cheap.
func BenchmarkTake(b *testing.B) {
	s := session(b, "")
	s.Exec("kafka-topics.sh --create --topic t --partitions 3 --replication-factor 3", nil)
	advance(b, s, time.Minute)
	c := s.Cluster()
	b.ReportAllocs()
	for b.Loop() {
		benchSink = view.Take(c)
	}
}

// BenchmarkTakeMetaLogCold is the first frame after a time-travel replay
// (a new cluster): the metadata log is read afresh.
func BenchmarkTakeMetaLogCold(b *testing.B) {
	s := session(b, "")
	advance(b, s, 10*time.Minute)
	c := s.Cluster()
	b.ReportAllocs()
	for b.Loop() {
		c.ViewState = nil
		benchSink = view.Take(c)
	}
}

// A leader that lost its majority keeps writing for a while (until
// check-quorum makes it resign): those entries are listed, marked pending.
func TestMetaLogListsWhatIsNotCommitted(t *testing.T) {
	s := session(t, "")
	c := s.Cluster()
	q := view.Take(c).Quorum
	for _, v := range q.Voters {
		if v.ID != q.LeaderID {
			if err := c.Kill(v.ID, false); err != nil {
				t.Fatal(err)
			}
		}
	}
	advance(t, s, 1200*time.Millisecond)
	snap := view.Take(c)
	if snap.Quorum.Status != view.QuorumLost || snap.Quorum.LeaderID != q.LeaderID {
		t.Fatalf("quorum %+v", snap.Quorum)
	}
	ml := snap.MetaLog
	last := ml.Entries[len(ml.Entries)-1]
	if !last.Pending || last.Type != "NoOpRecord" || last.LastOffset != ml.LogEndOffset-1 || last.Offset < ml.HighWatermark {
		t.Fatalf("last entry %+v; HW %d, LEO %d", last, ml.HighWatermark, ml.LogEndOffset)
	}
	for _, e := range ml.Entries {
		if e.Pending != (e.Offset >= ml.HighWatermark) {
			t.Errorf("entry %+v pending %t with HW %d", e, e.Pending, ml.HighWatermark)
		}
	}
}
