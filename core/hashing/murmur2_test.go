package hashing

import (
	"math"
	"testing"
)

// Vectors: the first five are Kafka's own UtilsTest.testMurmur2; the rest were
// supplied with the brief (values Kafka clients compute for these keys).
var murmur2Vectors = []struct {
	in   string
	want int32
}{
	// clients/src/test/java/org/apache/kafka/common/utils/UtilsTest.java
	{"21", -973932308},
	{"foobar", -790332482},
	{"a-little-bit-long-string", -985981536},
	{"a-little-bit-longer-string", -1486304829},
	{"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971},
	// brief
	{"abc", 479470107},
	{"", 275646681},
	{"a", -1563381124},
	{"key", -1079937367},
	{"key1", 28543940},
	{"key2", 1674751211},
	{"hello", 2132663229},
	{"user-1", 1404122828},
	{"0", 971027396},
	{"1", -1993445489},
}

func TestMurmur2Vectors(t *testing.T) {
	for _, v := range murmur2Vectors {
		if got := Murmur2([]byte(v.in)); got != v.want {
			t.Errorf("Murmur2(%q) = %d, want %d", v.in, got, v.want)
		}
	}
}

// The vectors above cover tail lengths 0-3 and multi-block inputs; this pins
// that each tail length is exercised so a broken fall-through cannot hide.
func TestMurmur2VectorsCoverEveryTailLength(t *testing.T) {
	seen := map[int]bool{}
	for _, v := range murmur2Vectors {
		seen[len(v.in)%4] = true
	}
	for r := 0; r < 4; r++ {
		if !seen[r] {
			t.Errorf("no vector with len%%4 == %d", r)
		}
	}
}

func TestMurmur2NilEqualsEmpty(t *testing.T) {
	if Murmur2(nil) != Murmur2([]byte{}) {
		t.Fatal("nil and empty input must hash alike")
	}
}

func TestKeyPartition(t *testing.T) {
	cases := []struct {
		key  string
		n    int32
		want int32
	}{
		{"a", 3, 1},
		{"a", 50, 24},
		{"abc", 4, 3},
		{"key1", 3, 2},
		{"hello", 6, 3},
		{"1", 12, 3},
	}
	for _, c := range cases {
		if got := KeyPartition([]byte(c.key), c.n); got != c.want {
			t.Errorf("KeyPartition(%q, %d) = %d, want %d", c.key, c.n, got, c.want)
		}
	}
}

func TestKeyPartitionAlwaysInRange(t *testing.T) {
	for _, v := range murmur2Vectors {
		for n := int32(1); n <= 64; n++ {
			if p := KeyPartition([]byte(v.in), n); p < 0 || p >= n {
				t.Fatalf("KeyPartition(%q, %d) = %d out of range", v.in, n, p)
			}
		}
	}
}

func TestKeyPartitionPanicsOnNoPartitions(t *testing.T) {
	for _, n := range []int32{0, -1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("KeyPartition(_, %d) did not panic", n)
				}
			}()
			KeyPartition([]byte("k"), n)
		}()
	}
}

func TestToPositive(t *testing.T) {
	cases := []struct{ in, want int32 }{
		{-1, 2147483647},
		{math.MinInt32, 0},
		{0, 0},
		{1, 1},
		{math.MaxInt32, math.MaxInt32},
		{-973932308, -973932308 & 0x7fffffff},
	}
	for _, c := range cases {
		if got := ToPositive(c.in); got != c.want {
			t.Errorf("ToPositive(%d) = %d, want %d", c.in, got, c.want)
		}
	}
}
