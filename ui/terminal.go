package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vugu/vugu"

	"kafkascope/core/console"
	"kafkascope/core/jdk"
	"kafkascope/core/player"
	"kafkascope/core/release"
	"kafkascope/core/sim"
	"kafkascope/core/timeline"
)

// Limits that keep the terminal bounded whatever is typed or pasted.
const (
	// termShownMax is how many lines of the session the scrollback draws
	// (the newest); the session itself keeps timeline.MaxLines.
	termShownMax = 2000
	termNotesMax = 200
	// termHistoryMax is how many commands ↑/↓ can recall.
	termHistoryMax = 1000
	// termQueueMax bounds the pasted lines waiting to run.
	termQueueMax = 10000
)

// Terminal is the command line on the session: the scrollback is the
// player's own terminal (Player.Line: a session's is exactly what the
// transcript runner prints), plus notes from the page itself (completions, a cancelled
// input) that are not part of the session.
//
// The input element is not bound to state: the handlers read its value from
// the event and set it through the Host, so a render never fights typing
// (or an input method composing Korean).
type Terminal struct {
	App *App

	// base and count place the session's terminal (Player.Line), read at
	// each build: lines are numbered from base (the lines scrolled out
	// before them), count of them are kept.
	base, count     int
	owner           player.Mode // the session or simulator run the view state below belongs to
	hidden          int         // lines numbered below this were cleared away
	notes           []termNote  // the page's own lines
	queue           []string    // pasted lines waiting for the prompt
	wasBusy, typing bool        // focus follows a command typed here

	history []string
	histPos int // len(history) means the draft
	draft   string

	// Standard input being collected for a console producer.
	collecting bool
	producer   string
	stdin      []string

	shown    []termChunk // the scrollback last drawn
	shownKey termBlocksKey
	noteGen  int // counts changes to notes
}

// termNote is a line from the page, shown before the session's line
// numbered `after` (see termChunkLines). key (translated when drawn) or
// text.
type termNote struct {
	after int
	kind  string // note, error, cmd (an echoed command), in (echoed input)
	key   string
	text  string
}

// termBlock is one run of the scrollback drawn as one element.
type termBlock struct {
	Class  string
	Prompt string
	Text   string
	more   *strings.Builder // output lines being gathered (while drawing)
}

// BeforeBuild reads the session's terminal once per render and keeps the
// focus with the user across a running command.
func (c *Terminal) BeforeBuild() {
	p := c.App.Player
	c.sync()
	c.base, c.count = p.LineBase(), p.LineCount()
	busy := p.Busy()
	if busy != c.wasBusy {
		c.wasBusy = busy
		if c.typing {
			// A disabled input loses the focus: keep it on the panel so
			// Ctrl-C still reaches us, and give it back afterwards.
			if busy {
				c.App.Host.Focus("terminal-panel")
			} else {
				c.App.Host.Focus("command")
			}
		}
	}
}

// sync ties the view state to the session shown: a new session (a
// scenario, a shared link) starts a fresh view, since the cleared lines and
// the notes belonged to the old one.
func (c *Terminal) sync() {
	if m := c.App.Player.Mode; m != c.owner {
		if c.owner != nil {
			c.hidden, c.notes = 0, nil
			c.noteGen++
		}
		c.owner = m
	}
}

func (c *Terminal) busy() bool { return c.App.Player.Busy() }

func (c *Terminal) state() string {
	if c.busy() {
		return "running"
	}
	return "idle"
}

func (c *Terminal) mode() string {
	if c.collecting {
		return "stdin"
	}
	return "command"
}

func (c *Terminal) prompt() string {
	if c.collecting {
		return "> "
	}
	return "$ "
}

func (c *Terminal) hint() string {
	if c.collecting {
		return c.App.Tf("terminal.stdin.tool", termToolName(c.producer))
	}
	return c.App.T("terminal.hint")
}

