package timeline

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"kafkascope/core/sim"
)

// The link's JSON is written and read without encoding/json (to keep it
// out of the page) but must stay what encoding/json wrote and read: links
// already shared must open as before, and a session's link must not change.

// jsonDecodeShared is how links were read before share_json.go.
func jsonDecodeShared(data []byte) (shared, error) {
	var sh shared
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(&sh)
	return sh, err
}

func checkSharedJSON(t *testing.T, data []byte) {
	t.Helper()
	want, wantErr := jsonDecodeShared(data)
	var got shared
	gotErr := parseShared(data, &got)
	if (gotErr != nil) != (wantErr != nil) {
		t.Fatalf("%q: error %v, encoding/json's %v", data, gotErr, wantErr)
	}
	if wantErr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: decoded\n %#v\nencoding/json\n %#v", data, got, want)
	}
	if wantErr == nil {
		if enc, ref := encodeShared(want), mustMarshal(t, want); !bytes.Equal(enc, ref) {
			t.Fatalf("%#v: encoded\n %s\nencoding/json\n %s", want, enc, ref)
		}
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var sharedJSONSeeds = []string{
	`{"v":1,"a":[{"c":"cluster create"},{"t":5,"x":true}],"at":9000000000}`,
	`{"v":1,"a":[{"t":0,"c":"cluster create --brokers 3"},{"t":12,"c":"kafka-console-producer.sh --topic t","i":["a","b <&> \u2028"]},{"t":13,"x":true}],"at":99,"e":120}`,
	`  {"V":1,"A":[],"AT":3,"E":null} trailing`,
	`{"v":1,"a":[{"t":1,"c":"x","i":["p","q"]}],"a":[{"t":2,"i":["r"]}],"at":1}`,
	`{"v":1,"a":[{"t":1},{"t":2},{"t":3}],"a":[{"t":4}],"a":[{"t":5},null,{"c":"z"}]}`,
	`{"v":1,"a":null,"at":1}`,
	`{"v":1.0,"a":[],"at":1}`,
	`{"v":1,"a":[],"at":1e3}`,
	`{"v":1,"a":[{"t":-0,"x":null,"i":null,"c":null}],"at":1}`,
	`{"v":1,"a":[{"c":"\ud83d\ude00 \ud83d \udc00x \\ \/ \b\f\n\r\t \u00e9 \xff"}],"at":1}`,
	`{"v":1,"a":[{"c":1}],"at":1}`,
	`{"v":1,"a":[{"ſ":1}],"at":1}`,
	`{"v":1,"a":[{"T":1,"C":"K"}],"aT":2,"zz":0}`,
	`{"v":1,"a":[{"t":01}]}`,
	`{"v":99999999999999999999}`,
	`null`,
	`nullx`,
	`[1]`,
	`"x"`,
	``,
	` `,
	`{"v":1,"a":[{"t":1,"x":"true"}]}`,
	`{"v":1,"a":[{"i":[null,"a",1]}]}`,
	`{"v":1,"a":[[]]}`,
	`{"v":1,"a":{}}`,
	`{"v":1,}`,
	`{"v":1 "a":[]}`,
	`{"v":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
}

func TestSharedJSONMatchesEncodingJSON(t *testing.T) {
	for _, s := range sharedJSONSeeds {
		checkSharedJSON(t, []byte(s))
	}
	// Every byte in a command and an input line, and the runes that
	// encoding/json escapes.
	var all []byte
	for c := 0; c < 256; c++ {
		all = append(all, byte(c))
	}
	for _, line := range []string{string(all), "\u2028\u2029 \u2027\u202a é 😀", "", "\xed\xa0\x80"} {
		sh := shared{V: 1, Actions: []Action{{Line: line, Stdin: []string{line, ""}}, {At: 7, Interrupt: true}}, At: sim.Time(-5)}
		checkSharedJSON(t, mustMarshal(t, sh))
	}
}

func FuzzSharedJSON(f *testing.F) {
	for _, s := range sharedJSONSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSharedJSON(t, data)
	})
}

func FuzzEncodeShared(f *testing.F) {
	f.Add("cluster create", "a<b>&c\u2028", int64(3), true, int64(0))
	f.Add("\xff\x00\"\\", "", int64(-1), false, int64(9))
	f.Fuzz(func(t *testing.T, line, in string, at int64, x bool, end int64) {
		sh := shared{V: 1, Actions: []Action{{At: sim.Time(at), Line: line, Stdin: []string{in}, Interrupt: x}, {Line: in}}, At: sim.Time(at), End: sim.Time(end)}
		if got, want := encodeShared(sh), mustMarshal(t, sh); !bytes.Equal(got, want) {
			t.Fatalf("encoded\n %s\nencoding/json\n %s", got, want)
		}
	})
}
