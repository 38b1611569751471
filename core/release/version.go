package release

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a Kafka release line: major.minor (patch releases of a line
// share defaults and formats; the engine follows the line's .0 tag).
type Version struct{ Major, Minor int }

func (v Version) String() string { return strconv.Itoa(v.Major) + "." + strconv.Itoa(v.Minor) }

// AtLeast reports whether v is major.minor or later.
func (v Version) AtLeast(major, minor int) bool {
	return v.Major > major || v.Major == major && v.Minor >= minor
}

// Parse reads "4.3" or "4.3.0" (a patch number is accepted and dropped).
func Parse(s string) (Version, error) {
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return Version{}, fmt.Errorf("%q is not a Kafka version (major.minor, such as 4.3)", s)
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || v > 99 || p != strconv.Itoa(v) {
			return Version{}, fmt.Errorf("%q is not a Kafka version (major.minor, such as 4.3)", s)
		}
		n[i] = v
	}
	return Version{Major: n[0], Minor: n[1]}, nil
}
