// Package invariant stops a run where the engine finds one of its own
// invariants broken: the orderings its comments state for a log's
// offsets, a leader epoch cache, a leader's high watermark and ISR,
// checked where the code maintains them (TigerBeetle's habit of
// assertions in running code). A broken invariant is a bug in
// kafkascope, never a behaviour of the Kafka being simulated, so
// nothing recovers from it: it panics with a Violation, which package
// sim turns into the run's error (with the host and virtual time), the
// simulator reports with its seed, and a test fails on.
//
// A check costs a comparison: call sites test the condition themselves
// and call Fail only when it is false, so that a passing check builds no
// message and boxes no argument.
package invariant
