package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/vugu/html"

	"kafkascope/core/player"

	"kafkascope/ui/internal/htmltest"
)

// The gallery's "What the simulator found" lists one card per known-unsafe
// config; a card opens its failing seed's run, shown with the simulator's
// banner (English and Korean), its schedule in the terminal, and a refusal
// for typed commands.
func TestGalleryOpensASimulatorRun(t *testing.T) {
	at := newAppTest(t, "", "")
	at.a.OpenGallery()
	doc := at.render(nil)
	cards := doc.byClass("sim-card")
	if len(cards) != len(player.SimFindings) || len(cards) != 3 {
		t.Fatalf("%d simulator cards for %d findings", len(cards), len(player.SimFindings))
	}
	for i, f := range player.SimFindings {
		if htmltest.Attr(cards[i], "data-sim") != f.Key+"="+f.Value || !strings.Contains(appText(cards[i]), f.Title[0]) {
			t.Errorf("card %d: %q", i, appText(cards[i]))
		}
	}
	if stories := doc.byClass("gallery-story"); len(stories) != 3 || !strings.Contains(appText(stories[1]), "unclean") {
		t.Errorf("the stories: %d", len(stories))
	}
	if see := doc.find(func(n *html.Node) bool {
		return htmltest.Attr(n, "data-scenario") == "10-unclean-election" && htmltest.Attr(n, "class") == "btn-link"
	}); len(see) != 1 {
		t.Errorf("the unclean finding does not point at scenario 10")
	}

	at.a.Gallery.ChooseSim(1)
	at.a.Flush()
	if at.p.Sim() == nil || at.a.Gallery.Open {
		t.Fatal("choosing a finding did not open its run")
	}
	doc = at.render(nil)
	banner := doc.text("sim-banner")
	if !strings.Contains(banner, "seed 47, unclean.leader.election.enable=true") || !strings.Contains(banner, "go run ./scripts/kafkasim simulate --seed 47 --config unclean.leader.election.enable=true --trace") {
		t.Fatalf("banner %q", banner)
	}
	at.a.Term.Enter("kafka-topics.sh --list")
	at.frames(200, 250*time.Millisecond)
	term := at.render(nil).text("terminal")
	if !strings.Contains(term, "== t=") || !strings.Contains(term, "takes no commands") {
		t.Fatalf("terminal:\n%s", term)
	}
	at.a.SetLang("ko")
	if b := at.render(nil).text("sim-banner"); !strings.Contains(b, "시뮬레이터 실행: 시드 47") {
		t.Fatalf("Korean banner %q", b)
	}
}

// A #sim= link boots into the run; cluster create leaves it.
func TestSimLinkBootsAndLeaves(t *testing.T) {
	at := newAppTest(t, "", "#sim=1&config=min.insync.replicas=1")
	doc := at.render(nil)
	if doc.byID("sim-banner") == nil || doc.byID("error-banner") != nil || len(at.p.Snapshot().Nodes) != 4 {
		t.Fatalf("boot: banner %v, error %q", doc.byID("sim-banner") != nil, at.p.Error)
	}
	at.a.Term.Enter("cluster create --brokers 3")
	at.idle()
	if doc := at.render(nil); doc.byID("sim-banner") != nil || at.p.Sim() != nil || len(at.p.Snapshot().Nodes) != 3 {
		t.Fatal("cluster create did not leave the simulator run")
	}
}

// A simulator run that has ended is not playing: the play control says
// so (it offers to replay the run from its start) instead of "Pause", and
// pressing it replays the run.
func TestSimRunEndedShowsItIsOver(t *testing.T) {
	at := newAppTest(t, "", "#sim=3&minutes=1&faults=2&groups=0&lang=en")
	if at.p.Paused {
		t.Fatal("a simulator run starts playing")
	}
	if doc := at.render(nil); at.a.T("pause") != appText(doc.byID("play")) || htmltest.Attr(doc.byID("play"), "data-state") != "playing" {
		t.Fatalf("while running, #play reads %q (%s)", appText(doc.byID("play")), htmltest.Attr(doc.byID("play"), "data-state"))
	}
	at.p.SetSpeed(100)
	for i := 0; i < 5000 && !at.p.Sim().Done(); i++ {
		at.frames(1, 250*time.Millisecond)
	}
	if !at.p.Sim().Done() {
		t.Fatal("the run did not end")
	}
	at.frames(2, 16*time.Millisecond)
	doc := at.render(nil)
	play := doc.byID("play")
	if got := appText(play); got == at.a.T("pause") || got != at.a.T("sim.replay.button") {
		t.Errorf("after the run ended #play reads %q, want %q", got, at.a.T("sim.replay.button"))
	}
	if got := htmltest.Attr(play, "data-state"); got != "ended" {
		t.Errorf("after the run ended #play has data-state=%q, want ended", got)
	}
	if !strings.Contains(doc.text("terminal"), "violations") {
		t.Errorf("the verdict is not in the terminal")
	}
	end := at.p.Now()
	at.a.Bar.TogglePlay()
	at.a.Flush()
	at.frames(1, 16*time.Millisecond)
	if at.p.Sim() == nil || at.p.Sim().Done() || at.p.Paused || at.p.Now() >= end {
		t.Errorf("pressing it did not replay the run from its start (now %v of %v, paused %v)", at.p.Now(), end, at.p.Paused)
	}
	if got := appText(at.render(nil).byID("play")); got != at.a.T("pause") {
		t.Errorf("replaying, #play reads %q", got)
	}
}
