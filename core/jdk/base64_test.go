package jdk

import "testing"

func TestUuidFromString(t *testing.T) {
	for _, c := range []struct{ in, msg string }{
		{"AAAAAAAAAAAAAAAAAAAAAA", ""},
		{"AAAAAAAAAAAAAAAAAAAAAA==", ""},
		{"IhS4Ioy6QaSA-5uZQc4bhg", ""},
		{"", "Input string `` decoded as 0 bytes, which is not equal to the expected 16 bytes of a base64-encoded UUID"},
		{"x", "Input byte[] should at least have 2 bytes for base64 bytes"},
		{"abc", "Input string `abc` decoded as 2 bytes, which is not equal to the expected 16 bytes of a base64-encoded UUID"},
		{"abcde", "Last unit does not have enough valid bits"},
		{"not-a-uuid", "Input string `not-a-uuid` decoded as 7 bytes, which is not equal to the expected 16 bytes of a base64-encoded UUID"},
		{"made.up", "Illegal base64 character 2e"},
		{"AAAA=", "Input byte array has wrong 4-byte ending unit"},
		{"AA=A", "Input byte array has wrong 4-byte ending unit"},
		{"AA==A", "Input byte array has incorrect ending byte at 4"},
		{"AAAAAAAAAAAAAAAAAAAAAAAAAAAA", "Input string with prefix `AAAAAAAAAAAAAAAAAAAAAAAA` is too long to be decoded as a base64 UUID"},
		{"AAAAAAAAAAAAAAAAAAAAé", "Illegal base64 character -17"},
	} {
		_, msg, ok := UuidFromString(c.in)
		if msg != c.msg || ok != (c.msg == "") {
			t.Errorf("%q: got %q %v, want %q", c.in, msg, ok, c.msg)
		}
	}
}
