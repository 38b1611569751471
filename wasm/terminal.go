//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"
	"unicode/utf16"

	"github.com/hack-pad/safejs"

	"kafkascope/core/console"
)

// Limits that keep the page bounded whatever is typed or pasted.
const (
	// scrollbackLinesMax is how many lines the scrollback keeps; older
	// blocks are dropped first, as a terminal emulator drops its oldest
	// lines.
	scrollbackLinesMax = 10000
	// historyMax is how many commands ↑/↓ can recall.
	historyMax = 1000
	// queuedLinesMax bounds the lines waiting to run (a large paste).
	queuedLinesMax = 10000
	// paintWait bounds the wait for the browser to paint the "running…"
	// state; requestAnimationFrame does not fire in a background tab.
	paintWait = 100 * time.Millisecond
)

// itemKind is what the user asked for with one key press (or one pasted line).
type itemKind int

const (
	itemLine      itemKind = iota // Enter: a command, or a line of standard input
	itemInterrupt                 // Ctrl+C: abandon the line (and the producer's input)
	itemClear                     // Ctrl+L: clear the scrollback
)

// item is one unit of work for the terminal's worker goroutine.
type item struct {
	kind itemKind
	text string // the input line (for itemInterrupt, what was typed before ^C)
}

// terminal is the page's terminal on a console.Session: a scrollback
// (<pre id="terminal">) and one input line (<input id="command">).
//
// JavaScript callbacks only read the event and queue an item; a single worker
// goroutine runs the items in order, so a pasted script runs line by line and
// no callback ever waits for the engine. The worker owns the scrollback, the
// session and the standard-input state; mu guards what the callbacks read too.
type terminal struct {
	session *console.Session

	// Elements and callbacks, set up once.
	window, document safejs.Value
	panel, screen    safejs.Value
	input, prompt    safejs.Value
	hint             safejs.Value
	frameFn          safejs.Func
	listeners        []safejs.Func // live as long as the page
	started          bool          // start has run: the worker owns the state below

	items  chan item     // from the callbacks to the worker
	frames chan struct{} // from the animation frame callback to the worker

	// Owned by the worker (by main before start).
	busy, refocus bool
	blocks        []scrollBlock
	lines         int      // lines in blocks, at most scrollbackLinesMax
	producerLine  string   // the command waiting for its standard input
	stdin         []string // the input collected so far

	mu           sync.Mutex
	collecting   bool     // guarded by mu: the prompt is "> "
	history      []string // guarded by mu
	historyPos   int      // guarded by mu: len(history) means the draft
	draft        string   // guarded by mu: the line being typed before ↑
	droppedItems int      // guarded by mu: lines refused by a full queue
}

// scrollBlock is one top-level node of the scrollback and how many lines it
// holds.
type scrollBlock struct {
	node  safejs.Value
	lines int
}

// newTerminal builds the terminal's elements inside app. It registers no
// listeners yet: start does, once the default cluster runs.
func newTerminal(document, app safejs.Value, session *console.Session) (*terminal, error) {
	window := safejs.Global()
	t := &terminal{
		session:  session,
		window:   window,
		document: document,
		items:    make(chan item, queuedLinesMax),
		frames:   make(chan struct{}, 1),
	}
	var b builder
	b.doc = document
	t.panel = b.element("section", "terminal", app)
	b.attrs(t.panel, "aria-label", "kafkascope terminal", "data-state", "idle", "data-mode", "command")
	t.screen = b.element("pre", "terminal-screen", t.panel)
	// role=log is a polite live region: screen readers read new output.
	b.attrs(t.screen, "id", "terminal", "role", "log", "tabindex", "-1")

	row := b.element("div", "terminal-input", t.panel)
	t.prompt = b.element("label", "terminal-prompt", row)
	b.attrs(t.prompt, "for", "command")
	b.text(t.prompt, "$ ")
	t.input = b.element("input", "terminal-command", row)
	b.attrs(t.input,
		"id", "command", "type", "text", "autocomplete", "off", "autocapitalize", "off",
		"autocorrect", "off", "spellcheck", "false", "enterkeyhint", "send",
		"maxlength", fmt.Sprint(console.MaxCommandLength), "aria-label", "Command")
	busy := b.element("span", "terminal-busy", row)
	b.attrs(busy, "aria-hidden", "true")
	b.text(busy, "running…")

	t.hint = b.element("p", "terminal-hint", t.panel)
	note := b.element("p", "early-note", app)
	b.text(note, "This is an early build: a terminal on the real engine. "+
		"The live cluster diagram, the story panel and time travel arrive with the browser app.")
	if b.err != nil {
		return nil, b.err
	}
	t.showMode(false)

	frameFn, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		select {
		case t.frames <- struct{}{}:
		default:
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("making the animation frame callback: %w", err)
	}
	t.frameFn = frameFn
	return t, nil
}

