// Package textdiff shows where two texts part, for tests that compare a
// run, a log or a drawing with another made a different way (leaped
// against stepped, in place against one by one, a snapshot against the
// page): the first line that differs, from each side.
package textdiff
