// Package urlquery reads and writes the query strings of the page's URL
// (?embed=1, #scenario=...&step=..., #s=..., #sim=...) as net/url's
// ParseQuery, Values.Encode and QueryEscape do.
//
// Importing net/url linked net/netip, unique and weak (for host names the
// page never parses) into main.wasm: 0.14 MB of it, 8 KB of its brotli
// size, for these three functions. The tests hold each to net/url's.
package urlquery

import (
	"errors"
	"slices"
	"strconv"
	"strings"
)

// Values maps a key to its values, in the order they came (url.Values).
type Values map[string][]string

// Get returns the first value for key, or "".
func (v Values) Get(key string) string {
	if vs := v[key]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// Set replaces key's values with value.
func (v Values) Set(key, value string) { v[key] = []string{value} }

// Has reports whether key is set (even to no value).
func (v Values) Has(key string) bool {
	_, ok := v[key]
	return ok
}

// Encode renders "k=v&k2=v2", sorted by key, each escaped (QueryEscape).
func (v Values) Encode() string {
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		ke := QueryEscape(k)
		for _, x := range v[k] {
			if b.Len() > 0 {
				b.WriteByte('&')
			}
			b.WriteString(ke)
			b.WriteByte('=')
			b.WriteString(QueryEscape(x))
		}
	}
	return b.String()
}

// maxParams is net/url's limit on the pieces of a query (defaultMaxParams;
// the page has no GODEBUG to change it).
const maxParams = 10000

// Parse reads a query as url.ParseQuery does: pieces split at '&', each
// "key=value" or "key", unescaped (QueryUnescape). A piece holding ';'
// or a bad %-escape is skipped and makes the error (the first one is
// returned), the other pieces are still read.
func Parse(query string) (Values, error) {
	m := Values{}
	if strings.Count(query, "&")+1 > maxParams {
		return m, errors.New("number of URL query parameters exceeded limit")
	}
	var err error
	for query != "" {
		var piece string
		piece, query, _ = strings.Cut(query, "&")
		if strings.Contains(piece, ";") {
			err = errors.New("invalid semicolon separator in query")
			continue
		}
		if piece == "" {
			continue
		}
		k, v, _ := strings.Cut(piece, "=")
		k, err1 := Unescape(k)
		if err1 == nil {
			v, err1 = Unescape(v)
		}
		if err1 != nil {
			if err == nil {
				err = err1
			}
			continue
		}
		m[k] = append(m[k], v)
	}
	return m, err
}

// Unescape reads %XX escapes and '+' as a space (url.QueryUnescape).
func Unescape(s string) (string, error) {
	if !strings.ContainsAny(s, "%+") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '%':
			if i+2 >= len(s) || unhex(s[i+1]) < 0 || unhex(s[i+2]) < 0 {
				bad := s[i:min(i+3, len(s))]
				return "", errors.New("invalid URL escape " + strconv.Quote(bad))
			}
			b.WriteByte(byte(unhex(s[i+1])<<4 | unhex(s[i+2])))
			i += 2
		case '+':
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// QueryEscape escapes s for a query (url.QueryEscape): letters, digits
// and -_.~ stay, a space becomes '+', every other byte %XX.
func QueryEscape(s string) string {
	const hex = "0123456789ABCDEF"
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.~", c) >= 0:
			b = append(b, c)
		case c == ' ':
			b = append(b, '+')
		default:
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return string(b)
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
