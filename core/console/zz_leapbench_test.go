package console

import "testing"

func BenchmarkZZTimeAdvanceLeap(b *testing.B) {
	for _, leap := range []bool{false, true} {
		name := "stepped"
		if leap {
			name = "leaped"
		}
		b.Run(name, func(b *testing.B) {
			s := NewSession()
			s.Leap = leap
			out := s.Exec("cluster create --config broker.heartbeat.interval.ms=60000 --config broker.session.timeout.ms=600000", nil)
			if len(out) > 0 {
				b.Fatal(out)
			}
			defer s.Cluster().Close()
			for _, topic := range []string{"orders", "payments", "audit"} {
				s.Exec("kafka-topics.sh --create --topic "+topic+" --partitions 3 --replication-factor 3", nil)
			}
			w := s.Cluster().World
			start := w.Steps()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.Exec("time advance 1h", nil)
			}
			b.StopTimer()
			b.ReportMetric(float64(w.Steps()-start)/float64(b.N), "steps/op")
			b.ReportMetric(float64(w.Leaps())/float64(b.N), "leaps/op")
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)*24*7, "s/7d")
		})
	}
}
