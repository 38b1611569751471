package ui

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vugu/html"
	"github.com/vugu/vugu"
	"github.com/vugu/vugu/js"
	"github.com/vugu/vugu/staticrender"

	"kafkascope/core/console"
	"kafkascope/core/feed"
	"kafkascope/core/i18n"
	"kafkascope/core/player"
	"kafkascope/core/sim"
	"kafkascope/core/timeline"

	"kafkascope/ui/internal/htmltest"
)

// The app's components are tested as they run: a player booted natively on
// the real engine, handlers fired with fake DOM events, and the HTML that
// Vugu's static renderer makes from the build (after Prepare, as the page
// does) read back.

// appTestHost is a Host that records what the components asked for.
type appTestHost struct {
	copied   []string
	copyOK   bool
	hashes   []string
	values   map[string]string
	focused  []string
	langs    []string
	clip     string
	pageURL  string
	baseURL  string
	pendingC []func(bool)
}

func newAppTestHost() *appTestHost {
	return &appTestHost{copyOK: true, values: map[string]string{},
		pageURL: "https://k.test/app/?x=1", baseURL: "https://k.test/app/"}
}

func (h *appTestHost) Copy(text string, done func(bool)) {
	h.copied = append(h.copied, text)
	h.pendingC = append(h.pendingC, done)
}
func (h *appTestHost) ReplaceHash(s string)      { h.hashes = append(h.hashes, s) }
func (h *appTestHost) PageURL() string           { return h.pageURL }
func (h *appTestHost) BaseURL() string           { return h.baseURL }
func (h *appTestHost) SaveLang(l string)         { h.langs = append(h.langs, l) }
func (h *appTestHost) SetValue(id, value string) { h.values[id] = value }
func (h *appTestHost) Focus(id string)           { h.focused = append(h.focused, id) }
func (h *appTestHost) ClipboardText() string     { return h.clip }

// answerCopies runs the clipboard's answers, as the page does later.
func (h *appTestHost) answerCopies() {
	for _, done := range h.pendingC {
		done(h.copyOK)
	}
	h.pendingC = nil
}

// appTestEvent is a DOM event with the properties a handler reads.
type appTestEvent struct {
	summary
	prevented bool
}

// summary is how a test writes an event's properties.
type summary = EventProps

func appKey(key, targetID, value string, mods ...string) *appTestEvent {
	s := map[string]any{"key": key, "target": map[string]any{"id": targetID, "value": value}}
	for _, m := range mods {
		s[m] = true
	}
	return &appTestEvent{summary: s}
}

func appValue(value string, typ string) *appTestEvent {
	return &appTestEvent{summary: map[string]any{"type": typ, "target": map[string]any{"value": value}}}
}

func (e *appTestEvent) JSEvent() js.Value              { return js.Value{} }
func (e *appTestEvent) JSEventTarget() js.Value        { return js.Value{} }
func (e *appTestEvent) JSEventCurrentTarget() js.Value { return js.Value{} }
func (e *appTestEvent) EventEnv() vugu.EventEnv        { return nil }
func (e *appTestEvent) PreventDefault()                { e.prevented = true }
func (e *appTestEvent) StopPropagation()               {}

// appTest is an app on a booted player, with a clock for frames.
type appTest struct {
	t    testing.TB
	p    *player.Player
	a    *App
	host *appTestHost
	now  time.Time
	env  *vugu.BuildEnv
	r    *staticrender.StaticRenderer
}

func newAppTest(t testing.TB, query, hash string) *appTest {
	t.Helper()
	p := player.New()
	p.Boot(query, hash)
	h := newAppTestHost()
	r := staticrender.New(nil)
	env, err := vugu.NewBuildEnv(r.EventEnv())
	if err != nil {
		t.Fatal(err)
	}
	return &appTest{t: t, p: p, a: NewApp(p, h), host: h, now: time.Unix(1_700_000_000, 0), env: env, r: r}
}

// sessionTL is the timeline of the session p shows (tests read the engine
// through it; the page reads only what the player offers).
func sessionTL(p *player.Player) *timeline.Session { return p.Mode.(*player.Session).TL }

// frames plays n animation frames of dt each.
func (at *appTest) frames(n int, dt time.Duration) {
	for i := 0; i < n; i++ {
		at.now = at.now.Add(dt)
		at.a.Frame(at.now, dt)
	}
}

// idle plays frames until no command runs (bounded).
func (at *appTest) idle() {
	at.t.Helper()
	for i := 0; i < 2000 && (at.p.Busy() || at.a.Busy() || len(at.a.Term.queue) > 0); i++ {
		at.frames(1, 50*time.Millisecond)
	}
	if at.p.Busy() {
		at.t.Fatal("a command is still running after 100 s of frames")
	}
}

// render builds the app (or one component) as the page does and parses
// the HTML.
func (at *appTest) render(c vugu.Builder) *appDoc {
	at.t.Helper()
	if c == nil {
		c = at.a
	}
	br := at.env.RunBuild(c)
	Prepare(br, at.a.HandlerPanic)
	var buf bytes.Buffer
	at.r.SetWriter(&buf)
	if err := at.r.Render(br); err != nil {
		at.t.Fatal(err)
	}
	root, err := html.Parse(strings.NewReader(buf.String()))
	if err != nil {
		at.t.Fatal(err)
	}
	return &appDoc{t: at.t, root: root, src: buf.String()}
}

// appDoc is rendered HTML.
type appDoc struct {
	t    testing.TB
	root *html.Node
	src  string
}

