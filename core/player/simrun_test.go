package player

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"kafkascope/core/i18n"
	"kafkascope/core/release"
	"kafkascope/core/scenario"
	"kafkascope/core/sim"
	"kafkascope/core/simulate"
)

// A #sim= link written by the simulator parses back to the same seed and
// options, and the player's hash is that link again.
func TestSimLinkRoundTrips(t *testing.T) {
	for _, c := range []struct {
		seed uint64
		opts simulate.Options
	}{
		{7, simulate.Options{}},
		{34, simulate.Options{Overrides: map[string]string{"inter.broker.protocol.version": "0.10"}}},
		{9, simulate.Options{Version: release.Version{Major: 3, Minor: 8}}},
		{18446744073709551615, simulate.Options{Overrides: map[string]string{"min.insync.replicas": "1", "unclean.leader.election.enable": "true"}, Faults: 12, Minutes: 3, NoGroups: true}},
	} {
		hash := simulate.LinkHash(c.seed, c.opts)
		st, err := ParseURL("", hash+"&lang=ko")
		if err != nil {
			t.Fatalf("%s: %v", hash, err)
		}
		if st.Sim == nil || st.Sim.Seed != c.seed || st.Sim.Opts.Faults != c.opts.Faults || st.Sim.Opts.Minutes != c.opts.Minutes ||
			st.Sim.Opts.NoGroups != c.opts.NoGroups || st.Sim.Opts.Version != c.opts.Version || len(c.opts.Overrides) > 0 && !reflect.DeepEqual(st.Sim.Opts.Overrides, c.opts.Overrides) || st.Lang != i18n.Korean {
			t.Fatalf("%s read as %+v", hash, st.Sim)
		}
		if got := st.Sim.Hash(); got != hash {
			t.Fatalf("written again as %s, want %s", got, hash)
		}
	}
}

// Bad simulator links fail with ErrBadLink and a message naming what is
// wrong.
func TestBadSimLinks(t *testing.T) {
	for hash, want := range map[string]string{
		"#sim=0":                            `sim="0" is not a seed`,
		"#sim=abc":                          `sim="abc" is not a seed`,
		"#sim=":                             `sim="" is not a seed`,
		"#sim=99999999999999999999":         "is not a seed",
		"#sim=1&sim=2":                      "sim is given 2 times",
		"#sim=1&config=no.such.config=1":    "unknown broker config",
		"#sim=1&config=min.insync.replicas": `config "min.insync.replicas": --config "min.insync.replicas": expected key=value`,
		"#sim=1&config=min.insync.replicas=1&config=min.insync.replicas=2": "config min.insync.replicas is given twice",
		"#sim=1&config=inter.broker.protocol.version=banana":               "inter.broker.protocol.version",
		"#sim=1&faults=10001":    `faults="10001": expected a whole number from 0 to 10000`,
		"#sim=1&faults=-1":       "faults",
		"#sim=1&minutes=61":      `minutes="61": expected a whole number from 0 to 60`,
		"#sim=1&groups=yes":      `groups="yes": expected 1 or 0`,
		"#sim=1&version=9.9":     `version="9.9": Kafka 9.9 is not a release kafkascope knows`,
		"#sim=1&version=four":    `version="four"`,
		"#sim=1&step=2":          `unknown part "step" of a simulator link`,
		"#sim=1&scenario=04-isr": "names both a simulator run and a session or scenario",
		"#sim=1&s=abc":           "names both a simulator run and a session or scenario",
		"#sim=1" + strings.Repeat("&config=min.insync.replicas=1", 17): "more than 16 configs",
	} {
		st, err := ParseURL("", hash)
		if err == nil || !errors.Is(err, ErrBadLink) || !strings.Contains(err.Error(), want) || st.Sim != nil {
			t.Errorf("%.60s: %v (want %q), state %+v", hash, err, want, st.Sim)
		}
	}
}

// A simulator link of the ZooKeeper era plays its run with the ensemble
// drawn: seed 1 on 2.8 ends with the same verdict as the CLI's run.
func TestSimRunZooKeeperEra(t *testing.T) {
	want, err := simulate.Simulate(1, simulate.Options{Version: release.Version{Major: 2, Minor: 8}})
	if err != nil {
		t.Fatal(err)
	}
	p := New()
	p.Boot("", "#sim=1&version=2.8")
	if p.Sim() == nil || p.Error != "" || p.Snapshot() == nil || p.Snapshot().ZooKeeper == nil {
		t.Fatalf("boot: sim %v, error %q", p.Sim() != nil, p.Error)
	}
	p.SetSpeed(100)
	for i := 0; !p.Sim().Done(); i++ {
		p.Tick(250 * time.Millisecond)
		if i > 20000 {
			t.Fatal("the run did not end")
		}
	}
	if len(want.Violations) > 0 {
		t.Fatalf("the CLI run: %s", want.FailureLine())
	}
	if text := terminal(p); !strings.Contains(text, want.Plan.Describe(want.Opts)) || !strings.Contains(text, "1 ZooKeeper server(s)") || !strings.Contains(text, "seed 1: no violations") {
		t.Fatalf("terminal:\n%s", text)
	}
}

