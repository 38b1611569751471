//go:build js && wasm

package main

import (
	"fmt"
	"strings"
	"time"

	"kafkascope/core/player"
	"kafkascope/core/sim"
)

// seekStats publishes what each seek cost on #status when it arrives,
// for the browser benchmark (scripts/e2e, benchHour): data-seek (the
// moment it replayed from and went to, in ms of virtual time, the events
// it ran, its frames and the engine's milliseconds in them) and
// data-standbys (the moments standby replays stood at when it began, in
// ms). The bench reads them beside each seek's latency, so a slow seek
// says whether it replayed far or spent its time elsewhere.
type seekStats struct {
	shown    player.Mode // the session or simulator run whose seeks are counted
	seeks    int         // seeks arrived by the last frame (timeline LastSeek)
	frames   int         // frames of the seek under way
	tick     time.Duration
	standbys []sim.Time // before the frame that started it
}

// before looks at the standbys before a frame, which may start a seek
// (a seek takes one).
func (s *seekStats) before(p *player.Player) {
	if _, seeking := p.Seeking(); !seeking {
		s.standbys = p.Standbys()
		s.frames, s.tick = 0, 0
	}
}

// frame records one frame's tick (took), under the event lock: p is the
// player after it. A seek may start and arrive in the same frame.
func (s *seekStats) frame(p *player.Player, took time.Duration) {
	_, seeking := p.Seeking()
	from, events, seeks := p.LastSeek()
	if p.Mode != s.shown {
		// Another session or simulator run counts its seeks from none
		// (a run's arrive at once and count none).
		s.shown, s.seeks = p.Mode, seeks
	}
	if !seeking && seeks == s.seeks {
		return
	}
	s.frames++
	s.tick += took
	if seeking {
		return
	}
	s.seeks = seeks
	status, err := byID("status")
	if err != nil {
		return
	}
	for _, kv := range [][2]string{
		{"data-seek", fmt.Sprintf("%d %d %d %d %.1f", from.Millis(), p.Now().Millis(), events, s.frames, float64(s.tick)/float64(time.Millisecond))},
		{"data-standbys", millis(s.standbys)},
	} {
		if _, err := status.Call("setAttribute", kv[0], kv[1]); err != nil {
			logErr("publishing a seek's figures", err)
			return
		}
	}
}

func millis(ts []sim.Time) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprint(&b, t.Millis())
	}
	return b.String()
}
