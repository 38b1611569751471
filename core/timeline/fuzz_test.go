package timeline

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"kafkascope/core/sim"
)

// A share link is untrusted input: whatever it holds, Decode either
// rejects it with ErrBadSession or replays it into a session that works
// (has a cluster, stands within its branch, re-encodes to the same actions
// and takes further commands).
func checkDecoded(t *testing.T, text string) {
	if sh, err := decodeShared(text); err == nil && fuzzSpan(sh) > fuzzMaxSpan {
		// Valid, but too slow to replay thousands of times: the limits
		// that bound it (MaxLinkTime) are tested in TestLinkTimeLimits.
		t.Skip()
	}
	s, err := Decode(text)
	if err != nil {
		if !errors.Is(err, ErrBadSession) {
			t.Fatalf("error does not wrap ErrBadSession: %v", err)
		}
		return
	}
	if s.Cluster() == nil {
		t.Fatal("decoded session has no cluster")
	}
	if s.Now() > s.End() {
		t.Fatalf("decoded session stands at %v past its end %v", s.Now(), s.End())
	}
	back, err := Decode(s.Encode())
	if err != nil {
		t.Fatalf("re-encoded session does not decode: %v", err)
	}
	if !reflect.DeepEqual(back.Actions(), s.Actions()) || back.Now() != s.Now() {
		t.Fatalf("re-encoded session differs: %d actions at %v, want %d at %v", len(back.Actions()), back.Now(), len(s.Actions()), s.Now())
	}
	if s.Busy() {
		// The link was shared while a command ran in the foreground (a
		// console consumer without &): the prompt waits for it, as it
		// did for the sender. Ctrl-C gives it back, as on the page.
		s.Interrupt()
		for i := 0; s.Busy() && i < 100; i++ {
			if _, err := s.Finish(10000); err != nil {
				t.Fatalf("the interrupted command fails: %v", err)
			}
		}
	}
	n := len(s.Lines())
	s.Do("jobs", nil)
	if s.Busy() || len(s.Lines()) <= n {
		t.Fatal("decoded session does not take a command")
	}
}

// fuzzMaxSpan is the longest branch the fuzzers replay.
const fuzzMaxSpan = sim.Time(time.Minute)

func fuzzSpan(sh shared) sim.Time {
	return max(sh.At, sh.End, sh.Actions[len(sh.Actions)-1].At)
}

// shareSeeds are real links: small sessions as a user would share them.
func shareSeeds(tb testing.TB) []string {
	var out []string
	for _, cmds := range [][]string{
		{"cluster create"},
		{"cluster create --brokers 3 --seed 9", "kafka-topics.sh --create --topic t --partitions 2 --replication-factor 2",
			"kafka-console-producer.sh --topic t <<< x|y", "broker kill 2", "time advance 3s"},
		{"cluster create --brokers 1", "kafka-console-consumer.sh --topic t --timeout-ms 100 &", "jobs", "network delay 1 5ms"},
	} {
		s := New()
		for _, c := range cmds {
			var stdin []string
			if cmd, in, ok := strings.Cut(c, " <<< "); ok {
				c, stdin = cmd, strings.Split(in, "|")
			}
			s.Do(c, stdin)
			for s.Busy() {
				if _, err := s.Play(100e6, 0); err != nil {
					tb.Fatal(err)
				}
			}
		}
		out = append(out, s.Encode())
	}
	return out
}

// FuzzDecodeLink feeds Decode any text, from real links on.
func FuzzDecodeLink(f *testing.F) {
	for _, s := range shareSeeds(f) {
		f.Add(s)
	}
	f.Add("")
	f.Add("%%%")
	f.Fuzz(checkDecoded)
}

// FuzzDecodeLinkJSON fuzzes the session JSON inside the compression and
// base64, so mutations reach the action checks and the replay.
func FuzzDecodeLinkJSON(f *testing.F) {
	for _, s := range shareSeeds(f) {
		raw, _ := base64.RawURLEncoding.DecodeString(s)
		data, err := io.ReadAll(flate.NewReader(bytes.NewReader(raw)))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"v":1,"a":[{"c":"cluster create"},{"t":5,"x":true}],"at":9000000000}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var buf bytes.Buffer
		w, _ := flate.NewWriter(&buf, flate.BestSpeed)
		_, _ = w.Write(data)
		_ = w.Close()
		checkDecoded(t, base64.RawURLEncoding.EncodeToString(buf.Bytes()))
	})
}

// A link naming a moment past MaxLinkTime is refused before any replay
// (it would run the cluster for years), as is an action past
// MaxActionTime.
func TestLinkTimeLimits(t *testing.T) {
	for in, want := range map[string]string{
		`{"v":1,"a":[{"c":"cluster create"}],"at":9000000000000000000}`:                        "the moment it shows is out of range",
		`{"v":1,"a":[{"c":"cluster create"}],"at":1,"e":9000000000000000000}`:                  "its end is out of range",
		`{"v":1,"a":[{"c":"cluster create"},{"t":2678400000000001,"c":"jobs"}],"at":1}`:        "action 2 is past the session time limit (31d)",
		`{"v":1,"a":[{"c":"cluster create"},{"t":9000000000000000000,"x":true}],"at":1}`:       "action 2 is past the session time limit (31d)",
		`{"v":1,"a":[{"c":"cluster create"},{"t":-1,"c":"jobs"}],"at":1}`:                      "action 2 goes back in time",
		`{"v":1,"a":[{"c":"cluster create"},{"t":1,"c":"cluster create --brokers 2"}],"at":1}`: "action 2 starts another cluster",
		`{"v":1,"a":[{"c":"jobs"}],"at":1}`:                                                    "it does not start with cluster create",
		`{"v":3,"a":[{"c":"cluster create"}],"at":1}`:                                          "it has version 3 (this build reads versions 1 and 2)",
		`{"v":1,"a":[{"c":"cluster create"}],"at":1,"zz":0}`:                                   "its data is malformed",
	} {
		_, err := Decode(link(in))
		if !errors.Is(err, ErrBadSession) || !strings.HasSuffix(err.Error(), ": "+want) {
			t.Errorf("%s: err = %v, want %q", in, err, want)
		}
	}
}

// link encodes a link's JSON as Encode does.
func link(json string) string {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestSpeed)
	_, _ = w.Write([]byte(json))
	_ = w.Close()
	return base64.RawURLEncoding.EncodeToString(buf.Bytes())
}
