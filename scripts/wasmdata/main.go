// Command wasmdata rewrites the data section of a WebAssembly module built
// by Go, in place, so that it compresses better: the module's memory image
// stays exactly the same, in a few long data segments instead of many
// short ones.
//
// Usage (make wasm runs it on public/main.wasm):
//
//	go run ./scripts/wasmdata FILE.wasm
//
// Why: Go's linker (cmd/link/internal/wasm, writeDataSec) leaves out every
// run of eight or more zero bytes from the data section, starting a new
// segment after it, up to 100,000 segments. That makes the raw file
// smaller, but each segment has a header of 5 to 9 bytes holding its own
// memory address and length, and those compress badly, while zeros cost
// almost nothing compressed. kafkascope's engine had 100,000 segments
// (most from the runtime's function lookup table, a 20-byte entry per 4 KiB
// of code addresses, each followed by zeros): merging them made main.wasm
// 1 MB larger raw but 108 KB smaller in brotli and 181 KB smaller gzipped.
//
// Segments are merged across gaps of zeros shorter than maxGap, which
// leaves only very long zero runs out. The rewrite checks its own output:
// the new data section must rebuild the same memory image as the old one.
// A module whose data section has anything but active segments for memory
// 0 at constant addresses is left unchanged, with an error.
package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// maxGap is the longest run of zeros put inside a merged segment. Longer
// runs start a new segment: a header costs less than that many zeros.
const maxGap = 4096

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: wasmdata FILE.wasm...")
		os.Exit(2)
	}
	for _, name := range os.Args[1:] {
		if err := rewriteFile(name, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "wasmdata:", err)
			os.Exit(1)
		}
	}
}

// rewriteFile merges name's data segments and says what it did. The new
// module is written to a temporary name first, so that an interrupted run
// never leaves a truncated module behind.
func rewriteFile(name string, out io.Writer) error {
	raw, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	packed, before, after, err := pack(raw)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if before == after {
		fmt.Fprintf(out, "%s: %d data segments, unchanged\n", name, before)
		return nil
	}
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, packed, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, name); err != nil {
		os.Remove(tmp)
		return err
	}
	fmt.Fprintf(out, "%s: %d data segments merged into %d (%d bytes, was %d)\n", name, before, after, len(packed), len(raw))
	return nil
}

// segment is an active data segment: bytes placed at addr in memory 0.
type segment struct {
	addr uint32
	data []byte
}

// pack returns the module with its data section's segments merged, and
// the number of segments before and after. A module with no data section
// comes back as it was.
func pack(module []byte) (packed []byte, before, after int, err error) {
	sections, err := splitSections(module)
	if err != nil {
		return nil, 0, 0, err
	}
	var buf bytes.Buffer
	buf.Write(module[:8])
	for _, s := range sections {
		body := s.body
		switch s.id {
		case sectionData:
			segs, err := readSegments(body)
			if err != nil {
				return nil, 0, 0, err
			}
			merged := merge(segs)
			body = writeSegments(merged)
			if err := sameImage(segs, merged); err != nil {
				return nil, 0, 0, err
			}
			before, after = len(segs), len(merged)
		case sectionDataCount:
			// The count of data segments, when present (Go writes none).
			segs, err := dataSegments(sections)
			if err != nil {
				return nil, 0, 0, err
			}
			body = appendULEB(nil, uint64(len(merge(segs))))
		}
		buf.WriteByte(s.id)
		buf.Write(appendULEB(nil, uint64(len(body))))
		buf.Write(body)
	}
	return buf.Bytes(), before, after, nil
}

// Section ids (WebAssembly core specification, 5.5.2).
const (
	sectionData      = 11
	sectionDataCount = 12
)

type section struct {
	id   byte
	body []byte
}

// splitSections checks the module's header and splits it into sections.
func splitSections(module []byte) ([]section, error) {
	if len(module) < 8 || !bytes.Equal(module[:8], []byte("\x00asm\x01\x00\x00\x00")) {
		return nil, errors.New("not a WebAssembly module (version 1)")
	}
	var out []section
	r := reader{b: module, i: 8}
	for r.i < len(r.b) {
		id := r.byte()
		n := r.uleb()
		body := r.bytes(n)
		if r.err != nil {
			return nil, fmt.Errorf("section %d: %w", id, r.err)
		}
		out = append(out, section{id: id, body: body})
	}
	return out, nil
}

// dataSegments reads the segments of the module's data section.
func dataSegments(sections []section) ([]segment, error) {
	for _, s := range sections {
		if s.id == sectionData {
			return readSegments(s.body)
		}
	}
	return nil, nil
}

