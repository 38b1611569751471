package storage

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"kafkascope/core/sim"
)

func TestOffsetCheckpointExactFormat(t *testing.T) {
	m := map[TopicPartition]int64{
		{"foo", 1}:                 5,
		{"foo", 0}:                 10,
		{"bar", 0}:                 3,
		{"foo", 10}:                0,
		{"foo", 2}:                 7,
		{"my-topic.v2", 3}:         123456789012,
		{"__consumer_offsets", 49}: 0,
	}
	want := "0\n7\n" +
		"__consumer_offsets 49 0\n" +
		"bar 0 3\n" +
		"foo 0 10\n" +
		"foo 1 5\n" +
		"foo 2 7\n" +
		"foo 10 0\n" +
		"my-topic.v2 3 123456789012\n"
	if got := string(EncodeOffsetCheckpoint(m)); got != want {
		t.Fatalf("EncodeOffsetCheckpoint =\n%q\nwant\n%q", got, want)
	}
	if got := string(EncodeOffsetCheckpoint(nil)); got != "0\n0\n" {
		t.Fatalf("empty checkpoint %q", got)
	}
	if got := string(EncodeOffsetCheckpoint(map[TopicPartition]int64{{"t", 0}: 42})); got != "0\n1\nt 0 42\n" {
		t.Fatalf("one entry %q", got)
	}
}

func TestOffsetCheckpointRoundTrip(t *testing.T) {
	for _, m := range []map[TopicPartition]int64{
		{},
		{{"a", 0}: 0},
		{{"a-b-c", 7}: 9, {"a", 0}: -1, {"x_y.z", 2147483647}: 9223372036854775807},
	} {
		back, err := DecodeOffsetCheckpoint(EncodeOffsetCheckpoint(m))
		if err != nil {
			t.Fatalf("decode(encode(%v)): %v", m, err)
		}
		if !reflect.DeepEqual(back, m) {
			t.Fatalf("round trip %v -> %v", m, back)
		}
	}
	// Readers split on any whitespace, and a missing final newline is fine.
	got, err := DecodeOffsetCheckpoint([]byte("0\n2\nfoo   0\t5\nbar 1 6"))
	if err != nil || !reflect.DeepEqual(got, map[TopicPartition]int64{{"foo", 0}: 5, {"bar", 1}: 6}) {
		t.Fatalf("lenient decode = %v, %v", got, err)
	}
}

func TestOffsetCheckpointMalformed(t *testing.T) {
	cases := map[string]string{
		"":                         "missing header",
		"0\n":                      "missing header",
		"1\n0\n":                   "Unrecognised version:1",
		"x\n0\n":                   "Unrecognised version:x",
		"0\n2\nfoo 0 1\n":          "expected 2 entries, found 1",
		"0\n1\nfoo 0 1\nbar 0 2\n": "expected 1 entries, found 2",
		"0\n-1\n":                  "malformed checkpoint file",
		"0\nabc\n":                 "malformed checkpoint file",
		"0\n1\nfoo 0\n":            `malformed checkpoint line "foo 0"`,
		"0\n1\nfoo 0 1 2\n":        "malformed checkpoint line",
		"0\n1\nfoo x 1\n":          `malformed checkpoint entry "foo x 1"`,
		"0\n1\nfoo 0 1.5\n":        "malformed checkpoint entry",
		"0\n1\nfoo 2147483648 1\n": "malformed checkpoint entry",
	}
	for in, wantErr := range cases {
		m, err := DecodeOffsetCheckpoint([]byte(in))
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("Decode(%q) = %v, %v; want an error containing %q", in, m, err, wantErr)
		}
	}
}