// start listens to the keyboard and starts the worker. Before start, main
// may run commands directly (runCommand), with no worker to race.
func (t *terminal) start() {
	t.listen(t.input, "keydown", t.onKeyDown)
	t.listen(t.input, "paste", t.onPaste)
	t.listen(t.panel, "click", t.onPanelClick)
	t.started = true
	go t.work()
	t.focus()
}

// listen adds an event listener whose Go handler can never crash the page.
func (t *terminal) listen(target safejs.Value, event string, handle func(ev safejs.Value) error) {
	fn, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		defer func() {
			if r := recover(); r != nil {
				fmt.Fprintf(os.Stderr, "kafkascope: panic in the %s handler: %v\n%s", event, r, debug.Stack())
			}
		}()
		if len(args) == 0 {
			return nil
		}
		if err := handle(args[0]); err != nil {
			fmt.Fprintf(os.Stderr, "kafkascope: %s handler: %v\n", event, err)
		}
		return nil
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "kafkascope: making the %s listener: %v\n", event, err)
		return
	}
	if _, err := target.Call("addEventListener", event, fn); err != nil {
		fmt.Fprintf(os.Stderr, "kafkascope: adding the %s listener: %v\n", event, err)
		fn.Release()
		return
	}
	t.listeners = append(t.listeners, fn)
}

// ---- JavaScript callbacks: read the event, queue work, return at once ----

func (t *terminal) onKeyDown(ev safejs.Value) error {
	// An input method (Korean, Japanese, ...) is composing: its Enter and
	// arrows belong to it.
	if composing, _ := boolProp(ev, "isComposing"); composing {
		return nil
	}
	if code, err := ev.Get("keyCode"); err == nil {
		if n, err := code.Int(); err == nil && n == 229 {
			return nil
		}
	}
	key, err := stringProp(ev, "key")
	if err != nil {
		return err
	}
	ctrl, _ := boolProp(ev, "ctrlKey")
	alt, _ := boolProp(ev, "altKey")
	meta, _ := boolProp(ev, "metaKey")
	onlyCtrl := ctrl && !alt && !meta
	switch {
	case key == "Enter":
		if _, err := ev.Call("preventDefault"); err != nil {
			return err
		}
		line, err := t.takeInput()
		if err != nil {
			return err
		}
		t.submit(item{kind: itemLine, text: line})
	case key == "ArrowUp" || key == "ArrowDown":
		if alt || ctrl || meta {
			return nil
		}
		if _, err := ev.Call("preventDefault"); err != nil {
			return err
		}
		step := -1
		if key == "ArrowDown" {
			step = 1
		}
		return t.recall(step)
	case onlyCtrl && (key == "c" || key == "C"):
		// With text selected, Ctrl+C copies it, as everywhere else.
		if selected, err := t.hasSelection(); err != nil || selected {
			return err
		}
		if _, err := ev.Call("preventDefault"); err != nil {
			return err
		}
		line, err := t.takeInput()
		if err != nil {
			return err
		}
		t.submit(item{kind: itemInterrupt, text: line})
	case onlyCtrl && (key == "l" || key == "L"):
		if _, err := ev.Call("preventDefault"); err != nil {
			return err
		}
		t.submit(item{kind: itemClear})
	}
	return nil
}