func (d *appDoc) find(match func(n *html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(d.root)
	return out
}

func appHasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

func appText(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// byID is the element with the id, or nil.
func (d *appDoc) byID(id string) *html.Node {
	ns := d.find(func(n *html.Node) bool { return htmltest.Attr(n, "id") == id })
	if len(ns) == 0 {
		return nil
	}
	return ns[0]
}

// text is the text of the element with the id ("" if missing).
func (d *appDoc) text(id string) string {
	if n := d.byID(id); n != nil {
		return appText(n)
	}
	return ""
}

// byClass lists the elements with the class.
func (d *appDoc) byClass(class string) []*html.Node {
	return d.find(func(n *html.Node) bool {
		for _, c := range strings.Fields(htmltest.Attr(n, "class")) {
			if c == class {
				return true
			}
		}
		return false
	})
}

// terminalText is what the transcript runner would print for lines.
func terminalText(lines []timeline.Line) string {
	var b strings.Builder
	for _, l := range lines {
		switch l.Kind {
		case timeline.Command:
			b.WriteString("$ ")
		case timeline.Input:
			b.WriteString("> ")
		}
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}

func TestTerminalShowsTheSessionExactly(t *testing.T) {
	at := newAppTest(t, "", "")
	term := at.a.Term
	term.Enter("kafka-topics.sh --create --topic t --partitions 2 --replication-factor 3")
	at.idle()
	term.Enter("kafka-topics.sh --describe --topic t")
	at.idle()
	doc := at.render(nil)
	want := at.a.T("terminal.welcome") + "\n" + terminalText(at.p.Lines())
	if got := doc.text("terminal"); got != want {
		t.Fatalf("the scrollback is not the session:\n--- got\n%s\n--- want\n%s", got, want)
	}
	for _, s := range []string{"$ cluster create --brokers 3\n", "Created topic t.\n", "\tTopic: t\tPartition: 0\tLeader: "} {
		if !strings.Contains(doc.text("terminal"), s) {
			t.Errorf("the scrollback lacks %q", s)
		}
	}
	if got := doc.text("terminal-panel"); !strings.Contains(got, at.a.T("terminal.hint")) {
		t.Errorf("no hint under the prompt")
	}
	if n := doc.byID("command"); n == nil || appHasAttr(n, "disabled") {
		t.Errorf("the input is missing or disabled while idle")
	}
}

func TestTerminalProducerInputAndCtrlC(t *testing.T) {
	at := newAppTest(t, "", "")
	term := at.a.Term
	term.Enter("kafka-topics.sh --create --topic t --partitions 1 --replication-factor 3")
	at.idle()
	term.Enter("kafka-console-producer.sh --topic t")
	doc := at.render(nil)
	if got := doc.byClass("terminal-prompt"); len(got) != 1 || appText(got[0]) != "> " {
		t.Fatalf("the producer does not prompt for input")
	}
	if htmltest.Attr(doc.byID("terminal-panel"), "data-mode") != "stdin" {
		t.Errorf("the panel is not in stdin mode")
	}
	term.Enter("hello <world>")
	term.Enter("second")
	doc = at.render(nil)
	if got := doc.text("terminal"); !strings.HasSuffix(got, "$ kafka-console-producer.sh --topic t\n> hello <world>\n> second\n") {
		t.Errorf("the input being typed is not shown:\n%s", got)
	}
	if strings.Contains(doc.src, "<world>") {
		t.Errorf("typed text reached the HTML unescaped")
	}
	term.Enter("")
	at.idle()
	term.Enter("kafka-console-consumer.sh --topic t --from-beginning --max-messages 2")
	at.idle()
	got := at.render(nil).text("terminal")
	if !strings.Contains(got, "\nhello <world>\nsecond\nProcessed a total of 2 messages\n") {
		t.Errorf("the consumer did not get both lines:\n%s", got)
	}

	// Ctrl-C while typing a producer's input: nothing is sent.
	term.Enter("kafka-console-producer.sh --topic t")
	term.Enter("never sent")
	ev := appKey("c", "command", "half", "ctrlKey")
	term.Key(ev)
	if !ev.prevented || term.collecting {
		t.Fatalf("Ctrl-C did not cancel the input")
	}
	got = at.render(nil).text("terminal")
	if !strings.Contains(got, "> half^C\n"+at.a.Tf("terminal.cancelled", "kafka-console-producer")+"\n") {
		t.Errorf("the cancelled input is not shown:\n%s", got)
	}
	term.Enter("kafka-console-consumer.sh --topic t --from-beginning --timeout-ms 1000")
	at.idle()
	if got := at.render(nil).text("terminal"); strings.Contains(got[strings.LastIndex(got, "$ kafka-console-consumer"):], "never sent") {
		t.Errorf("a cancelled line was sent")
	}
}

func TestTerminalKeysHistoryCompletionClear(t *testing.T) {
	at := newAppTest(t, "", "")
	term := at.a.Term
	key := func(k, value string, mods ...string) *appTestEvent {
		ev := appKey(k, "command", value, mods...)
		term.Key(ev)
		return ev
	}
	key("Enter", "nonsense")
	key("Enter", "<b>bold</b>")
	doc := at.render(nil)
	if got := doc.text("terminal"); !strings.Contains(got, "$ <b>bold</b>\n<b>bold</b>: command not found\n") {
		t.Fatalf("an unknown command:\n%s", got)
	}
	if len(doc.find(func(n *html.Node) bool { return n.Data == "b" })) != 0 {
		t.Errorf("typed HTML became an element")
	}
	if at.host.values["command"] != "" {
		t.Errorf("Enter left %q in the input", at.host.values["command"])
	}
	for _, step := range []struct{ key, typed, want string }{
		{"ArrowUp", "draft", "<b>bold</b>"},
		{"ArrowUp", "<b>bold</b>", "nonsense"},
		{"ArrowUp", "nonsense", "nonsense"}, // the oldest stays
		{"ArrowDown", "nonsense", "<b>bold</b>"},
		{"ArrowDown", "<b>bold</b>", "draft"},
	} {
		if ev := key(step.key, step.typed); !ev.prevented {
			t.Errorf("%s was not taken", step.key)
		}
		if got := at.host.values["command"]; got != step.want {
			t.Errorf("%s from %q: the input holds %q, want %q", step.key, step.typed, got, step.want)
		}
	}

	// Tab: one match completes; several extend what they share; then
	// they are listed.
	key("Tab", "kafka-topics.sh --cr")
	if got := at.host.values["command"]; got != "kafka-topics.sh --create " {
		t.Errorf("Tab completed %q", got)
	}
	key("Tab", "kafka-console-c")
	if got := at.host.values["command"]; got != "kafka-console-consumer.sh " {
		t.Errorf("Tab completed %q", got)
	}
	key("Tab", "kafka-console-consumer.sh --from-beg")
	if got := at.host.values["command"]; got != "kafka-console-consumer.sh --from-beginning " {
		t.Errorf("Tab completed a flag to %q", got)
	}
	key("Tab", "kafka-console-consumer.sh --ma")
	if got := at.host.values["command"]; got != "kafka-console-consumer.sh --max-messages " {
		t.Errorf("Tab completed a flag to %q", got)
	}
	// Several matches: first what they share, then the list.
	key("Tab", "kafka-topics.sh --re")
	if got := at.host.values["command"]; got != "kafka-topics.sh --replica" {
		t.Errorf("Tab extended --re to %q", got)
	}
	if m := console.Complete("kafka-topics.sh --replica"); len(m) < 2 || termCommonPrefix(m) != "--replica" {
		t.Fatalf("the test needs flags sharing only --replica: %q", m)
	}
	at.host.values["command"] = "unchanged"
	key("Tab", "kafka-topics.sh --replica")
	want := "$ kafka-topics.sh --replica\n" + strings.Join(console.Complete("kafka-topics.sh --replica"), "  ") + "\n"
	if got := at.render(nil).text("terminal"); !strings.HasSuffix(got, want) {
		t.Errorf("Tab did not list the matches:\n%s\nwant it to end with\n%s", got, want)
	}
	if at.host.values["command"] != "unchanged" {
		t.Errorf("listing the matches changed the input")
	}

	// clear empties the view, not the session; Ctrl-L too.
	n := len(at.p.Lines())
	key("Enter", "clear")
	if got := at.render(nil).text("terminal"); got != "" {
		t.Errorf("after clear the scrollback holds %q", got)
	}
	if len(at.p.Lines()) != n {
		t.Errorf("clear reached the session")
	}
	key("Enter", "kafka-topics.sh --list")
	at.idle()
	// (an empty list prints one empty line, as Kafka's tool does)
	if got := at.render(nil).text("terminal"); got != "$ kafka-topics.sh --list\n\n" {
		t.Errorf("after clear and a command: %q", got)
	}
	if ev := key("l", "", "ctrlKey"); !ev.prevented || at.render(nil).text("terminal") != "" {
		t.Errorf("Ctrl-L did not clear")
	}
	// Ctrl-C with nothing running abandons the line, as a shell does.
	key("c", "typed", "ctrlKey")
	if got := at.render(nil).text("terminal"); got != "$ typed^C\n" {
		t.Errorf("Ctrl-C on a line: %q", got)
	}
	// An input method composing Korean keeps its Enter.
	ev := appKey("Enter", "command", "ㅎ")
	ev.summary["isComposing"] = true
	term.Key(ev)
	if ev.prevented {
		t.Errorf("Enter was taken from an input method")
	}
}

func TestTerminalPasteRunsLineByLine(t *testing.T) {
	at := newAppTest(t, "", "")
	at.host.clip = "kafka-topics.sh --create --topic p --partitions 1\r\nkafka-console-producer.sh --topic p\nx\n\nkafka-topics.sh --li"
	ev := &appTestEvent{summary: map[string]any{"target": map[string]any{"id": "command", "value": "", "selectionStart": 0.0, "selectionEnd": 0.0}}}
	at.a.Term.Paste(ev)
	if !ev.prevented || at.host.values["command"] != "kafka-topics.sh --li" {
		t.Fatalf("paste: prevented %v, the input holds %q", ev.prevented, at.host.values["command"])
	}
	at.idle()
	got := at.render(nil).text("terminal")
	for _, want := range []string{"Created topic p.\n", "$ kafka-console-producer.sh --topic p\n> x\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the pasted script did not run: no %q in\n%s", want, got)
		}
	}
	if rest := at.a.Term.paste("héllo 🙂 wörld", 8, 8, "A\nB"); rest != "B wörld" || at.a.Term.queue[len(at.a.Term.queue)-1] != "héllo 🙂A" {
		t.Errorf("paste inside a line (UTF-16 offsets): rest %q, queued %q", rest, at.a.Term.queue)
	}
}

func TestTerminalBusyDisablesTheInputAndStops(t *testing.T) {
	at := newAppTest(t, "", "")
	term := at.a.Term
	term.Enter("kafka-topics.sh --create --topic b --partitions 1 --replication-factor 3")
	at.idle()
	at.p.Paused = true
	term.typing = true
	term.Enter("kafka-console-consumer.sh --topic b --timeout-ms 60000")
	if at.p.Paused {
		t.Errorf("a command that needs time did not resume playback")
	}
	at.frames(2, 16*time.Millisecond)
	doc := at.render(nil)
	panel := doc.byID("terminal-panel")
	if htmltest.Attr(panel, "data-state") != "running" || htmltest.Attr(panel, "aria-busy") != "true" {
		t.Fatalf("the panel does not say it is running")
	}
	if !appHasAttr(doc.byID("command"), "disabled") || len(doc.byClass("terminal-busy")) != 1 {
		t.Errorf("the input is not disabled with a running note")
	}
	if len(at.host.focused) == 0 || at.host.focused[len(at.host.focused)-1] != "terminal-panel" {
		t.Errorf("the focus did not move to the panel (Ctrl-C must still reach it): %v", at.host.focused)
	}
	ev := appKey("c", "terminal-panel", "", "ctrlKey")
	term.Key(ev)
	at.idle()
	doc = at.render(nil)
	if htmltest.Attr(doc.byID("terminal-panel"), "data-state") != "idle" || appHasAttr(doc.byID("command"), "disabled") {
		t.Errorf("Ctrl-C did not stop the consumer")
	}
	if got := doc.text("terminal"); !strings.Contains(got, "^C\n") || !strings.Contains(got, "Processed a total of 0 messages") {
		t.Errorf("the stopped consumer:\n%s", got)
	}
	if at.host.focused[len(at.host.focused)-1] != "command" {
		t.Errorf("the focus did not come back to the input: %v", at.host.focused)
	}
}

func TestTimelineMarkersControlsAndScrub(t *testing.T) {
	at := newAppTest(t, "", "")
	at.a.Term.Enter("kafka-topics.sh --create --topic m --partitions 3 --replication-factor 3")
	at.idle()
	at.a.Term.Enter("broker kill 2") // not the controller: its partitions get new leaders
	at.a.Term.Enter("time advance 30s")
	at.idle()
	doc := at.render(nil)
	markers := doc.byClass("marker")
	cats := map[string]bool{}
	for _, m := range markers {
		cats[htmltest.Attr(m, "data-cat")] = true
		if title := htmltest.Attr(m, "title"); !strings.HasPrefix(title, "T+") || !strings.Contains(title, " · ") {
			t.Errorf("a marker's tooltip is %q", title)
		}
		if !strings.HasPrefix(htmltest.Attr(m, "style"), "left:") {
			t.Errorf("a marker is not placed: %q", htmltest.Attr(m, "style"))
		}
	}
	if !cats[feed.CatCrash] || !cats[feed.CatElection] {
		t.Errorf("after a kill the markers are %v, want a crash and an election", cats)
	}
	if got := doc.text("time-now"); got != fmtVirtualTime(at.p.Now()) || !strings.HasPrefix(got, "T+") {
		t.Errorf("the clock reads %q", got)
	}
	if got := doc.text("time-wall"); len(got) != 8 || got[2] != ':' {
		t.Errorf("the wall clock reads %q", got)
	}
	if n := len(doc.find(func(n *html.Node) bool { return n.Data == "option" })); n != len(player.Speeds) {
		t.Errorf("%d speeds offered, want %d", n, len(player.Speeds))
	}

	bar := at.a.Bar
	label := doc.text("play")
	bar.TogglePlay()
	if at.render(nil).text("play") == label {
		t.Errorf("play/pause did not change its label")
	}
	bar.SetSpeed(appValue("25", "change"))
	if at.p.Speed != 25 {
		t.Errorf("speed %v after choosing 25", at.p.Speed)
	}

	// Scrub back: the seek waits for the thumb to rest.
	end := at.p.Now()
	target := end.Add(-20 * time.Second)
	bar.Scrub(appValue(appMillis(target), "input"))
	if !at.p.Paused || !bar.dragging() {
		t.Fatalf("scrubbing did not pause and hold the bar")
	}
	at.frames(1, 16*time.Millisecond)
	if at.p.Now() != end {
		t.Errorf("the seek did not wait for the thumb to rest")
	}
	if got := at.render(nil).text("time-now"); got != fmtVirtualTime(target) {
		t.Errorf("while dragging the clock shows %s, want the thumb's %s", got, fmtVirtualTime(target))
	}
	at.frames(12, 16*time.Millisecond)
	if at.p.Now() != target {
		t.Errorf("after resting, now is %s, want %s", at.p.Now(), target)
	}
	bar.ScrubDone(appValue(appMillis(target), "change"))
	at.frames(1, 16*time.Millisecond)
	if bar.dragging() || at.p.End() != end {
		t.Errorf("after the release: dragging %v, end %s (want %s kept)", bar.dragging(), at.p.End(), end)
	}
	bar.SeekTo(end)
	at.a.Flush()
	if at.p.Now() != end {
		t.Errorf("a marker click moved to %s, want %s", at.p.Now(), end)
	}
}

func appMillis(t sim.Time) string { return strconv.FormatInt(t.Millis(), 10) }

func TestStoryStepsAndKorean(t *testing.T) {
	at := newAppTest(t, "", "")
	at.a.OpenGallery()
	at.a.Gallery.Choose("03-high-watermark")
	if at.a.Gallery.Open || !at.a.Busy() {
		t.Fatalf("choosing did not close the gallery and start work")
	}
	if got := at.render(nil).byClass("working"); len(got) != 1 {
		t.Errorf("no working note while the scenario opens")
	}
	at.frames(3, 16*time.Millisecond)
	sc := at.p.Scenario()
	if sc == nil || sc.ID != "03-high-watermark" || sc.Step != 0 {
		t.Fatalf("the scenario did not open: %+v", sc)
	}
	doc := at.render(nil)
	if got := doc.text("story-step"); got != "Step 1 of 7" {
		t.Errorf("step text %q", got)
	}
	if got := doc.text("story-title"); got != sc.Title(i18n.English) {
		t.Errorf("title %q", got)
	}
	if got := doc.text("story-text"); got != sc.Text(i18n.English) || got == "" {
		t.Errorf("narration %q", got)
	}
	if len(doc.byClass("story-commands")) != 1 || !strings.Contains(doc.src, "$ cluster create") {
		t.Errorf("the step's commands are not shown")
	}
	if !appHasAttr(doc.byID("story-back"), "disabled") || appHasAttr(doc.byID("story-next"), "disabled") {
		t.Errorf("on the first step Back must be disabled and Next enabled")
	}

	at.a.SetLang("ko")
	doc = at.render(nil)
	if got := doc.text("story-text"); got != sc.Text(i18n.Korean) || got == sc.Text(i18n.English) {
		t.Errorf("Korean narration %q", got)
	}
	if got := doc.text("story-step"); got != "1 / 7 단계" {
		t.Errorf("Korean step text %q", got)
	}
	if got := doc.text("story-title"); got != sc.Title(i18n.Korean) {
		t.Errorf("Korean title %q", got)
	}
	if got := doc.text("story-next"); !strings.Contains(got, "다음") {
		t.Errorf("the Next button reads %q in Korean", got)
	}
	if len(at.host.langs) != 1 || at.host.langs[0] != "ko" {
		t.Errorf("the language was not saved: %v", at.host.langs)
	}

	for sc.Step+1 < sc.Steps() {
		at.a.Story.Next()
		at.a.Flush()
	}
	doc = at.render(nil)
	if len(doc.byClass("story-end")) != 1 || !appHasAttr(doc.byID("story-next"), "disabled") {
		t.Errorf("the last step does not say it is the end")
	}
	at.a.Story.Back()
	at.a.Flush()
	if sc.Step != sc.Steps()-2 {
		t.Errorf("Back: step %d", sc.Step)
	}
	at.a.Story.Leave()
	if doc := at.render(nil); doc.byID("story") != nil {
		t.Errorf("the story is still shown after leaving it")
	}
}

func TestGalleryListsEveryScenario(t *testing.T) {
	at := newAppTest(t, "", "")
	at.a.OpenGallery()
	doc := at.render(nil)
	cards := doc.byClass("gallery-card")
	infos := at.p.Scenarios()
	if len(infos) < 4 || len(cards) != len(infos) {
		t.Fatalf("%d cards for %d scenarios", len(cards), len(infos))
	}
	for i, info := range infos {
		if htmltest.Attr(cards[i], "data-scenario") != info.ID || !strings.Contains(appText(cards[i]), info.Title) {
			t.Errorf("card %d: %q", i, appText(cards[i]))
		}
		if !strings.Contains(appText(cards[i]), at.a.Tf("steps.count", info.Steps)) {
			t.Errorf("card %d does not count its steps", i)
		}
	}
	at.a.SetLang("ko")
	doc = at.render(nil)
	for i, info := range at.p.Scenarios() {
		if !strings.Contains(appText(doc.byClass("gallery-card")[i]), info.Title) || info.Title == infos[i].Title {
			t.Errorf("card %d is not in Korean: %q", i, info.Title)
		}
	}
	at.a.Gallery.Key(appKey("Escape", "gallery", ""))
	if at.render(nil).byID("gallery") != nil {
		t.Errorf("Escape did not close the gallery")
	}
}

func TestFeedShowsEventsAndAppendsOnRequest(t *testing.T) {
	at := newAppTest(t, "", "")
	at.a.Term.Enter("kafka-topics.sh --create --topic f --partitions 1 --replication-factor 3")
	at.idle()
	at.a.Term.Enter("kafka-console-producer.sh --topic f")
	at.a.Term.Enter("v")
	at.a.Term.Enter("")
	at.idle()
	count := func() (all, data int) {
		items := at.render(nil).byID("feed-list")
		for c := items.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode {
				all++
				if htmltest.Attr(c, "data-cat") == feed.CatData {
					data++
				}
			}
		}
		return
	}
	all, data := count()
	if all == 0 || data != 0 {
		t.Errorf("the feed shows %d events, %d of them appends (hidden by default)", all, data)
	}
	at.a.Events.ToggleData()
	if _, data := count(); data == 0 {
		t.Errorf("Show appends shows none")
	}
	lines := at.p.Feed(1, true)
	if doc := at.render(nil); !strings.HasSuffix(strings.TrimSpace(doc.text("feed-list")), fmtVirtualTime(lines[0].At)+lines[0].Text) {
		t.Errorf("the newest event is not last")
	}
}