func TestPartitionMetadataFile(t *testing.T) {
	const id = "7rPLP0zFR0uFbRoxRyY0rQ"
	got := EncodePartitionMetadata(id)
	if string(got) != "version: 0\ntopic_id: 7rPLP0zFR0uFbRoxRyY0rQ" {
		t.Fatalf("partition.metadata %q (Kafka writes no final newline)", got)
	}
	for _, in := range []string{string(got), string(got) + "\n"} {
		back, err := DecodePartitionMetadata([]byte(in))
		if err != nil || back != id {
			t.Errorf("Decode(%q) = %q, %v", in, back, err)
		}
	}
	for _, bad := range []string{"", "version: 1\ntopic_id: x", "topic_id: x\nversion: 0", "version: 0", "version: 0\ntopic: x", "version: 0\ntopic_id: x\nextra"} {
		if _, err := DecodePartitionMetadata([]byte(bad)); err == nil {
			t.Errorf("Decode(%q) accepted", bad)
		}
	}
}

func TestMetaProperties(t *testing.T) {
	// Virtual time zero is 2024-01-01T00:00:00Z, a Monday.
	got := string(EncodeMetaProperties(1, "dirIdAAAAAAAAAAAAAAAAA", "clusterIdBBBBBBBBBBBBB", sim.Time(0).Wall()))
	want := "#\n#Mon Jan 01 00:00:00 UTC 2024\n" +
		"node.id=1\ndirectory.id=dirIdAAAAAAAAAAAAAAAAA\nversion=1\ncluster.id=clusterIdBBBBBBBBBBBBB\n"
	if got != want {
		t.Fatalf("meta.properties\n%q\nwant\n%q", got, want)
	}
	// The date is printed in UTC whatever the zone, with a zero-padded day.
	seoul := time.FixedZone("KST", 9*3600)
	got = string(EncodeMetaProperties(3, "d", "c", time.Date(2024, 3, 5, 8, 7, 6, 999, seoul)))
	if !strings.HasPrefix(got, "#\n#Mon Mar 04 23:07:06 UTC 2024\nnode.id=3\n") {
		t.Fatalf("meta.properties %q", got)
	}
	m := DecodeMetaProperties([]byte(want))
	wantKeys := map[string]string{"node.id": "1", "directory.id": "dirIdAAAAAAAAAAAAAAAAA", "version": "1", "cluster.id": "clusterIdBBBBBBBBBBBBB"}
	if !reflect.DeepEqual(m, wantKeys) {
		t.Fatalf("DecodeMetaProperties = %v", m)
	}
	if m := DecodeMetaProperties([]byte("#c\n\nnoequals\na=b=c\n")); !reflect.DeepEqual(m, map[string]string{"a": "b=c"}) {
		t.Fatalf("DecodeMetaProperties edge cases = %v", m)
	}
}

func TestParseDirName(t *testing.T) {
	ok := map[string]TopicPartition{
		"foo-0":                 {"foo", 0},
		"my-topic-12":           {"my-topic", 12},
		"a-b-c-d-3":             {"a-b-c-d", 3},
		"topic--1":              {"topic-", 1},
		"__consumer_offsets-49": {"__consumer_offsets", 49},
		"__cluster_metadata-0":  {"__cluster_metadata", 0},
		"x.y_z-2147483647":      {"x.y_z", 2147483647},
	}
	for name, want := range ok {
		got, good := ParseDirName(name)
		if !good || got != want {
			t.Errorf("ParseDirName(%q) = %v, %v; want %v", name, got, good, want)
			continue
		}
		if got.DirName() != name && name != "topic--1" {
			t.Errorf("DirName round trip: %q -> %q", name, got.DirName())
		}
	}
	for _, bad := range []string{
		"", "foo", "-0", "foo-", "foo-x", "foo-1x", "foo-2147483648",
		"foo-0.abcdef-delete", "foo-0.abcdef-future", "foo-0.abcdef-stray", "foo--",
	} {
		if got, good := ParseDirName(bad); good {
			t.Errorf("ParseDirName(%q) = %v, accepted", bad, got)
		}
	}
	tp := TopicPartition{"my-topic", 3}
	if tp.String() != "my-topic-3" || tp.DirName() != "my-topic-3" {
		t.Errorf("String %q DirName %q", tp.String(), tp.DirName())
	}
}
