package ui

import "strings"

// escapes are the five character references html.EscapeString writes,
// which vugu's SetInnerHTML applies to a string, a Stringer or a %v.
var escapes = []string{"&lt;", "<", "&gt;", ">", "&amp;", "&", "&#39;", "'", "&#34;", `"`}

var unescaper = strings.NewReplacer(escapes...)

// unescapeText is html.UnescapeString for text that holds no character
// reference but those five: the text of every vg-content and of the
// components' static text. Anything else (a named entity such as &nbsp;, a
// reference html.EscapeString does not write) is reported !ok, and the
// node keeps its inner HTML for the browser to decode. html.UnescapeString
// itself would link html's table of 2,231 entities (5 KB of main.wasm,
// 2 KB gzipped).
func unescapeText(s string) (string, bool) {
	for rest := s; ; {
		i := strings.IndexByte(rest, '&')
		if i < 0 {
			break
		}
		rest = rest[i:]
		known := false
		for k := 0; k < len(escapes); k += 2 {
			if strings.HasPrefix(rest, escapes[k]) {
				known = true
				break
			}
		}
		if !known {
			return "", false
		}
		rest = rest[1:]
	}
	return unescaper.Replace(s), true
}
