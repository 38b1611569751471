// Package sorts sorts slices off the engine's per-event path (commands,
// views, rebalances, snapshots) with one compiled copy of the sorting code
// for all element types.
//
// slices.SortFunc and slices.SortStableFunc are generic, and Go compiles
// a copy of them for each element type's shape; every struct type is a
// shape of its own. Each copy of pattern-defeating quicksort is a dozen
// functions and about 20 KB of WebAssembly, and the engine sorted some 20
// struct types, so that the copies made up 0.31 MB of main.wasm's code
// (38 KB of its brotli size). Func and StableFunc sort with sort.Slice and
// sort.SliceStable, compiled once for all element types. The standard
// library generates both packages' algorithms from one template
// (sort/gen_sort_variants.go), so Func and StableFunc put the elements in
// exactly the order slices.SortFunc and slices.SortStableFunc do, ties
// included: a run does not change. Each comparison costs a call more and
// each swap goes through reflection, so code that sorts per simulated
// event keeps the slices functions.
package sorts

import "sort"

// Func sorts s in ascending order as determined by cmp, in the order
// slices.SortFunc(s, cmp) gives; it is not stable.
func Func[S ~[]E, E any](s S, cmp func(a, b E) int) {
	sort.Slice(s, func(i, j int) bool { return cmp(s[i], s[j]) < 0 })
}

// StableFunc sorts s as slices.SortStableFunc(s, cmp) does, keeping the
// order of equal elements.
func StableFunc[S ~[]E, E any](s S, cmp func(a, b E) int) {
	sort.SliceStable(s, func(i, j int) bool { return cmp(s[i], s[j]) < 0 })
}
