package transcript

import (
	"slices"
	"testing"
)

func TestReconcile(t *testing.T) {
	cases := []struct {
		name             string
		expected, actual []string
		want             []string
	}{
		{
			name:     "a changed line keeps the topic id open",
			expected: []string{"Topic: t\tTopicId: {{*}}\tPartitionCount: 1\tConfigs:", "\tTopic: t\tPartition: 0\tLeader: 1"},
			actual:   []string{"Topic: t\tTopicId: AAAAAAAAAAAAAAAAAAAAAA\tPartitionCount: 1\tConfigs: min.insync.replicas=1", "\tTopic: t\tPartition: 0\tLeader: 1"},
			want:     []string{"Topic: t\tTopicId: {{*}}\tPartitionCount: 1\tConfigs: min.insync.replicas=1", "\tTopic: t\tPartition: 0\tLeader: 1"},
		},
		{
			name:     "new log lines take the timestamp wildcard, unchanged lines keep theirs",
			expected: []string{"[{{*}}] WARN retrying 3", "done in 4.0 ms"},
			actual:   []string{"[2024-01-01 00:00:07,090] WARN retrying 3", "[2024-01-01 00:00:08,001] WARN retrying 2", "done in 9.0 ms"},
			want:     []string{"[{{*}}] WARN retrying 3", "[{{*}}] WARN retrying 2", "done in 9.0 ms"},
		},
		{
			name:     "a line unlike any pattern is written as it is",
			expected: []string{"Created topic t."},
			actual:   []string{"Error while executing topic command"},
			want:     []string{"Error while executing topic command"},
		},
		{
			name:     "an elided output is written whole",
			expected: []string{"first", "{{...}}", "[{{*}}] INFO last"},
			actual:   []string{"first", "middle", "[2024-01-01 00:00:01,000] INFO last"},
			want:     []string{"first", "middle", "[{{*}}] INFO last"},
		},
	}
	for _, c := range cases {
		got := Reconcile(c.expected, c.actual)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
		if !MatchOutput(got, c.actual) {
			t.Errorf("%s: the result %q does not match the output", c.name, got)
		}
	}
}