// busyText says why the prompt waits.
func (c *Terminal) busyText() string {
	if from, to, ok := c.App.Player.Advancing(); ok && c.App.Player.FastForwarding() && to > from {
		// A long advance shows how far it has come (the clock alone moves
		// by hours a second).
		now := c.App.Player.Now()
		pct := int(100 * float64(now-from) / float64(to-from))
		return c.App.Tf("terminal.busy.advance", min(max(pct, 0), 100), sim.FormatDuration(now.Sub(from)), sim.FormatDuration(to.Sub(from)))
	}
	if c.App.Player.Paused {
		return c.App.T("terminal.busy.paused")
	}
	return c.App.T("terminal.busy")
}

// followKey changes whenever the scrollback grows, so the page scrolls it.
func (c *Terminal) followKey() string {
	return fmt.Sprintf("%d.%d.%d.%d", c.base+c.count, c.hidden, c.noteGen, len(c.stdin))
}

// termBlocksKey says when the scrollback must be drawn anew. The session is
// deterministic: the same number of lines ending in the same line are the
// same lines (after a rewind too).
type termBlocksKey struct {
	lines      int // base + count: every line ever printed
	last       string
	hidden     int
	notes      int // noteGen
	collecting bool
	stdin      int
	lang       string
}

// termChunkLines is how many session lines one chunk of the scrollback
// holds. The scrollback is drawn in chunks cut at fixed line numbers (a
// line's number counts every line printed before it: base + its index),
// each keyed by its first line's number: a new line changes only the last
// chunk, and a line scrolling out at the top only the first, so a render
// sends only those and the page lays out only them (each chunk is an
// inline-block: its own layout, see style.css) instead of rewriting and
// laying out the whole scrollback every frame while a consumer prints
// (issue 15: the terminal's layout was the biggest cost of the page's
// frames with a consumer group running).
const termChunkLines = 32

// termChunk is one chunk of the scrollback.
type termChunk struct {
	Key    string
	Blocks []termBlock
}

// chunks is the scrollback (kept between builds while it is unchanged).
func (c *Terminal) chunks() []termChunk {
	key := termBlocksKey{lines: c.base + c.count, hidden: c.hidden, notes: c.noteGen,
		collecting: c.collecting, stdin: len(c.stdin), lang: string(c.App.Player.Lang)}
	if c.count > 0 {
		key.last = c.App.Player.Line(c.count - 1).Text
	}
	if c.shown == nil || key != c.shownKey {
		c.shown, c.shownKey = c.makeChunks(), key
	}
	return c.shown
}

// makeChunks draws the scrollback: the session's lines since the last
// clear, with the page's notes in place, then the producer input being
// typed.
func (c *Terminal) makeChunks() []termChunk {
	p := c.App.Player
	var out []termChunk
	from := min(max(c.hidden-c.base, 0), c.count) // an index into the session's lines
	if shown := c.count - from; shown > termShownMax {
		skip := shown - termShownMax
		out = append(out, termChunk{Key: "more", Blocks: []termBlock{{Class: "terminal-note", Text: c.App.Tf("terminal.more", skip) + "\n"}}})
		from += skip
	}
	// at starts the chunk of line number n (notes go with the line they
	// come before).
	chunk := -1
	at := func(n int) {
		if k := n / termChunkLines; k != chunk || len(out) == 0 {
			chunk = k
			out = append(out, termChunk{Key: strconv.Itoa(k)})
		}
	}
	add := func(kind, text string) {
		last := &out[len(out)-1]
		last.Blocks = c.appendBlock(last.Blocks, kind, text)
	}
	ni := 0
	addNotes := func(upto int) { // upto: a line number
		for ; ni < len(c.notes) && c.notes[ni].after <= upto; ni++ {
			n := c.notes[ni]
			if n.after < c.base+from {
				continue // scrolled out, or cleared
			}
			text := n.text
			if n.key != "" {
				text = c.App.T(n.key)
			}
			at(n.after)
			add(n.kind, text)
		}
	}
	for i := from; i < c.count; i++ {
		addNotes(c.base + i)
		l := p.Line(i)
		kind := "out"
		switch l.Kind {
		case timeline.Command:
			kind = "cmd"
		case timeline.Input:
			kind = "in"
			if l.Text == "^C" {
				kind = "intr"
			}
		}
		at(c.base + i)
		add(kind, l.Text)
	}
	addNotes(c.base + c.count)
	for ; ni < len(c.notes); ni++ { // notes past a shorter (rewound) session
		n := c.notes[ni]
		text := n.text
		if n.key != "" {
			text = c.App.T(n.key)
		}
		at(c.base + c.count)
		add(n.kind, text)
	}
	if c.collecting {
		out = append(out, termChunk{Key: "pending"})
		add("pending-cmd", c.producer)
		for _, in := range c.stdin {
			add("pending-in", in)
		}
	}
	for i := range out {
		for j := range out[i].Blocks {
			if b := &out[i].Blocks[j]; b.more != nil {
				b.Text, b.more = b.more.String(), nil
			}
		}
	}
	return out
}