// An embedded simulator run shows no terminal: its banner sends the reader
// to the full app for the schedule and the verdict.
func TestSimRunEmbedBanner(t *testing.T) {
	p := New()
	p.Boot("?embed=1", "#sim=3")
	if p.Sim() == nil || !p.Embed {
		t.Fatalf("boot: sim %v, embed %v, error %q", p.Sim() != nil, p.Embed, p.Error)
	}
	if b := p.Sim().Banner(); strings.Contains(b, "The terminal shows") || !strings.Contains(b, "Open it in kafkascope") {
		t.Fatalf("embed banner %q", b)
	}
	full := New()
	full.Boot("", "#sim=3")
	if b := full.Sim().Banner(); !strings.Contains(b, "The terminal shows") {
		t.Fatalf("full banner %q", b)
	}
}

// A bad simulator link shows its error over the default cluster.
func TestBadSimLinkFallsBack(t *testing.T) {
	p := New()
	p.Boot("", "#sim=1&minutes=99")
	if p.Sim() != nil || !strings.Contains(p.Error, "minutes") || p.Snapshot() == nil || len(p.Snapshot().Nodes) != 3 {
		t.Fatalf("sim %v, error %q", p.Sim() != nil, p.Error)
	}
}

// A #sim= link plays the simulator's run frame by frame: the schedule
// shows in the terminal as it happens, time moves at the chosen speed,
// and at the end the terminal holds the same verdict as the CLI's run.
func TestSimRunPlaysToTheVerdict(t *testing.T) {
	const hash = "#sim=27&config=min.insync.replicas=1&lang=en"
	want, err := simulate.Simulate(27, simulate.Options{Overrides: map[string]string{"min.insync.replicas": "1"}})
	if err != nil || len(want.Violations) == 0 {
		t.Fatalf("the CLI run: %v, %v", err, want.Violations)
	}
	p := New()
	p.Boot("", hash)
	if p.Sim() == nil || p.Error != "" || p.Snapshot() == nil || len(p.Snapshot().Nodes) != want.Plan.Brokers {
		t.Fatalf("boot: sim %v, error %q", p.Sim() != nil, p.Error)
	}
	if got := p.Hash(); got != hash {
		t.Fatalf("hash %s, want %s", got, hash)
	}
	if b, cmd := p.Sim().Banner(), p.Sim().Command(); !strings.Contains(b, "seed 27, min.insync.replicas=1") || cmd != "go run ./scripts/kafkasim simulate --seed 27 --config min.insync.replicas=1 --trace" {
		t.Fatalf("banner %q, command %q", b, cmd)
	}
	start := p.Now()
	p.Tick(100 * time.Millisecond)
	if got := p.Now().Sub(start); got != 100*time.Millisecond {
		t.Fatalf("a 100 ms frame at 1x moved the run by %s", got)
	}
	p.TogglePause()
	if p.Tick(time.Second); p.Now() != start.Add(100*time.Millisecond) {
		t.Fatal("the run moved while paused")
	}
	p.TogglePause()

	// Typing is refused with the way to replay; broker clicks too.
	p.Run("broker kill 1", nil)
	lines := p.Lines()
	if n := len(lines); !strings.Contains(lines[n-2].Text, "takes no commands") || lines[n-1].Text != "Replay it in the CLI: "+p.Sim().Link.Command() || lines[n-3].Text != "broker kill 1" {
		t.Fatalf("a typed command: %+v", lines[n-3:])
	}
	if err := p.BrokerAction(1, "kill"); err == nil {
		t.Fatal("a broker click was taken in a simulator run")
	}

	p.SetSpeed(100)
	var feedSeen bool
	for i := 0; !p.Sim().Done(); i++ {
		before := p.Now()
		p.Tick(250 * time.Millisecond)
		if d := p.Now().Sub(before); d > maxSimFrame {
			t.Fatalf("a frame ran %s of virtual time", d)
		}
		feedSeen = feedSeen || len(p.Feed(5, false)) > 0
		if i > 20000 {
			t.Fatal("the run did not end")
		}
	}
	text := terminal(p)
	if !strings.HasPrefix(text, "go run ./scripts/kafkasim simulate --seed 27 --config min.insync.replicas=1 --trace\n"+want.Plan.Describe(want.Opts)+"\n") {
		t.Fatalf("the terminal does not start with the command and the plan:\n%s", text)
	}
	for _, line := range want.Schedule {
		if !strings.Contains(text, "== "+line+"\n") {
			t.Fatalf("the schedule line %q is not in the terminal:\n%s", line, text)
		}
	}
	if !strings.Contains(text, want.FailureLine()) || !strings.Contains(text, "  "+want.Violations[0].String()) {
		t.Fatalf("the verdict is not in the terminal:\n%s", text)
	}
	// Drawing every frame only read the cluster: the played run is the
	// CLI's, event for event.
	if got := p.Sim().Run().Report(); got != want.Report() {
		t.Fatalf("the played run differs from the CLI's:\n%s\nwant\n%s", got, want.Report())
	}
	if got, w := p.Sim().Run().C.World.Trace().Hash(), want.C.World.Trace().Hash(); got != w {
		t.Fatalf("trace hash %x, the CLI's %x", got, w)
	}
	if !feedSeen || len(p.Timeline().Markers) == 0 {
		t.Fatal("the event feed or the timeline markers stayed empty")
	}
	if s := p.Sim().Status(); !strings.Contains(s, "acked-write-lost") {
		t.Fatalf("status %q", s)
	}

	// Seeking back replays from the start to the moment; the verdict goes
	// until the run ends again.
	mid := sim.Time(30 * time.Second)
	p.Seek(mid)
	if p.Now() != mid || p.Sim().Done() || strings.Contains(terminal(p), "violations:") {
		t.Fatalf("after seeking back: at %s, done %v", p.Now(), p.Sim().Done())
	}

	// cluster create leaves the run for a cluster of one's own.
	p.Run("cluster create --brokers 2", nil)
	if p.Sim() != nil || p.Snapshot() == nil || len(p.Snapshot().Nodes) != 2 || p.Hash() == hash {
		t.Fatalf("after cluster create: sim %v", p.Sim() != nil)
	}
}

