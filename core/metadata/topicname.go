package metadata

import (
	"fmt"
	"strings"

	"kafkascope/core/jdk"
)

// MaxTopicNameLength is Kafka's limit on topic names.
const MaxTopicNameLength = 249

// Internal topic names.
const (
	ConsumerOffsetsTopic  = "__consumer_offsets"
	TransactionStateTopic = "__transaction_state"
	ShareGroupStateTopic  = "__share_group_state"
)

// IsInternalTopic reports whether name is one of Kafka's internal topics.
func IsInternalTopic(name string) bool {
	return name == ConsumerOffsetsTopic || name == TransactionStateTopic || name == ShareGroupStateTopic
}

// TopicNameProblem returns why name is not a legal topic name ("" if it is),
// in Kafka's words (org.apache.kafka.common.internals.Topic).
func TopicNameProblem(name string) string {
	switch {
	case name == "":
		return "the empty string is not allowed"
	case name == ".":
		return "'.' is not allowed"
	case name == "..":
		return "'..' is not allowed"
	case jdk.StringLength(name) > MaxTopicNameLength:
		return fmt.Sprintf("the length of '%s' is longer than the max allowed length %d", name, MaxTopicNameLength)
	}
	for i := 0; i < len(name); i++ {
		ch := name[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '.' || ch == '_' || ch == '-') {
			return fmt.Sprintf("'%s' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'", name)
		}
	}
	return ""
}

// HasCollisionChars reports whether name contains '.' or '_', which Kafka's
// metric names cannot tell apart.
func HasCollisionChars(name string) bool { return strings.ContainsAny(name, "._") }

// UnifyCollisionChars maps '.' to '_' so colliding names compare equal.
func UnifyCollisionChars(name string) string { return strings.ReplaceAll(name, ".", "_") }
