package simulate

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"kafkascope/core/config"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// Options shape every run of a simulation. The zero value is the default:
// configurations drawn from the seed, every guarantee held.
type Options struct {
	// Overrides are --config k=v settings applied on top of what the seed
	// draws: topic configs (min.insync.replicas,
	// unclean.leader.election.enable, ...) go to every topic, the rest to
	// every broker's server.properties. The checkers keep holding the
	// cluster to the guarantees of the configuration as drawn, so a
	// known-unsafe override must make them fire.
	Overrides map[string]string
	// NoGroups leaves the consumer groups drawn for the seed out of the
	// workload (kafkasim simulate --groups=false): producers and faults
	// only, as the first simulator session ran.
	NoGroups bool
	// Faults overrides the number of faults of the safety phase (0: drawn).
	Faults int
	// Minutes stretches the safety phase: faults are drawn until it has
	// lasted this long in virtual time (0: the drawn number of faults).
	Minutes int
	// NoPowerLoss keeps every kill a process crash.
	NoPowerLoss bool
	// TraceContent makes the trace hash cover message contents.
	TraceContent bool
	// Version is the Kafka release the cluster runs (zero: drawn for each
	// seed from the releases the engine runs, release.Simulated).
	Version release.Version
	// unfinished lets the engine's tests simulate a release users cannot
	// choose yet (cluster.Config.Unfinished).
	unfinished bool
	// strict turns exemptions off, for the tests that pin each to its
	// seed (exemptions.go).
	strict [numExemptions]bool
	// Notes, if set, receives every engine note of the run.
	Notes func(e sim.TraceEvent)
	// Trace, if set, receives the run's event trace as it happens: each
	// fault and phase of the schedule, and every engine note.
	Trace func(line string)
}

// topicConfigs are the overrides that belong to topics, not brokers.
var topicConfigs = map[string]bool{
	"min.insync.replicas":            true,
	"unclean.leader.election.enable": true,
	"segment.bytes":                  true,
}

// ParseOverride reads one --config k=v.
func ParseOverride(s string) (string, string, error) {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return "", "", fmt.Errorf("--config %q: expected key=value", s)
	}
	if !topicConfigs[k] {
		// Valid in some release the simulator runs (the seed's release is
		// drawn later, among those that have the key).
		var err error
		for _, r := range Releases() {
			if err = config.ValidateStatic(config.Static{k: v}, r.Version); err == nil {
				break
			}
		}
		if err != nil {
			return "", "", err
		}
	}
	return k, v, nil
}

// Topic is one topic of a run, with its manual assignment and the configs
// drawn for it.
type Topic struct {
	Name         string
	Assignment   [][]int32
	MinISR       int  // min.insync.replicas as drawn
	Unclean      bool // unclean.leader.election.enable as drawn (always false)
	SegmentBytes int  // 0: the default (1 GiB, one segment)
}

// ProducerPlan is one producer of the workload.
type ProducerPlan struct {
	Name       string
	Acks       int16
	Idempotent bool
	Gap        time.Duration // between sends
}

// GroupPlan is one consumer group of the workload: members subscribed to
// every topic, committing with enable.auto.commit (the default).
type GroupPlan struct {
	ID      string
	Members int
	// Protocol is the members' group.protocol: "classic", or on Kafka 4.x
	// drawn per group, "consumer" (KIP-848), or "mixed": a two-member
	// group whose second member uses the consumer protocol and the first
	// the classic one, so the group migrates online between the two kinds
	// as members come and go (group.consumer.migration.policy).
	Protocol string
	// Static gives each member a group.instance.id (its client.id), so a
	// member that crashes and starts again takes its own place back
	// (static membership, KIP-345) instead of joining as a new member.
	Static bool
}

// Plan is a run's shape, drawn from its seed.
type Plan struct {
	Seed    uint64
	Version release.Version
	Brokers int
	Voters  int
	// ZooKeepers is the ZooKeeper era's ensemble (1 or 3 servers) in
	// place of the voters: three when the plan drew two or three voters.
	ZooKeepers int
	Topics     []Topic
	Producers  []ProducerPlan
	Groups     []GroupPlan
	Faults     int
	// Txn is the transactional workload (txn_plan.go), drawn for some
	// seeds from a stream of its own.
	Txn TxnPlan
}

