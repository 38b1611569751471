package player

import (
	"strings"
	"testing"
	"time"

	"kafkascope/core/i18n"
	"kafkascope/core/sim"
	"kafkascope/core/timeline"
)

func TestBootDefaultAndPlay(t *testing.T) {
	p := New()
	p.Boot("", "")
	if p.Error != "" || p.Snapshot() == nil || len(p.Snapshot().Nodes) != 3 {
		t.Fatalf("boot: error %q, snapshot %+v", p.Error, p.Snapshot())
	}
	start := p.Now()
	p.Tick(100 * time.Millisecond)
	if got := p.Now().Sub(start); got != 100*time.Millisecond {
		t.Fatalf("a 100 ms frame at 1x moved time by %s", got)
	}
	p.SetSpeed(10)
	p.Tick(100 * time.Millisecond)
	if got := p.Now().Sub(start); got != 1100*time.Millisecond {
		t.Fatalf("10x: time moved %s in total, want 1.1s", got)
	}
	p.TogglePause()
	before := p.Now()
	p.Tick(time.Second)
	if p.Now() != before {
		t.Fatal("time moved while paused")
	}
}

func TestBrokerClickGoesThroughTheTerminal(t *testing.T) {
	p := New()
	p.Boot("", "")
	if err := p.BrokerAction(2, "kill"); err != nil {
		t.Fatal(err)
	}
	if st := p.Snapshot().Nodes[1].State; st != "killed" {
		t.Fatalf("broker 2 is %s after a kill click", st)
	}
	lines := p.tl().Lines()
	if lines[len(lines)-1].Text != "broker kill 2" {
		t.Fatalf("the click is not in the terminal: %+v", lines[len(lines)-1])
	}
	if err := p.BrokerAction(9, "kill"); err == nil {
		t.Fatal("a click on a missing broker was accepted")
	}
	p.BrokerAction(3, "isolate")
	if !p.Snapshot().Nodes[2].Isolated {
		t.Fatal("isolate did not cut every link")
	}
}

func TestScenarioStepsAndBack(t *testing.T) {
	p := New()
	if err := p.OpenScenario("04-isr", 0); err != nil {
		t.Fatal(err)
	}
	sc := p.Scenario()
	if sc.Step != 0 || sc.Text(i18n.English) == "" || sc.Text(i18n.Korean) == sc.Text(i18n.English) {
		t.Fatalf("step %d text %q", sc.Step, sc.Text(i18n.English))
	}
	for sc.Step+1 < sc.Steps() {
		if err := p.Scenario().Next(); err != nil {
			t.Fatal(err)
		}
	}
	end := p.Now()
	if !p.Changed("partition/peter-test01-0") && !p.Changed("replica/peter-test01-0/3") {
		t.Fatalf("the last step (the follower rejoins) highlights nothing: %v", p.changed)
	}
	p.Scenario().Back()
	if p.Now() >= end || sc.Step != sc.Steps()-2 {
		t.Fatalf("Back: step %d at %s (end %s)", sc.Step, p.Now(), end)
	}
	p.Scenario().Next()
	if p.Now() != end {
		t.Fatalf("Next after Back reached %s, want %s", p.Now(), end)
	}
}

func TestHashReopensTheSameMoment(t *testing.T) {
	p := New()
	p.Boot("", "")
	p.Run("kafka-topics.sh --create --topic t --partitions 2 --replication-factor 3", nil)
	for p.tl().Busy() {
		p.Tick(50 * time.Millisecond)
	}
	p.BrokerAction(1, "kill")
	p.SetSpeed(100)
	for i := 0; i < 10; i++ {
		p.Tick(50 * time.Millisecond)
	}
	p.SetLang(i18n.Korean)
	hash := p.Hash()
	q := New()
	q.Boot("?embed=1", hash)
	if q.Error != "" || !q.Embed || q.Lang != i18n.Korean || q.Now() != p.Now() {
		t.Fatalf("reopened: error %q embed %v lang %s now %s (want %s)", q.Error, q.Embed, q.Lang, q.Now(), p.Now())
	}
	a, b := p.Snapshot(), q.Snapshot()
	if len(a.Topics) != 1 || a.Topics[0].Partitions[0].Leader != b.Topics[0].Partitions[0].Leader || a.Nodes[0].State != b.Nodes[0].State {
		t.Fatal("reopened snapshot differs")
	}
	s := New()
	s.Boot("", "#scenario=03-high-watermark&step=2&lang=en")
	if s.Error != "" || s.Scenario() == nil || s.Scenario().Step != 2 {
		t.Fatalf("scenario link: %q %+v", s.Error, s.Scenario())
	}
	if !strings.Contains(s.Hash(), "scenario=03-high-watermark") {
		t.Fatalf("hash %q", s.Hash())
	}
}

