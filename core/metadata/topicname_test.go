package metadata

import (
	"strings"
	"testing"
)

const illegalSuffix = " contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'"

// Kafka: Topic.detectInvalidTopic (3.x), checked in this order: empty, ".",
// "..", length > 249 (in Java chars, i.e. UTF-16 code units), then the
// character set.
func TestTopicNameProblemMessages(t *testing.T) {
	long250 := strings.Repeat("a", 250)
	cases := map[string]string{
		"":      "the empty string is not allowed",
		".":     "'.' is not allowed",
		"..":    "'..' is not allowed",
		long250: "the length of '" + long250 + "' is longer than the max allowed length 249",
		// Length is checked before characters.
		strings.Repeat("/", 250): "the length of '" + strings.Repeat("/", 250) + "' is longer than the max allowed length 249",
		"foo bar":                "'foo bar'" + illegalSuffix,
		"a/b":                    "'a/b'" + illegalSuffix,
	}
	for name, want := range cases {
		if got := TopicNameProblem(name); got != want {
			t.Errorf("TopicNameProblem(%.20q...) = %q\nwant %q", name, got, want)
		}
	}
}

// Kafka's TopicTest.testTopicHasValidPattern / testValidTopicNames.
func TestValidTopicNames(t *testing.T) {
	maxLength := strings.Repeat("x", MaxTopicNameLength)
	for _, name := range []string{"valid", "TOPIC", "nAmEs", "ar6", "VaL1d", "_0-9_.", "...", maxLength, "__consumer_offsets", "a", "-", "_", ".a", "a."} {
		if p := TopicNameProblem(name); p != "" {
			t.Errorf("TopicNameProblem(%q) = %q, want valid", name, p)
		}
	}
}

// Kafka's TopicTest.testInvalidTopicNames: every bad character, on its own
// inside a name, and the 256-character "ATCG" doubled six times.
func TestInvalidTopicNames(t *testing.T) {
	for _, c := range []string{"/", "\\", ",", "\u0000", ":", "\"", "'", ";", "*", "?", " ", "\t", "\r", "\n", "="} {
		name := "Is" + c + "illegal"
		want := "'" + name + "'" + illegalSuffix
		if got := TopicNameProblem(name); got != want {
			t.Errorf("TopicNameProblem(%q) = %q, want %q", name, got, want)
		}
	}
	long := "ATCG"
	for range 6 {
		long += long
	}
	if len(long) != 256 || !strings.Contains(TopicNameProblem(long), "longer than the max allowed length 249") {
		t.Errorf("256-char name: %q", TopicNameProblem(long))
	}
	for _, name := range []string{"naïve", "topic\u00e9", "\u2603", "a+b", "a@b", "a#b", "a~b"} {
		want := "'" + name + "'" + illegalSuffix
		if got := TopicNameProblem(name); got != want {
			t.Errorf("TopicNameProblem(%q) = %q, want %q", name, got, want)
		}
	}
}

// Java measures name.length() in UTF-16 code units, so 125 'é' (250 UTF-8
// bytes, 125 chars) is within the limit and is refused for its characters.
func TestTopicNameLengthCountsCharactersNotBytes(t *testing.T) {
	name := strings.Repeat("é", 125)
	want := "'" + name + "'" + illegalSuffix
	if got := TopicNameProblem(name); got != want {
		t.Errorf("TopicNameProblem(125 × 'é') = %.60q..., want the illegal-characters message", got)
	}
}

// Kafka's TopicTest.testTopicHasCollisionChars and testTopicHasCollision:
// '.' and '_' collide in metric names.
func TestCollisionHelpers(t *testing.T) {
	for name, want := range map[string]bool{"topic": false, "to.pic": true, "to_pic": true, ".topic": true, "topic_": true, "a-b": false, "": false} {
		if got := HasCollisionChars(name); got != want {
			t.Errorf("HasCollisionChars(%q) = %v", name, got)
		}
	}
	periods := []string{".topic", "to.pic", "topic."}
	underscores := []string{"_topic", "to_pic", "topic_"}
	for i := range periods {
		for j := range underscores {
			collide := UnifyCollisionChars(periods[i]) == UnifyCollisionChars(underscores[j])
			if collide != (i == j) {
				t.Errorf("%q vs %q: collide = %v, want %v", periods[i], underscores[j], collide, i == j)
			}
		}
	}
	if got := UnifyCollisionChars("a.b_c.d"); got != "a_b_c_d" {
		t.Errorf("UnifyCollisionChars = %q", got)
	}
	if UnifyCollisionChars("topic") != "topic" {
		t.Error("a name without collision chars changed")
	}
}

func TestIsInternalTopic(t *testing.T) {
	for name, want := range map[string]bool{
		"__consumer_offsets": true, "__transaction_state": true, "__share_group_state": true,
		"__cluster_metadata": false, "consumer_offsets": false, "__consumer_offsets-0": false, "": false,
	} {
		if got := IsInternalTopic(name); got != want {
			t.Errorf("IsInternalTopic(%q) = %v", name, got)
		}
	}
}