// onPaste runs pasted text line by line, as a terminal does: every complete
// line is entered, and text after the last line break stays in the input.
func (t *terminal) onPaste(ev safejs.Value) error {
	data, err := ev.Get("clipboardData")
	if err != nil || data.IsNull() || data.IsUndefined() {
		return err
	}
	textValue, err := data.Call("getData", "text")
	if err != nil {
		return err
	}
	text, err := textValue.String()
	if err != nil {
		return err
	}
	if !strings.ContainsAny(text, "\r\n") {
		return nil // one line: the browser pastes it
	}
	if _, err := ev.Call("preventDefault"); err != nil {
		return err
	}
	value, err := stringProp(t.input, "value")
	if err != nil {
		return err
	}
	start, errStart := intProp(t.input, "selectionStart")
	end, errEnd := intProp(t.input, "selectionEnd")
	units := utf16.Encode([]rune(value))
	if errStart != nil || errEnd != nil || start < 0 || end < start || end > len(units) {
		start, end = len(units), len(units)
	}
	before, after := string(utf16.Decode(units[:start])), string(utf16.Decode(units[end:]))
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(before+text, "\n")
	rest := lines[len(lines)-1] + after
	if err := t.input.Set("value", rest); err != nil {
		return err
	}
	for _, line := range lines[:len(lines)-1] {
		t.submit(item{kind: itemLine, text: line})
	}
	return nil
}

// onPanelClick focuses the input when the terminal is clicked, unless the
// click ended a text selection (the user is copying output).
func (t *terminal) onPanelClick(safejs.Value) error {
	selection, err := t.window.Call("getSelection")
	if err != nil || selection.IsNull() || selection.IsUndefined() {
		return err
	}
	text, err := selection.Call("toString")
	if err != nil {
		return err
	}
	if s, err := text.String(); err != nil || s != "" {
		return err
	}
	t.focus()
	return nil
}

// takeInput returns the input line and empties the input.
func (t *terminal) takeInput() (string, error) {
	line, err := stringProp(t.input, "value")
	if err != nil {
		return "", err
	}
	return line, t.input.Set("value", "")
}

func (t *terminal) hasSelection() (bool, error) {
	start, err := intProp(t.input, "selectionStart")
	if err != nil {
		return false, err
	}
	end, err := intProp(t.input, "selectionEnd")
	if err != nil {
		return false, err
	}
	return start != end, nil
}

// submit queues work for the worker without ever blocking the callback.
func (t *terminal) submit(it item) {
	select {
	case t.items <- it:
	default:
		t.mu.Lock()
		t.droppedItems++
		t.mu.Unlock()
	}
}

// recall shows the previous (step -1) or next (step +1) command of the
// history; past the newest it shows what was being typed.
func (t *terminal) recall(step int) error {
	current, err := stringProp(t.input, "value")
	if err != nil {
		return err
	}
	t.mu.Lock()
	if t.collecting || len(t.history) == 0 {
		t.mu.Unlock()
		return nil
	}
	if t.historyPos == len(t.history) {
		t.draft = current
	}
	pos := min(max(t.historyPos+step, 0), len(t.history))
	if pos == t.historyPos {
		t.mu.Unlock()
		return nil
	}
	t.historyPos = pos
	line := t.draft
	if pos < len(t.history) {
		line = t.history[pos]
	}
	t.mu.Unlock()

	if err := t.input.Set("value", line); err != nil {
		return err
	}
	n := len(utf16.Encode([]rune(line)))
	_, err = t.input.Call("setSelectionRange", n, n)
	return err
}

// ---- the worker: runs what was typed, one item at a time ----

func (t *terminal) work() {
	for it := range t.items {
		t.handle(it)
		t.mu.Lock()
		dropped := t.droppedItems
		t.droppedItems = 0
		t.mu.Unlock()
		if dropped > 0 {
			t.printBlock("terminal-error", fmt.Sprintf(
				"kafkascope: %d pasted lines were ignored (at most %d lines can wait to run)", dropped, queuedLinesMax))
		}
		if len(t.items) == 0 && t.busy {
			t.setBusy(false)
		}
	}
}

