package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// module builds a WebAssembly module with a custom section, a memory
// section and a data section holding segs in the given order.
func module(segs []segment) []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	custom := append(appendULEB(nil, 4), "name"...)
	custom = append(custom, "payload"...)
	b = append(b, 0)
	b = appendULEB(b, uint64(len(custom)))
	b = append(b, custom...)
	b = append(b, 5, 3, 1, 0, 1) // memory: one, at least 1 page
	data := writeSegments(segs)
	b = append(b, sectionData)
	b = appendULEB(b, uint64(len(data)))
	return append(b, data...)
}

func TestPackMergesSegmentsAndKeepsTheImage(t *testing.T) {
	// As Go's linker writes them: out of address order across its
	// sections, split at runs of zeros, some long.
	segs := []segment{
		{addr: 9000, data: []byte("rodata")},
		{addr: 100, data: []byte{1, 2, 3}},
		{addr: 111, data: []byte{4}},              // 8 zeros before it
		{addr: 200, data: []byte("pclntab")},      // 88 zeros before it
		{addr: 200 + 7 + maxGap, data: []byte{9}}, // a gap too long to fill
		{addr: 300, data: nil},
	}
	in := module(segs)
	out, before, after, err := pack(in)
	if err != nil {
		t.Fatal(err)
	}
	if before != 6 || after != 3 {
		t.Errorf("segments %d -> %d, want 6 -> 3", before, after)
	}
	inSecs, _ := splitSections(in)
	outSecs, err := splitSections(out)
	if err != nil {
		t.Fatalf("output does not parse: %v", err)
	}
	if len(inSecs) != len(outSecs) {
		t.Fatalf("%d sections, want %d", len(outSecs), len(inSecs))
	}
	for k := range inSecs {
		if inSecs[k].id != outSecs[k].id || inSecs[k].id != sectionData && !bytes.Equal(inSecs[k].body, outSecs[k].body) {
			t.Errorf("section %d (id %d) changed", k, inSecs[k].id)
		}
	}
	merged, err := dataSegments(outSecs)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(image(merged), image(segs)) {
		t.Errorf("the memory image changed")
	}
	var addrs []uint32
	for _, s := range merged {
		addrs = append(addrs, s.addr)
	}
	if len(addrs) != 3 || addrs[0] != 100 || addrs[1] != 200+7+maxGap || addrs[2] != 9000 {
		t.Errorf("merged segments start at %v, want [100 %d 9000]", addrs, 200+7+maxGap)
	}

	// Packing again changes nothing.
	again, b2, a2, err := pack(out)
	if err != nil || b2 != 3 || a2 != 3 || !bytes.Equal(again, out) {
		t.Errorf("a second pack changed the module (%d -> %d segments, %v)", b2, a2, err)
	}
}

func TestPackLeavesOverlappingSegments(t *testing.T) {
	segs := []segment{{addr: 10, data: []byte("abcd")}, {addr: 12, data: []byte("XY")}}
	_, before, after, err := pack(module(segs))
	if err != nil || before != 2 || after != 2 {
		t.Errorf("overlapping segments: %d -> %d (%v), want them left as they are", before, after, err)
	}
}

func TestPackRejectsWhatItDoesNotHandle(t *testing.T) {
	passive := []byte("\x00asm\x01\x00\x00\x00")
	data := []byte{1, 1, 2, 'h', 'i'} // one passive segment
	passive = append(passive, sectionData, byte(len(data)))
	passive = append(passive, data...)
	truncated := module([]segment{{addr: 1, data: []byte("abc")}})
	truncated = truncated[:len(truncated)-1]
	for name, in := range map[string][]byte{
		"not wasm":  []byte("#!/bin/sh\n"),
		"passive":   passive,
		"truncated": truncated,
	} {
		if _, _, _, err := pack(in); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestRewriteFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "main.wasm")
	in := module([]segment{{addr: 8, data: []byte{1}}, {addr: 20, data: []byte{2}}})
	if err := os.WriteFile(name, in, 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := rewriteFile(name, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "2 data segments merged into 1") {
		t.Errorf("it said %q", out.String())
	}
	out.Reset()
	if err := rewriteFile(name, &out); err != nil || !strings.Contains(out.String(), "unchanged") {
		t.Errorf("second run said %q (%v), want unchanged", out.String(), err)
	}
	if err := os.WriteFile(name, []byte("text"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := rewriteFile(name, &out); err == nil {
		t.Errorf("a file that is not wasm: no error")
	}
	if got, _ := os.ReadFile(name); string(got) != "text" {
		t.Errorf("a rejected file was changed to %q", got)
	}
}
