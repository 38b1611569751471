package raster

import (
	"testing"

	"kafkascope/ui/snapshot"
)

// BenchmarkRender draws a three-broker scenario step at scale 2, as
// /snapshot.png does.
func BenchmarkRender(b *testing.B) {
	t := &testing.T{}
	doc := scenarioSnapshot(t, pageStyle(t), "scenario=15-log-compaction&step=5&lang=ko", 0, snapshot.Options{})
	b.ResetTimer()
	for b.Loop() {
		if _, err := Render(doc, 2); err != nil {
			b.Fatal(err)
		}
	}
}
