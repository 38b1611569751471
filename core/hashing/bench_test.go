package hashing

import "testing"

func BenchmarkMurmur2(b *testing.B) {
	key := []byte("a-little-bit-longer-string")
	b.SetBytes(int64(len(key)))
	for b.Loop() {
		Murmur2(key)
	}
}
