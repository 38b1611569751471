// Package event holds the engine's notes as Go types: each fact a broker,
// controller, KRaft node, group coordinator or client reports about what it
// just did (a leader starting an epoch with its log end offset, an ISR
// shrinking, a group rebalancing), emitted with sim.Env.Note.
//
// One type per fact, named for what happened, with Kafka's names for its
// fields. Every type implements sim.Note: Key is the stable name the
// feed's catalog explains in English and Korean (core/feed), and Fields
// lists the values in a fixed order for the trace's hash and its printed
// line. Code that decides (the availability record, the loss check, the
// fault simulator's checkers, the group log) switches on the types and
// reads their fields as numbers; nothing formats a note to parse it back.
//
// A note is a value recorded in the trace and kept there: a slice in it
// belongs to the note (the emitter passes a copy, never its live state).
// The files follow the package that emits the notes: broker.go,
// controller.go, raft.go, group.go, client.go.
package event
