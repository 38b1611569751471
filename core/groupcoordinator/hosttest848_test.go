package groupcoordinator

import (
	kgroup "kafkascope/core/group"
	"kafkascope/core/release"
)

// consumerDefaults are Kafka 4.3's group.consumer.* defaults
// (GroupCoordinatorConfig), which the test host answers unless set.
var consumerDefaults = map[string]int64{
	"group.consumer.heartbeat.interval.ms":  5000,
	"group.consumer.session.timeout.ms":     45000,
	"group.consumer.max.size":               2147483647,
	"group.consumer.assignment.interval.ms": 1000,
}

func (h *testHost) Release() release.Version {
	if h.release == (release.Version{}) {
		return release.Version{Major: 4, Minor: 3}
	}
	return h.release
}

func (h *testHost) ConfigString(name string) string {
	if v, ok := h.strs[name]; ok {
		return v
	}
	if name == "group.consumer.assignors" {
		return "uniform,range"
	}
	return ""
}

func (h *testHost) Topics() []kgroup.TopicMetadata { return h.topics }
