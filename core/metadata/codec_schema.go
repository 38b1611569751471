package metadata

import (
	"strconv"
	"strings"
)

// The schemas of Kafka's metadata records, transcribed from
// metadata/src/main/resources/common/metadata/*.json at tag 3.8.0 (identical
// to commit 21caf6b123d for these files), with what 4.1 and 4.3 added:
// ClearElrRecord (4.1), and cordonedLogDirs on RegisterBrokerRecord v4 and
// BrokerRegistrationChangeRecord v3 (4.3). Only the facts the wire format and
// the JSON form depend on are kept: field order, type, the version from which
// a field exists, is nullable and is tagged, its tag and its default. Every
// record has "flexibleVersions": "0+" and every version range in these files
// has the form "N+", so one number says each of them. Nested structs inherit
// their record's versions.

type ftype uint8

const (
	tBool ftype = iota + 1
	tInt8
	tInt16
	tUint16
	tInt32
	tInt64
	tFloat64
	tUuid
	tString
	tBytes
	tStruct // only as the element of an array
)

const never int16 = -1

// fieldSpec is one field of a schema.
type fieldSpec struct {
	name     string // lowerCamelCase, as the JSON form spells it
	typ      ftype  // the element type for arrays
	array    bool
	elem     *schema // the element struct when typ is tStruct
	since    int16   // exists in versions since+
	nullable int16   // nullable in versions nullable+, or never
	tagged   int16   // tagged in versions tagged+, or never
	tag      int32
	def      string // the schema's "default"; "" means the type's zero
}

// schema is a record (or a nested struct) definition.
type schema struct {
	name       string // Kafka's name, e.g. "PartitionChangeRecord"
	apiKey     int16  // -1 for nested structs
	maxVersion int16  // the highest of validVersions (all start at 0); records only
	fields     []fieldSpec
}

// The tables below are composite literals, which the linker lays out as
// data: built with helper calls (fld("x", tInt32).from(2)...), they were
// 33 KB of init code in main.wasm, 14 KB of its brotli size. Every field
// says nullable and tagged (never, or a version) because 0 is a version.

// canBeNull reports whether the field is nullable in some version (Kafka's
// "nullableVersions" is not empty).
func (f *fieldSpec) canBeNull() bool { return f.nullable != never }

// firstTaggedVersion is the lowest version at which the tag is valid:
// versions ∩ taggedVersions.
func (f *fieldSpec) firstTaggedVersion() int16 { return max(f.since, f.tagged) }

var (
	brokerEndpointSchema = &schema{name: "BrokerEndpoint", apiKey: -1, fields: []fieldSpec{
		{name: "name", typ: tString, nullable: never, tagged: never},
		{name: "host", typ: tString, nullable: never, tagged: never},
		{name: "port", typ: tUint16, nullable: never, tagged: never},
		{name: "securityProtocol", typ: tInt16, nullable: never, tagged: never},
	}}
	brokerFeatureSchema = &schema{name: "BrokerFeature", apiKey: -1, fields: []fieldSpec{
		{name: "name", typ: tString, nullable: never, tagged: never},
		{name: "minSupportedVersion", typ: tInt16, nullable: never, tagged: never},
		{name: "maxSupportedVersion", typ: tInt16, nullable: never, tagged: never},
	}}
	entityDataSchema = &schema{name: "EntityData", apiKey: -1, fields: []fieldSpec{
		{name: "entityType", typ: tString, nullable: never, tagged: never},
		{name: "entityName", typ: tString, nullable: 0, tagged: never},
	}}
	controllerEndpointSchema = &schema{name: "ControllerEndpoint", apiKey: -1, fields: []fieldSpec{
		{name: "name", typ: tString, nullable: never, tagged: never},
		{name: "host", typ: tString, nullable: never, tagged: never},
		{name: "port", typ: tUint16, nullable: never, tagged: never},
		{name: "securityProtocol", typ: tInt16, nullable: never, tagged: never},
	}}
	controllerFeatureSchema = &schema{name: "ControllerFeature", apiKey: -1, fields: []fieldSpec{
		{name: "name", typ: tString, nullable: never, tagged: never},
		{name: "minSupportedVersion", typ: tInt16, nullable: never, tagged: never},
		{name: "maxSupportedVersion", typ: tInt16, nullable: never, tagged: never},
	}}
)