// handle runs one item. Whatever happens in the engine, the terminal keeps
// working: a panic is reported in the scrollback and the console.
func (t *terminal) handle(it item) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "kafkascope: panic while handling %q: %v\n%s", it.text, r, debug.Stack())
			t.printBlock("terminal-error", fmt.Sprintf("kafkascope: internal error: %v", r),
				"The page is still running, but the cluster may be in an unexpected state: "+
					"reload the page for a fresh one. Details are in the browser console.")
		}
	}()
	switch it.kind {
	case itemClear:
		t.clearScreen()
	case itemInterrupt:
		t.mu.Lock()
		collecting := t.collecting
		t.mu.Unlock()
		if collecting {
			t.echo("> ", it.text+"^C")
			t.printBlock("terminal-note", "(input cancelled: "+toolDisplayName(t.producerLine)+" sent nothing)")
			t.setCollecting(false)
			return
		}
		t.echo("$ ", it.text+"^C")
	case itemLine:
		t.mu.Lock()
		collecting := t.collecting
		t.mu.Unlock()
		if collecting {
			t.inputLine(it.text)
			return
		}
		t.runCommand(it.text)
	}
}

// runCommand echoes a command line and runs it, or starts collecting its
// standard input when its tool reads some.
func (t *terminal) runCommand(line string) {
	t.echo("$ ", line)
	t.remember(line)
	switch {
	case strings.TrimSpace(line) == "":
	case strings.TrimSpace(line) == "clear":
		t.clearScreen()
	case readsStdin(line):
		t.producerLine, t.stdin = line, nil
		t.setCollecting(true)
	default:
		t.exec(line, nil)
	}
}

// inputLine takes one line of standard input; the empty line ends it and
// runs the waiting tool.
func (t *terminal) inputLine(line string) {
	if line != "" {
		if len(t.stdin) >= console.MaxStdinLines {
			t.printBlock("terminal-error", fmt.Sprintf(
				"kafkascope: too many input lines (limit %d); enter an empty line to send them", console.MaxStdinLines))
			return
		}
		t.echo("> ", line)
		t.stdin = append(t.stdin, line)
		return
	}
	cmd, stdin := t.producerLine, t.stdin
	t.producerLine, t.stdin = "", nil
	t.setCollecting(false)
	t.exec(cmd, stdin)
}

// exec runs one command in the engine and prints its output.
func (t *terminal) exec(line string, stdin []string) {
	if t.started && !t.busy {
		t.setBusy(true)
		// The engine runs on the page's only thread: until Exec returns the
		// browser cannot paint. Wait for a frame to be painted with the
		// running state first (a second frame callback runs after the
		// first frame was drawn).
		t.nextFrame()
		t.nextFrame()
	}
	began := time.Now()
	out, err := execSafely(t.session, line, stdin)
	// How long the engine took, in wall-clock milliseconds, for tests and
	// for anyone profiling in devtools.
	t.logErr("recording the command time", setAttr(t.panel, "data-last-command-ms",
		fmt.Sprint(time.Since(began).Milliseconds())))
	if len(out) > 0 {
		t.printBlock("terminal-output", out...)
	}
	if err != nil {
		t.printBlock("terminal-error", err.Error(),
			"The page is still running, but the cluster may be in an unexpected state: "+
				"reload the page for a fresh one. Details are in the browser console.")
	}
}

// execSafely is Session.Exec with a panic turned into an error.
func execSafely(s *console.Session, line string, stdin []string) (out []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "kafkascope: panic running %q: %v\n%s", line, r, debug.Stack())
			err = fmt.Errorf("kafkascope: internal error while running this command: %v", r)
		}
	}()
	return s.Exec(line, stdin), nil
}

