package cluster

import (
	"flag"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"
)

// idleHeapProfile is where BenchmarkIdleHeap writes a heap profile of the
// cluster it ran, while the cluster is still alive (-memprofile is written
// after the benchmark closed it, when its memory is garbage).
var idleHeapProfile = flag.String("idleheap.profile", "", "write a heap profile at the end of BenchmarkIdleHeap to this file")

// BenchmarkIdleHeap is the memory a long idle run costs: the default
// cluster (3 combined nodes, no topics) advanced one simulated hour per
// iteration, on the same cluster. Idle KRaft still writes: the active
// controller appends a NoOpRecord batch every
// metadata.max.idle.interval.ms (500 ms) and keeps every segment of the
// metadata log for metadata.max.retention.ms (a week), so each replica's
// log, its indexes and the simulator's directory of batches grow all week.
// It reports the live heap (after a collection) gained per simulated hour
// and per simulated day; the first hour (the cluster starting, the
// collector's first cycles) is run before measuring. Stepped, every NoOp's
// bytes are written out; leaped (what `time advance` does), a span's
// NoOps are held as the run they are (storage.BatchRun). Take a heap profile
// with: go test -run '^$' -bench IdleHeap -benchtime 24x ./core/cluster/
// -args -idleheap.profile=heap.out, then go tool pprof
// -sample_index=inuse_space heap.out.
func BenchmarkIdleHeap(b *testing.B) {
	b.Run("stepped", func(b *testing.B) { benchIdleHeap(b, true) })
	b.Run("leaped", func(b *testing.B) { benchIdleHeap(b, false) })
}

func benchIdleHeap(b *testing.B, stepped bool) {
	c, err := New(Config{Brokers: 3, Seed: 1, Stepped: stepped})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := c.Advance(time.Hour); err != nil {
		b.Fatal(err)
	}
	before := liveHeap()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := c.Advance(time.Hour); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	perHour := float64(liveHeap()-before) / float64(b.N)
	b.ReportMetric(perHour, "heap-B/sim-h")
	b.ReportMetric(perHour*24/1e6, "heap-MB/sim-day")
	b.ReportMetric(float64(b.N*3600)/b.Elapsed().Seconds(), "sim-s/s")
	if *idleHeapProfile != "" {
		f, err := os.Create(*idleHeapProfile)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// liveHeap is the heap in use after a full collection.
func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
