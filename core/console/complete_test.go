package console

import (
	"strings"
	"testing"
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
		"kafka-features.sh --bootstrap-server x upgrade --":          "--dry-run --feature --help --metadata",
		"cluster create --v": "--version",
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