func TestEmbedViewIsCompact(t *testing.T) {
	at := newAppTest(t, "?embed=1", "#scenario=04-isr&step=1&lang=en")
	at.a.syncURL(at.now)
	doc := at.render(nil)
	if htmltest.Attr(doc.byID("app"), "data-view") != "embed" {
		t.Fatalf("not the embed view")
	}
	for _, id := range []string{"command", "open-gallery", "copy-link", "feed"} {
		if doc.byID(id) != nil {
			t.Errorf("the embed view shows #%s", id)
		}
	}
	for _, id := range []string{"story", "scrubber", "play", "open-full"} {
		if doc.byID(id) == nil {
			t.Errorf("the embed view lacks #%s", id)
		}
	}
	if len(doc.byClass("kd")) == 0 {
		t.Errorf("the embed view has no diagram")
	}
	if href := htmltest.Attr(doc.byID("open-full"), "href"); href != "https://k.test/app/"+at.p.Hash() {
		t.Errorf("Open in kafkascope goes to %q", href)
	}
}

func TestBadLinksShowABannerAndNoMarkup(t *testing.T) {
	for _, h := range []string{"#s=garbage", "#scenario=nope"} { // a bad session, a missing scenario
		doc := newAppTest(t, "", h).render(nil)
		if text := appText(doc.byID("error-banner")); strings.Count(text, "could not be opened") != 1 || !strings.Contains(text, "The default cluster opened instead.") {
			t.Errorf("%s: the banner reads %q", h, text)
		}
	}
	at := newAppTest(t, "", "#s=%%%")
	doc := at.render(nil)
	banner := doc.byID("error-banner")
	if banner == nil || !strings.Contains(appText(banner), "could not be opened") || at.p.Snapshot() == nil {
		t.Fatalf("a garbage hash: banner %v, cluster %v", banner != nil, at.p.Snapshot() != nil)
	}
	if text := appText(banner); strings.Count(text, "could not be opened") != 1 || !strings.Contains(text, at.a.T("error.link.default")) {
		t.Errorf("the banner reads %q", text)
	}
	if !strings.Contains(doc.text("terminal"), "$ cluster create --brokers 3") {
		t.Errorf("no default cluster in the terminal")
	}
	at.a.DismissError()
	if at.render(nil).byID("error-banner") != nil {
		t.Errorf("the banner stays after Dismiss")
	}
	hostile := newAppTest(t, "", `#scenario=<img src=x onerror=alert(1)>`)
	doc = hostile.render(nil)
	if doc.byID("error-banner") == nil || len(doc.find(func(n *html.Node) bool { return n.Data == "img" })) != 0 {
		t.Errorf("URL text became markup:\n%s", doc.text("error-banner"))
	}
}

