package ui

import (
	"fmt"
	"strconv"
	"strings"

	"kafkascope/core/sim"
	"kafkascope/core/view"
)

// Transient effects of the diagram: what changed between two frames, shown
// for a moment. The engine's state has no memory of "just now"; the
// diagram keeps the last frame's leaders and log ends to notice:
//   - a truncation (a replica's log end moved back): the removed offsets are
//     drawn as fading red cells where they were;
//   - an election (the leader or its epoch changed): the row pulses.
//
// Seeking back in time is not a truncation: the memory is forgotten when
// the clock goes backwards.
const (
	dgEffectFrames = 90 // how many renders an effect lasts (~1.5 s at 60 fps)
)

// dgEffects is the diagram's memory between frames.
type dgEffects struct {
	now      sim.Time
	leo      map[string]int64 // "t-0/2" → log end offset last frame
	leader   map[string]int64 // "t-0" → leader<<32 | epoch last frame
	cuts     map[string]*dgCutMark
	elected  map[string]int // partition → renders left
	rendered int
}

// dgCutMark is a truncation being shown: offsets [from, to) of one replica.
type dgCutMark struct {
	from, to int64
	left     int
}

// observe compares a snapshot with the last one and ages the effects.
func (e *dgEffects) observe(s *view.Snapshot) {
	if e.leo == nil {
		e.leo, e.leader = map[string]int64{}, map[string]int64{}
		e.cuts, e.elected = map[string]*dgCutMark{}, map[string]int{}
	}
	if s.Now < e.now { // a seek back: nothing here happened "just now"
		clear(e.leo)
		clear(e.leader)
		clear(e.cuts)
		clear(e.elected)
	}
	forward := s.Now > e.now
	e.now = s.Now
	for k, m := range e.cuts {
		if m.left--; m.left <= 0 {
			delete(e.cuts, k)
		}
	}
	for k, n := range e.elected {
		if n <= 1 {
			delete(e.elected, k)
		} else {
			e.elected[k] = n - 1
		}
	}
	for _, tp := range s.Topics {
		for _, p := range tp.Partitions {
			name := p.Topic + "-" + strconv.Itoa(int(p.Index))
			key := int64(p.Leader)<<32 | int64(uint32(p.LeaderEpoch))
			if old, ok := e.leader[name]; ok && old != key && forward {
				e.elected[name] = dgEffectFrames
			}
			e.leader[name] = key
			for _, r := range p.Replicas {
				if !r.Present {
					continue
				}
				rk := name + "/" + strconv.Itoa(int(r.Broker))
				if old, ok := e.leo[rk]; ok && r.LEO < old && forward {
					e.cuts[rk] = &dgCutMark{from: r.LEO, to: old, left: dgEffectFrames}
				}
				e.leo[rk] = r.LEO
			}
		}
	}
}

// cutRun returns the path and opacity of a replica's fading truncated cells
// within the window of offsets [start, start+MaxCells), or "".
func (l *dgLayout) cutRun(name string, broker int32, start int64) (string, string) {
	m := l.fx.cuts[name+"/"+strconv.Itoa(int(broker))]
	if m == nil {
		return "", ""
	}
	var b strings.Builder
	for off := max(m.from, start); off < m.to && off < start+view.MaxCells; off++ {
		slot := int(off - start)
		b.WriteString("M" + l.cellX[slot] + " " + l.G.StripY + "h" + l.cellWs + "v" + l.G.StripH + "h-" + l.cellWs + "z")
	}
	if b.Len() == 0 {
		return "", ""
	}
	return b.String(), dgf(float64(m.left) / dgEffectFrames)
}

// lostMarks are the spans of a window that hold lost committed offsets.
func (l *dgLayout) lostMarks(p view.Partition, start int64) []dgMark {
	var out []dgMark
	for _, lr := range p.Lost {
		from, to := max(lr.From, start), min(lr.To, start+view.MaxCells)
		if from >= to {
			continue
		}
		x := dgStripX + float64(from-start)*l.cellW
		w := float64(to-from)*l.cellW - dgCellGap(l.cellW)
		out = append(out, dgMark{X: dgf(x - 1), W: dgf(w + 2)})
	}
	return out
}

// dgMark is a highlighted span of a strip.
type dgMark struct{ X, W string }

// dgAlert is the row's warning line (how long the partition has had no
// serving leader, or what committed data it lost) in three lengths, the
// first that fits is drawn (dgFit), and its tooltip. All empty: no
// warning.
func dgAlert(s *view.Snapshot, p view.Partition, t dgTranslator) (forms [3]string, tip string) {
	if len(p.Lost) > 0 {
		n := int64(0)
		var parts []string
		for _, lr := range p.Lost {
			n += lr.To - lr.From
			vals := strings.Join(quoteAll(lr.Values), ", ")
			parts = append(parts, fmt.Sprintf(t("lost.tip"), lr.From, lr.To-1, lr.Leader, lr.Epoch, vals))
		}
		long := fmt.Sprintf(t("lost.records"), n)
		forms, tip = [3]string{long, fmt.Sprintf(t("lost.records.short"), n), "✕ " + strconv.FormatInt(n, 10)}, strings.Join(parts, "\n")
	}
	if p.Down {
		secs := float64(s.Now.Sub(p.DownSince)) / 1e9
		long := fmt.Sprintf(t("unavailable.for"), fmt.Sprintf("%.1f s", secs))
		short := dgShortSecs(secs)
		forms = [3]string{long, fmt.Sprintf(t("unavailable.short"), short), "✕ " + short}
		if tip == "" {
			tip = long
		}
	}
	return forms, tip
}

// dgShortSecs is a duration in at most four characters or so: 3.8s, 66s,
// 20m, 3h (a narrow first column's warning line).
func dgShortSecs(secs float64) string {
	switch {
	case secs < 10:
		return strconv.FormatFloat(secs, 'f', 1, 64) + "s"
	case secs < 100:
		return strconv.Itoa(int(secs)) + "s"
	case secs < 100*60:
		return strconv.Itoa(int(secs/60)) + "m"
	}
	return strconv.Itoa(int(secs/3600)) + "h"
}

func quoteAll(vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		if len(v) > 24 {
			v = v[:24] + "…"
		}
		out[i] = strconv.Quote(v)
	}
	return out
}