func TestBadLinksShowAnErrorAndTheDefaultCluster(t *testing.T) {
	for _, h := range []string{"#s=garbage", "#scenario=../../etc", "#scenario=nope", "#step=x&scenario=04-isr", "#Sim=5", "#scenario=04-isr&Step=2", "#%zz", "#s=a&scenario=b", "#" + strings.Repeat("x", MaxHashBytes)} {
		p := New()
		p.Boot("", h)
		if p.Error == "" || p.Snapshot() == nil || p.Scenario() != nil {
			t.Errorf("%.40q: error %q, snapshot %v, scenario %v", h, p.Error, p.Snapshot() != nil, p.Scenario() != nil)
		}
		// The page titles the banner and adds "the default cluster opened
		// instead" for exactly these: every fallback must say it is one.
		if !strings.HasPrefix(p.Error, ErrBadLink.Error()+": ") {
			t.Errorf("%.40q: error %q is not a bad link's", h, p.Error)
		}
	}
}

func TestEveryUIStringHasBothLanguages(t *testing.T) {
	for _, key := range i18n.UIKeys() {
		if en, ko, _ := i18n.UIText(key); en == "" || ko == "" {
			t.Errorf("%s: missing a language", key)
		}
	}
	p := New()
	p.SetLang(i18n.Korean)
	if p.T("play") != "재생" || p.T("no.such.key") != "no.such.key" {
		t.Fatal("T does not translate")
	}
}

func TestEmbedSnippetEscapes(t *testing.T) {
	p := New()
	p.Boot("", "")
	s := p.EmbedSnippet(`https://x.test/"><script>`, EmbedWidthMax, EmbedHeight)
	if strings.Contains(s, "<script>") || !strings.HasPrefix(s, "<iframe src=") {
		t.Fatalf("snippet %q", s)
	}
}

// An unknown part of a link is named the same way every time (the first
// by name), not by Go's map order.
func TestUnknownLinkPartIsNamedDeterministically(t *testing.T) {
	for range 30 {
		_, err := ParseURL("", "foo=1&bar=2&baz=3")
		if err == nil || !strings.Contains(err.Error(), `unknown part "bar"`) {
			t.Fatalf("error %v, want the unknown part \"bar\"", err)
		}
	}
}

// A scenario step plays over frames: one Tick runs only a share of it, so
// a long step never freezes the page, and it ends where Next would.
func TestScenarioStepPlaysOverFrames(t *testing.T) {
	sync := New()
	if err := sync.OpenScenario("12-leader-balance", 0); err != nil {
		t.Fatal(err)
	}
	async := New()
	if err := async.OpenScenario("12-leader-balance", 0); err != nil {
		t.Fatal(err)
	}
	// The page's smallest frame budget: the steps must spread whatever
	// the default share, which a step of this scenario can fit in.
	async.SetFrameEvents(MinFrameEvents)
	longest := 0
	for sync.Scenario().Step+1 < sync.Scenario().Steps() {
		if err := sync.Scenario().Next(); err != nil {
			t.Fatal(err)
		}
		if err := async.Scenario().StartNext(); err != nil {
			t.Fatal(err)
		}
		frames := 0
		for async.Scenario().Running() {
			async.Tick(16 * time.Millisecond)
			frames++
			if frames > 100000 {
				t.Fatal("the step never ends")
			}
		}
		if async.Error != "" {
			t.Fatal(async.Error)
		}
		if async.Now() != sync.Now() || async.Scenario().Step != sync.Scenario().Step {
			t.Fatalf("step %d: frames ended at %s, Next at %s", sync.Scenario().Step, async.Now(), sync.Now())
		}
		longest = max(longest, frames)
	}
	if longest < 2 {
		t.Fatalf("every step finished within one frame (longest %d): nothing was spread", longest)
	}
}

