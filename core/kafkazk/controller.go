package kafkazk

import (
	"fmt"
	"strconv"

	"kafkascope/core/jdk"
)

// ControllerInfo is the data of /controller: the broker that won the
// election and when (epoch milliseconds).
type ControllerInfo struct {
	BrokerID  int32
	Timestamp int64
}

// EncodeController is ControllerZNode.encode:
// Map("version" -> 1, "brokerid" -> id, "timestamp" -> ms.toString), a
// Map3, so in that order; the timestamp is a string.
func EncodeController(c ControllerInfo) []byte {
	return jsonObject([]member{
		{"version", jsonInt(1)},
		{"brokerid", jsonInt(int64(c.BrokerID))},
		{"timestamp", jsonString(strconv.FormatInt(c.Timestamp, 10))},
	})
}

// DecodeController is ControllerZNode.decode, which reads only
// "brokerid". The timestamp, which Kafka never reads back, is returned when
// it is a decimal string and left 0 otherwise.
func DecodeController(data []byte) (ControllerInfo, error) {
	obj, err := parseObject(data)
	if err != nil {
		return ControllerInfo{}, err
	}
	id, err := intField(obj, "brokerid")
	if err != nil {
		return ControllerInfo{}, err
	}
	c := ControllerInfo{BrokerID: id}
	if v, ok := obj.Field("timestamp"); ok {
		if s, err := asString(v, "timestamp"); err == nil {
			if ms, ok := jdk.ParseInt(s, 64); ok {
				c.Timestamp = ms
			}
		}
	}
	return c, nil
}

// EncodeControllerEpoch is ControllerEpochZNode.encode: the epoch as
// decimal text, not JSON.
func EncodeControllerEpoch(epoch int32) []byte {
	return strconv.AppendInt(nil, int64(epoch), 10)
}

// DecodeControllerEpoch is ControllerEpochZNode.decode:
// new String(bytes, UTF_8).toInt, Java's Integer.parseInt.
func DecodeControllerEpoch(data []byte) (int32, error) {
	n, ok := jdk.ParseInt(string(data), 32)
	if !ok {
		return 0, fmt.Errorf("kafkazk: controller epoch %q is not an Int", data)
	}
	return int32(n), nil
}
