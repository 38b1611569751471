package timeline

import (
	"fmt"
	"strings"
	"testing"
)

// The terminal keeps its newest MaxLines lines; Line reads them one by one
// as Lines does, and a line keeps its number (LineBase plus its index)
// while newer lines push older ones out, so a view can key what it draws
// by it.
func TestLinesKeepTheirNumbers(t *testing.T) {
	s := New()
	play(t, s, "cluster create --brokers 1")
	numberOf := func(text string) int {
		for i := s.LineCount() - 1; i >= 0; i-- {
			if s.Line(i).Text == text {
				return s.LineBase() + i
			}
		}
		return -1
	}
	var in []string
	for i := range 6000 {
		in = append(in, fmt.Sprintf("r%05d", i))
	}
	batch := strings.Join(in, "|")
	play(t, s, "kafka-console-producer.sh --topic t <<< "+batch)
	mark := numberOf("r05999")
	if mark < 0 {
		t.Fatal("the producer's last input line is not in the terminal")
	}
	var kept int
	for round := 0; round < 4; round++ { // 24000 more lines: past MaxLines and its slack
		play(t, s, "kafka-console-producer.sh --topic t <<< "+batch)
		if round == 0 {
			kept = numberOf("r05999")
			if kept <= mark+6000 {
				t.Fatalf("the next producer's last line is number %d, after %d", kept, mark)
			}
		}
	}
	if n := s.LineCount(); n != MaxLines {
		t.Fatalf("%d lines kept, want MaxLines (%d)", n, MaxLines)
	}
	if s.LineBase() == 0 {
		t.Fatal("no line scrolled out")
	}
	// 18000 lines later, that line is still number kept.
	if i := kept - s.LineBase(); i < 0 || s.Line(i).Text != "r05999" {
		t.Fatalf("line number %d moved as older lines scrolled out", kept)
	}
	all := s.Lines()
	if len(all) != s.LineCount() {
		t.Fatalf("Lines has %d lines, LineCount says %d", len(all), s.LineCount())
	}
	for i, l := range all {
		if s.Line(i) != l {
			t.Fatalf("Line(%d) = %+v, Lines()[%d] = %+v", i, s.Line(i), i, l)
		}
	}
}
