package kafkazk

import (
	"fmt"
	"kafkascope/core/scalacoll"

	"kafkascope/core/jdk"
)

// EncodeClusterID is ClusterIdZNode.toJson: Map("version" -> "1",
// "id" -> id), a Map2; the version is the string "1".
func EncodeClusterID(id string) []byte {
	return jsonObject([]member{
		{"version", jsonString("1")},
		{"id", jsonString(id)},
	})
}

// DecodeClusterID is ClusterIdZNode.fromJson: the "id" string.
func DecodeClusterID(data []byte) (string, error) {
	obj, err := parseObject(data)
	if err != nil {
		return "", err
	}
	return stringField(obj, "id")
}

// FeatureZNodeStatusEnabled is FeatureZNodeStatus.Enabled, what a 2.8
// controller writes (inter.broker.protocol.version 2.7-IV0 and later).
const FeatureZNodeStatusEnabled = 1

// EncodeFeature is FeatureZNode.encode for an enabled /feature with no
// finalized features (a 2.8 broker supports none): a mutable.Map literal
// of version, status and features, so in hash order: features, version,
// status.
func EncodeFeature() []byte {
	members := []member{
		{"version", jsonInt(1)},
		{"status", jsonInt(FeatureZNodeStatusEnabled)},
		{"features", []byte("{}")},
	}
	return jsonObjectIn(scalacoll.MutableStringOrder([]string{"version", "status", "features"}, 3), members)
}

// ProducerIDBlock is the data of /latest_producer_id_block: the last
// block of producer ids claimed, by which broker, both ends inclusive.
type ProducerIDBlock struct {
	BrokerID   int32
	Start, End int64
}

// EncodeProducerIDBlock is ProducerIdManager.generateProducerIdBlockJson:
// a Map4 (version, broker, block_start, block_end), so in that order; the
// block ends are strings.
func EncodeProducerIDBlock(b ProducerIDBlock) []byte {
	return jsonObject([]member{
		{"version", jsonInt(1)},
		{"broker", jsonInt(int64(b.BrokerID))},
		{"block_start", jsonString(fmt.Sprint(b.Start))},
		{"block_end", jsonString(fmt.Sprint(b.End))},
	})
}

// DecodeProducerIDBlock is ProducerIdManager.parseProducerIdBlockData:
// broker is an Int, block_start and block_end strings read with
// Long.parseLong.
func DecodeProducerIDBlock(data []byte) (ProducerIDBlock, error) {
	obj, err := parseObject(data)
	if err != nil {
		return ProducerIDBlock{}, err
	}
	var b ProducerIDBlock
	if b.BrokerID, err = intField(obj, "broker"); err != nil {
		return ProducerIDBlock{}, err
	}
	for _, end := range []struct {
		key  string
		into *int64
	}{{"block_start", &b.Start}, {"block_end", &b.End}} {
		s, err := stringField(obj, end.key)
		if err != nil {
			return ProducerIDBlock{}, err
		}
		n, ok := jdk.ParseInt(s, 64)
		if !ok {
			return ProducerIDBlock{}, fmt.Errorf("kafkazk: %s %q is not a Long", end.key, s)
		}
		*end.into = n
	}
	return b, nil
}