func terminal(p *Player) string {
	var b strings.Builder
	for _, l := range p.Lines() {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}

// Each gallery seed still breaks its invariant under its config, as its
// story tells.
func TestSimFindingsStillFail(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range SimFindings {
		l := f.Link()
		run, err := simulate.Simulate(l.Seed, l.Opts)
		if err != nil {
			t.Fatalf("%s=%s seed %d: %v", f.Key, f.Value, f.Seed, err)
		}
		if len(run.Violations) == 0 || run.Violations[0].Invariant != f.Invariant || !strings.Contains(run.Violations[0].Detail, f.Detail) {
			t.Errorf("the gallery's %s=%s seed %d no longer finds %s (%q): the engine changed what it does. Got %v.\n"+
				"Pick a new seed: go run ./scripts/kafkasim simulate --seeds 1-200 --config %s=%s, take a seed whose first violation is %s "+
				"(or another that fits the config), replay it with --seed N --trace, and update SimFindings in core/player/simfindings.go "+
				"(Seed, Invariant, Detail, and the story in both languages, which quotes the run)",
				f.Key, f.Value, f.Seed, f.Invariant, f.Detail, run.Violations, f.Key, f.Value, f.Invariant)
		}
		for _, id := range f.Scenarios {
			if _, err := scenario.Get(id); err != nil {
				t.Errorf("%s=%s points at scenario %s: %v", f.Key, f.Value, id, err)
			}
		}
		if f.Title[0] == "" || f.Title[1] == "" || f.Story[0] == "" || f.Story[1] == "" {
			t.Errorf("%s=%s lacks a title or story in a language", f.Key, f.Value)
		}
		seen[f.Key+"="+f.Value] = true
	}
	for _, want := range []string{"inter.broker.protocol.version=0.10", "unclean.leader.election.enable=true", "min.insync.replicas=1"} {
		if !seen[want] {
			t.Errorf("no gallery finding for %s", want)
		}
	}
}

// A link whose config the engine refuses when the run creates its topics
// (topic config values are checked there, as kafka-topics.sh's are) ends
// the run with the engine's message, shown as the CLI shows a failed run.
func TestSimRunThatFailsAsARun(t *testing.T) {
	p := New()
	p.Boot("", "#sim=3&config=min.insync.replicas=banana")
	if p.Sim() == nil {
		t.Fatalf("not a simulator run: %q", p.Error)
	}
	for i := 0; !p.Sim().Done() && i < 100; i++ {
		p.Tick(250 * time.Millisecond)
	}
	text := terminal(p)
	if !p.Sim().Done() || p.Error == "" || !strings.Contains(text, "seed 3: the run itself failed: ") || !strings.Contains(p.Sim().Status(), "failed") {
		t.Fatalf("done %v, error %q, status %q, terminal:\n%s", p.Sim().Done(), p.Error, p.Sim().Status(), text)
	}
	t.Logf("%s", p.Error)
}
