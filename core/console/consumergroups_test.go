package console

import (
	"strings"
	"testing"

	"kafkascope/core/group"
	"kafkascope/core/javacli"
	"kafkascope/core/release"
)

// The HashSet orders Kafka's messages list options in, measured on
// jopt-simple 5.0.4 (OptionSpec.hashCode is its names list's).
func TestJoptSetOrderMatchesMeasuredOrders(t *testing.T) {
	cases := []struct{ names, want []string }{
		{[]string{"group", "all-groups"}, []string{"[all-groups]", "[group]"}},
		{[]string{"list", "describe", "delete", "reset-offsets"}, []string{"[reset-offsets]", "[describe]", "[delete]", "[list]"}},
		{resetScenarios, []string{"[to-offset]", "[to-current]", "[to-datetime]", "[from-file]", "[by-duration]", "[to-earliest]", "[to-latest]", "[shift-by]"}},
	}
	for _, c := range cases {
		if got := strings.Join(joptSetOrder(c.names...), ", "); got != strings.Join(c.want, ", ") {
			t.Errorf("%v: got %s", c.names, got)
		}
	}
}

func TestConsumerGroupsArgumentRules(t *testing.T) {
	cases := []struct {
		args                     string
		usage, unavailable, warn string
	}{
		{"--list", "", "", ""},
		{"--describe", "Option [describe] takes one of these options: [reset-offsets], [describe], [delete], [list]", "", ""},
		{"--describe --group g --members --state", "Option [describe] takes at most one of these options: [members], [offsets], [state]", "", ""},
		{"--describe --group g --state stable", "Option [describe] does not take a value for [state]", "", ""},
		{"--delete", "Option [delete] takes one of these options: [all-groups], [group]", "", ""},
		{"--delete --group g --topic t", "The consumer does not support topic-specific offset deletion from a consumer group.", "", ""},
		{"--delete-offsets --group g", "Option [delete-offsets] takes the following options: [all-groups], [group]", "", ""},
		{"--reset-offsets --group g --dry-run --execute", "Option [reset-offsets] only accepts one of [execute] and [dry-run]", "", ""},
		{"--reset-offsets --group g --to-latest --to-offset 1 --execute", `Option "[to-offset]" can't be used with option "[to-latest]"`, "", ""},
		{"--reset-offsets --group g --to-latest --shift-by 1 --to-current --execute", `Option "[to-latest]" can't be used with option "[to-current]"`, "", ""},
		{"--reset-offsets --all-groups --topic t --to-latest", "", "", "WARN: No action"},
		{"--reset-offsets --to-latest --dry-run", "Option [reset-offsets] takes one of these options: [all-groups], [group]", "", ""},
		{"--describe --group g --all-groups", `Option "[group]" can't be used with option "[all-groups]"`, "", ""},
		{"--list --group g", `Option "[group]" can't be used with option "[list]"`, "", ""},
		{"--describe --all-groups --topic t", `Option "[topic]" can't be used with option "[describe]"`, "", ""},
		// checkArgs runs before main's one-action rule.
		{"--list --describe --group g", `Option "[group]" can't be used with option "[list]"`, "", ""},
		{"--list --delete --all-groups", "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets", "", ""},
		{"--group g", "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets", "", ""},
		{"--list --members --verbose", "", "members, verbose", ""},
		{"--describe --group g --type", "", "type", ""},
		{"--list --state --type classic", "", "", ""},
	}
	for _, c := range cases {
		p, err := javacli.ParseOptions(consumerGroupsSpecs(), strings.Fields(c.args))
		if err != nil {
			t.Fatalf("%s: %v", c.args, err)
		}
		usage, unavailable, warn := consumerGroupsCheck(p, release.Version{Major: 3, Minor: 8})
		if usage != c.usage || strings.Join(unavailable, ", ") != c.unavailable || !strings.HasPrefix(warn, c.warn) || (c.warn == "" && warn != "") {
			t.Errorf("%s:\n got usage %q unavailable %v warn %q\nwant usage %q unavailable %q warn %q", c.args, usage, unavailable, warn, c.usage, c.unavailable, c.warn)
		}
	}
}

