// Package view reads a running cluster into plain, display-ready values:
// nodes and their state, every partition's replicas with their log cells,
// LEO and HW, the messages on the wire, and the event feed. The browser's
// components draw only from a Snapshot, so what they draw is the engine's
// real state at one instant, and components can be tested with hand-made
// snapshots.
//
// The package reads; it never changes the cluster.
package view