// appendBlock adds one line: commands and inputs are a block each (with
// their prompt), consecutive output or note lines share one.
func (c *Terminal) appendBlock(out []termBlock, kind, text string) []termBlock {
	switch kind {
	case "cmd":
		return append(out, termBlock{Class: "terminal-echo", Prompt: "$ ", Text: text + "\n"})
	case "in":
		return append(out, termBlock{Class: "terminal-echo terminal-stdin", Prompt: "> ", Text: text + "\n"})
	case "pending-cmd":
		return append(out, termBlock{Class: "terminal-echo terminal-pending", Prompt: "$ ", Text: text + "\n"})
	case "pending-in":
		return append(out, termBlock{Class: "terminal-echo terminal-stdin terminal-pending", Prompt: "> ", Text: text + "\n"})
	case "intr":
		return append(out, termBlock{Class: "terminal-echo terminal-intr", Text: text + "\n"})
	}
	class := "terminal-output"
	switch kind {
	case "note":
		class = "terminal-note"
	case "error":
		class = "terminal-error"
	}
	if n := len(out); n > 0 && out[n-1].Class == class && out[n-1].Prompt == "" && out[n-1].more != nil {
		out[n-1].more.WriteString(text)
		out[n-1].more.WriteByte('\n')
		return out
	}
	b := &strings.Builder{}
	b.WriteString(text)
	b.WriteByte('\n')
	return append(out, termBlock{Class: class, more: b})
}

// note adds a line of the page's own after the session's current lines.
func (c *Terminal) note(kind, text string) {
	c.sync()
	c.noteGen++
	p := c.App.Player
	c.notes = append(c.notes, termNote{after: p.LineBase() + p.LineCount(), kind: kind, text: text})
	if over := len(c.notes) - termNotesMax; over > 0 {
		c.notes = append([]termNote(nil), c.notes[over:]...)
	}
}

// ---- keys ----

// Key handles a key pressed in the terminal: in the input (Enter, ↑/↓,
// Tab, Ctrl-C, Ctrl-L) or on the panel while a command runs (Ctrl-C).
func (c *Terminal) Key(e vugu.DOMEvent) {
	// An input method (Korean, Japanese, ...) is composing: its Enter and
	// arrows belong to it.
	if e.PropBool("isComposing") || e.PropFloat64("keyCode") == 229 {
		return
	}
	key := e.PropString("key")
	ctrl, alt, meta, shift := e.PropBool("ctrlKey"), e.PropBool("altKey"), e.PropBool("metaKey"), e.PropBool("shiftKey")
	onlyCtrl := ctrl && !alt && !meta
	inInput := e.PropString("target", "id") == "command"
	value := e.PropString("target", "value")
	if !inInput {
		if onlyCtrl && (key == "c" || key == "C") && c.busy() {
			e.PreventDefault()
			c.interrupt("")
		}
		return
	}
	switch {
	case key == "Enter" && !ctrl && !alt && !meta:
		e.PreventDefault()
		c.App.Host.SetValue("command", "")
		c.typing = true
		c.Enter(value)
	case (key == "ArrowUp" || key == "ArrowDown") && !ctrl && !alt && !meta && !shift:
		e.PreventDefault()
		step := -1
		if key == "ArrowDown" {
			step = 1
		}
		if line, ok := c.recall(step, value); ok {
			c.App.Host.SetValue("command", line)
		}
	case key == "Tab" && !ctrl && !alt && !meta && !shift && strings.TrimSpace(value) != "":
		// Tab completes only when there is a word to complete: on an empty
		// line it moves the focus on, as Shift+Tab always does, so the
		// keyboard is never trapped in the terminal.
		e.PreventDefault()
		if line, ok := c.complete(value); ok {
			c.App.Host.SetValue("command", line)
		}
	case onlyCtrl && (key == "c" || key == "C"):
		// With text selected, Ctrl-C copies it, as everywhere else.
		if e.PropFloat64("target", "selectionStart") != e.PropFloat64("target", "selectionEnd") {
			return
		}
		e.PreventDefault()
		c.App.Host.SetValue("command", "")
		c.interrupt(value)
	case onlyCtrl && (key == "l" || key == "L"):
		e.PreventDefault()
		c.Clear()
	}
}

