//go:build race

package simulate

// raceEnabled: the race detector slows a run tenfold; sweeps of many
// seeds skip under it (make test runs go test -race, and make simtest runs
// the seeds without it).
const raceEnabled = true