// readSegments reads a data section made only of active segments for
// memory 0 whose offset is a constant (`i32.const N; end`), as Go's linker
// writes them.
func readSegments(body []byte) ([]segment, error) {
	r := reader{b: body}
	n := r.uleb()
	segs := make([]segment, 0, min(n, uint64(len(body))))
	for k := uint64(0); k < n && r.err == nil; k++ {
		if kind := r.uleb(); kind != 0 {
			return nil, fmt.Errorf("data segment %d is of kind %d; only active segments for memory 0 (kind 0) are handled", k, kind)
		}
		if op := r.byte(); op != opI32Const {
			return nil, fmt.Errorf("data segment %d: its offset is not an i32.const", k)
		}
		addr := r.sleb32()
		if op := r.byte(); op != opEnd {
			return nil, fmt.Errorf("data segment %d: its offset is not a constant", k)
		}
		data := r.bytes(r.uleb())
		if addr < 0 {
			return nil, fmt.Errorf("data segment %d: negative address %d", k, addr)
		}
		segs = append(segs, segment{addr: uint32(addr), data: data})
	}
	if r.err != nil {
		return nil, fmt.Errorf("data section: %w", r.err)
	}
	if r.i != len(body) {
		return nil, errors.New("data section: bytes after its last segment")
	}
	return segs, nil
}

// Instructions of an offset expression.
const (
	opI32Const = 0x41
	opEnd      = 0x0b
)

// merge joins segments in address order (the order of segments that do
// not overlap does not matter), filling gaps shorter than maxGap with
// zeros. Segments that overlap, which Go's linker never writes, are left
// as they are, since then their order decides the memory's bytes.
func merge(segs []segment) []segment {
	sorted := slices.Clone(segs)
	slices.SortStableFunc(sorted, func(a, b segment) int { return cmp.Compare(a.addr, b.addr) })
	for k := 1; k < len(sorted); k++ {
		if uint64(sorted[k].addr) < uint64(sorted[k-1].addr)+uint64(len(sorted[k-1].data)) {
			return segs
		}
	}
	var out []segment
	for _, s := range sorted {
		if len(s.data) == 0 {
			continue
		}
		if n := len(out); n > 0 {
			last := &out[n-1]
			end := uint64(last.addr) + uint64(len(last.data))
			if gap := uint64(s.addr) - end; gap < maxGap {
				last.data = append(last.data, make([]byte, gap)...)
				last.data = append(last.data, s.data...)
				continue
			}
		}
		out = append(out, segment{addr: s.addr, data: slices.Clone(s.data)})
	}
	return out
}

// writeSegments encodes a data section's body.
func writeSegments(segs []segment) []byte {
	b := appendULEB(nil, uint64(len(segs)))
	for _, s := range segs {
		b = append(b, 0, opI32Const)
		b = appendSLEB(b, int64(int32(s.addr)))
		b = append(b, opEnd)
		b = appendULEB(b, uint64(len(s.data)))
		b = append(b, s.data...)
	}
	return b
}

// sameImage checks that two lists of segments initialize memory to the
// same bytes (memory starts zeroed; later segments overwrite earlier ones).
func sameImage(a, b []segment) error {
	ia, ib := image(a), image(b)
	if !bytes.Equal(ia, ib) {
		return errors.New("internal error: the merged segments would initialize memory differently")
	}
	return nil
}

// image is the memory the segments initialize, up to their last byte.
func image(segs []segment) []byte {
	var end uint64
	for _, s := range segs {
		end = max(end, uint64(s.addr)+uint64(len(s.data)))
	}
	img := make([]byte, end)
	for _, s := range segs {
		copy(img[s.addr:], s.data)
	}
	return bytes.TrimRight(img, "\x00")
}

// reader reads a module's bytes and LEB128 integers, keeping the first
// error (reading past the end).
type reader struct {
	b   []byte
	i   int
	err error
}

var errShort = errors.New("unexpected end of module")

func (r *reader) byte() byte {
	if r.err != nil || r.i >= len(r.b) {
		r.err = errShort
		return 0
	}
	r.i++
	return r.b[r.i-1]
}

func (r *reader) bytes(n uint64) []byte {
	if r.err != nil || n > uint64(len(r.b)-r.i) {
		r.err = errShort
		return nil
	}
	out := r.b[r.i : r.i+int(n)]
	r.i += int(n)
	return out
}

// uleb reads an unsigned LEB128 integer of at most 32 bits.
func (r *reader) uleb() uint64 {
	var v uint64
	for shift := 0; shift < 35; shift += 7 {
		c := r.byte()
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	r.err = errors.New("malformed LEB128 integer")
	return 0
}

// sleb32 reads a signed LEB128 integer of at most 32 bits.
func (r *reader) sleb32() int64 {
	var v int64
	for shift := 0; shift < 35; shift += 7 {
		c := r.byte()
		v |= int64(c&0x7f) << shift
		if c < 0x80 {
			if shift+7 < 64 && c&0x40 != 0 {
				v |= -1 << (shift + 7)
			}
			return int64(int32(v))
		}
	}
	r.err = errors.New("malformed LEB128 integer")
	return 0
}

func appendULEB(b []byte, v uint64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func appendSLEB(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
