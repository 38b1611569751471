package metadata

import (
	"strconv"
	"strings"
)

// The schemas of Kafka 3.8.0's metadata records, transcribed from
// metadata/src/main/resources/common/metadata/*.json at tag 3.8.0 (identical
// to commit 21caf6b123d for these files). Only the facts the wire format and
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

func fld(name string, t ftype) fieldSpec {
	return fieldSpec{name: name, typ: t, nullable: never, tagged: never}
}

func (f fieldSpec) from(v int16) fieldSpec           { f.since = v; return f }
func (f fieldSpec) arr() fieldSpec                   { f.array = true; return f }
func (f fieldSpec) of(s *schema) fieldSpec           { f.typ, f.elem, f.array = tStruct, s, true; return f }
func (f fieldSpec) null(v int16) fieldSpec           { f.nullable = v; return f }
func (f fieldSpec) dflt(d string) fieldSpec          { f.def = d; return f }
func (f fieldSpec) tagAt(t int32, v int16) fieldSpec { f.tag, f.tagged = t, v; return f }

// canBeNull reports whether the field is nullable in some version (Kafka's
// "nullableVersions" is not empty).
func (f *fieldSpec) canBeNull() bool { return f.nullable != never }

// firstTaggedVersion is the lowest version at which the tag is valid:
// versions ∩ taggedVersions.
func (f *fieldSpec) firstTaggedVersion() int16 { return max(f.since, f.tagged) }

var (
	brokerEndpointSchema = &schema{name: "BrokerEndpoint", apiKey: -1, fields: []fieldSpec{
		fld("name", tString),
		fld("host", tString),
		fld("port", tUint16),
		fld("securityProtocol", tInt16),
	}}
	brokerFeatureSchema = &schema{name: "BrokerFeature", apiKey: -1, fields: []fieldSpec{
		fld("name", tString),
		fld("minSupportedVersion", tInt16),
		fld("maxSupportedVersion", tInt16),
	}}
	entityDataSchema = &schema{name: "EntityData", apiKey: -1, fields: []fieldSpec{
		fld("entityType", tString),
		fld("entityName", tString).null(0),
	}}
	controllerEndpointSchema = &schema{name: "ControllerEndpoint", apiKey: -1, fields: []fieldSpec{
		fld("name", tString),
		fld("host", tString),
		fld("port", tUint16),
		fld("securityProtocol", tInt16),
	}}
	controllerFeatureSchema = &schema{name: "ControllerFeature", apiKey: -1, fields: []fieldSpec{
		fld("name", tString),
		fld("minSupportedVersion", tInt16),
		fld("maxSupportedVersion", tInt16),
	}}
)

