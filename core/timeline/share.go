package timeline

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"kafkascope/core/console"
	"kafkascope/core/deflate"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// Limits on an encoded session (it arrives in a URL: untrusted).
const (
	MaxEncodedBytes = 64 << 10
	maxDecodedBytes = 1 << 20
	maxLineBytes    = 64 << 10
	maxStdinLines   = 10000
	// MaxBranchAhead bounds how far past the shown moment a shared branch
	// may run (it is replayed only when the receiver scrubs forward).
	MaxBranchAhead = 30 * 24 * time.Hour
	// MaxLinkTime bounds every moment a link names (its actions, the
	// moment shown, its end): replaying it runs the cluster that long, so
	// an unbounded time would freeze the page. It covers what a live
	// session can reach: actions up to MaxActionTime, the last one a time
	// advance of at most console.MaxAdvance.
	MaxLinkTime = sim.Time(MaxActionTime + console.MaxAdvance + time.Hour)
)

// shared is the encoded form: a version, the actions, and the moment shown,
// as JSON (share_json.go writes and reads it; the tags name its fields).
// Version 1 links were made when every cluster ran Kafka 3.8: their
// cluster create line is read with --version 3.8 (linkVersion1Release).
// Version 2 links say what their line says.
type shared struct {
	V       int      `json:"v"`
	Actions []Action `json:"a"`
	At      sim.Time `json:"at"`
	End     sim.Time `json:"e,omitempty"`
}

// Encode renders the session (its branch up to its end, and the current
// moment) as URL-safe text.
func (s *Session) Encode() string {
	data := encodeShared(shared{V: 2, Actions: s.actions, At: s.Now(), End: s.End()})
	return base64.RawURLEncoding.EncodeToString(deflate.Encode(data))
}

// linkVersion1Release is the Kafka release every cluster ran when links
// had version 1.
var linkVersion1Release = release.Version{Major: 3, Minor: 8}

// ErrBadSession is wrapped by every decoding failure.
var ErrBadSession = errors.New("it does not hold a valid kafkascope session")

// Decode rebuilds a session from Encode's text: it checks every limit,
// replays the actions, and moves to the moment that was shown.
func Decode(text string) (*Session, error) {
	sh, err := decodeShared(text)
	if err != nil {
		return nil, err
	}
	s := New()
	s.actions = sh.Actions
	s.Do(sh.Actions[0].Line, sh.Actions[0].Stdin) // the cluster
	s.actions = sh.Actions
	s.applied = 1
	s.end = max(sh.Actions[len(sh.Actions)-1].At, sh.At, sh.End)
	if s.Cluster() == nil {
		return nil, fmt.Errorf("%w: its first action does not create a cluster", ErrBadSession)
	}
	if err := s.Seek(sh.At); err != nil {
		return nil, fmt.Errorf("%w: replay failed: %v", ErrBadSession, err)
	}
	return s, nil
}

// Commands reads and checks Encode's text as Decode does, limits and
// all, and answers the command lines its session typed, without replaying
// it: what a server that stores or describes links can afford to do for
// each one it is given.
func Commands(text string) ([]string, error) {
	sh, err := decodeShared(text)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, a := range sh.Actions {
		if !a.Interrupt {
			lines = append(lines, a.Line)
		}
	}
	return lines, nil
}

// decodeShared reads and checks a link's data without replaying it.
func decodeShared(text string) (shared, error) {
	fail := func(format string, args ...any) (shared, error) {
		return shared{}, fmt.Errorf("%w: %s", ErrBadSession, fmt.Sprintf(format, args...))
	}
	if len(text) > MaxEncodedBytes {
		return fail("it is longer than %d characters", MaxEncodedBytes)
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimSpace(text))
	if err != nil {
		return fail("it is not base64url text")
	}
	data, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(raw)), maxDecodedBytes+1))
	if err != nil {
		return fail("it is not compressed session data")
	}
	if len(data) > maxDecodedBytes {
		return fail("it expands beyond %d bytes", maxDecodedBytes)
	}
	var sh shared
	if err := parseShared(data, &sh); err != nil {
		return fail("its data is malformed")
	}
	if sh.V != 1 && sh.V != 2 {
		return fail("it has version %d (this build reads versions 1 and 2)", sh.V)
	}
	if len(sh.Actions) == 0 || len(sh.Actions) > MaxActions {
		return fail("it has %d actions (1 to %d allowed)", len(sh.Actions), MaxActions)
	}
	if !isClusterCreate(sh.Actions[0].Line) {
		return fail("it does not start with cluster create")
	}
	if sh.V == 1 {
		sh.Actions[0].Line = console.PinClusterVersion(sh.Actions[0].Line, linkVersion1Release)
	}
	// The first action runs at its own cluster's time 0. Links copied
	// before Session.create stamped it so carry the previous cluster's
	// clock there, while the rest of the link is in the new cluster's
	// time: reading it as 0 opens them as they were meant.
	sh.Actions[0].At = 0
	var last sim.Time
	for i, a := range sh.Actions {
		switch {
		case a.At < last || a.At < 0:
			return fail("action %d goes back in time", i+1)
		case a.At > sim.Time(MaxActionTime) && !a.Interrupt || a.At > MaxLinkTime:
			return fail("action %d is past the session time limit (%s)", i+1, sim.FormatDuration(MaxActionTime))
		case a.Interrupt && (a.Line != "" || len(a.Stdin) > 0):
			return fail("action %d is both an interrupt and a command", i+1)
		case !a.Interrupt && strings.TrimSpace(a.Line) == "":
			return fail("action %d is empty", i+1)
		case len(a.Line) > maxLineBytes || len(a.Stdin) > maxStdinLines || !utf8.ValidString(a.Line):
			return fail("action %d is too large", i+1)
		case i > 0 && isClusterCreate(a.Line):
			return fail("action %d starts another cluster", i+1)
		}
		for _, in := range a.Stdin {
			if len(in) > maxLineBytes || !utf8.ValidString(in) {
				return fail("action %d has an invalid input line", i+1)
			}
		}
		last = a.At
	}
	if sh.At < 0 || sh.At > MaxLinkTime {
		return fail("the moment it shows is out of range")
	}
	if sh.End < 0 || sh.End > sh.At+sim.Time(MaxBranchAhead) || sh.End > MaxLinkTime {
		return fail("its end is out of range")
	}
	return sh, nil
}
