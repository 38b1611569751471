package main

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"slices"
	"strconv"
	"testing"
)

// sink keeps results alive so the compiler cannot drop the work.
var sink int

// kind is one kind of work, standing for something the engine does.
type kind struct {
	name string
	run  func(b *testing.B)
}

var kinds = []kind{
	// The event queue, leader elections and views sort small records.
	{"sort", func(b *testing.B) {
		type entry struct{ key, seq int }
		src := make([]entry, 1<<14)
		x := uint64(1)
		for i := range src {
			x = x*6364136223846793005 + 1442695040888963407
			src[i] = entry{int(x >> 33), i}
		}
		buf := make([]entry, len(src))
		for i := 0; i < b.N; i++ {
			copy(buf, src)
			slices.SortFunc(buf, func(a, b entry) int { return a.key - b.key })
		}
	}},
	// Brokers find partitions, producers and connections in maps.
	{"map", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			m := map[int]int{}
			for j := 0; j < 1024; j++ {
				m[j*7] = j
			}
			s := 0
			for j := 0; j < 1024; j++ {
				s += m[j*7]
			}
			sink += s
		}
	}},
	// Requests, responses and events are small objects with pointers.
	{"alloc", func(b *testing.B) {
		type node struct {
			next *node
			v    int
		}
		for i := 0; i < b.N; i++ {
			var head *node
			for j := 0; j < 1024; j++ {
				head = &node{head, j}
			}
			sink += head.v
		}
	}},
	// Batch headers and ops are structs of a dozen fields, passed by value.
	{"structs", func(b *testing.B) {
		type header struct {
			base, ts, maxTS, pid int64
			length, epoch, delta int32
			attrs                int16
		}
		var hs [256]header
		for i := 0; i < b.N; i++ {
			for j := range hs {
				hs[j] = header{base: int64(i + j), delta: int32(j)}
			}
			s := int64(0)
			for _, h := range hs {
				s += h.base + int64(h.delta)
			}
			sink += int(s)
		}
	}},
	// Record batches are big-endian integers in byte slices.
	{"encode", func(b *testing.B) {
		buf := make([]byte, 4096)
		for i := 0; i < b.N; i++ {
			s := uint64(0)
			for j := 0; j+8 <= len(buf); j += 8 {
				binary.BigEndian.PutUint64(buf[j:], uint64(j+i))
				s += binary.BigEndian.Uint64(buf[j:])
			}
			sink += int(s)
		}
	}},
	// Every batch carries a CRC-32C of its records.
	{"crc32c", func(b *testing.B) {
		buf := make([]byte, 4096)
		t := crc32.MakeTable(crc32.Castagnoli)
		for i := 0; i < b.N; i++ {
			sink += int(crc32.Checksum(buf, t))
		}
	}},
	// The tools print what they found.
	{"format", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sink += len(fmt.Sprintf("%s-%d offset=%d", "orders", i%3, i))
		}
	}},
	// Every process is a goroutine, and each event hands control to one.
	{"handoff", func(b *testing.B) {
		to, back := make(chan int), make(chan int)
		go func() {
			for v := range to {
				back <- v
			}
		}()
		for i := 0; i < b.N; i++ {
			to <- i
			<-back
		}
		close(to)
	}},
}

func main() {
	for _, k := range kinds {
		r := testing.Benchmark(k.run)
		fmt.Println(k.name, strconv.FormatFloat(float64(r.T.Nanoseconds())/float64(r.N), 'f', 1, 64))
	}
	fmt.Println("done")
	stay()
}