// A link that opened with a change (a language the page lacks, a step
// outside the scenario) opens what it names and says what changed, in a
// banner of its own title: not that it could not be opened, nor that the
// default cluster opened instead.
func TestLinkThatOpenedWithAChangeSaysSo(t *testing.T) {
	for hash, says := range map[string]string{
		"#lang=xx&scenario=04-isr&step=1": "The link asks for lang=xx, a language kafkascope does not have: it opened in English.",
		"#scenario=04-isr&step=99":        "The link asks for step=99, past the scenario's last step: it opened at its last, step=",
		"#scenario=04-isr&step=-1":        "The link asks for step=-1, before the scenario's first step: it opened at its first, step=0.",
	} {
		at := newAppTest(t, "", hash)
		doc := at.render(nil)
		banner := appText(doc.byID("error-banner"))
		if !strings.Contains(banner, "This link opened with a change") {
			t.Errorf("%s: the banner reads %q", hash, banner)
		}
		if !strings.Contains(banner, says) || strings.Contains(banner, "could not be opened") || strings.Contains(banner, at.a.T("error.link.default")) {
			t.Errorf("%s: the banner reads %q, want it to say %q and nothing of a failed link", hash, banner, says)
		}
		if at.p.Scenario() == nil || doc.byID("story") == nil {
			t.Errorf("%s: the scenario did not open", hash)
		}
		at.a.DismissError()
		if at.render(nil).byID("error-banner") != nil {
			t.Errorf("%s: the banner stays after Dismiss", hash)
		}
	}
}

