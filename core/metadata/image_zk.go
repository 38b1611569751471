package metadata

import "slices"

// A ZooKeeper-era broker (Kafka 2.8) has no metadata log: its metadata
// cache is what the controller's UpdateMetadata requests said last
// (MetadataCache.updateMetadata at tag 2.8.0), and the topic configs it
// read from /config/topics. The same Image holds it, so that everything
// that reads a broker's view reads one kind of thing; these methods are
// how the cache changes. Offset counts the updates (there are no records).

// PutPartition sets partition idx of topic (id) to st, creating the topic
// when the cache does not know it. A topic's partitions come in one
// request when it is created (the controller names them all), so a gap
// below idx is filled with leaderless placeholders only until they come.
func (img *Image) PutPartition(topic string, id Uuid, idx int32, st PartitionState) {
	t := img.Topics[topic]
	if t != nil && t.ID != id && id != (Uuid{}) {
		img.RemoveTopic(topic) // a deleted topic's name, reused
		t = nil
	}
	if t == nil {
		t = &Topic{Name: topic, ID: id}
		img.Topics[topic] = t
		if id != (Uuid{}) {
			img.TopicIDs[id] = topic
		}
	}
	for int(idx) >= len(t.Partitions) {
		t.Partitions = append(t.Partitions, &PartitionState{Leader: NoLeader})
	}
	c := st
	c.Replicas, c.ISR = slices.Clone(st.Replicas), slices.Clone(st.ISR)
	c.AddingReplicas, c.RemovingReplicas = nilIfEmpty(st.AddingReplicas), nilIfEmpty(st.RemovingReplicas)
	t.Partitions[idx] = &c
	img.Offset++
}

// RemoveTopic drops a topic and its configs from the cache.
func (img *Image) RemoveTopic(name string) {
	t, ok := img.Topics[name]
	if !ok {
		return
	}
	delete(img.Topics, name)
	delete(img.TopicIDs, t.ID)
	if _, ok := img.Configs[ConfigResource{ResourceTopic, name}]; ok {
		delete(img.Configs, ConfigResource{ResourceTopic, name})
		img.configs = newConfigStamp()
	}
	img.Offset++
}

// SetLiveBrokers replaces the cache's brokers with live (UpdateMetadata
// names every live broker every time).
func (img *Image) SetLiveBrokers(live []BrokerRegistration) {
	img.Brokers = map[int32]*BrokerRegistration{}
	for i := range live {
		b := live[i]
		b.Endpoints = slices.Clone(b.Endpoints)
		img.Brokers[b.ID] = &b
	}
	img.Offset++
}

// SetTopicConfig replaces a topic's config overrides (a ZooKeeper-era
// broker reads them from /config/topics/T).
func (img *Image) SetTopicConfig(topic string, overrides map[string]string) {
	img.setConfig(ConfigResource{ResourceTopic, topic}, overrides)
}

// SetBrokerConfig replaces a broker's dynamic configs, or the cluster
// default's for name "" (a ZooKeeper-era broker reads them from
// /config/brokers/N and /config/brokers/<default>).
func (img *Image) SetBrokerConfig(name string, overrides map[string]string) {
	img.setConfig(ConfigResource{ResourceBroker, name}, overrides)
}

func (img *Image) setConfig(res ConfigResource, overrides map[string]string) {
	if len(overrides) == 0 {
		delete(img.Configs, res)
	} else {
		c := make(map[string]string, len(overrides))
		for k, v := range overrides {
			c[k] = v
		}
		img.Configs[res] = c
	}
	img.configs = newConfigStamp()
	img.Offset++
}
