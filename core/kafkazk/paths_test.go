package kafkazk

import (
	"slices"
	"testing"
)

func TestPaths(t *testing.T) {
	for got, want := range map[string]string{
		BrokerIDPath(1):                          "/brokers/ids/1",
		TopicPath("t"):                           "/brokers/topics/t",
		TopicPartitionsPath("t"):                 "/brokers/topics/t/partitions",
		TopicPartitionPath("t", 0):               "/brokers/topics/t/partitions/0",
		TopicPartitionStatePath("t", 12):         "/brokers/topics/t/partitions/12/state",
		ConfigEntityTypePath("topics"):           "/config/topics",
		ConfigEntityPath("brokers", "1"):         "/config/brokers/1",
		DeleteTopicPath("t"):                     "/admin/delete_topics/t",
		ConfigChangeCreatePath():                 "/config/changes/config_change_",
		IsrChangeCreatePath():                    "/isr_change_notification/isr_change_",
		LogDirEventCreatePath():                  "/log_dir_event_notification/log_dir_event_",
		ConfigEntityPath("brokers", "<default>"): "/config/brokers/<default>",
	} {
		if got != want {
			t.Errorf("%s, want %s", got, want)
		}
	}
}

// ZkData.PersistentZkPaths at 2.8.0, in order: what
// KafkaZkClient.createTopLevelPaths creates.
func TestPersistentZkPaths(t *testing.T) {
	want := []string{"/consumers", "/brokers/ids", "/brokers/topics", "/config/changes", "/admin/delete_topics",
		"/brokers/seqid", "/isr_change_notification", "/latest_producer_id_block", "/log_dir_event_notification",
		"/config/topics", "/config/clients", "/config/users", "/config/brokers", "/config/ips"}
	if !slices.Equal(PersistentZkPaths, want) {
		t.Fatalf("%v", PersistentZkPaths)
	}
}