// schemas lists every metadata record type by api key.
var schemas = []*schema{
	{name: "RegisterBrokerRecord", apiKey: 0, maxVersion: 4, fields: []fieldSpec{
		{name: "brokerId", typ: tInt32, nullable: never, tagged: never},
		{name: "isMigratingZkBroker", typ: tBool, since: 2, nullable: never, tagged: never, def: "false"},
		{name: "incarnationId", typ: tUuid, nullable: never, tagged: never},
		{name: "brokerEpoch", typ: tInt64, nullable: never, tagged: never},
		{name: "endPoints", typ: tStruct, array: true, elem: brokerEndpointSchema, nullable: never, tagged: never},
		{name: "features", typ: tStruct, array: true, elem: brokerFeatureSchema, nullable: never, tagged: never},
		{name: "rack", typ: tString, nullable: 0, tagged: never},
		{name: "fenced", typ: tBool, nullable: never, tagged: never, def: "true"},
		{name: "inControlledShutdown", typ: tBool, since: 1, nullable: never, tagged: never, def: "false"},
		{name: "logDirs", typ: tUuid, array: true, since: 3, nullable: never, tagged: 3, tag: 0},
		{name: "cordonedLogDirs", typ: tUuid, array: true, since: 4, nullable: 4, tagged: 4, tag: 1, def: "null"}, // 4.3
	}},
	{name: "UnregisterBrokerRecord", apiKey: 1, fields: []fieldSpec{
		{name: "brokerId", typ: tInt32, nullable: never, tagged: never},
		{name: "brokerEpoch", typ: tInt64, nullable: never, tagged: never},
	}},
	{name: "TopicRecord", apiKey: 2, fields: []fieldSpec{
		{name: "name", typ: tString, nullable: never, tagged: never},
		{name: "topicId", typ: tUuid, nullable: never, tagged: never},
	}},
	{name: "PartitionRecord", apiKey: 3, maxVersion: 2, fields: []fieldSpec{
		{name: "partitionId", typ: tInt32, nullable: never, tagged: never, def: "-1"},
		{name: "topicId", typ: tUuid, nullable: never, tagged: never},
		{name: "replicas", typ: tInt32, array: true, nullable: never, tagged: never},
		{name: "isr", typ: tInt32, array: true, nullable: never, tagged: never},
		{name: "removingReplicas", typ: tInt32, array: true, nullable: never, tagged: never},
		{name: "addingReplicas", typ: tInt32, array: true, nullable: never, tagged: never},
		{name: "leader", typ: tInt32, nullable: never, tagged: never, def: "-1"},
		{name: "leaderRecoveryState", typ: tInt8, nullable: never, tagged: 0, tag: 0, def: "0"},
		{name: "leaderEpoch", typ: tInt32, nullable: never, tagged: never, def: "-1"},
		{name: "partitionEpoch", typ: tInt32, nullable: never, tagged: never, def: "-1"},
		{name: "directories", typ: tUuid, array: true, since: 1, nullable: never, tagged: never},
		{name: "eligibleLeaderReplicas", typ: tInt32, array: true, since: 2, nullable: 2, tagged: 2, tag: 1, def: "null"},
		{name: "lastKnownElr", typ: tInt32, array: true, since: 2, nullable: 2, tagged: 2, tag: 2, def: "null"},
	}},
	{name: "ConfigRecord", apiKey: 4, fields: []fieldSpec{
		{name: "resourceType", typ: tInt8, nullable: never, tagged: never},
		{name: "resourceName", typ: tString, nullable: never, tagged: never},
		{name: "name", typ: tString, nullable: never, tagged: never},
		{name: "value", typ: tString, nullable: 0, tagged: never},
	}},
	{name: "PartitionChangeRecord", apiKey: 5, maxVersion: 2, fields: []fieldSpec{
		{name: "partitionId", typ: tInt32, nullable: never, tagged: never, def: "-1"},
		{name: "topicId", typ: tUuid, nullable: never, tagged: never},
		{name: "isr", typ: tInt32, array: true, nullable: 0, tagged: 0, tag: 0, def: "null"},
		{name: "leader", typ: tInt32, nullable: never, tagged: 0, tag: 1, def: "-2"},
		{name: "replicas", typ: tInt32, array: true, nullable: 0, tagged: 0, tag: 2, def: "null"},
		{name: "removingReplicas", typ: tInt32, array: true, nullable: 0, tagged: 0, tag: 3, def: "null"},
		{name: "addingReplicas", typ: tInt32, array: true, nullable: 0, tagged: 0, tag: 4, def: "null"},
		{name: "leaderRecoveryState", typ: tInt8, nullable: never, tagged: 0, tag: 5, def: "-1"},
		{name: "directories", typ: tUuid, array: true, since: 1, nullable: 1, tagged: 1, tag: 8, def: "null"},
		{name: "eligibleLeaderReplicas", typ: tInt32, array: true, since: 2, nullable: 2, tagged: 2, tag: 6, def: "null"},
		{name: "lastKnownElr", typ: tInt32, array: true, since: 2, nullable: 2, tagged: 2, tag: 7, def: "null"},
	}},
	{name: "FenceBrokerRecord", apiKey: 7, fields: []fieldSpec{
		{name: "id", typ: tInt32, nullable: never, tagged: never},
		{name: "epoch", typ: tInt64, nullable: never, tagged: never},
	}},
	{name: "UnfenceBrokerRecord", apiKey: 8, fields: []fieldSpec{
		{name: "id", typ: tInt32, nullable: never, tagged: never},
		{name: "epoch", typ: tInt64, nullable: never, tagged: never},
	}},
	{name: "RemoveTopicRecord", apiKey: 9, fields: []fieldSpec{
		{name: "topicId", typ: tUuid, nullable: never, tagged: never},
	}},
	{name: "DelegationTokenRecord", apiKey: 10, fields: []fieldSpec{
		{name: "owner", typ: tString, nullable: never, tagged: never},
		{name: "requester", typ: tString, nullable: never, tagged: never},
		{name: "renewers", typ: tString, array: true, nullable: never, tagged: never},
		{name: "issueTimestamp", typ: tInt64, nullable: never, tagged: never},
		{name: "maxTimestamp", typ: tInt64, nullable: never, tagged: never},
		{name: "expirationTimestamp", typ: tInt64, nullable: never, tagged: never},
		{name: "tokenId", typ: tString, nullable: never, tagged: never},
	}},
	{name: "UserScramCredentialRecord", apiKey: 11, fields: []fieldSpec{
		{name: "name", typ: tString, nullable: never, tagged: never},
		{name: "mechanism", typ: tInt8, nullable: never, tagged: never},
		{name: "salt", typ: tBytes, nullable: never, tagged: never},
		{name: "storedKey", typ: tBytes, nullable: never, tagged: never},
		{name: "serverKey", typ: tBytes, nullable: never, tagged: never},
		{name: "iterations", typ: tInt32, nullable: never, tagged: never},
	}},
	{name: "FeatureLevelRecord", apiKey: 12, fields: []fieldSpec{
		{name: "name", typ: tString, nullable: never, tagged: never},
		{name: "featureLevel", typ: tInt16, nullable: never, tagged: never},
	}},
	{name: "ClientQuotaRecord", apiKey: 14, fields: []fieldSpec{
		{name: "entity", typ: tStruct, array: true, elem: entityDataSchema, nullable: never, tagged: never},
		{name: "key", typ: tString, nullable: never, tagged: never},
		{name: "value", typ: tFloat64, nullable: never, tagged: never},
		{name: "remove", typ: tBool, nullable: never, tagged: never},
	}},
	{name: "ProducerIdsRecord", apiKey: 15, fields: []fieldSpec{
		{name: "brokerId", typ: tInt32, nullable: never, tagged: never},
		{name: "brokerEpoch", typ: tInt64, nullable: never, tagged: never, def: "-1"},
		{name: "nextProducerId", typ: tInt64, nullable: never, tagged: never},
	}},
	{name: "BrokerRegistrationChangeRecord", apiKey: 17, maxVersion: 3, fields: []fieldSpec{
		{name: "brokerId", typ: tInt32, nullable: never, tagged: never},
		{name: "brokerEpoch", typ: tInt64, nullable: never, tagged: never},
		{name: "fenced", typ: tInt8, nullable: never, tagged: 0, tag: 0},
		{name: "inControlledShutdown", typ: tInt8, since: 1, nullable: never, tagged: 1, tag: 1},
		{name: "logDirs", typ: tUuid, array: true, since: 2, nullable: never, tagged: 2, tag: 2},
		{name: "cordonedLogDirs", typ: tUuid, array: true, since: 3, nullable: 3, tagged: 3, tag: 3, def: "null"}, // 4.3
	}},
	{name: "AccessControlEntryRecord", apiKey: 18, fields: []fieldSpec{
		{name: "id", typ: tUuid, nullable: never, tagged: never},
		{name: "resourceType", typ: tInt8, nullable: never, tagged: never},
		{name: "resourceName", typ: tString, nullable: never, tagged: never},
		{name: "patternType", typ: tInt8, nullable: never, tagged: never},
		{name: "principal", typ: tString, nullable: never, tagged: never},
		{name: "host", typ: tString, nullable: never, tagged: never},
		{name: "operation", typ: tInt8, nullable: never, tagged: never},
		{name: "permissionType", typ: tInt8, nullable: never, tagged: never},
	}},
	{name: "RemoveAccessControlEntryRecord", apiKey: 19, fields: []fieldSpec{
		{name: "id", typ: tUuid, nullable: never, tagged: never},
	}},
	{name: "NoOpRecord", apiKey: 20},
	{name: "ZkMigrationStateRecord", apiKey: 21, fields: []fieldSpec{
		{name: "zkMigrationState", typ: tInt8, nullable: never, tagged: never},
	}},
	{name: "RemoveUserScramCredentialRecord", apiKey: 22, fields: []fieldSpec{
		{name: "name", typ: tString, nullable: never, tagged: never},
		{name: "mechanism", typ: tInt8, nullable: never, tagged: never},
	}},
	{name: "BeginTransactionRecord", apiKey: 23, fields: []fieldSpec{
		{name: "name", typ: tString, nullable: 0, tagged: 0, tag: 0, def: "null"},
	}},
	{name: "EndTransactionRecord", apiKey: 24},
	{name: "AbortTransactionRecord", apiKey: 25, fields: []fieldSpec{
		{name: "reason", typ: tString, nullable: 0, tagged: 0, tag: 0, def: "null"},
	}},
	{name: "RemoveDelegationTokenRecord", apiKey: 26, fields: []fieldSpec{
		{name: "tokenId", typ: tString, nullable: never, tagged: never},
	}},
	{name: "RegisterControllerRecord", apiKey: 27, fields: []fieldSpec{
		{name: "controllerId", typ: tInt32, nullable: never, tagged: never},
		{name: "incarnationId", typ: tUuid, nullable: never, tagged: never},
		{name: "zkMigrationReady", typ: tBool, nullable: never, tagged: never},
		{name: "endPoints", typ: tStruct, array: true, elem: controllerEndpointSchema, nullable: never, tagged: never},
		{name: "features", typ: tStruct, array: true, elem: controllerFeatureSchema, nullable: never, tagged: never},
	}},
	{name: "ClearElrRecord", apiKey: 28, fields: []fieldSpec{ // 4.x (KIP-966)
		{name: "topicName", typ: tString, nullable: never, tagged: never},
	}},
}

