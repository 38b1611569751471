package textdiff

import "testing"

func TestFirstLine(t *testing.T) {
	cases := []struct{ a, b, want string }{
		{"x\ny\nz", "x\ny\nz", ""},
		{"x\ny\nz", "x\nY\nz", "line 2:\n  stepped: y\n  leaped:  Y"},
		{"x\ny", "x\ny\nz", "line 3:\n  stepped: \n  leaped:  z"},
		{"", "a", "line 1:\n  stepped: \n  leaped:  a"},
	}
	for _, c := range cases {
		if got := FirstLine(c.a, c.b, "stepped", "leaped"); got != c.want {
			t.Errorf("FirstLine(%q, %q) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
}
