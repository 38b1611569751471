package metrics

import (
	"fmt"
	"sort"
	"strings"

	"kafkascope/core/jdk"
)

// Tag is one of a metric name's tags, in the order the name was made with
// (Kafka's MetricName keeps a LinkedHashMap: the client's config tags,
// then the metric's own).
type Tag struct{ Key, Value string }

// Named is one metric of a client's registry (org.apache.kafka.common
// .MetricName and its value, a Double for every Measurable).
type Named struct {
	Group string
	Name  string
	Tags  []Tag
	Value float64
	// Text is a gauge's value that is not a Double (an Integer gauge
	// such as preferred-read-replica): printed as it is, "" for none.
	Text string
}

// merged is the name ToolsUtils.printMetrics shows: group, name and the
// tags as Java's Map.toString writes them.
func (n Named) merged() string {
	var b strings.Builder
	b.WriteString(n.Group + ":" + n.Name + ":{")
	for i, t := range n.Tags {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(t.Key + "=" + t.Value)
	}
	b.WriteString("}")
	return b.String()
}

// PrintMetrics is ToolsUtils.printMetrics (the perf tools' --print-metrics):
// a blank line, a header padded to the longest name, then every metric in
// name order (a TreeMap: Java's String order, which for these ASCII names
// is byte order), each Double as %.3f, any other value as it is. Nothing
// is printed for no metrics.
func PrintMetrics(ms []Named) []string {
	if len(ms) == 0 {
		return nil
	}
	type row struct{ name, value string }
	rows := make([]row, 0, len(ms))
	width := 0
	for _, m := range ms {
		name := m.merged()
		width = max(width, len(name))
		value := m.Text
		if value == "" {
			value = jdk.FormatFixed(m.Value, 3)
		}
		rows = append(rows, row{name, value})
	}
	// A TreeMap keeps the last value put under a name; the registries
	// here never repeat one.
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].name < rows[j].name })
	out := []string{"", fmt.Sprintf("%-*s   %s", width, "Metric Name", "Value")}
	for _, r := range rows {
		out = append(out, fmt.Sprintf("%-*s : %s", width, r.name, r.value))
	}
	return out
}
