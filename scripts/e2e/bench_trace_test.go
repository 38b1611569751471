package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// Chrome traces of the frame benchmark's parts (KAFKASCOPE_BENCH_TRACE=1):
// where the renderer's time per frame goes, by the browser's own phases
// (script, style, layout, paint, composite, GC) rather than by function
// as the CPU profiles have it. Each part's trace is written to
// build/traces/frames-NAME.json (open it in DevTools' Performance panel or
// ui.perfetto.dev) and summarised in the log. The summary counts CPU
// time (the events' thread time), not wall time: on a loaded machine the
// page's thread waits for a core in the middle of its frames.

// traceCategories are what DevTools' Performance panel records.
var traceCategories = []string{
	"-*", "devtools.timeline", "disabled-by-default-devtools.timeline",
	"disabled-by-default-devtools.timeline.frame", "toplevel", "v8.execute",
	"blink.user_timing", "cc", "disabled-by-default-v8.gc", "v8.wasm",
}

// tracer collects one trace at a time from a tab.
type tracer struct {
	mu     sync.Mutex
	events []json.RawMessage
	done   chan struct{}
}

// traceStart starts a trace when traces are asked for.
func (fb *framesBench) traceStart() {
	if os.Getenv("KAFKASCOPE_BENCH_TRACE") != "1" {
		return
	}
	if fb.trace == nil {
		fb.trace = &tracer{}
		tr := fb.trace
		if err := chromedp.Listen(fb.tab, func(ev any) {
			switch e := ev.(type) {
			case *tracing.EventDataCollected:
				tr.mu.Lock()
				for _, v := range e.Value {
					tr.events = append(tr.events, json.RawMessage(v))
				}
				tr.mu.Unlock()
			case *tracing.EventTracingComplete:
				tr.mu.Lock()
				if tr.done != nil {
					close(tr.done)
					tr.done = nil
				}
				tr.mu.Unlock()
			}
		}); err != nil {
			fb.t.Fatalf("listening for the trace: %v", err)
		}
	}
	fb.trace.mu.Lock()
	fb.trace.events = nil
	fb.trace.mu.Unlock()
	err := chromedp.Do(fb.tab, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, tracing.Start, tracing.StartParams{
			TransferMode: tracing.StartTransferModeReportEvents,
			TraceConfig:  &tracing.TraceConfig{IncludedCategories: traceCategories},
		})
		return err
	}))
	if err != nil {
		fb.t.Fatalf("starting the trace: %v", err)
	}
}

// traceStop ends the trace, writes it and logs its summary over frames.
func (fb *framesBench) traceStop(name string, frames int) {
	if fb.trace == nil {
		return
	}
	done := make(chan struct{})
	fb.trace.mu.Lock()
	fb.trace.done = done
	fb.trace.mu.Unlock()
	err := chromedp.Do(fb.tab, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, tracing.End, cdp.Empty{})
		return err
	}))
	if err != nil {
		fb.t.Fatalf("ending the trace: %v", err)
	}
	select {
	case <-done:
	case <-time.After(time.Minute):
		fb.t.Fatalf("the trace of %s never completed", name)
	}
	fb.trace.mu.Lock()
	events := fb.trace.events
	fb.trace.events = nil
	fb.trace.mu.Unlock()
	dir := filepath.Join(repoRoot(fb.t), "build", "traces")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fb.t.Fatal(err)
	}
	data, err := json.Marshal(map[string]any{"traceEvents": events})
	if err != nil {
		fb.t.Fatal(err)
	}
	file := filepath.Join(dir, "frames-"+name+".json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		fb.t.Fatal(err)
	}
	fb.t.Logf("trace of %s: %s\n%s", name, file, traceSummary(events, frames))
}

type traceEvent struct {
	Name string          `json:"name"`
	Ph   string          `json:"ph"`
	Ts   float64         `json:"ts"`
	Dur  float64         `json:"dur"`
	Tdur float64         `json:"tdur"` // the thread's CPU time (wall time less time preempted)
	Pid  int             `json:"pid"`
	Tid  int             `json:"tid"`
	Args json.RawMessage `json:"args"`
}

// tracePhase puts a renderer main-thread event into a phase.
func tracePhase(name string) string {
	switch name {
	case "FunctionCall", "v8.callFunction", "EvaluateScript", "v8.compile", "TimerFire",
		"FireAnimationFrame", "EventDispatch", "v8.run", "V8.Execute":
		return "script"
	case "UpdateLayoutTree", "RecalculateStyles", "ScheduleStyleRecalculation", "ParseAuthorStyleSheet":
		return "style"
	case "Layout", "UpdateLayerTree", "IntersectionObserverController::computeIntersections":
		return "layout"
	case "Paint", "PrePaint", "PaintImage", "Layerize", "UpdateLayer", "PaintSetup", "RasterTask", "Decode Image":
		return "paint"
	case "Commit", "CompositeLayers", "ProxyMain::BeginMainFrame::commit":
		return "composite"
	case "MajorGC", "MinorGC", "V8.GCScavenger", "V8.GCFinalizeMC", "V8.GC_MC_BACKGROUND", "BlinkGC.AtomicPhase":
		return "gc"
	case "RunTask", "ThreadControllerImpl::RunTask", "ProxyMain::BeginMainFrame":
		return "task"
	}
	return "other"
}

