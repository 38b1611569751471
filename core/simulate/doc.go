// Package simulate is the randomized fault simulator (issue 8), in the
// manner of TigerBeetle's VOPR and FoundationDB's simulator: every run is a
// seed; the cluster, the workload and the fault schedule are drawn from it
// through named sim.Rand streams; checkers verify Kafka's guarantees during
// a safety phase with faults and after a liveness phase that heals
// everything. The same seed replays the same run, event for event, so a
// failure is reported as the seed that reproduces it.
//
// Files: plan.go draws a run's shape, workload.go its producers, groups.go
// its consumer groups and their checks, faults.go its fault schedule,
// faults_voters.go and faults_consumers.go the controller-voter power
// losses and consumer restarts (each from its own stream), extras.go their
// state, checks_*.go the checkers (checks_commits.go holds groups to the
// offsets acknowledged to them), txn_plan.go, txn_workload.go,
// txn_readers.go, txn_faults.go and txn_run.go the transactional workload
// (issue 20: transactional producers, their crashes and zombies,
// read_committed and read_uncommitted consumers), checks_txn_reads.go and
// checks_txn.go its checkers, run.go the phases, setup.go topic creation
// and the raw consumer reader, sweep.go seed ranges, parallel sweeps and
// failure lines; stepper.go runs one seed a frame at a time (the browser's
// player), link.go writes its #sim= link. docs/simulator.md explains every
// fault, checker and exemption in Kafka's terms.
package simulate
