// Package timeline is a session you can rewind. It records every action a
// user takes (a command line with its input, a Ctrl-C, a click that becomes
// a command) with the virtual time it was taken at, plays the cluster
// forward at any speed, and seeks to any earlier moment by replaying the
// recorded actions: the engine is deterministic, so a replay reaches
// exactly the state the user saw. Acting in the past forks the timeline:
// the actions after that moment are dropped.
//
// Seeks are fast because of standby replays (standby.go): a simulated
// world of goroutines cannot be copied, but a replay can be paused, so the
// session keeps up to MaxStandbys replays paused at moments spread over
// the branch (built in idle time by Background, plus the live replay a
// seek leaves behind) and resumes the nearest one at or before the target
// (the one idle time is still building counts, where it has got to)
// instead of replaying from the cluster's creation.
//
// A session encodes to a compact string (for share links) and decodes from
// one, treating the input as untrusted.
//
// The package drives the console; it holds no Kafka logic.
package timeline
