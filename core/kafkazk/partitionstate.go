package kafkazk

import "kafkascope/core/scalacoll"

// PartitionState is the data of /brokers/topics/<t>/partitions/<p>/state:
// Kafka's LeaderIsrAndControllerEpoch without the zkVersion (which is the
// znode's version, not part of its data).
type PartitionState struct {
	Leader          int32 // -1: no leader
	LeaderEpoch     int32
	ISR             []int32
	ControllerEpoch int32 // the epoch of the controller that wrote it
}

// EncodePartitionState is TopicPartitionStateZNode.encode: a Map literal
// of five entries (version, leader, leader_epoch, controller_epoch, isr),
// which is a CHAMP HashMap, so the keys come out in its hash order:
// controller_epoch, leader, version, leader_epoch, isr.
func EncodePartitionState(s PartitionState) []byte {
	members := []member{
		{"version", jsonInt(1)},
		{"leader", jsonInt(int64(s.Leader))},
		{"leader_epoch", jsonInt(int64(s.LeaderEpoch))},
		{"controller_epoch", jsonInt(int64(s.ControllerEpoch))},
		{"isr", jsonInts(s.ISR)},
	}
	keys := make([]string, len(members))
	for i, m := range members {
		keys[i] = m.key
	}
	return jsonObjectIn(scalacoll.ImmutableStringOrder(keys), members)
}

// DecodePartitionState is TopicPartitionStateZNode.decode: leader,
// leader_epoch, isr and controller_epoch are all required.
func DecodePartitionState(data []byte) (PartitionState, error) {
	obj, err := parseObject(data)
	if err != nil {
		return PartitionState{}, err
	}
	var s PartitionState
	if s.Leader, err = intField(obj, "leader"); err != nil {
		return PartitionState{}, err
	}
	if s.LeaderEpoch, err = intField(obj, "leader_epoch"); err != nil {
		return PartitionState{}, err
	}
	isr, err := field(obj, "isr")
	if err != nil {
		return PartitionState{}, err
	}
	if s.ISR, err = asInt32s(isr, `"isr"`); err != nil {
		return PartitionState{}, err
	}
	if s.ControllerEpoch, err = intField(obj, "controller_epoch"); err != nil {
		return PartitionState{}, err
	}
	return s, nil
}
