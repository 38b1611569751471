package zookeeper

import (
	"strconv"
	"strings"
)

// Server N of a kafkascope ensemble runs on host zookeeper-N (the
// cluster spawns them; Kafka's own docs name servers zookeeper-1.. too).
const hostPrefix = "zookeeper-"

// HostName is server n's host name.
func HostName(n int) string { return hostPrefix + strconv.Itoa(n) }

// HostNumber reads n from a server's host name: false for any other host,
// among them tools named after ZooKeeper (zookeeper-shell-1 is a client).
func HostNumber(host string) (int, bool) {
	rest, ok := strings.CutPrefix(host, hostPrefix)
	if !ok || rest == "" {
		return 0, false
	}
	for i := 0; i < len(rest); i++ {
		if rest[i] < '0' || rest[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil
}
