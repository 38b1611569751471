package broker

import "testing"

func TestCleanShutdownEpoch(t *testing.T) {
	for in, want := range map[string]int64{
		`{"version":0,"brokerEpoch":42}`: 42, `{ "brokerEpoch" : 7 , "version": 0 }`: 7,
		`{"version":0}`: -1, `{"brokerEpoch":"x"}`: -1, ``: -1, `not json`: -1,
	} {
		if got := cleanShutdownEpoch([]byte(in)); got != want {
			t.Errorf("cleanShutdownEpoch(%q) = %d, want %d", in, got, want)
		}
	}
}