// traceSummary is the renderer main thread's self CPU time per phase and
// per event, per frame, and the other threads' CPU time (every process:
// the renderer's workers, the GPU process's display compositor, the
// browser).
func traceSummary(raw []json.RawMessage, frames int) string {
	threads := map[[2]int]string{}
	var evs []traceEvent
	for _, r := range raw {
		var e traceEvent
		if json.Unmarshal(r, &e) != nil {
			continue
		}
		if e.Ph == "M" && e.Name == "thread_name" {
			var a struct {
				Name string `json:"name"`
			}
			_ = json.Unmarshal(e.Args, &a)
			threads[[2]int{e.Pid, e.Tid}] = a.Name
			continue
		}
		if e.Ph == "X" && e.Dur > 0 {
			evs = append(evs, e)
		}
	}
	// Self time: an event's duration less its children's, per thread.
	byThread := map[[2]int][]traceEvent{}
	for _, e := range evs {
		k := [2]int{e.Pid, e.Tid}
		byThread[k] = append(byThread[k], e)
	}
	self := map[string]float64{}  // main thread, per event name (ms)
	phase := map[string]float64{} // main thread, per phase (ms)
	other := map[string]float64{} // other threads' top-level time (ms)
	for k, list := range byThread {
		sort.SliceStable(list, func(i, j int) bool {
			if list[i].Ts != list[j].Ts {
				return list[i].Ts < list[j].Ts
			}
			return list[i].Dur > list[j].Dur
		})
		name := threads[k]
		type open struct {
			end  float64
			name string
		}
		var stack []*open
		flush := func(upTo float64) {
			for len(stack) > 0 && stack[len(stack)-1].end <= upTo {
				stack = stack[:len(stack)-1]
			}
		}
		for _, e := range list {
			flush(e.Ts)
			// CPU time, not wall time: on a loaded machine a thread
			// waits for a core in the middle of its tasks.
			dur := e.Tdur / 1000
			if len(stack) == 0 && name != "CrRendererMain" {
				other[name] += dur
			}
			o := &open{end: e.Ts + e.Dur, name: e.Name}
			stack = append(stack, o)
			if name == "CrRendererMain" {
				// Self time is added as the duration now and the
				// children's taken off when they arrive.
				self[e.Name] += dur
				phase[tracePhase(e.Name)] += dur
				if len(stack) > 1 {
					parent := stack[len(stack)-2]
					self[parent.name] -= dur
					phase[tracePhase(parent.name)] -= dur
				}
			}
		}
	}
	per := func(ms float64) float64 { return ms / float64(max(frames, 1)) }
	var b strings.Builder
	b.WriteString(frameCPU(evs, threads))
	var total float64
	for _, v := range phase {
		total += v
	}
	fmt.Fprintf(&b, "  renderer main thread CPU per frame (%d frames): %.1f ms:", frames, per(total))
	for _, p := range []string{"script", "style", "layout", "paint", "composite", "gc", "task", "other"} {
		fmt.Fprintf(&b, " %s %.1f", p, per(phase[p]))
	}
	b.WriteString("\n  main thread self CPU time per frame, by event:\n")
	for i, e := range largestFirst(self) {
		if i >= 18 || e.v <= 0 {
			break
		}
		fmt.Fprintf(&b, "    %6.2f ms  %s\n", per(e.v), e.k)
	}
	// V8 compiles the hot functions of a new page's wasm again, with its
	// optimizing tier, on worker threads: on two cores that competes with
	// the page's own thread.
	var tierUp float64
	for _, e := range evs {
		if e.Name == "wasm.ExecuteCompilationUnits" {
			tierUp += e.Tdur / 1000
		}
	}
	fmt.Fprintf(&b, "  wasm compiled by V8's optimizing tier (worker threads): %.1f ms CPU a frame\n", per(tierUp))
	b.WriteString("  other threads' CPU per frame:")
	for i, e := range largestFirst(other) {
		if i >= 8 {
			break
		}
		fmt.Fprintf(&b, " %s %.1f;", e.k, per(e.v))
	}
	return b.String()
}

// frameCPU is the distribution of the CPU time of the renderer main
// thread's frames (ProxyMain::BeginMainFrame: the animation frame
// callbacks, style, layout, paint): a frame of more than a 60 Hz frame's
// CPU is late whatever else runs on the machine.
func frameCPU(evs []traceEvent, threads map[[2]int]string) string {
	var cpu []float64
	for _, e := range evs {
		if e.Name == "ProxyMain::BeginMainFrame" && threads[[2]int{e.Pid, e.Tid}] == "CrRendererMain" {
			cpu = append(cpu, e.Tdur/1000)
		}
	}
	if len(cpu) == 0 {
		return ""
	}
	sort.Float64s(cpu)
	over := 0
	for _, x := range cpu {
		if x > 16 {
			over++
		}
	}
	n := len(cpu)
	return fmt.Sprintf("  main-thread frames' CPU: %d frames: p50 %.1f ms, p95 %.1f ms, max %.1f ms; over 16 ms: %d\n",
		n, cpu[n/2], cpu[min(int(0.95*float64(n)), n-1)], cpu[n-1], over)
}

// kv is one entry of a map of costs.
type kv struct {
	k string
	v float64
}

// largestFirst is m's entries, the largest value first (equal values by
// name, so a report does not depend on map order).
func largestFirst(m map[string]float64) []kv {
	all := make([]kv, 0, len(m))
	for k, v := range m {
		all = append(all, kv{k, v})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].v != all[j].v {
			return all[i].v > all[j].v
		}
		return all[i].k < all[j].k
	})
	return all
}
