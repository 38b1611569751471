package metrics

import (
	"math"
	"strings"
	"testing"
	"time"
)

// A sensor's Avg, Max, Rate and Total over the same records, by hand; Avg
// and Max are NaN before anything is recorded (and once every window is
// reset), while the total keeps everything.
func TestSensorStats(t *testing.T) {
	s := NewSensor()
	if !math.IsNaN(s.Avg(at(0))) || !math.IsNaN(s.Max(at(0))) {
		t.Fatalf("before any record: avg %v, max %v, want NaN", s.Avg(at(0)), s.Max(at(0)))
	}
	s.Record(at(0), 4)
	s.Record(at(10*time.Second), 8)
	s.Record(at(40*time.Second), 3) // opens the second window
	now := at(45 * time.Second)
	if got := s.Avg(now); !near(got, 5) {
		t.Errorf("avg %v, want 15/3", got)
	}
	if got := s.Max(now); got != 8 {
		t.Errorf("max %v, want 8", got)
	}
	if got := s.Rate(now); !near(got, 15.0/45) {
		t.Errorf("rate %v, want 15 over 45 s", got)
	}
	// 60 s after the last record of a window it is reset; the total stays.
	later := at(101 * time.Second)
	if !math.IsNaN(s.Avg(later)) || s.Rate(later) != 0 || s.Total() != 15 {
		t.Errorf("after 60 s idle: avg %v, rate %v, total %v; want NaN, 0, 15", s.Avg(later), s.Rate(later), s.Total())
	}
}

// ToolsUtils.printMetrics' layout: a blank line, the header padded to
// the longest name, the names sorted with the tags as Java prints a map,
// each value to three places rounded half up, NaN as Java prints it.
func TestPrintMetrics(t *testing.T) {
	id := Tag{"client-id", "p"}
	got := PrintMetrics([]Named{
		{Group: "producer-topic-metrics", Name: "byte-rate", Tags: []Tag{id, {"topic", "t"}}, Value: 0.0625},
		{Group: "producer-metrics", Name: "request-latency-avg", Tags: []Tag{id}, Value: math.NaN()},
		{Group: "producer-metrics", Name: "batch-size-max", Tags: []Tag{id}, Value: 1264},
	})
	want := []string{
		"",
		"Metric Name                                               Value",
		"producer-metrics:batch-size-max:{client-id=p}           : 1264.000",
		"producer-metrics:request-latency-avg:{client-id=p}      : NaN",
		"producer-topic-metrics:byte-rate:{client-id=p, topic=t} : 0.063",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if PrintMetrics(nil) != nil {
		t.Error("no metrics print nothing")
	}
}
