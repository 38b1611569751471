package console

import (
	"strings"
	"testing"

	"kafkascope/core/release"
)

func TestComplete(t *testing.T) {
	cases := map[string]string{
		"kafka-to":                            "kafka-topics.sh",
		"kafka-topics.sh --rep":               "--replica-assignment --replication-factor",
		"kafka-console-consumer.sh --from":    "--from-beginning",
		"broker ":                             "kill start stop",
		"net":                                 "network",
		"cluster create --b":                  "--brokers",
		"cluster create --p":                  "--page-cache-bytes",
		"pagec":                               "pagecache",
		"kafka-topics.sh --create --topic x ": "",
		"kafka-metadata-quorum.sh --boot":     "--bootstrap-controller --bootstrap-server",
		"kafka-metadata-quorum.sh --bootstrap-server kafka-1:9092 d": "describe",
		"kafka-metadata-quorum.sh --bootstrap-server x describe --":  "--help --human-readable --replication --status",
		"kafka-features.sh --bootstrap-server x d":                   "describe disable downgrade",
		"kafka-features.sh --bootstrap-server x upgrade --":          "--dry-run --feature --help --metadata --release-version",
		"cluster create --v": "--version",
		"help n":             "network",
		"help ":              "broker cat cluster downtime jobs kill lost ls network pagecache replicas time xxd zookeeper",
	}
	for in, want := range cases {
		got := Complete(in)
		if in == "kafka-topics.sh --create --topic x " {
			if len(got) < 10 {
				t.Errorf("Complete(%q) offered %d flags", in, len(got))
			}
			continue
		}
		if strings.Join(got, " ") != want {
			t.Errorf("Complete(%q) = %q, want %q", in, got, want)
		}
	}
}

// Tab offers the options of the release the cluster runs.
func TestCompleteByRelease(t *testing.T) {
	v38, v41, v43 := release.Version{Major: 3, Minor: 8}, release.Version{Major: 4, Minor: 1}, release.Version{Major: 4, Minor: 3}
	for _, c := range []struct {
		line string
		rel  release.Version
		want string
	}{
		{"kafka-console-producer.sh --command-p", v38, ""},
		{"kafka-console-producer.sh --command-p", v43, "--command-property"},
		{"kafka-console-consumer.sh --consumer-p", v38, "--consumer-property"},
		{"kafka-producer-perf-test.sh --payload-m", v38, ""},
		{"kafka-producer-perf-test.sh --payload-m", v41, "--payload-monotonic"},
		{"kafka-producer-perf-test.sh --boot", v41, ""},
		{"kafka-producer-perf-test.sh --boot", v43, "--bootstrap-server"},
		{"kafka-producer-perf-test.sh --war", v43, "--warmup-records"},
		{"kafka-metadata-quorum.sh --bootstrap-server x a", v38, ""},
		{"kafka-metadata-quorum.sh --bootstrap-server x a", v43, "add-controller"},
		// After an option that takes a value, Tab offers no flag.
		{"kafka-topics.sh --bootstrap-server ", v43, ""},
		{"kafka-topics.sh --topic ", v38, ""},
		{"kafka-topics.sh --topic t --", v43, strings.Join(CompleteFor("kafka-topics.sh --", v43), " ")},
	} {
		if got := strings.Join(CompleteFor(c.line, c.rel), " "); got != c.want {
			t.Errorf("CompleteFor(%q, %s) = %q, want %q", c.line, c.rel, got, c.want)
		}
	}
}

func TestReadsStdin(t *testing.T) {
	for line, want := range map[string]bool{
		"kafka-console-producer.sh --topic t":             true,
		"/opt/kafka/bin/kafka-console-producer --topic t": true,
		"kafka-console-producer.sh --help":                false,
		"cat > plan.json":                                 true,
		"cat >>plan.json":                                 true,
		"cat plan.json":                                   false,
		"kafka-topics.sh --list":                          false,
		"echo 'unterminated":                              false,
		"":                                                false,
	} {
		if got := ReadsStdin(line); got != want {
			t.Errorf("ReadsStdin(%q) = %v, want %v", line, got, want)
		}
	}
}
