package console

import (
	"slices"
	"strings"
	"testing"

	"kafkascope/core/kafkazk"
)

func TestZkTopicNameProblem(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"t", ""},
		{"a.b_c-D9", ""},
		{"", "Topic name is illegal, it can't be empty"},
		{".", `Topic name cannot be "." or ".."`},
		{"..", `Topic name cannot be "." or ".."`},
		{strings.Repeat("a", 249), ""},
		{strings.Repeat("a", 250), "Topic name is illegal, it can't be longer than 249 characters, topic name: " + strings.Repeat("a", 250)},
		{"bad!", `Topic name "bad!" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'`},
	} {
		if got := zkTopicNameProblem(c.name); got != c.want {
			t.Errorf("zkTopicNameProblem(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

// Config.entries iterates a default HashMap<String, ConfigEntry>: by
// bucket ((h ^ h>>>16) & 15), then in the order put, which is the
// Properties' order of the znode's entries.
func TestZkDescribedConfigsOrder(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want []string
	}{
		// buckets 11 and 2
		{[]string{"retention.ms", "cleanup.policy"}, []string{"cleanup.policy=v", "retention.ms=v"}},
		// message.format.version and cleanup.policy share bucket 2 (of
		// the HashMap and of the Properties' table): the znode's order
		// decides.
		{[]string{"message.format.version", "cleanup.policy", "max.message.bytes", "segment.ms"},
			[]string{"message.format.version=v", "cleanup.policy=v", "max.message.bytes=v", "segment.ms=v"}},
		{[]string{"segment.ms", "cleanup.policy", "max.message.bytes", "message.format.version"},
			[]string{"cleanup.policy=v", "message.format.version=v", "max.message.bytes=v", "segment.ms=v"}},
		{nil, []string{}},
	} {
		var entries []kafkazk.ConfigEntry
		for _, n := range c.in {
			entries = append(entries, kafkazk.ConfigEntry{Name: n, Value: "v"})
		}
		if got := zkDescribedConfigs(entries); !slices.Equal(got, c.want) {
			t.Errorf("zkDescribedConfigs(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestChrootPath(t *testing.T) {
	for _, c := range []struct{ chroot, path, want string }{
		{"", "/brokers/topics", "/brokers/topics"},
		{"/kafka", "/brokers/topics", "/kafka/brokers/topics"},
		{"/kafka", "/", "/kafka"},
	} {
		if got := chrootPath(c.chroot, c.path); got != c.want {
			t.Errorf("chrootPath(%q, %q) = %q, want %q", c.chroot, c.path, got, c.want)
		}
	}
}

func TestReplicaAssignmentError28(t *testing.T) {
	_, class, msg := parseReplicaAssignment("1:2,3")
	class, msg = replicaAssignmentError28(class, msg, 0x1b6d3586)
	if class != "kafka.admin.AdminOperationException" || msg != "Partition 1 has different replication factor: [I@1b6d3586" {
		t.Errorf("uneven: %s: %s", class, msg)
	}
	_, class, msg = parseReplicaAssignment("1:1")
	class, msg = replicaAssignmentError28(class, msg, 0)
	if class != "kafka.common.AdminCommandFailedException" || msg != "Partition replica lists may not contain duplicate entries: 1" {
		t.Errorf("duplicates: %s: %s", class, msg)
	}
	_, class, msg = parseReplicaAssignment("1:x")
	if c2, m2 := replicaAssignmentError28(class, msg, 0); c2 != class || m2 != msg {
		t.Errorf("NumberFormatException changed: %s: %s", c2, m2)
	}
}
