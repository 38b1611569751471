package transcript

import "strings"

// Reconcile returns the expected lines to write in place of expected when
// a command now prints actual (kafkasim check -rewrite): lines that still
// match keep their pattern, and a changed line keeps the wildcards of the
// expected line it replaces where the text around each wildcard is still
// there, so a rewrite does not pin topic ids or log timestamps that the
// transcript had left open. The result always matches actual
// (MatchOutput). An expected output with a "{{...}}" line is replaced by
// actual whole, with its wildcards carried over: which lines to elide again
// is a person's choice.
func Reconcile(expected, actual []string) []string {
	for _, e := range expected {
		if strings.TrimSpace(e) == "{{...}}" {
			return carryAll(withoutElisions(expected), actual)
		}
	}
	n, m := len(expected), len(actual)
	// lcs[i][j]: the longest common subsequence of expected[i:] and
	// actual[j:], where a pattern line and a line are equal if they match.
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case MatchOutput(expected[i:i+1], actual[j:j+1]):
				lcs[i][j] = lcs[i+1][j+1] + 1
			case lcs[i+1][j] >= lcs[i][j+1]:
				lcs[i][j] = lcs[i+1][j]
			default:
				lcs[i][j] = lcs[i][j+1]
			}
		}
	}
	var out []string
	var gapExp []string // expected lines dropped since the last match
	i, j := 0, 0
	for j < m {
		switch {
		case i < n && MatchOutput(expected[i:i+1], actual[j:j+1]) && lcs[i][j] == lcs[i+1][j+1]+1:
			out = append(out, expected[i])
			gapExp = nil
			i++
			j++
		case i < n && lcs[i+1][j] >= lcs[i][j+1]:
			gapExp = append(gapExp, expected[i])
			i++
		default:
			// A new or changed line: take the wildcards of the nearby
			// expected line it most resembles (a dropped one, or a
			// neighbour for an inserted line like its neighbours).
			cands := append([]string(nil), gapExp...)
			cands = append(cands, expected[max(0, i-3):min(n, i+8)]...)
			out = append(out, carry(closest(cands, actual[j]), actual[j]))
			j++
		}
	}
	return out
}

func withoutElisions(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "{{...}}" {
			out = append(out, l)
		}
	}
	return out
}

func carryAll(expected, actual []string) []string {
	out := make([]string, len(actual))
	for j, a := range actual {
		out[j] = carry(closest(expected, a), a)
	}
	return out
}

// closest is the pattern among cands that shares the longest prefix with
// line ("" if none has a wildcard).
func closest(cands []string, line string) string {
	best, bestLen := "", -1
	for _, c := range cands {
		if !strings.Contains(c, "{{*}}") {
			continue
		}
		k := 0
		for k < len(c) && k < len(line) && c[k] == line[k] {
			k++
		}
		if k > bestLen {
			best, bestLen = c, k
		}
	}
	return best
}

// carry puts pattern's wildcards into line: each wildcard's literal
// neighbours (up to 12 characters before it, 4 after) are looked for in
// line, in order, and what lies between them becomes "{{*}}". If any
// neighbour is missing, or the line does not start as the pattern does up
// to its first wildcard's neighbour, line is returned as it is.
func carry(pattern, line string) string {
	if pattern == "" {
		return line
	}
	parts := strings.Split(pattern, "{{*}}")
	var b strings.Builder
	rest := line
	for k := 0; k+1 < len(parts); k++ {
		before := parts[k]
		if len(before) > 12 {
			before = before[len(before)-12:]
		}
		after := parts[k+1]
		if len(after) > 4 {
			after = after[:4]
		}
		at := strings.Index(rest, before)
		if at < 0 || (k == 0 && !strings.HasPrefix(line, parts[0][:min(len(parts[0]), 16)])) {
			return line
		}
		b.WriteString(rest[:at+len(before)])
		rest = rest[at+len(before):]
		end := len(rest)
		if after != "" {
			if end = strings.Index(rest, after); end < 0 {
				return line
			}
		}
		b.WriteString("{{*}}")
		rest = rest[end:]
	}
	b.WriteString(rest)
	return b.String()
}
