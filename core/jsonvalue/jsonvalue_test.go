package jsonvalue

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Parse accepts what encoding/json accepts, and Any reads it into what
// json.Unmarshal into an interface gives.
func checkParse(t *testing.T, s string) {
	t.Helper()
	var want any
	wantErr := json.Unmarshal([]byte(s), &want)
	v, err := Parse(s)
	if (err != nil) != !json.Valid([]byte(s)) {
		t.Fatalf("%q: error %v, json.Valid %v", s, err, json.Valid([]byte(s)))
	}
	if err != nil {
		return
	}
	got, err := v.Any()
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%q: Any error %v, encoding/json's %v", s, err, wantErr)
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: read %#v, encoding/json %#v", s, got, want)
	}
}

var parseSeeds = []string{
	`{"a":[1,-0,0.5,1e3,-2E-2,true,false,null,"x"],"b":{}}`,
	` [ ] `, `{}`, `""`, `0`, `-`, `01`, `1.`, `.5`, `1e`, `+1`, `1e400`, `tru`, `nul`, `[1,]`, `{"a"}`, `{"a":1,}`, `{'a':1}`,
	`"\ud83d\ude00\ud83d\u0041\udc00\\\/\b\f\n\r\t\"\u00E9"`, `"\u12"`, `"\x"`, "\"\x01\"", "\"\xff\xfe é\"", `"\ud800\ud800"`,
	`{"a":1,"a":2}`, "[1]\v", `[1] x`, `[` + strings.Repeat(`[`, 10001) + strings.Repeat(`]`, 10001) + `]`,
	strings.Repeat(`[`, 10000) + strings.Repeat(`]`, 10000),
}

func TestParseMatchesEncodingJSON(t *testing.T) {
	for _, s := range parseSeeds {
		checkParse(t, s)
	}
}

// A syntax error names where it is.
func TestParseErrorPosition(t *testing.T) {
	_, err := Parse("{\"a\":[1,\n2")
	if err == nil || err.Error() != "unexpected end of input: expected ',' or ']' (line 2, column 2)" {
		t.Fatalf("err = %v", err)
	}
}

func TestParsePrefixStopsAfterTheValue(t *testing.T) {
	v, end, err := ParsePrefix(` {"a":1} trailing`)
	if err != nil || end != 8 || v.Kind != Object {
		t.Fatalf("%v %d %v", v, end, err)
	}
}

func TestKeysAndField(t *testing.T) {
	v, _ := Parse(`{"b":1,"a":2,"b":3}`)
	if got := v.Keys(); !reflect.DeepEqual(got, []string{"b", "a"}) {
		t.Fatalf("keys %v", got)
	}
	if f, ok := v.Field("b"); !ok || f.Str != "3" {
		t.Fatalf("b = %v", f)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add(s)
	}
	f.Fuzz(checkParse)
}

// AppendString writes the bytes json.Marshal writes for a string.
func FuzzAppendString(f *testing.F) {
	f.Add("plain")
	f.Add("<a & b> \"q\" \\ \x00\x1f\x7f \b\f\n\r\t \u2028\u2029 é 😀 \xff\xed\xa0\x80")
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Fatalf("%q: wrote %s, json.Marshal %s", s, got, want)
		}
	})
}

func TestAppendStringEveryByte(t *testing.T) {
	var b strings.Builder
	for c := 0; c < 256; c++ {
		b.WriteByte(byte(c))
	}
	s := b.String() + "\u2028\u2029"
	want, _ := json.Marshal(s)
	if got := AppendString(nil, s); string(got) != string(want) {
		t.Fatalf("wrote %s, json.Marshal %s", got, want)
	}
}