// readsStdin reports whether the command's tool reads standard input:
// kafka-console-producer(.sh), under any path, unless it only prints its
// help or version.
func readsStdin(line string) bool {
	words := strings.Fields(line)
	if len(words) == 0 || toolDisplayName(line) != "kafka-console-producer" {
		return false
	}
	for _, w := range words[1:] {
		if w == "--help" || w == "--version" {
			return false
		}
	}
	return true
}

// toolDisplayName is the command's first word without its path and ".sh".
func toolDisplayName(line string) string {
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

// remember adds a command to the history (not blanks, not repeats).
func (t *terminal) remember(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if strings.TrimSpace(line) != "" && (len(t.history) == 0 || t.history[len(t.history)-1] != line) {
		t.history = append(t.history, line)
		if len(t.history) > historyMax {
			t.history = append([]string(nil), t.history[len(t.history)-historyMax:]...)
		}
	}
	t.historyPos, t.draft = len(t.history), ""
}

// ---- the view ----

// setCollecting switches between the command prompt and standard input.
func (t *terminal) setCollecting(on bool) {
	t.mu.Lock()
	t.collecting = on
	t.mu.Unlock()
	t.showMode(on)
}

func (t *terminal) showMode(stdin bool) {
	prompt, mode := "$ ", "command"
	hint := "Enter runs a command · ↑/↓ history · help lists the commands · clear empties the screen"
	if stdin {
		prompt, mode = "> ", "stdin"
		hint = "Standard input of " + toolDisplayName(t.producerLine) +
			": one message per line; an empty line sends them · Ctrl+C cancels"
	}
	t.logErr("showing the prompt", errors.Join(
		t.prompt.Set("textContent", prompt),
		t.hint.Set("textContent", hint),
		setAttr(t.panel, "data-mode", mode),
	))
}

// setBusy disables the input while commands run and shows "running…".
func (t *terminal) setBusy(busy bool) {
	t.busy = busy
	state := "idle"
	if busy {
		state = "running"
		// A disabled input loses focus; give it back afterwards only if
		// the user was typing (not, say, selecting output).
		active, err := t.document.Get("activeElement")
		t.refocus = err == nil && active.Equal(t.input)
	}
	t.logErr("showing the running state", errors.Join(
		t.input.Set("disabled", busy),
		setAttr(t.panel, "data-state", state),
		setAttr(t.panel, "aria-busy", fmt.Sprint(busy)),
	))
	if !busy && t.refocus {
		t.focus()
	}
}

func (t *terminal) focus() {
	if _, err := t.input.Call("focus"); err != nil {
		t.logErr("focusing the input", err)
	}
}

// nextFrame waits for the browser's next animation frame, or paintWait.
func (t *terminal) nextFrame() {
	select {
	case <-t.frames: // a stale frame from an earlier wait that timed out
	default:
	}
	if _, err := t.window.Call("requestAnimationFrame", t.frameFn); err != nil {
		t.logErr("requesting an animation frame", err)
		return
	}
	select {
	case <-t.frames:
	case <-time.After(paintWait):
	}
}

// echo prints a prompt and what was typed after it.
func (t *terminal) echo(prompt, text string) {
	var b builder
	b.doc = t.document
	block := b.node("span", "terminal-echo")
	ps := b.element("span", "terminal-ps", block)
	b.text(ps, prompt)
	b.text(block, text+"\n")
	t.appendBlock(block, 1, b.err)
}

// note prints a line from the page itself (not from the engine).
func (t *terminal) note(lines ...string) { t.printBlock("terminal-note", lines...) }

// printBlock prints lines as one block with a class. The text goes in
// through text nodes, never as HTML.
func (t *terminal) printBlock(class string, lines ...string) {
	if len(lines) > scrollbackLinesMax {
		skipped := len(lines) - (scrollbackLinesMax - 1)
		lines = append([]string{fmt.Sprintf("... (%d earlier lines not kept: the scrollback keeps %d lines)",
			skipped, scrollbackLinesMax)}, lines[skipped:]...)
	}
	var b builder
	b.doc = t.document
	block := b.node("span", class)
	b.text(block, strings.Join(lines, "\n")+"\n")
	t.appendBlock(block, len(lines), b.err)
}

// appendBlock adds a built block to the scrollback, drops the oldest blocks
// beyond scrollbackLinesMax and scrolls to the end.
func (t *terminal) appendBlock(block safejs.Value, lines int, buildErr error) {
	if buildErr != nil {
		t.logErr("printing", buildErr)
		return
	}
	if _, err := t.screen.Call("appendChild", block); err != nil {
		t.logErr("printing", err)
		return
	}
	t.blocks = append(t.blocks, scrollBlock{node: block, lines: lines})
	t.lines += lines
	drop := 0
	for t.lines > scrollbackLinesMax && drop < len(t.blocks)-1 {
		if _, err := t.blocks[drop].node.Call("remove"); err != nil {
			t.logErr("trimming the scrollback", err)
			break
		}
		t.lines -= t.blocks[drop].lines
		drop++
	}
	t.blocks = t.blocks[drop:]
	t.scrollToEnd()
}

func (t *terminal) clearScreen() {
	t.logErr("clearing the screen", t.screen.Set("textContent", ""))
	t.blocks, t.lines = nil, 0
}

func (t *terminal) scrollToEnd() {
	height, err := t.screen.Get("scrollHeight")
	if err == nil {
		err = t.screen.Set("scrollTop", height)
	}
	t.logErr("scrolling", err)
}

// logErr reports a DOM error on the browser console: the terminal itself may
// be what is failing.
func (t *terminal) logErr(doing string, err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "kafkascope: %s: %v\n", doing, err)
	}
}