func TestURLFollowsTheSession(t *testing.T) {
	at := newAppTest(t, "", "")
	at.frames(1, 16*time.Millisecond)
	if len(at.host.hashes) != 1 || at.host.hashes[0] != at.p.Hash() {
		t.Fatalf("the first frame wrote %v, want the session's hash", at.host.hashes)
	}
	at.frames(30, 16*time.Millisecond) // ~0.5 s of playing
	if len(at.host.hashes) != 1 {
		t.Errorf("time alone rewrote the URL %d times in half a second", len(at.host.hashes)-1)
	}
	at.frames(40, 16*time.Millisecond)
	if len(at.host.hashes) != 2 {
		t.Errorf("after a second of playing the URL was written %d times, want 2", len(at.host.hashes))
	}
	at.a.Term.Enter("kafka-topics.sh --create --topic u --partitions 1")
	at.render(nil) // the terminal reads its lines when drawn
	at.frames(15, 16*time.Millisecond)
	last := at.host.hashes[len(at.host.hashes)-1]
	if len(at.host.hashes) != 3 || !strings.Contains(last, "s=") {
		t.Errorf("an action did not reach the URL soon (%d writes)", len(at.host.hashes))
	}
	q := player.New()
	q.Boot("", last)
	if q.Error != "" || len(q.Lines()) != len(at.p.Lines()) {
		t.Errorf("the URL does not reopen the session: %q", q.Error)
	}
	at.a.SetLang("ko")
	at.frames(15, 16*time.Millisecond)
	if !strings.Contains(at.host.hashes[len(at.host.hashes)-1], "lang=ko") {
		t.Errorf("the language is not in the URL")
	}
}

