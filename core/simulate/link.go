package simulate

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"kafkascope/core/release"
	"kafkascope/core/urlquery"
)

// PageURL is the page `make serve` serves (scripts/serve, port 8080): the
// address the CLI prints for opening a run in the browser.
const PageURL = "http://127.0.0.1:8080/"

// LinkHash is the browser's #part that replays seed under opts:
// sim=<seed>, then the options Flags() prints, in the same order
// (config=k=v repeated by key, faults=N, minutes=N, groups=0, version=V).
// core/player's ParseURL reads it back.
func LinkHash(seed uint64, opts Options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#sim=%d", seed)
	for _, k := range slices.Sorted(maps.Keys(opts.Overrides)) {
		fmt.Fprintf(&b, "&config=%s=%s", urlquery.QueryEscape(k), urlquery.QueryEscape(opts.Overrides[k]))
	}
	if opts.Faults > 0 {
		fmt.Fprintf(&b, "&faults=%d", opts.Faults)
	}
	if opts.Minutes > 0 {
		fmt.Fprintf(&b, "&minutes=%d", opts.Minutes)
	}
	if opts.NoGroups {
		b.WriteString("&groups=0")
	}
	if opts.Version != (release.Version{}) {
		fmt.Fprintf(&b, "&version=%s", opts.Version)
	}
	return b.String()
}

// Limits a replay link (and the CLI) holds a run to.
const (
	MaxFaults  = 10000
	MaxMinutes = 60
)
