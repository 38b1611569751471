// Package sim is the deterministic substrate every kafkascope node runs on:
// a virtual clock, an event queue ordered by (time, sequence), seeded PRNG
// streams, an in-memory network with latency, cuts and delays, the lockstep
// scheduler that runs each process in its own goroutine, and a bounded trace
// of what happened. The network drops what a cut takes; a protocol that
// relies on TCP delivering every message in order sends through a Stream
// (stream.go), which retransmits as TCP does.
//
// The contract with the rest of the engine:
//   - Time only comes from the World's clock. Nothing here (or in any node)
//     reads the wall clock.
//   - Randomness only comes from a Rand stream derived from the seed and a
//     stream name, so adding a new stream never perturbs an existing one.
//   - Exactly one process handler runs at a time. Each process goroutine is
//     a coroutine: the driver resumes the process that owns the next event,
//     which runs it and every next event of its own, then yields back naming
//     the owner of the following one (scheduler.go). So process state needs
//     no locks, and everything a handler sends or schedules is ordered by
//     the global sequence number. The same seed and the same driver actions
//     therefore give the same run, byte for byte.
//   - Between steps (when the driver holds the World) no process goroutine is
//     running, so the driver may read any process state directly. A run's stop
//     condition may be evaluated on a process goroutine, in its turn: it
//     must only read state (a panic in it is raised again on the driver).
//   - Spawn, Kill, Exit, Call and Close are the driver's, between runs.
//   - A Leaper (leap.go) may skip a span in which only loops it can compute
//     in closed form run: it changes the processes' state as the span's
//     events would have, and World.Leap swaps the span's events for the
//     ones pending at its end, queued in the order a stepped run would have
//     queued them. Nothing else differs from a stepped run but the trace,
//     World.Steps and sequence numbers.
//
// The package knows nothing about Kafka. It must never import another
// kafkascope package.
package sim
