package console

import (
	"fmt"
	"strings"
)

// xxdAutoskipBytes: a file larger than this is dumped as xxd -a dumps it,
// with runs of zero lines folded into "*". A preallocated index is a
// 10 MiB file of mostly zeros; plain xxd would print 655,360 lines of
// them, which a terminal in a browser tab cannot show. Smaller files are
// dumped line by line, as plain xxd does.
const xxdAutoskipBytes = 1 << 20

// hexDump renders bytes as xxd does: an 8-digit offset, eight groups of two
// bytes, and the printable characters. With autoskip, runs of all-zero
// lines are folded as xxd -a folds them (its xxdline): the first zero line
// of a run is printed; a run of two prints both; a longer one prints "*"
// in place of the rest, except that a run ending the file shows its last
// line too, and a short last line is always printed.
func hexDump(data []byte, autoskip bool) []string {
	var out []string
	zeroSeen := 0 // zero lines in the current run
	var saved string
	for off := 0; off < len(data); off += 16 {
		end := min(off+16, len(data))
		line := hexLine(data, off, end)
		full := end-off == 16
		if !autoskip || (full && !allZero(data[off:end])) || !full {
			// A line that must be printed ends the run.
			switch {
			case zeroSeen == 2:
				out = append(out, saved)
			case zeroSeen > 2:
				out = append(out, "*")
			}
			out = append(out, line)
			zeroSeen = 0
			continue
		}
		if zeroSeen == 0 {
			out = append(out, line)
		} else if zeroSeen == 1 {
			saved = line
		}
		zeroSeen++
		if end == len(data) {
			// The file ends in the run: xxd flushes what it held back.
			switch zeroSeen {
			case 1:
			case 2:
				out = append(out, line)
			case 3:
				out = append(out, saved, line)
			default:
				out = append(out, "*", line)
			}
		}
	}
	return out
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// hexLine is one line of xxd's output for data[off:end].
func hexLine(data []byte, off, end int) string {
	var hex strings.Builder
	for i := off; i < off+16; i++ {
		if i < end {
			fmt.Fprintf(&hex, "%02x", data[i])
		} else {
			hex.WriteString("  ")
		}
		if i%2 == 1 {
			hex.WriteByte(' ')
		}
	}
	var text strings.Builder
	for _, b := range data[off:end] {
		if b >= 0x20 && b < 0x7f {
			text.WriteByte(b)
		} else {
			text.WriteByte('.')
		}
	}
	return fmt.Sprintf("%08x: %s %s", off, hex.String(), text.String())
}
