package textdiff

import (
	"fmt"
	"strings"
)

// FirstLine is the first line where a and b differ, with its number and
// each side's version under its name (each cut at 2000 bytes), or "" if
// they are equal. A text that ends first reads as an empty line there.
func FirstLine(a, b, nameA, nameB string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			w := max(len(nameA), len(nameB)) + 1
			return fmt.Sprintf("line %d:\n  %-*s %.2000s\n  %-*s %.2000s", i+1, w, nameA+":", x, w, nameB+":", y)
		}
	}
	return ""
}