// Kafka 4.x's argument messages (ConsumerGroupCommandOptions.java@4.1,
// @4.3).
func TestConsumerGroupsArgumentRules4(t *testing.T) {
	v41, v43 := release.Version{Major: 4, Minor: 1}, release.Version{Major: 4, Minor: 3}
	cases := []struct {
		rel         release.Version
		args        string
		usage, warn string
	}{
		{v41, "--describe", "Option [describe] takes one of these options: [all-groups], [group]", ""},
		{v43, "--delete-offsets --group g", "Option [delete-offsets] takes the following options: [topic], [group]", ""},
		{v41, "--group g", "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets, --validate-regex", ""},
		{v41, "--reset-offsets --all-groups --topic t --to-latest", "", "WARN: No action will be performed as the --execute option is missing. In a future major release,"},
		{v43, "--reset-offsets --all-groups --topic t --to-latest", "", "WARN: No action will be performed as the --execute option is missing. In version 5.0,"},
	}
	for _, c := range cases {
		p, err := javacli.ParseOptions(consumerGroupsSpecsFor(c.rel), strings.Fields(c.args))
		if err != nil {
			t.Fatalf("%s: %v", c.args, err)
		}
		usage, _, warn := consumerGroupsCheck(p, c.rel)
		if usage != c.usage || !strings.HasPrefix(warn, c.warn) || (c.warn == "" && warn != "") {
			t.Errorf("%v %s:\n got usage %q warn %q\nwant usage %q warn %q", c.rel, c.args, usage, warn, c.usage, c.warn)
		}
	}
	if got := resetWarning(release.Version{Major: 3, Minor: 8}); !strings.Contains(got, "missing.In a future") {
		t.Errorf("3.8 warning: %q", got)
	}
}

func TestTopicArgsAndVerboseAssignment(t *testing.T) {
	tps, msg := parseTopicWithPartitions("t:0,2,")
	if msg != "" || len(tps) != 2 || tps[1] != (group.TopicPartition{Topic: "t", Partition: 2}) {
		t.Errorf("t:0,2, → %v %q", tps, msg)
	}
	if _, msg := parseTopicWithPartitions("t:x"); msg != "Invalid partition 'x' specified in topic arg 't:x''" {
		t.Errorf("got %q", msg)
	}
	if _, msg := parseTopicWithPartitions("a:b:c"); msg != "Invalid topic arg 'a:b:c', expected topic name and partitions" {
		t.Errorf("got %q", msg)
	}
	got := verboseAssignment([]group.TopicPartition{{Topic: "b", Partition: 10}, {Topic: "b", Partition: 2}, {Topic: "a", Partition: 1}, {Topic: "a", Partition: 0}})
	if got != "(0,1), (10,2)" {
		t.Errorf("verbose assignment %q", got)
	}
	if verboseAssignment(nil) != "-" {
		t.Errorf("empty assignment")
	}
}

func TestJavaDateTimeAndDuration(t *testing.T) {
	for in, want := range map[string]int64{
		"1970-01-01T00:00:00.000":       0,
		"2024-01-01T00:00:01.500":       1704067201500,
		"2024-01-01T09:00:00.000+09:00": 1704067200000,
		"2024-01-01T00:00:00.000Z":      1704067200000,
	} {
		if got, msg := javaDateTime(in); msg != "" || got != want {
			t.Errorf("%s: %d %q, want %d", in, got, msg, want)
		}
	}
	if _, msg := javaDateTime("2024-01-01"); msg != "Error parsing timestamp. It does not contain a 'T' according to ISO8601 format" {
		t.Errorf("no T: %q", msg)
	}
	if _, msg := javaDateTime("2024-13-01T00:00:00.000"); msg != `Unparseable date: "2024-13-01T00:00:00.000Z"` {
		t.Errorf("bad month: %q", msg)
	}
	for in, want := range map[string]int64{"PT1H": 3600000, "P1DT30M": 88200000, "PT0.5S": 500, "-PT1S": -1000} {
		if got, ok := javaDuration(in); !ok || got != want {
			t.Errorf("%s: %d %v", in, got, ok)
		}
	}
	for _, bad := range []string{"1H", "P", "PT", "PT1D", "P1H"} {
		if _, ok := javaDuration(bad); ok {
			t.Errorf("%s accepted", bad)
		}
	}
}