func TestCopyLinkAndEmbedCode(t *testing.T) {
	at := newAppTest(t, "", "")
	at.a.CopyLink()
	at.a.CopyEmbed()
	if len(at.host.copied) != 2 || at.host.copied[0] != "https://k.test/app/?x=1"+at.p.Hash() ||
		at.host.copied[1] != at.p.EmbedSnippet("https://k.test/app/", player.EmbedWidthMax, player.EmbedHeight) {
		t.Fatalf("copied %q", at.host.copied)
	}
	at.host.answerCopies()
	if got := at.render(nil).text("toast"); got != at.a.T("embed.done") {
		t.Errorf("toast %q", got)
	}
	at.frames(200, 16*time.Millisecond)
	if at.render(nil).byID("toast") != nil {
		t.Errorf("the toast does not go away")
	}
	at.host.copyOK = false
	at.a.CopyEmbed()
	at.host.answerCopies()
	doc := at.render(nil)
	if got := doc.text("manual-copy"); got != at.p.EmbedSnippet("https://k.test/app/", player.EmbedWidthMax, player.EmbedHeight) {
		t.Errorf("the copy-by-hand box holds %q", got)
	}
	at.a.CloseManualCopy()
	if at.render(nil).byID("manual-copy") != nil {
		t.Errorf("the copy-by-hand box stays")
	}
}

