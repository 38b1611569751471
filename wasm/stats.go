//go:build js && wasm

package main

import (
	"fmt"
	"runtime/metrics"
	"slices"
	"sync"
	"time"
)

// framesKept is how many recent frames the statistics cover.
const framesKept = 600

// goMemory reads the memory the Go runtime holds from the browser: in
// wasm that is the instance's linear memory, which never shrinks.
var goMemory = []metrics.Sample{{Name: "/memory/classes/total:bytes"}}

func goMemoryMB() float64 {
	metrics.Read(goMemory)
	if goMemory[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return float64(goMemory[0].Value.Uint64()) / 1e6
}

// frameStats measures frames: a frame's cost is its tick (the player
// playing, under the event lock) plus the render it asked for (build,
// post-build pass, DOM sync). The figures are published on #status as
// data-frame-p50-ms, data-frame-p95-ms and data-frame-max-ms once a second,
// with the memory the Go program holds (data-go-mem-mb), its live heap
// (data-go-live-mb: what the last collection kept, while the total is
// a high-water mark) and the paused replays kept for seeking back
// (data-standbys-kept).
type frameStats struct {
	mu      sync.Mutex
	ring    []time.Duration
	next    int
	pending time.Duration // a tick whose render has not happened yet
	waiting bool
	frames  int64
}

func (s *frameStats) record(d time.Duration) {
	if len(s.ring) < framesKept {
		s.ring = append(s.ring, d)
	} else {
		s.ring[s.next] = d
		s.next = (s.next + 1) % framesKept
	}
	s.frames++
}

// ticked records a frame's tick; a frame that asked for a render is
// recorded when the render is done.
func (s *frameStats) ticked(d time.Duration, render bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.waiting { // the previous frame's render never came (coalesced)
		s.record(s.pending)
	}
	s.pending, s.waiting = d, render
	if !render {
		s.record(d)
	}
}

// rendered records a render; it completes the frame that asked for it.
func (s *frameStats) rendered(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.waiting {
		s.record(s.pending + d)
		s.waiting = false
	}
}

func (s *frameStats) publish(standbys int) {
	s.mu.Lock()
	sorted := slices.Clone(s.ring)
	frames := s.frames
	s.mu.Unlock()
	if len(sorted) == 0 {
		return
	}
	slices.Sort(sorted)
	at := func(q float64) string {
		d := sorted[min(int(q*float64(len(sorted))), len(sorted)-1)]
		return fmt.Sprintf("%.2f", float64(d)/float64(time.Millisecond))
	}
	status, err := byID("status")
	if err != nil {
		return
	}
	for _, kv := range [][2]string{
		{"data-frame-p50-ms", at(0.5)},
		{"data-frame-p95-ms", at(0.95)},
		{"data-frame-max-ms", at(1)},
		{"data-frames", fmt.Sprint(frames)},
		{"data-go-mem-mb", fmt.Sprintf("%.1f", goMemoryMB())},
		{"data-go-live-mb", fmt.Sprintf("%.1f", float64(liveHeapBytes())/1e6)},
		{"data-standbys-kept", fmt.Sprint(standbys)},
	} {
		if _, err := status.Call("setAttribute", kv[0], kv[1]); err != nil {
			logErr("publishing frame times", err)
			return
		}
	}
}