// A seek back into the middle of a "time advance", paused, stays at the
// moment chosen; playing on skips to the advance's end as before.
func TestPausedSeekIntoATimeAdvanceStays(t *testing.T) {
	p := New()
	p.Boot("", "")
	p.Run("time advance 30s", nil)
	for i := 0; i < 1000 && p.tl().Busy(); i++ {
		p.Tick(16 * time.Millisecond)
	}
	end := p.Now()
	p.Paused = true
	target := end - sim.Time(15*time.Second)
	p.Seek(target)
	if p.Now() != target || !p.tl().Busy() {
		t.Fatalf("the seek: now %s (want %s), a command running %v", p.Now(), target, p.tl().Busy())
	}
	for range 10 {
		p.Tick(16 * time.Millisecond)
	}
	if p.Now() != target {
		t.Fatalf("paused in the middle of time advance 30s, the player moved from %s to %s", target, p.Now())
	}
	p.Paused = false
	p.Tick(16 * time.Millisecond)
	if p.Now() < end-sim.Time(time.Second) {
		t.Fatalf("playing on, the time advance did not skip ahead: %s, its end %s", p.Now(), end)
	}
}

// A frame that fast-forwards a running "time advance" runs the host's
// fast-forward budget; any other frame its frame budget.
func TestFastForwardFramesRunTheirOwnBudget(t *testing.T) {
	p := New()
	p.Boot("", "")
	p.SetFrameEvents(1000)
	p.SetFastForwardEvents(1300)
	p.Tick(16 * time.Millisecond)
	if got := p.LastFrameEvents(); got > 1000 {
		t.Fatalf("a playing frame ran %d events, over its budget of 1000", got)
	}
	p.Run("time advance 1h", nil)
	p.Tick(16 * time.Millisecond)
	if got := p.LastFrameEvents(); got != 1300 {
		t.Fatalf("a frame fast-forwarding an hour ran %d events, want its budget of 1300", got)
	}
}

// A link copied just after "time advance" was typed opens, as the page
// shows it, at the advance's end: Settle runs the frames that get it
// there, and stops once the picture rests.
func TestSettleRunsWhatThePageRunsAfterOpening(t *testing.T) {
	s := timeline.New()
	s.Do("cluster create", nil)
	s.Do("broker kill 2", nil)
	s.Do("time advance 20s", nil)
	link := "#s=" + s.Encode()

	settled := New()
	settled.Boot("", link)
	start := settled.Now()
	settled.Settle(100000)
	if settled.Now() != start.Add(20*time.Second) {
		t.Fatalf("settled at %s, want the advance's end %s", settled.Now(), start.Add(20*time.Second))
	}
	framed := New()
	framed.Boot("", link)
	for range 200 {
		framed.Tick(16 * time.Millisecond)
	}
	if framed.Now() != settled.Now() {
		t.Errorf("the page's frames rest at %s, Settle at %s", framed.Now(), settled.Now())
	}
	at := settled.Now()
	settled.Settle(100000)
	if settled.Now() != at {
		t.Errorf("Settle moved a player at rest from %s to %s", at, settled.Now())
	}
}

// tl is the timeline of the session p shows (tests read it directly).
func (p *Player) tl() *timeline.Session { return p.Mode.(*Session).TL }

// A link whose lang= names no language the page has still opens its
// scenario, in English, and says the language was not known.
func TestBootUnknownLanguageStillOpensTheScenario(t *testing.T) {
	p := New()
	p.Boot("", "#lang=xx&scenario=04-isr&step=1")
	sc := p.Scenario()
	if sc == nil || sc.Step != 1 {
		t.Fatalf("the scenario did not open at step 1: %+v", sc)
	}
	if p.Error != "" || !strings.Contains(p.Notice, `The link asks for lang=xx`) || p.Lang != i18n.English {
		t.Fatalf("error %q, notice %q, language %q", p.Error, p.Notice, p.Lang)
	}
}