// Paste runs pasted lines one by one, as a terminal does: every complete
// line is entered (each waits for the prompt), and text after the last
// line break stays in the input.
func (c *Terminal) Paste(e vugu.DOMEvent) {
	text := c.App.Host.ClipboardText()
	if !strings.ContainsAny(text, "\r\n") {
		return // one line: the browser pastes it
	}
	e.PreventDefault()
	value := e.PropString("target", "value")
	start := int(e.PropFloat64("target", "selectionStart"))
	end := int(e.PropFloat64("target", "selectionEnd"))
	rest := c.paste(value, start, end, text)
	c.App.Host.SetValue("command", rest)
}

// paste queues the complete lines of value with text pasted over its
// selection [start, end) (UTF-16 offsets, as the browser counts), and
// returns what stays in the input.
func (c *Terminal) paste(value string, start, end int, text string) string {
	units := jdk.StringLength(value) // the browser's selection offsets are UTF-16 units too
	if start < 0 || end < start || end > units {
		start, end = units, units
	}
	before, after := utf16Cut(value, start), value[len(utf16Cut(value, end)):]
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(before+text, "\n")
	for _, l := range lines[:len(lines)-1] {
		if len(c.queue) >= termQueueMax {
			c.note("error", c.App.Tf("terminal.queue.full", termQueueMax))
			break
		}
		c.queue = append(c.queue, l)
	}
	c.typing = true
	return lines[len(lines)-1] + after
}

// pump enters queued lines while the prompt is free (each frame).
func (c *Terminal) pump() bool {
	did := false
	for len(c.queue) > 0 && !c.busy() && !c.App.Busy() {
		line := c.queue[0]
		c.queue = c.queue[1:]
		c.Enter(line)
		did = true
	}
	if len(c.queue) == 0 {
		c.queue = nil
	}
	return did
}

// Enter takes one line typed at the prompt.
func (c *Terminal) Enter(line string) {
	if len(line) > console.MaxCommandLength {
		c.note("error", c.App.Tf("terminal.too.long", console.MaxCommandLength))
		return
	}
	if c.collecting {
		c.inputLine(line)
		return
	}
	c.remember(line)
	switch trimmed := strings.TrimSpace(line); {
	case trimmed == "":
		c.note("cmd", "")
	case trimmed == "clear":
		c.Clear()
	case termReadsStdin(line):
		c.collecting, c.producer, c.stdin = true, line, nil
	default:
		c.run(line, nil)
	}
}

// inputLine takes one line of a producer's standard input; the empty line
// ends it and runs the producer.
func (c *Terminal) inputLine(line string) {
	if line != "" {
		if len(c.stdin) >= console.MaxStdinLines {
			c.note("error", c.App.Tf("terminal.stdin.full", console.MaxStdinLines))
			return
		}
		c.stdin = append(c.stdin, line)
		return
	}
	cmd, stdin := c.producer, c.stdin
	c.collecting, c.producer, c.stdin = false, "", nil
	c.run(cmd, stdin)
}

// run types a command into the session. A command that needs time to
// finish resumes playback: time only moves while playing.
func (c *Terminal) run(line string, stdin []string) {
	p := c.App.Player
	p.Run(line, stdin)
	if p.Busy() && p.Paused {
		p.Paused = false
	}
}

