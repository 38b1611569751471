package player

import (
	"errors"
	"testing"
)

// The page's query and #part are untrusted: any text parses or fails with
// ErrBadLink; what parses names at most one of a session or a scenario,
// with a valid step. (The session text itself is FuzzDecodeLink's.)
func FuzzParseURL(f *testing.F) {
	f.Add("?embed=1", "#scenario=03-high-watermark&step=2&lang=en")
	f.Add("", "#lang=ko&s=eJyrVkrOzytJzSvRUcrPTy1WsjI0MjGp1QEAW9IHTQ")
	f.Add("?lang=ko", "#%zz")
	f.Add("", "#s=a&scenario=b")
	f.Fuzz(func(t *testing.T, query, hash string) {
		st, err := ParseURL(query, hash)
		if err != nil {
			if !errors.Is(err, ErrBadLink) {
				t.Fatalf("error does not wrap ErrBadLink: %v", err)
			}
			return
		}
		if st.Session != "" && st.Scenario != "" || st.Step < 0 || st.Step > 1000 || st.Scenario != "" && !scenarioID.MatchString(st.Scenario) {
			t.Fatalf("inconsistent state %+v from %q %q", st, query, hash)
		}
	})
}
