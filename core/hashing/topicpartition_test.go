package hashing

import (
	"fmt"
	"strings"
	"testing"

	"kafkascope/core/jdk"
)

// Orders measured on JDK 17 (a HashSet of TopicPartitions), from the tools
// research: TopicPartitionHashCode's values put through HashMap's table.
func TestTopicPartitionHashOrder(t *testing.T) {
	cases := []struct {
		topic string
		n     int32
		want  string
	}{
		{"t", 3, "t-2, t-1, t-0"},
		{"t", 10, "t-5, t-4, t-3, t-2, t-1, t-0, t-9, t-8, t-7, t-6"},
		{"test", 3, "test-1, test-0, test-2"},
		{"test", 6, "test-1, test-0, test-3, test-2, test-5, test-4"},
		{"foo", 3, "foo-2, foo-0, foo-1"},
		{"my-topic", 4, "my-topic-0, my-topic-1, my-topic-2, my-topic-3"},
		{"t1", 10, "t1-9, t1-8, t1-7, t1-6, t1-5, t1-4, t1-3, t1-2, t1-1, t1-0"},
	}
	for _, c := range cases {
		var hashes []int32
		for p := int32(0); p < c.n; p++ {
			hashes = append(hashes, TopicPartitionHashCode(c.topic, p))
		}
		var got []string
		for _, i := range jdk.HashOrder(hashes) {
			got = append(got, fmt.Sprintf("%s-%d", c.topic, i))
		}
		if strings.Join(got, ", ") != c.want {
			t.Errorf("%s x%d: %s, want %s", c.topic, c.n, strings.Join(got, ", "), c.want)
		}
	}
}
