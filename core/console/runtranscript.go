package console

import (
	"kafkascope/core/cluster"
	"kafkascope/core/transcript"
)

// ClaimChecker checks one "## state: " line against a cluster (nil before
// the first cluster create), returning a problem per claim that fails
// (view.CheckClaims is one).
type ClaimChecker func(c *cluster.Cluster, claims string) []error

// RunTranscript runs tr in a fresh session and returns every command's
// actual output (in order) and the mismatches; with a check (nil: none),
// also each claim of a step that does not hold when the step's last
// command has finished.
func RunTranscript(tr *transcript.Transcript, check ClaimChecker) ([][]string, []transcript.Mismatch, []transcript.StateFailure) {
	s := NewSession()
	var claims func(line string) []error
	if check != nil {
		claims = func(line string) []error { return check(s.Cluster(), line) }
	}
	return tr.Run(s, claims)
}