// Draw draws a run's shape from the seed ("simulate/plan" stream).
func Draw(seed uint64, opts Options) Plan {
	r := sim.NewRand(seed, "simulate/plan")
	p := Plan{Seed: seed, Brokers: 3 + r.Intn(3), Voters: 1 + r.Intn(3), Faults: 10 + r.Intn(11)}
	if opts.Faults > 0 {
		p.Faults = opts.Faults
	}
	nTopics := 1 + r.Intn(2)
	for i := 0; i < nTopics; i++ {
		// rf 1–3, mostly replicated; min.insync.replicas 1–2, at most rf.
		rf := []int{1, 2, 2, 3, 3, 3}[r.Intn(6)]
		t := Topic{Name: fmt.Sprintf("sim%d", i), MinISR: 1 + r.Intn(min(2, rf))}
		if r.Intn(2) == 0 {
			// Small segments: rolls, truncation and recovery across files.
			t.SegmentBytes = 512 + r.Intn(4096)
		}
		parts := 1 + r.Intn(3)
		for j := 0; j < parts; j++ {
			ids := make([]int32, p.Brokers)
			for k := range ids {
				ids[k] = int32(k + 1)
			}
			r.Shuffle(len(ids), func(a, b int) { ids[a], ids[b] = ids[b], ids[a] })
			t.Assignment = append(t.Assignment, ids[:rf])
		}
		p.Topics = append(p.Topics, t)
	}
	nProducers := 1 + r.Intn(3)
	for i := 0; i < nProducers; i++ {
		pp := ProducerPlan{Name: fmt.Sprintf("producer-%d", i+1), Gap: time.Duration(50+r.Intn(350)) * time.Millisecond}
		switch r.Intn(6) {
		case 0:
			pp.Acks = 0
		case 1:
			pp.Acks = 1
		case 2:
			pp.Acks = -1
		default:
			pp.Acks, pp.Idempotent = -1, true
		}
		if i == 0 && pp.Acks != -1 {
			pp.Acks = -1 // every run holds at least one acks=all producer to the no-loss rule
		}
		p.Producers = append(p.Producers, pp)
	}
	p.Version = opts.Version
	if p.Version == (release.Version{}) {
		// Its own stream too: the releases to draw from grow, and every
		// seed keeps its cluster, topics and producers when they do.
		// A release that lacks an overridden config is not drawn
		// (inter.broker.protocol.version went in 4.0).
		var rels []release.Version
		for _, r := range Releases() {
			if _, ibp := opts.Overrides["inter.broker.protocol.version"]; !ibp || !r.Version.AtLeast(4, 0) {
				rels = append(rels, r.Version)
			}
		}
		p.Version = rels[sim.NewRand(seed, "simulate/plan/version").Intn(len(rels))]
	}
	if rel, _ := release.Lookup(p.Version); rel.ZooKeeper {
		p.ZooKeepers = 1
		if p.Voters > 1 {
			p.ZooKeepers = 3
		}
		p.Voters = 0
	}
	// Drawn from their own stream, so adding groups kept every earlier
	// seed's cluster, topics and producers.
	g := sim.NewRand(seed, "simulate/plan/groups")
	for i, n := 0, g.Intn(3); i < n; i++ {
		if !opts.NoGroups {
			p.Groups = append(p.Groups, GroupPlan{ID: fmt.Sprintf("group-%d", i+1), Members: 1 + g.Intn(2), Protocol: "classic"})
		}
	}
	// The rebalance protocol, from a stream of its own (every earlier
	// seed keeps its groups): Kafka 4.x groups use KIP-848's consumer
	// protocol half of the time.
	gp := sim.NewRand(seed, "simulate/plan/group-protocol")
	for i := range p.Groups {
		if p.Version.AtLeast(4, 0) && gp.Intn(2) == 0 {
			p.Groups[i].Protocol = "consumer"
		}
	}
	// Mixed groups, from a stream of their own: a third of the 4.x
	// consumer-protocol groups with two members keep one classic member.
	mixed := sim.NewRand(seed, "simulate/plan/group-mixed")
	for i := range p.Groups {
		if g := &p.Groups[i]; g.Protocol == "consumer" && g.Members == 2 && mixed.Intn(3) == 0 {
			g.Protocol = "mixed"
		}
	}
	// Static membership, from a stream of its own, on 4.x: a quarter of
	// the groups.
	static := sim.NewRand(seed, "simulate/plan/group-static")
	for i := range p.Groups {
		if p.Version.AtLeast(4, 0) && static.Intn(4) == 0 {
			p.Groups[i].Static = true
		}
	}
	p.Txn = drawTxn(seed)
	p.Txn.Copy = drawCopy(seed, p.Txn, p.Brokers)
	return p
}

