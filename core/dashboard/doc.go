// Package dashboard is the on-call dashboard's history: a few of Kafka's
// metrics, summed over the cluster, sampled at fixed instants of virtual
// time and kept as step functions, with the alert thresholds operators
// commonly set on them.
//
// The samples are taken from the engine's own state as the clock passes
// each instant (sim.World.SetClockHook): sampling adds no event to the
// world and changes nothing in it, so a run, its replay and a seek read
// the same history. The instants depend on virtual time alone: every
// second for the first ten minutes, then every 10 s up to two hours,
// every minute up to a day, and every 5 minutes after that, so a
// simulated week keeps a few thousand samples. A series stores only the
// samples that differ from the one before.
package dashboard
