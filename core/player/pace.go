package player

import (
	"time"

	"kafkascope/core/sim"
)

// paced is the virtual time a frame playing at a speed plays, d, cut so
// that the session stands on a whole millisecond; the cut carries over to
// the next frame, so time still moves at the chosen speed (each frame
// within a millisecond of it). The scrubber, links and the terminal speak
// whole milliseconds, and a seek goes back only by replaying: a session
// left at 5m4.075000020s made a seek to the bar's end (5m4.075s) replay
// from the previous standby, or from the cluster's creation. Where the
// cut falls changes nothing else: the events run are the same however a
// run is split.
func (s *Session) paced(d time.Duration) time.Duration {
	now := s.TL.Now()
	target := now.Add(d + s.carry)
	cut := target - target%sim.Time(time.Millisecond)
	if cut <= now {
		s.carry += d
		return 0
	}
	s.carry = target.Sub(cut)
	return cut.Sub(now)
}