// builder creates DOM nodes and keeps the first error, so a sequence of
// calls can be checked once.
type builder struct {
	doc safejs.Value
	err error
}

// node creates an element with a class, not attached anywhere.
func (b *builder) node(tag, class string) safejs.Value {
	if b.err != nil {
		return safejs.Undefined()
	}
	el, err := b.doc.Call("createElement", tag)
	if err == nil && class != "" {
		err = el.Set("className", class)
	}
	if err != nil {
		b.err = fmt.Errorf("creating <%s class=%q>: %w", tag, class, err)
	}
	return el
}

// element creates an element with a class and appends it to parent.
func (b *builder) element(tag, class string, parent safejs.Value) safejs.Value {
	el := b.node(tag, class)
	if b.err == nil {
		if _, err := parent.Call("appendChild", el); err != nil {
			b.err = fmt.Errorf("appending <%s>: %w", tag, err)
		}
	}
	return el
}

// text appends a text node: whatever s holds, it is shown, never parsed.
func (b *builder) text(parent safejs.Value, s string) {
	if b.err != nil {
		return
	}
	node, err := b.doc.Call("createTextNode", s)
	if err == nil {
		_, err = parent.Call("appendChild", node)
	}
	if err != nil {
		b.err = fmt.Errorf("adding text: %w", err)
	}
}

// attrs sets attributes from name, value pairs.
func (b *builder) attrs(el safejs.Value, pairs ...string) {
	for i := 0; i+1 < len(pairs) && b.err == nil; i += 2 {
		if err := setAttr(el, pairs[i], pairs[i+1]); err != nil {
			b.err = err
		}
	}
}

func setAttr(el safejs.Value, name, value string) error {
	if _, err := el.Call("setAttribute", name, value); err != nil {
		return fmt.Errorf("setting %s: %w", name, err)
	}
	return nil
}

func stringProp(v safejs.Value, name string) (string, error) {
	p, err := v.Get(name)
	if err != nil {
		return "", err
	}
	return p.String()
}

func boolProp(v safejs.Value, name string) (bool, error) {
	p, err := v.Get(name)
	if err != nil {
		return false, err
	}
	return p.Truthy()
}

func intProp(v safejs.Value, name string) (int, error) {
	p, err := v.Get(name)
	if err != nil {
		return 0, err
	}
	if p.IsNull() || p.IsUndefined() {
		return 0, fmt.Errorf("%s is %s", name, p.Type())
	}
	return p.Int()
}
