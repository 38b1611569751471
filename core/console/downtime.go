package console

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// cmdDowntime prints how long each partition has been without a broker
// serving as its leader (cluster.Availability), or resets the measurement.
// A client could measure the same by writing to every partition without a
// pause; the engine knows it exactly. It takes no simulated time.
func (s *Session) cmdDowntime(args []string) {
	const usage = "usage: downtime [--summary] [--topic TOPIC] | downtime reset"
	if !s.needCluster("downtime") {
		return
	}
	if len(args) == 1 && args[0] == "reset" {
		s.cluster.Availability().Reset(s.world().Now())
		s.print("downtime: measurements cleared")
		return
	}
	topic, summary := "", false
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--summary" && !summary:
			summary = true
		case args[i] == "--topic" && topic == "" && i+1 < len(args):
			topic = args[i+1]
			i++
		default:
			s.print(usage)
			return
		}
	}
	if summary {
		s.downtimeSummary(topic)
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

// downtimeSummary is downtime --summary: over the partitions (of topic)
// that were ever down, how many, and the shortest, median and longest
// total downtime among them: after one crash, the spread between the
// first partition back and the last.
func (s *Session) downtimeSummary(topic string) {
	var downs []time.Duration
	total := 0
	for _, r := range s.cluster.Availability().Report(s.world().Now()) {
		if topic != "" && !strings.HasPrefix(r.Partition, topic+"-") {
			continue
		}
		total++
		if r.Outages > 0 {
			downs = append(downs, r.Total)
		}
	}
	if total == 0 {
		s.print("downtime: no partition has had a leader yet")
		return
	}
	rows := [][]string{{"PARTITIONS", "WENT-DOWN", "SHORTEST", "MEDIAN", "LONGEST"}}
	if len(downs) == 0 {
		rows = append(rows, []string{strconv.Itoa(total), "0", "-", "-", "-"})
	} else {
		slices.Sort(downs)
		rows = append(rows, []string{strconv.Itoa(total), strconv.Itoa(len(downs)), seconds(downs[0]), seconds(downs[(len(downs)-1)/2]), seconds(downs[len(downs)-1])})
	}
	for _, l := range columns(rows) {
		s.print(l)
	}
}