func TestLanguageSwitchRelabelsTheApp(t *testing.T) {
	at := newAppTest(t, "", "")
	en := at.render(nil)
	at.a.SetLang("ko")
	ko := at.render(nil)
	for _, id := range []string{"open-gallery", "copy-link", "copy-embed", "step-event", "skip-idle", "play"} {
		if en.text(id) == ko.text(id) || ko.text(id) == "" {
			t.Errorf("#%s reads %q in English and %q in Korean", id, en.text(id), ko.text(id))
		}
	}
	if htmltest.Attr(ko.byID("lang-ko"), "aria-pressed") != "true" || htmltest.Attr(ko.byID("lang-en"), "aria-pressed") != "false" {
		t.Errorf("the switch does not show the choice")
	}
	if htmltest.Attr(ko.byID("app"), "lang") != "ko" {
		t.Errorf("the app is not marked Korean")
	}
}

func TestPanicsAreShownNotFatal(t *testing.T) {
	at := newAppTest(t, "", "")
	// A handler that panics, wrapped as the page wraps every handler.
	br := at.env.RunBuild(at.a)
	Prepare(br, at.a.HandlerPanic)
	var play func(vugu.DOMEvent)
	var visit func(n *vugu.VGNode)
	visit = func(n *vugu.VGNode) {
		for ; n != nil; n = n.NextSibling {
			for _, a := range n.Attr {
				if a.Key == "id" && a.Val == "play" && len(n.DOMEventHandlerSpecList) > 0 {
					play = n.DOMEventHandlerSpecList[0].Func
				}
			}
			visit(n.FirstChild)
		}
	}
	visit(br.ResultFor(at.a.Bar).Out[0])
	if play == nil {
		t.Fatal("no click handler on #play")
	}
	at.a.Bar.App = nil // the next click dereferences nil
	play(&appTestEvent{summary: map[string]any{}})
	at.a.Bar.App = at.a
	if at.a.Problem == "" {
		t.Fatal("a panicking handler was not reported")
	}
	if doc := at.render(nil); doc.byID("error-banner") == nil {
		t.Errorf("the panic is not shown")
	}
	// A panic while playing pauses playback and is shown.
	at.a.DismissError()
	shown := at.p.Mode
	at.p.Mode = nil
	if !at.a.Frame(at.now.Add(time.Second), 16*time.Millisecond) || at.a.Problem == "" || !at.p.Paused {
		t.Errorf("a panic in a frame: problem %q, paused %v", at.a.Problem, at.p.Paused)
	}
	at.p.Mode = shown
}

func TestPrepareMakesTextNodes(t *testing.T) {
	n := &vugu.VGNode{Type: vugu.ElementNode, Data: "span"}
	n.SetInnerHTML("a < b & \"c\"")
	static := &vugu.VGNode{Type: vugu.ElementNode, Data: "div"}
	static.SetInnerHTML(vugu.HTML("<b>kept</b>"))
	root := &vugu.VGNode{Type: vugu.ElementNode, Data: "div"}
	root.AppendChild(n)
	root.AppendChild(static)
	Prepare(&vugu.BuildResults{Out: &vugu.BuildOut{Out: []*vugu.VGNode{root}}}, nil)
	if n.InnerHTML != nil || n.FirstChild == nil || n.FirstChild.Type != vugu.TextNode || n.FirstChild.Data != "a < b & \"c\"" {
		t.Errorf("escaped text did not become a text node: %+v", n.FirstChild)
	}
	if static.InnerHTML == nil || *static.InnerHTML != "<b>kept</b>" {
		t.Errorf("markup was changed")
	}
}

func TestReopenShowsTheNewSession(t *testing.T) {
	at := newAppTest(t, "", "")
	at.a.Term.Enter("kafka-topics.sh --create --topic old --partitions 1")
	at.idle()
	at.a.Term.Clear()
	at.a.OpenGallery()
	at.frames(1, 16*time.Millisecond)
	if at.a.WrittenHash() == "" {
		t.Fatal("no hash written")
	}
	q := player.New()
	q.Boot("", "#scenario=01-replication-basics&step=1")
	at.a.Reopen(q)
	doc := at.render(nil)
	if got := doc.text("terminal"); got != terminalText(q.Lines()) {
		t.Errorf("after reopening, the terminal shows\n%s\nwant\n%s", got, terminalText(q.Lines()))
	}
	if doc.text("story-step") != "Step 2 of 7" || doc.byID("gallery") != nil {
		t.Errorf("after reopening: step %q, gallery shown %v", doc.text("story-step"), doc.byID("gallery") != nil)
	}
}

