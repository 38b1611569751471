// Package feed turns the engine's structured notes (sim trace events with a
// key and fields, such as "leader.elected" tp=orders-0 leader=2 epoch=1)
// into one plain sentence each, in English and Korean, for the event feed,
// and says which of them mark the timeline (crashes, elections, ISR
// changes).
//
// It only reads the trace; it decides nothing.
package feed