// schemas lists every metadata record type of Kafka 3.8.0 by api key.
var schemas = []*schema{
	{name: "RegisterBrokerRecord", apiKey: 0, maxVersion: 3, fields: []fieldSpec{
		fld("brokerId", tInt32),
		fld("isMigratingZkBroker", tBool).from(2).dflt("false"),
		fld("incarnationId", tUuid),
		fld("brokerEpoch", tInt64),
		fld("endPoints", 0).of(brokerEndpointSchema),
		fld("features", 0).of(brokerFeatureSchema),
		fld("rack", tString).null(0),
		fld("fenced", tBool).dflt("true"),
		fld("inControlledShutdown", tBool).from(1).dflt("false"),
		fld("logDirs", tUuid).arr().from(3).tagAt(0, 3),
	}},
	{name: "UnregisterBrokerRecord", apiKey: 1, fields: []fieldSpec{
		fld("brokerId", tInt32),
		fld("brokerEpoch", tInt64),
	}},
	{name: "TopicRecord", apiKey: 2, fields: []fieldSpec{
		fld("name", tString),
		fld("topicId", tUuid),
	}},
	{name: "PartitionRecord", apiKey: 3, maxVersion: 2, fields: []fieldSpec{
		fld("partitionId", tInt32).dflt("-1"),
		fld("topicId", tUuid),
		fld("replicas", tInt32).arr(),
		fld("isr", tInt32).arr(),
		fld("removingReplicas", tInt32).arr(),
		fld("addingReplicas", tInt32).arr(),
		fld("leader", tInt32).dflt("-1"),
		fld("leaderRecoveryState", tInt8).dflt("0").tagAt(0, 0),
		fld("leaderEpoch", tInt32).dflt("-1"),
		fld("partitionEpoch", tInt32).dflt("-1"),
		fld("directories", tUuid).arr().from(1),
		fld("eligibleLeaderReplicas", tInt32).arr().from(2).dflt("null").null(2).tagAt(1, 2),
		fld("lastKnownElr", tInt32).arr().from(2).dflt("null").null(2).tagAt(2, 2),
	}},
	{name: "ConfigRecord", apiKey: 4, fields: []fieldSpec{
		fld("resourceType", tInt8),
		fld("resourceName", tString),
		fld("name", tString),
		fld("value", tString).null(0),
	}},
	{name: "PartitionChangeRecord", apiKey: 5, maxVersion: 2, fields: []fieldSpec{
		fld("partitionId", tInt32).dflt("-1"),
		fld("topicId", tUuid),
		fld("isr", tInt32).arr().dflt("null").null(0).tagAt(0, 0),
		fld("leader", tInt32).dflt("-2").tagAt(1, 0),
		fld("replicas", tInt32).arr().dflt("null").null(0).tagAt(2, 0),
		fld("removingReplicas", tInt32).arr().dflt("null").null(0).tagAt(3, 0),
		fld("addingReplicas", tInt32).arr().dflt("null").null(0).tagAt(4, 0),
		fld("leaderRecoveryState", tInt8).dflt("-1").tagAt(5, 0),
		fld("directories", tUuid).arr().from(1).dflt("null").null(1).tagAt(8, 1),
		fld("eligibleLeaderReplicas", tInt32).arr().from(2).dflt("null").null(2).tagAt(6, 2),
		fld("lastKnownElr", tInt32).arr().from(2).dflt("null").null(2).tagAt(7, 2),
	}},
	{name: "FenceBrokerRecord", apiKey: 7, fields: []fieldSpec{
		fld("id", tInt32),
		fld("epoch", tInt64),
	}},
	{name: "UnfenceBrokerRecord", apiKey: 8, fields: []fieldSpec{
		fld("id", tInt32),
		fld("epoch", tInt64),
	}},
	{name: "RemoveTopicRecord", apiKey: 9, fields: []fieldSpec{
		fld("topicId", tUuid),
	}},
	{name: "DelegationTokenRecord", apiKey: 10, fields: []fieldSpec{
		fld("owner", tString),
		fld("requester", tString),
		fld("renewers", tString).arr(),
		fld("issueTimestamp", tInt64),
		fld("maxTimestamp", tInt64),
		fld("expirationTimestamp", tInt64),
		fld("tokenId", tString),
	}},
	{name: "UserScramCredentialRecord", apiKey: 11, fields: []fieldSpec{
		fld("name", tString),
		fld("mechanism", tInt8),
		fld("salt", tBytes),
		fld("storedKey", tBytes),
		fld("serverKey", tBytes),
		fld("iterations", tInt32),
	}},
	{name: "FeatureLevelRecord", apiKey: 12, fields: []fieldSpec{
		fld("name", tString),
		fld("featureLevel", tInt16),
	}},
	{name: "ClientQuotaRecord", apiKey: 14, fields: []fieldSpec{
		fld("entity", 0).of(entityDataSchema),
		fld("key", tString),
		fld("value", tFloat64),
		fld("remove", tBool),
	}},
	{name: "ProducerIdsRecord", apiKey: 15, fields: []fieldSpec{
		fld("brokerId", tInt32),
		fld("brokerEpoch", tInt64).dflt("-1"),
		fld("nextProducerId", tInt64),
	}},
	{name: "BrokerRegistrationChangeRecord", apiKey: 17, maxVersion: 2, fields: []fieldSpec{
		fld("brokerId", tInt32),
		fld("brokerEpoch", tInt64),
		fld("fenced", tInt8).tagAt(0, 0),
		fld("inControlledShutdown", tInt8).from(1).tagAt(1, 1),
		fld("logDirs", tUuid).arr().from(2).tagAt(2, 2),
	}},
	{name: "AccessControlEntryRecord", apiKey: 18, fields: []fieldSpec{
		fld("id", tUuid),
		fld("resourceType", tInt8),
		fld("resourceName", tString),
		fld("patternType", tInt8),
		fld("principal", tString),
		fld("host", tString),
		fld("operation", tInt8),
		fld("permissionType", tInt8),
	}},
	{name: "RemoveAccessControlEntryRecord", apiKey: 19, fields: []fieldSpec{
		fld("id", tUuid),
	}},
	{name: "NoOpRecord", apiKey: 20},
	{name: "ZkMigrationStateRecord", apiKey: 21, fields: []fieldSpec{
		fld("zkMigrationState", tInt8),
	}},
	{name: "RemoveUserScramCredentialRecord", apiKey: 22, fields: []fieldSpec{
		fld("name", tString),
		fld("mechanism", tInt8),
	}},
	{name: "BeginTransactionRecord", apiKey: 23, fields: []fieldSpec{
		fld("name", tString).dflt("null").null(0).tagAt(0, 0),
	}},
	{name: "EndTransactionRecord", apiKey: 24},
	{name: "AbortTransactionRecord", apiKey: 25, fields: []fieldSpec{
		fld("reason", tString).dflt("null").null(0).tagAt(0, 0),
	}},
	{name: "RemoveDelegationTokenRecord", apiKey: 26, fields: []fieldSpec{
		fld("tokenId", tString),
	}},
	{name: "RegisterControllerRecord", apiKey: 27, fields: []fieldSpec{
		fld("controllerId", tInt32),
		fld("incarnationId", tUuid),
		fld("zkMigrationReady", tBool),
		fld("endPoints", 0).of(controllerEndpointSchema),
		fld("features", 0).of(controllerFeatureSchema),
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
