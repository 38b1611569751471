//go:build js && wasm

package main

import (
	"fmt"
	"sync"
	"syscall/js"

	"github.com/hack-pad/safejs"
	"github.com/vugu/vugu"
	vjs "github.com/vugu/vugu/js"

	"kafkascope/ui"
	"kafkascope/ui/patch"
)

// renderer draws Vugu builds into the page with ui/patch: each render sends
// only what changed since the last (Vugu's own renderer resent the whole
// tree every frame), and delivers the page's events to the handlers of the
// last build.
//
// It owns the event environment: handlers run with its write lock held
// (as with Vugu's renderer), and asking for a render wakes the render loop
// (wait).
type renderer struct {
	diff *patch.Renderer
	mu   sync.RWMutex
	ee   *vugu.EventEnvImpl
	wait chan bool
	// renderDue: a handler ran since the last frame (guarded by ee).
	renderDue bool

	buffer  safejs.Value // kfPatchBuffer
	apply   safejs.Value // kfPatch
	jsBuf   safejs.Value // the Uint8Array the operations are copied into
	bufLen  int
	onEvent safejs.Func
}

// newRenderer installs the page's half (patch.Script) and the event
// handler, to draw into the element matching mount.
func newRenderer(mount string) (*renderer, error) {
	r := &renderer{diff: patch.New(mount), wait: make(chan bool, 64)}
	r.ee = vugu.NewEventEnvImpl(&r.mu, r.wait)
	win := safejs.Global()
	if _, err := win.Call("eval", patch.Script); err != nil {
		return nil, fmt.Errorf("installing the renderer: %w", err)
	}
	var err error
	if r.buffer, err = win.Get("kfPatchBuffer"); err != nil {
		return nil, err
	}
	if r.apply, err = win.Get("kfPatch"); err != nil {
		return nil, err
	}
	r.onEvent, err = safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		r.event(args)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if _, err := win.Call("kfPatchHandler", r.onEvent); err != nil {
		return nil, err
	}
	return r, nil
}

// EventEnv is the lock builds and handlers share.
func (r *renderer) EventEnv() vugu.EventEnv { return r.ee }

// EventWait blocks until something asks for a render.
func (r *renderer) EventWait() bool { return <-r.wait }

// Render brings the page up to a build.
func (r *renderer) Render(br *vugu.BuildResults) error {
	ops, err := r.diff.Render(br)
	if err != nil || len(ops) == 0 {
		return err
	}
	if len(ops) > r.bufLen {
		if r.jsBuf, err = r.buffer.Invoke(len(ops)); err != nil {
			return err
		}
		if r.bufLen, err = r.jsBuf.Length(); err != nil {
			return err
		}
	}
	if _, err := safejs.CopyBytesToJS(r.jsBuf, ops); err != nil {
		return err
	}
	_, err = r.apply.Invoke(len(ops))
	return err
}

// event delivers one DOM event: args are the listener's slot and the
// event's summary (JSON). The handler runs at once, inside the browser's
// dispatch (so it can prevent the default action), with the write lock
// held; the next animation frame renders what it changed (renderDue).
//
// The render waits for the frame because the browser paints only there:
// drawn at once, inside the event's task, a click on the story's Next
// was drawn twice before the next paint, once by its handler and once by
// the frame that plays the step's first events, and each render's DOM
// changes were laid out on their own (the page reads the lists' scroll
// sizes after a render). The frames of the built-in scenarios' step
// changes (issue 15's long frames) spent 40-250 ms of script in that
// handler on a loaded machine (Long Animation Frame entries), a third
// of such a frame. The page asks for a frame every frame, so the render
// comes before the next paint all the same (or the one after, when the
// next frame runs a step's engine work alone: player.FrameSplit).
func (r *renderer) event(args []safejs.Value) {
	if len(args) < 2 {
		return
	}
	slot, err := args[0].Int()
	if err != nil {
		return
	}
	text, err := args[1].String()
	if err != nil {
		return
	}
	summary, err := ui.ParseEventProps(text)
	if err != nil {
		return
	}
	r.ee.Lock()
	defer r.ee.UnlockOnly()
	f := r.diff.Handler(uint32(slot))
	if f == nil {
		return // its element went away in a render since
	}
	r.renderDue = true
	f(&domEvent{EventProps: summary, ee: r.ee})
}

// takeRenderDue reports whether a handler ran since the last call (the
// caller holds the event lock): the frame then renders.
func (r *renderer) takeRenderDue() bool {
	due := r.renderDue
	r.renderDue = false
	return due
}

// domEvent is vugu.DOMEvent for a delivered event: the summary, and the
// event itself while its handler runs.
type domEvent struct {
	ui.EventProps
	ee vugu.EventEnv
}

func (e *domEvent) EventEnv() vugu.EventEnv  { return e.ee }
func (e *domEvent) JSEvent() vjs.Value       { return vjs.Value(activeEvent()) }
func (e *domEvent) JSEventTarget() vjs.Value { return vjs.Value(activeEvent().Get("target")) }
func (e *domEvent) JSEventCurrentTarget() vjs.Value {
	return vjs.Value(activeEvent().Get("currentTarget"))
}

func (e *domEvent) PreventDefault() {
	if ev := activeEvent(); ev.Truthy() {
		ev.Call("preventDefault")
	}
}

func (e *domEvent) StopPropagation() {
	if ev := activeEvent(); ev.Truthy() {
		ev.Call("stopPropagation")
	}
}

// activeEvent is the event being delivered (null outside a handler).
func activeEvent() js.Value { return js.Global().Call("vuguGetActiveEvent") }
