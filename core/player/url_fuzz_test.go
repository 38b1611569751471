package player

import (
	"errors"
	"testing"

	"kafkascope/core/simulate"
)

// The page's query and #part are untrusted: any text parses or fails with
// ErrBadLink; what parses names at most one of a session or a scenario,
// with a valid step, or a simulator run within the CLI's bounds. (The session text itself is FuzzDecodeLink's.)
func FuzzParseURL(f *testing.F) {
	f.Add("?embed=1", "#scenario=03-high-watermark&step=2&lang=en")
	f.Add("", "#lang=ko&s=eJyrVkrOzytJzSvRUcrPTy1WsjI0MjGp1QEAW9IHTQ")
	f.Add("?lang=ko", "#%zz")
	f.Add("", "#s=a&scenario=b")
	f.Add("", "#sim=34&config=inter.broker.protocol.version=0.10&lang=ko")
	f.Add("", "#sim=1&config=min.insync.replicas=1&config=unclean.leader.election.enable=true&faults=12&minutes=3&groups=0")
	f.Add("", "#sim=18446744073709551616&config=no.such=1&faults=-1")
	f.Add("", "#sim=2&scenario=04-isr&step=1")
	f.Fuzz(func(t *testing.T, query, hash string) {
		st, err := ParseURL(query, hash)
		if err != nil {
			if !errors.Is(err, ErrBadLink) {
				t.Fatalf("error does not wrap ErrBadLink: %v", err)
			}
			return
		}
		if sl := st.Sim; sl != nil && (st.Session != "" || st.Scenario != "" || sl.Seed == 0 || len(sl.Opts.Overrides) > maxLinkConfigs ||
			sl.Opts.Faults < 0 || sl.Opts.Faults > simulate.MaxFaults || sl.Opts.Minutes < 0 || sl.Opts.Minutes > simulate.MaxMinutes) {
			t.Fatalf("inconsistent simulator link %+v from %q", sl, hash)
		}
		if st.Session != "" && st.Scenario != "" || st.Step != 0 && st.Scenario == "" || st.Scenario != "" && !scenarioID.MatchString(st.Scenario) {
			t.Fatalf("inconsistent state %+v from %q %q", st, query, hash)
		}
	})
}