// schemaByKey indexes schemas by api key.
var schemaByKey = func() map[int16]*schema {
	m := map[int16]*schema{}
	for _, s := range schemas {
		if s.apiKey >= 0 {
			m[s.apiKey] = s
		}
	}
	return m
}()

// typeName is the MetadataRecordType enum constant Kafka prints for a record,
// e.g. "PARTITION_CHANGE_RECORD": the name in snake case, upper-cased, by
// MessageGenerator.toSnakeCase (an underscore before each capital that
// follows a non-capital).
func typeName(recordName string) string {
	var b strings.Builder
	prevCap := true
	for _, c := range recordName {
		if c >= 'A' && c <= 'Z' {
			if !prevCap {
				b.WriteByte('_')
			}
			b.WriteRune(c)
			prevCap = true
		} else {
			b.WriteString(strings.ToUpper(string(c)))
			prevCap = false
		}
	}
	return b.String()
}

// defaultOf returns a field's default in the generic form (see gvalue).
func (f *fieldSpec) defaultOf() any {
	if f.array {
		if f.def == "null" {
			return nil
		}
		return emptyArray(f)
	}
	switch f.typ {
	case tBool:
		return strings.EqualFold(f.def, "true")
	case tInt8:
		return int8(parseDefault(f.def))
	case tInt16:
		return int16(parseDefault(f.def))
	case tUint16:
		return uint16(parseDefault(f.def))
	case tInt32:
		return int32(parseDefault(f.def))
	case tInt64:
		return parseDefault(f.def)
	case tFloat64:
		if f.def == "" {
			return float64(0)
		}
		v, _ := strconv.ParseFloat(f.def, 64)
		return v
	case tUuid:
		return ZeroUuid
	case tString:
		if f.def == "null" {
			return nil
		}
		return f.def
	case tBytes:
		if f.def == "null" {
			return nil
		}
		return []byte{}
	}
	return nil
}

func parseDefault(d string) int64 {
	if d == "" {
		return 0
	}
	base := 10
	if strings.HasPrefix(d, "0x") {
		base, d = 16, d[2:]
	}
	v, _ := strconv.ParseInt(d, base, 64)
	return v
}

func emptyArray(f *fieldSpec) any {
	switch f.typ {
	case tInt32:
		return []int32{}
	case tUuid:
		return []Uuid{}
	case tString:
		return []string{}
	case tStruct:
		return []*gmsg{}
	}
	panic("metadata: no array of this type in the schemas")
}
