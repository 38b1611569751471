package protocol

// Add appends a partition to the request, grouping consecutive partitions
// of one topic under one topic entry (callers add partitions topic by topic).
func (r *FetchRequest) Add(topic string, p FetchPartition) {
	if n := len(r.Topics); n > 0 && r.Topics[n-1].Name == topic {
		r.Topics[n-1].Partitions = append(r.Topics[n-1].Partitions, p)
		return
	}
	r.Topics = append(r.Topics, FetchTopic{Name: topic, Partitions: []FetchPartition{p}})
}

// Add appends a partition's data to the request (see FetchRequest.Add).
func (r *ProduceRequest) Add(topic string, p ProducePartition) {
	if n := len(r.Topics); n > 0 && r.Topics[n-1].Name == topic {
		r.Topics[n-1].Partitions = append(r.Topics[n-1].Partitions, p)
		return
	}
	r.Topics = append(r.Topics, ProduceTopic{Name: topic, Partitions: []ProducePartition{p}})
}

// Add appends a partition to the request (see FetchRequest.Add).
func (r *ListOffsetsRequest) Add(topic string, p ListOffsetsPartition) {
	if n := len(r.Topics); n > 0 && r.Topics[n-1].Name == topic {
		r.Topics[n-1].Partitions = append(r.Topics[n-1].Partitions, p)
		return
	}
	r.Topics = append(r.Topics, ListOffsetsTopic{Name: topic, Partitions: []ListOffsetsPartition{p}})
}
