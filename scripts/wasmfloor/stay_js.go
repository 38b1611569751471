//go:build js

package main

// stay keeps the program alive in the page: the benchmarks leave runtime
// timers scheduled there (setTimeout), and one firing after main returned
// throws "Go program has already exited" into the page (it failed a
// benchmark run). Under GOOS=js an empty select waits for events; it is
// not a deadlock.
func stay() { select {} }