// With the host's frame deadline always passed (the engine's share of
// every frame spent on heavy events), a step plays a chunk per frame and
// may end in a frame that runs no event: that frame must still draw, or
// the page keeps showing the step as running (the browser benchmark froze
// on scenario 1's second step).
func TestStepEndingInAnEmptyFrameIsDrawn(t *testing.T) {
	at := newAppTest(t, "", "#scenario=01-replication-basics")
	at.frames(3, 16*time.Millisecond)
	at.p.SetFrameDeadline(func() bool { return true })
	sc := at.p.Scenario()
	if sc == nil || sc.Step != 0 {
		t.Fatalf("the scenario did not open: %+v", sc)
	}
	at.a.Story.Next()
	drawn := false
	for i := 0; sc.Running(); i++ {
		at.now = at.now.Add(16 * time.Millisecond)
		drawn = at.a.Frame(at.now, 16*time.Millisecond)
		if i > 100000 {
			t.Fatal("the step never ends")
		}
	}
	if !drawn {
		t.Fatal("the frame in which the step ended asked for no render")
	}
	if got := at.render(nil).text("story-step"); got != "Step 2 of 7" {
		t.Fatalf("after the step: %q", got)
	}
}

// While a "time advance" fast-forwards, the page draws every
// player.FastForwardRedraw, not every frame, and the frames between run
// the engine only; the advance's end draws at once.
func TestFastForwardDrawsTenTimesASecond(t *testing.T) {
	at := newAppTest(t, "", "")
	at.frames(3, 16*time.Millisecond)
	at.p.SetFastForwardEvents(300) // an hour takes many frames
	at.p.Run("time advance 1h", nil)
	drawn, frames := 0, 0
	var lastDrawn time.Time
	for at.p.Busy() {
		at.now = at.now.Add(16 * time.Millisecond)
		quiet := at.a.FastForwardQuiet(at.now)
		before := at.p.Now()
		draws := at.a.Frame(at.now, 16*time.Millisecond)
		frames++
		if draws {
			drawn++
			if at.p.Busy() && !lastDrawn.IsZero() && at.now.Sub(lastDrawn) < player.FastForwardRedraw {
				t.Fatalf("frame %d drew %v after the last drawing, mid-advance", frames, at.now.Sub(lastDrawn))
			}
			lastDrawn = at.now
		}
		if quiet && draws && at.p.Busy() {
			t.Fatalf("frame %d was announced quiet but drew", frames)
		}
		if at.p.Now() == before && at.p.Busy() {
			t.Fatalf("frame %d did not advance the clock", frames)
		}
		if frames > 100000 {
			t.Fatal("the advance never ends")
		}
	}
	if frames < 20 || drawn > frames/5+2 {
		t.Fatalf("%d frames drew %d times; want about one in six", frames, drawn)
	}
	if lastDrawn != at.now {
		t.Fatal("the frame that ended the advance did not draw")
	}
}

// While a time advance fast-forwards, the terminal says how far it has
// come, and the share only grows.
func TestFastForwardShowsItsProgress(t *testing.T) {
	at := newAppTest(t, "", "")
	at.frames(3, 16*time.Millisecond)
	at.p.SetFastForwardEvents(300)
	at.p.Run("time advance 1h", nil)
	last := -1
	for i := 0; i < 40 && at.p.Busy(); i++ {
		at.frames(1, 16*time.Millisecond)
		var pct int
		var done string
		got := at.a.Term.busyText()
		if _, err := fmt.Sscanf(got, "advancing… %d%% (%s", &pct, &done); err != nil || !strings.HasSuffix(got, " of 1h)") || pct < last {
			t.Fatalf("frame %d: the terminal says %q (after %d%%)", i, got, last)
		}
		last = pct
	}
	if last <= 0 {
		t.Fatalf("the advance's share stayed at %d%%", last)
	}
}

// The event feed drops its oldest events in batches: while fewer than
// feedShown+feedSlack are drawn, a new event is only added at the end (the
// items already drawn keep their places, so the browser lays out and
// paints only the new one); once the list is full, it goes back to the
// newest feedShown at once. It always shows at least the newest
// feedShown, the newest last.
func TestFeedDropsItsOldestEventsInBatches(t *testing.T) {
	at := newAppTest(t, "", "")
	shown := func() (first string, n int, last string) {
		items := at.render(nil).byID("feed-list")
		for c := items.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode {
				if n == 0 {
					first = htmltest.Attr(c, "data-key")
				}
				last = htmltest.Attr(c, "data-key")
				n++
			}
		}
		return
	}
	topic := 0
	create := func() {
		topic++
		at.p.Run(fmt.Sprintf("kafka-topics.sh --create --topic t%d --partitions 1 --replication-factor 3", topic), nil)
		at.idle()
	}
	for len(at.p.Feed(feedShown+feedSlack+1, false)) <= feedShown+feedSlack {
		create()
	}
	first, n, _ := shown()
	drops, grew := 0, 0
	for i := 0; i < 40; i++ {
		create()
		f, m, last := shown()
		newest := at.p.Feed(1, false)[0]
		if last != strconv.Itoa(newest.Seq) {
			t.Fatalf("after topic %d the last item is %s, want the newest event %d", topic, last, newest.Seq)
		}
		if m < feedShown || m > feedShown+feedSlack {
			t.Fatalf("after topic %d the feed shows %d events, want %d to %d", topic, m, feedShown, feedShown+feedSlack)
		}
		switch {
		case f == first && m > n:
			grew++
		case f != first && m == feedShown:
			drops++
		default:
			t.Fatalf("after topic %d the feed went from %d events from %s to %d from %s: neither added at the end nor cut to the newest %d", topic, n, first, m, f, feedShown)
		}
		first, n = f, m
	}
	if drops == 0 || grew < 2*drops {
		t.Errorf("over 40 topics the feed dropped its oldest events %d times and only added at its end %d times", drops, grew)
	}
}