// Describe is the plan in one paragraph (the replay record's header).
func (p Plan) Describe(opts Options) string {
	var b strings.Builder
	quorum := fmt.Sprintf("%d voter(s)", p.Voters)
	if p.ZooKeepers > 0 {
		quorum = fmt.Sprintf("%d ZooKeeper server(s)", p.ZooKeepers)
	}
	fmt.Fprintf(&b, "seed %d: Kafka %s, %d brokers, %s, %d faults; topics", p.Seed, p.Version, p.Brokers, quorum, p.Faults)
	for _, t := range p.Topics {
		fmt.Fprintf(&b, " %s%v(min.insync.replicas=%d", t.Name, t.Assignment, t.MinISR)
		if t.SegmentBytes > 0 {
			fmt.Fprintf(&b, ", segment.bytes=%d", t.SegmentBytes)
		}
		b.WriteString(")")
	}
	b.WriteString("; producers")
	for _, pp := range p.Producers {
		fmt.Fprintf(&b, " %s(acks=%s, enable.idempotence=%v, every %s)", pp.Name, acksName(pp.Acks), pp.Idempotent, pp.Gap)
	}
	for _, g := range p.Groups {
		fmt.Fprintf(&b, "; consumer group %s (%d members", g.ID, g.Members)
		switch g.Protocol {
		case "consumer":
			b.WriteString(", group.protocol=consumer")
		case "mixed":
			b.WriteString(", one member on group.protocol=consumer, one on classic")
		}
		if g.Static {
			b.WriteString(", static: group.instance.id=client.id")
		}
		b.WriteString(")")
	}
	b.WriteString(p.Txn.describe())
	if len(opts.Overrides) > 0 {
		keys := make([]string, 0, len(opts.Overrides))
		for k := range opts.Overrides {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("; overrides")
		for _, k := range keys {
			fmt.Fprintf(&b, " %s=%s", k, opts.Overrides[k])
		}
	}
	return b.String()
}

func acksName(a int16) string {
	if a == -1 {
		return "all"
	}
	return fmt.Sprint(a)
}

// topicConfig is the config a topic of release v is created with: drawn,
// then overridden.
func (t Topic) config(overrides map[string]string, v release.Version) map[string]string {
	m := map[string]string{
		"min.insync.replicas":            fmt.Sprint(t.MinISR),
		"unclean.leader.election.enable": fmt.Sprint(t.Unclean),
	}
	if t.SegmentBytes > 0 {
		// From 4.1 segment.bytes is at least 1 MiB (KIP-1030); Kafka's
		// own tests make small segments with internal.segment.bytes.
		key := config.SegmentBytes
		if v.AtLeast(4, 1) {
			key = config.InternalSegmentBytes
		}
		m[key] = fmt.Sprint(t.SegmentBytes)
	}
	for k, v := range overrides {
		if topicConfigs[k] {
			m[k] = v
		}
	}
	return m
}

// brokerConfig is server.properties: the simulator's settings, then the
// overrides that are not topic configs.
func brokerConfig(overrides map[string]string) config.Static {
	s := config.Static{
		// Faster follower retries after a cut (the default 30 s would only
		// slow the run; the rules under test do not depend on it).
		"replica.socket.timeout.ms": "5000",
	}
	keys := make([]string, 0, len(overrides))
	for k := range overrides {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !topicConfigs[k] {
			s[k] = overrides[k]
		}
	}
	return s
}