// interrupt is Ctrl-C: it cancels the producer input being typed, stops
// the running command, or abandons the line.
func (c *Terminal) interrupt(typed string) {
	c.queue = nil
	switch {
	case c.collecting:
		c.note("cmd", c.producer)
		for _, in := range c.stdin {
			c.note("in", in)
		}
		c.note("in", typed+"^C")
		c.note("note", c.App.Tf("terminal.cancelled", termToolName(c.producer)))
		c.collecting, c.producer, c.stdin = false, "", nil
	case c.busy():
		c.App.Player.Interrupt()
	default:
		c.note("cmd", typed+"^C")
	}
}

// Stop is the Stop button: Ctrl-C on the running command.
func (c *Terminal) Stop() {
	if c.busy() {
		c.interrupt("")
	}
}

// Clear empties the view (the session keeps its lines: a shared link or a
// rewind shows them again).
func (c *Terminal) Clear() {
	c.sync()
	p := c.App.Player
	c.hidden = p.LineBase() + p.LineCount()
	c.notes = nil
	c.noteGen++
}

// recall returns the previous (step -1) or next (+1) command of the
// history; past the newest it returns what was being typed.
func (c *Terminal) recall(step int, current string) (string, bool) {
	if c.collecting || len(c.history) == 0 {
		return "", false
	}
	if c.histPos == len(c.history) {
		c.draft = current
	}
	pos := min(max(c.histPos+step, 0), len(c.history))
	if pos == c.histPos {
		return "", false
	}
	c.histPos = pos
	if pos == len(c.history) {
		return c.draft, true
	}
	return c.history[pos], true
}

// remember adds a command to the history (not blanks, not repeats).
func (c *Terminal) remember(line string) {
	if strings.TrimSpace(line) != "" && (len(c.history) == 0 || c.history[len(c.history)-1] != line) {
		c.history = append(c.history, line)
		if over := len(c.history) - termHistoryMax; over > 0 {
			c.history = append([]string(nil), c.history[over:]...)
		}
	}
	c.histPos, c.draft = len(c.history), ""
}

// release is the Kafka release of the cluster shown, whose tools Tab
// completes (the default release before any cluster exists).
func (c *Terminal) release() release.Version {
	if s := c.App.Player.Snapshot(); s != nil {
		if v, err := release.Parse(s.Version); err == nil {
			return v
		}
	}
	return release.Default
}

// complete is Tab: one match completes the word; several extend it to
// what they share, or, when they share no more, are listed.
func (c *Terminal) complete(line string) (string, bool) {
	if c.collecting {
		return "", false
	}
	matches := console.CompleteFor(line, c.release())
	if len(matches) == 0 {
		return "", false
	}
	word := ""
	if !strings.HasSuffix(line, " ") {
		if f := strings.Fields(line); len(f) > 0 {
			word = f[len(f)-1]
		}
	}
	head := line[:len(line)-len(word)]
	if len(matches) == 1 {
		return head + matches[0] + " ", true
	}
	if common := termCommonPrefix(matches); len(common) > len(word) {
		return head + common, true
	}
	c.note("cmd", line)
	c.note("note", strings.Join(matches, "  "))
	return "", false
}

func termCommonPrefix(words []string) string {
	p := words[0]
	for _, w := range words[1:] {
		for !strings.HasPrefix(w, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// termReadsStdin reports whether the command reads lines of standard
// input (the console producer, cat > FILE): the engine's own rule.
func termReadsStdin(line string) bool { return console.ReadsStdin(line) }

// termToolName is the command's first word without its path and ".sh".
func termToolName(line string) string {
	words := strings.Fields(line)
	if len(words) == 0 {
		return ""
	}
	name := words[0]
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return strings.TrimSuffix(name, ".sh")
}

// utf16Cut is the prefix of s that is n UTF-16 code units long (rounded
// down to a whole character).
func utf16Cut(s string, n int) string {
	units := 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}

func (c *Terminal) ariaBusy() string { return fmt.Sprint(c.busy()) }
