package ui

import (
	"encoding/json"
	"reflect"
	"testing"
)

var eventPropsSeeds = []string{
	`{"type":"click","button":0,"ctrlKey":false,"target":{"value":"kafka-topics.sh","checked":true,"tagName":"INPUT"}}`,
	`{"key":"Enter","timeStamp":1234.5678,"x":-1e-7,"target":{}}`,
	`{"a":1,"a":"two","target":{"v":1},"target":{"w":2}}`,
	`{"s":"\u00e9\ud83d\ude00\ud800 <\"\\>"}`,
	`{"big":1e400}`,
	`null`,
	`[1,2]`,
	`"x"`,
	`{"a":1} {}`,
	``,
	`{"a":[1,{"b":null}]}`,
}

func checkEventProps(t *testing.T, text string) {
	t.Helper()
	var want map[string]any
	wantErr := json.Unmarshal([]byte(text), &want)
	got, err := ParseEventProps(text)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%q: error %v, encoding/json's %v", text, err, wantErr)
	}
	if wantErr == nil && !reflect.DeepEqual(map[string]any(got), want) {
		t.Fatalf("%q: read %#v, encoding/json %#v", text, got, want)
	}
}

// The page's event summaries are read as json.Unmarshal read them.
func TestParseEventPropsMatchesEncodingJSON(t *testing.T) {
	for _, s := range eventPropsSeeds {
		checkEventProps(t, s)
	}
}

func FuzzParseEventProps(f *testing.F) {
	for _, s := range eventPropsSeeds {
		f.Add(s)
	}
	f.Fuzz(checkEventProps)
}
