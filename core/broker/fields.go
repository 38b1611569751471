package broker

import (
	"strconv"
	"strings"
)

// Helpers that render a stuck client's cause fields (causes.go).
func id32(n int32) string { return strconv.Itoa(int(n)) }

// ids renders a replica list as Kafka's tools print it: 1,2,3.
func ids(v []int32) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = id32(x)
	}
	return strings.Join(s, ",")
}
