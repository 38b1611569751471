package console

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// cmdDowntime prints how long each partition has been without a broker
// serving as its leader (cluster.Availability), or resets the measurement.
// A client could measure the same by writing to every partition without a
// pause; the engine knows it exactly. It takes no simulated time.
func (s *Session) cmdDowntime(args []string) {
	const usage = "usage: downtime [--topic TOPIC] | downtime reset"
	if !s.needCluster("downtime") {
		return
	}
	topic := ""
	switch {
	case len(args) == 1 && args[0] == "reset":
		s.cluster.Availability().Reset(s.world().Now())
		s.print("downtime: measurements cleared")
		return
	case len(args) == 2 && args[0] == "--topic":
		topic = args[1]
	case len(args) != 0:
		s.print(usage)
		return
	}
	rows := [][]string{{"PARTITION", "LEADER", "OUTAGES", "DOWNTIME", "LONGEST", "NOW"}}
	now := s.world().Now()
	for _, r := range s.cluster.Availability().Report(now) {
		if topic != "" && !strings.HasPrefix(r.Partition, topic+"-") {
			continue
		}
		leader, state := "none", "available"
		if r.Leader >= 0 {
			leader = strconv.Itoa(int(r.Leader))
		}
		if r.Down {
			state = "down for " + seconds(now.Sub(r.DownSince))
		}
		rows = append(rows, []string{r.Partition, leader, strconv.Itoa(r.Outages), seconds(r.Total), seconds(r.Longest), state})
	}
	if len(rows) == 1 {
		s.print("downtime: no partition has had a leader yet")
		return
	}
	for _, l := range columns(rows) {
		s.print(l)
	}
}

// seconds prints a duration in seconds with millisecond precision.
func seconds(d time.Duration) string { return fmt.Sprintf("%.3fs", d.Seconds()) }

// columns aligns rows into space-separated columns.
func columns(rows [][]string) []string {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len(c))
		}
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		var b strings.Builder
		for j, c := range r {
			if j < len(r)-1 {
				b.WriteString(c + strings.Repeat(" ", widths[j]-len(c)+2))
			} else {
				b.WriteString(c)
			}
		}
		out[i] = b.String()
	}
	return out
}
