// Package feed turns the engine's notes (the typed facts of core/event
// that the sim trace carries, such as event.LeaderElected{Topic:
// "orders", Partition: 0, Leader: 2, Epoch: 1}) into one plain sentence
// each, in English and Korean, for the event feed, and says which of them
// mark the timeline (crashes, elections, ISR changes). A sentence's
// template is filled with the note's fields as its Fields method writes
// them (sim.NoteFields); nothing is parsed back from text.
//
// It only reads the trace; it decides nothing.
package feed
