package metadata

import (
	"bytes"
	"fmt"
	"strconv"
)

// The on-disk form of metadata records: what a record value in a
// __cluster_metadata-0 segment (or a .checkpoint snapshot) holds, and what
// kafka-dump-log.sh --cluster-metadata-decoder prints for it, as in Kafka
// 3.8.0.
//
// A record value is Kafka's ApiMessageAndVersion as MetadataRecordSerde
// writes it (server-common/.../serialization/AbstractApiMessageSerde.java):
//
//	unsigned varint  frame version, always 1
//	unsigned varint  api key: the record type (RegisterBrokerRecord 0, ...)
//	unsigned varint  record version
//	body             the generated message at that version
//
// Every metadata record is "flexible" in every version, so the body is
// (generator/.../MessageDataGenerator.java): the untagged fields of the
// version in schema order (int8/16/32/64 and uint16 big-endian, bool one
// byte, uuid 16 bytes, strings/bytes/arrays as an unsigned varint length+1
// (0 for null) followed by the bytes or elements, structs inline), then the
// tagged-field section: an unsigned varint count and, in increasing tag
// order, each non-default tagged field as unsigned varint tag, unsigned
// varint size, value. Nested structs end with their own (empty) section.
//
// Record versions the Kafka 3.8.0 controller writes at metadata.version
// 3.8-IV0 (feature level 20), with their sources at tag 3.8.0 (commit
// 21caf6b123d is earlier and still had ELR in 3.8-IV0; KAFKA-16968 moved it
// to 3.9 before the release):
//
//	record                          version  source
//	FeatureLevelRecord              0        FeatureControlManager.java:243,361 (only version 0 exists)
//	RegisterBrokerRecord            3        ClusterControlManager.registerBroker:436 → MetadataVersion.registerBrokerRecordVersion (3 from 3.7-IV2, isDirectoryAssignmentSupported)
//	UnregisterBrokerRecord          0        ReplicationControlManager.handleBrokerUnregistered:1336
//	BrokerRegistrationChangeRecord  0        fence/unfence: ReplicationControlManager.handleBrokerFenced:1309, handleBrokerUnfenced:1354
//	                                1        controlled shutdown: handleBrokerInControlledShutdown:1380
//	                                2        log dirs offline: handleDirectoriesOffline:1433
//	TopicRecord                     0        ReplicationControlManager.createTopic:815
//	PartitionRecord                 1        PartitionRegistration.toRecord:405 → MetadataVersion.partitionRecordVersion (1 from 3.7-IV2; 2 needs ELR, isElrSupported = 3.9-IV0+)
//	PartitionChangeRecord           1        PartitionChangeBuilder.build:486 → MetadataVersion.partitionChangeRecordVersion (same rule)
//	RemoveTopicRecord               0        ReplicationControlManager.deleteTopic:980
//	ConfigRecord                    0        ConfigurationControlManager.java:252,354,364
//	NoOpRecord                      0        QuorumController.java:1408
//
//	BeginTransactionRecord          0        ActivationRecordsGenerator.recordsForEmptyLog (bootstrap, MV >= 3.6-IV1)
//	ZkMigrationStateRecord          0        same (state NONE)
//	EndTransactionRecord            0        same
//
// WriteVersion returns these. A real 3.8 controller also writes records this
// package does not model (they have schemas here, so DumpPayload prints
// them): a RegisterControllerRecord per controller. ProducerIdsRecord
// (version 0, ProducerIdControlManager) is written when a broker asks for
// a block of producer ids.

// Metadata.version levels at which the controller writes newer records
// (MetadataVersion: isElrSupported from 4.0-IV1 in 4.x, 3.9-IV0 in 3.8,
// neither reached by a 3.8-IV0 cluster; isCordonedLogDirsSupported from
// 4.3-IV0).
const (
	levelElr int16 = 23 // 4.0-IV1
	// LevelCordonedLogDirs (4.3-IV0): brokers report their cordoned log
	// directories and the controller records them (BrokerHeartbeat v2,
	// BrokerRegistrationChangeRecord v3, RegisterBrokerRecord v4).
	LevelCordonedLogDirs int16 = 30
	// levelNoZkMigration: from 4.0 (4.0-IV0) the controller no longer
	// writes a ZkMigrationStateRecord, at bootstrap or in snapshots.
	levelNoZkMigration int16 = 22
)

// WritesZkMigrationState says whether a cluster at metadata.version level
// mv writes a ZkMigrationStateRecord (Kafka 3.x; 4.0 removed the ZooKeeper
// migration).
func WritesZkMigrationState(mv int16) bool { return mv < levelNoZkMigration }

// WriteVersion is the record version Kafka's controller writes for r at
// metadata.version level mv (see the table above, and for 4.x
// MetadataVersion.registerBrokerRecordVersion, partitionRecordVersion and
// partitionChangeRecordVersion: from 4.0-IV1 partition records are version
// 2 whatever they hold, and from 4.3-IV0 RegisterBrokerRecord is version
// 4). Where the choice depends on the content (BrokerRegistrationChangeRecord,
// and records carrying KIP-966 fields) it is at least the lowest version
// that holds every non-default field.
func WriteVersion(r Record, mv int16) int16 {
	switch r := r.(type) {
	case *RegisterBrokerRecord:
		if mv >= LevelCordonedLogDirs || r.CordonedLogDirs != nil {
			return 4
		}
		return 3
	case *BrokerRegistrationChangeRecord:
		switch {
		case r.CordonedLogDirs != nil:
			return 3
		case len(r.LogDirs) > 0:
			return 2
		case r.InControlledShutdown != 0:
			return 1
		}
		return 0
	case *PartitionRecord:
		if mv >= levelElr || r.EligibleLeaderReplicas != nil || r.LastKnownElr != nil {
			return 2
		}
		return 1
	case *PartitionChangeRecord:
		if mv >= levelElr || r.EligibleLeaderReplicas != nil || r.LastKnownElr != nil {
			return 2
		}
		return 1
	}
	return 0
}

// Encode serializes r as a __cluster_metadata record value at
// WriteVersion(r, mv), mv being the cluster's metadata.version level. It
// panics if r cannot be written (a port outside 0-65535, a string over
// 32767 bytes, or a Record type this package does not define).
func Encode(r Record, mv int16) []byte {
	b, err := EncodeVersion(r, WriteVersion(r, mv))
	if err != nil {
		panic(err)
	}
	return b
}

// EncodeVersion serializes r at a given record version. As Kafka does, it
// refuses to drop a non-default field the version lacks.
func EncodeVersion(r Record, version int16) ([]byte, error) {
	m, err := toGeneric(r)
	if err != nil {
		return nil, err
	}
	return encodeFrame(m, version)
}

// Decode parses a __cluster_metadata record value. It fails, with Kafka's
// message (a *ParseError), wherever Kafka's MetadataRecordSerde fails, and
// also for record types this package does not model.
func Decode(b []byte) (Record, error) {
	r, _, err := DecodeVersion(b)
	return r, err
}

// DecodeVersion is Decode that also returns the record version.
func DecodeVersion(b []byte) (Record, int16, error) {
	m, v, err := decodeFrame(b)
	if err != nil {
		return nil, 0, err
	}
	r, err := fromGeneric(m)
	if err != nil {
		return nil, 0, err
	}
	return r, v, nil
}

// JSON is the text kafka-dump-log.sh --cluster-metadata-decoder prints after
// "payload: " for r written at WriteVersion(r, mv), e.g.
// {"type":"FEATURE_LEVEL_RECORD","version":0,"data":{"name":"metadata.version","featureLevel":20}}.
func JSON(r Record, mv int16) string {
	s, err := JSONVersion(r, WriteVersion(r, mv))
	if err != nil {
		panic(err)
	}
	return s
}

// JSONVersion is JSON at a given record version.
func JSONVersion(r Record, version int16) (string, error) {
	b, err := EncodeVersion(r, version)
	if err != nil {
		return "", err
	}
	m, v, err := decodeFrame(b)
	if err != nil {
		return "", err
	}
	return jsonEnvelope(m, v), nil
}

// DumpPayload is what kafka-dump-log.sh --cluster-metadata-decoder prints
// after "payload: " for the record at offset whose value is value: the JSON
// form of any Kafka 3.8 metadata record type (modelled here or not), or
// "Error at <offset>, skipping. <message>" when Kafka cannot parse it. A nil
// value (a record without one) also gives the error form: Kafka's parser
// fails on it with "Error while reading frame version".
//
// The whole record line is
//
//	| offset: <o> CreateTime: <ts> keySize: -1 valueSize: <len(value)> sequence: -1 headerKeys: [] payload: <DumpPayload>
//
// and with --skip-record-metadata just " payload: <DumpPayload>" (leading
// space). Control batches get no payload (see the Raft package).
func DumpPayload(offset int64, value []byte) string {
	m, v, err := decodeFrame(value)
	if err != nil {
		return "Error at " + strconv.FormatInt(offset, 10) + ", skipping. " + err.Error()
	}
	return jsonEnvelope(m, v)
}

// RecordTypeID is the api key of r's record type (RegisterBrokerRecord 0,
// PartitionChangeRecord 5, ...), or -1 for a type this package does not
// define.
func RecordTypeID(r Record) int16 {
	if s := schemaFor(r); s != nil {
		return s.apiKey
	}
	return -1
}

// RecordTypeName is the MetadataRecordType name Kafka prints for r, e.g.
// "PARTITION_CHANGE_RECORD".
func RecordTypeName(r Record) string { return typeName(r.RecordType()) }

// Reserved log directory ids (Kafka's DirectoryId).
var (
	DirectoryMigrating  = Uuid{}      // the replica's directory is not known yet (pre-JBOD metadata)
	DirectoryUnassigned = Uuid{15: 1} // the broker will choose a directory
	DirectoryLost       = Uuid{15: 2} // the directory is offline
)

// IsReservedDirectory reports whether Kafka reserves id (DirectoryId.reserved:
// the most significant 64 bits are zero and the least significant, as a
// signed long, are below 100), so no real log directory has it.
func IsReservedDirectory(id Uuid) bool {
	var hi [8]byte
	if !bytes.Equal(id[:8], hi[:]) {
		return false
	}
	var lo int64
	for _, b := range id[8:] {
		lo = lo<<8 | int64(b)
	}
	return lo < 100
}

// DefaultDirectory is the directory Kafka's controller assigns a new replica
// on a broker (ClusterControlManager.defaultDir): DirectoryUnassigned when the
// broker is not registered, DirectoryMigrating when it registered no log
// directories, its only directory when it has one, and DirectoryUnassigned
// (the broker picks one) when it has several.
func DefaultDirectory(registered bool, logDirs []Uuid) Uuid {
	switch {
	case !registered:
		return DirectoryUnassigned
	case len(logDirs) == 0:
		return DirectoryMigrating
	case len(logDirs) == 1:
		return logDirs[0]
	}
	return DirectoryUnassigned
}

// CompareUuids orders ids as Kafka's Uuid.compareTo does: by the most, then
// the least significant 64 bits, each compared as a signed long. The broker
// sends its log directories sorted this way.
func CompareUuids(a, b Uuid) int {
	for half := 0; half < 2; half++ {
		var x, y int64
		for i := 0; i < 8; i++ {
			x = x<<8 | int64(a[half*8+i])
			y = y<<8 | int64(b[half*8+i])
		}
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
	}
	return 0
}

// DefaultBrokerFeatures is what a Kafka 3.8 broker registers with by
// default: metadata.version from 1 (3.0-IV1, MetadataVersion.
// MINIMUM_KRAFT_VERSION) to 20 (3.8-IV0, LATEST_PRODUCTION)
// (BrokerFeatures.defaultSupportedFeatures; Features.PRODUCTION_FEATURES is
// empty in 3.8).
func DefaultBrokerFeatures() []BrokerFeature {
	return []BrokerFeature{{Name: "metadata.version", MinSupportedVersion: 1, MaxSupportedVersion: 20}}
}

// SecurityProtocolFor is the security protocol id Kafka's default
// listener.security.protocol.map gives a listener name: the four protocol
// names map to themselves (PLAINTEXT 0, SSL 1, SASL_PLAINTEXT 2, SASL_SSL 3);
// any other name gets PLAINTEXT here (Kafka would need an explicit mapping).
func SecurityProtocolFor(listener string) int16 {
	switch listener {
	case "SSL":
		return 1
	case "SASL_PLAINTEXT":
		return 2
	case "SASL_SSL":
		return 3
	}
	return 0
}

func schemaFor(r Record) *schema {
	key := int16(-1)
	switch r.(type) {
	case *RegisterBrokerRecord:
		key = 0
	case *UnregisterBrokerRecord:
		key = 1
	case *TopicRecord:
		key = 2
	case *PartitionRecord:
		key = 3
	case *ConfigRecord:
		key = 4
	case *PartitionChangeRecord:
		key = 5
	case *RemoveTopicRecord:
		key = 9
	case *FeatureLevelRecord:
		key = 12
	case *BrokerRegistrationChangeRecord:
		key = 17
	case *ProducerIdsRecord:
		key = 15
	case *NoOpRecord:
		key = 20
	case *ZkMigrationStateRecord:
		key = 21
	case *BeginTransactionRecord:
		key = 23
	case *EndTransactionRecord:
		key = 24
	case *ClearElrRecord:
		key = 28
	}
	return schemaByKey[key]
}

// toGeneric maps a Go record onto its Kafka schema, filling what Kafka writes
// but the Go struct leaves at its zero value (see records.go).
func toGeneric(r Record) (*gmsg, error) {
	s := schemaFor(r)
	if s == nil {
		return nil, fmt.Errorf("metadata: cannot encode %T", r)
	}
	m := newMsg(s)
	switch r := r.(type) {
	case *RegisterBrokerRecord:
		m.set("brokerId", r.BrokerID)
		m.set("isMigratingZkBroker", r.IsMigratingZkBroker)
		m.set("incarnationId", r.IncarnationID)
		m.set("brokerEpoch", r.BrokerEpoch)
		if r.SecurityProtocols != nil && len(r.SecurityProtocols) != len(r.Endpoints) {
			return nil, fmt.Errorf("metadata: %d security protocols for %d endpoints", len(r.SecurityProtocols), len(r.Endpoints))
		}
		eps := make([]*gmsg, 0, len(r.Endpoints))
		for i, e := range r.Endpoints {
			if e.Port < 0 || e.Port > 0xffff {
				return nil, fmt.Errorf("metadata: port %d does not fit uint16", e.Port)
			}
			em := newMsg(brokerEndpointSchema)
			em.set("name", e.Name)
			em.set("host", e.Host)
			em.set("port", uint16(e.Port))
			sp := SecurityProtocolFor(e.Name)
			if r.SecurityProtocols != nil {
				sp = r.SecurityProtocols[i]
			}
			em.set("securityProtocol", sp)
			eps = append(eps, em)
		}
		m.set("endPoints", eps)
		features := r.Features
		if features == nil {
			features = DefaultBrokerFeatures()
		}
		fs := make([]*gmsg, 0, len(features))
		for _, f := range features {
			fm := newMsg(brokerFeatureSchema)
			fm.set("name", f.Name)
			fm.set("minSupportedVersion", f.MinSupportedVersion)
			fm.set("maxSupportedVersion", f.MaxSupportedVersion)
			fs = append(fs, fm)
		}
		m.set("features", fs)
		if r.Rack != "" {
			m.set("rack", r.Rack)
		} else {
			m.set("rack", nil)
		}
		m.set("fenced", r.Fenced)
		m.set("inControlledShutdown", r.InControlledShutdown)
		m.set("logDirs", uuids(r.LogDirs))
		m.set("cordonedLogDirs", nullableUuids(r.CordonedLogDirs))
	case *UnregisterBrokerRecord:
		m.set("brokerId", r.BrokerID)
		m.set("brokerEpoch", r.BrokerEpoch)
	case *BrokerRegistrationChangeRecord:
		m.set("brokerId", r.BrokerID)
		m.set("brokerEpoch", r.BrokerEpoch)
		m.set("fenced", r.Fenced)
		m.set("inControlledShutdown", r.InControlledShutdown)
		m.set("logDirs", uuids(r.LogDirs))
		m.set("cordonedLogDirs", nullableUuids(r.CordonedLogDirs))
	case *TopicRecord:
		m.set("name", r.Name)
		m.set("topicId", r.TopicID)
	case *PartitionRecord:
		m.set("partitionId", r.PartitionID)
		m.set("topicId", r.TopicID)
		m.set("replicas", ints(r.Replicas))
		m.set("isr", ints(r.ISR))
		m.set("removingReplicas", ints(r.RemovingReplicas))
		m.set("addingReplicas", ints(r.AddingReplicas))
		m.set("leader", r.Leader)
		m.set("leaderRecoveryState", r.LeaderRecoveryState)
		m.set("leaderEpoch", r.LeaderEpoch)
		m.set("partitionEpoch", r.PartitionEpoch)
		m.set("directories", uuids(r.Directories))
		m.set("eligibleLeaderReplicas", nullableInts(r.EligibleLeaderReplicas))
		m.set("lastKnownElr", nullableInts(r.LastKnownElr))
	case *PartitionChangeRecord:
		m.set("partitionId", r.PartitionID)
		m.set("topicId", r.TopicID)
		m.set("isr", nullableInts(r.ISR))
		m.set("leader", r.Leader)
		m.set("replicas", nullableInts(r.Replicas))
		m.set("removingReplicas", nullableInts(r.RemovingReplicas))
		m.set("addingReplicas", nullableInts(r.AddingReplicas))
		m.set("leaderRecoveryState", r.LeaderRecoveryState)
		if r.Directories != nil {
			m.set("directories", r.Directories)
		} else {
			m.set("directories", nil)
		}
		m.set("eligibleLeaderReplicas", nullableInts(r.EligibleLeaderReplicas))
		m.set("lastKnownElr", nullableInts(r.LastKnownElr))
	case *RemoveTopicRecord:
		m.set("topicId", r.TopicID)
	case *ConfigRecord:
		m.set("resourceType", r.ResourceType)
		m.set("resourceName", r.ResourceName)
		m.set("name", r.Name)
		if r.Value != nil {
			m.set("value", *r.Value)
		} else {
			m.set("value", nil)
		}
	case *FeatureLevelRecord:
		m.set("name", r.Name)
		m.set("featureLevel", r.FeatureLevel)
	case *ProducerIdsRecord:
		m.set("brokerId", r.BrokerID)
		m.set("brokerEpoch", r.BrokerEpoch)
		m.set("nextProducerId", r.NextProducerID)
	case *NoOpRecord:
	case *ZkMigrationStateRecord:
		m.set("zkMigrationState", r.State)
	case *BeginTransactionRecord:
		if r.Name != nil {
			m.set("name", *r.Name)
		} else {
			m.set("name", nil)
		}
	case *EndTransactionRecord:
	case *ClearElrRecord:
		m.set("topicName", r.TopicName)
	}
	return m, nil
}

// ints maps a non-nullable array: nil is written as empty.
func ints(v []int32) any {
	if v == nil {
		return []int32{}
	}
	return v
}

func uuids(v []Uuid) any {
	if v == nil {
		return []Uuid{}
	}
	return v
}

// nullableUuids maps a nullable array of ids: nil is null.
func nullableUuids(v []Uuid) any {
	if v == nil {
		return nil
	}
	return v
}

// uuidsOrNil reads a nullable array of ids back: null is nil, an empty
// array is empty and not nil.
func uuidsOrNil(v any) []Uuid {
	x, ok := v.([]Uuid)
	if !ok {
		return nil
	}
	if x == nil {
		return []Uuid{}
	}
	return x
}

// nullableInts maps a nullable array: nil is null.
func nullableInts(v []int32) any {
	if v == nil {
		return nil
	}
	return v
}

// fromGeneric maps a decoded record onto its Go struct. Non-nullable arrays
// that are empty come back nil, and RegisterBrokerRecord's Features,
// SecurityProtocols and Rack come back as their zero values when they hold
// exactly what the zero value writes, so Decode(Encode(r)) equals r for the
// records the simulator builds.
func fromGeneric(m *gmsg) (Record, error) {
	switch m.s.apiKey {
	case 0:
		r := &RegisterBrokerRecord{
			BrokerID:             m.get("brokerId").(int32),
			IsMigratingZkBroker:  m.get("isMigratingZkBroker").(bool),
			IncarnationID:        m.get("incarnationId").(Uuid),
			BrokerEpoch:          m.get("brokerEpoch").(int64),
			Fenced:               m.get("fenced").(bool),
			InControlledShutdown: m.get("inControlledShutdown").(bool),
			LogDirs:              nilIfNoUuids(m.get("logDirs")),
			CordonedLogDirs:      uuidsOrNil(m.get("cordonedLogDirs")),
		}
		if rack, ok := m.get("rack").(string); ok {
			r.Rack = rack
		}
		eps := m.get("endPoints").([]*gmsg)
		derived := true
		sps := make([]int16, len(eps))
		for i, em := range eps {
			e := Endpoint{Name: em.get("name").(string), Host: em.get("host").(string), Port: int32(em.get("port").(uint16))}
			r.Endpoints = append(r.Endpoints, e)
			sps[i] = em.get("securityProtocol").(int16)
			if sps[i] != SecurityProtocolFor(e.Name) {
				derived = false
			}
		}
		if !derived {
			r.SecurityProtocols = sps
		}
		fs := m.get("features").([]*gmsg)
		features := make([]BrokerFeature, 0, len(fs))
		for _, fm := range fs {
			features = append(features, BrokerFeature{
				Name:                fm.get("name").(string),
				MinSupportedVersion: fm.get("minSupportedVersion").(int16),
				MaxSupportedVersion: fm.get("maxSupportedVersion").(int16),
			})
		}
		if !sameFeatures(features, DefaultBrokerFeatures()) {
			r.Features = features
		}
		return r, nil
	case 1:
		return &UnregisterBrokerRecord{BrokerID: m.get("brokerId").(int32), BrokerEpoch: m.get("brokerEpoch").(int64)}, nil
	case 2:
		return &TopicRecord{Name: m.get("name").(string), TopicID: m.get("topicId").(Uuid)}, nil
	case 3:
		return &PartitionRecord{
			PartitionID:            m.get("partitionId").(int32),
			TopicID:                m.get("topicId").(Uuid),
			Replicas:               nilIfNoInts(m.get("replicas")),
			ISR:                    nilIfNoInts(m.get("isr")),
			RemovingReplicas:       nilIfNoInts(m.get("removingReplicas")),
			AddingReplicas:         nilIfNoInts(m.get("addingReplicas")),
			Leader:                 m.get("leader").(int32),
			LeaderRecoveryState:    m.get("leaderRecoveryState").(int8),
			LeaderEpoch:            m.get("leaderEpoch").(int32),
			PartitionEpoch:         m.get("partitionEpoch").(int32),
			Directories:            nilIfNoUuids(m.get("directories")),
			EligibleLeaderReplicas: intsOrNil(m.get("eligibleLeaderReplicas")),
			LastKnownElr:           intsOrNil(m.get("lastKnownElr")),
		}, nil
	case 4:
		r := &ConfigRecord{
			ResourceType: m.get("resourceType").(int8),
			ResourceName: m.get("resourceName").(string),
			Name:         m.get("name").(string),
		}
		if v, ok := m.get("value").(string); ok {
			r.Value = &v
		}
		return r, nil
	case 5:
		r := &PartitionChangeRecord{
			PartitionID:            m.get("partitionId").(int32),
			TopicID:                m.get("topicId").(Uuid),
			ISR:                    intsOrNil(m.get("isr")),
			Leader:                 m.get("leader").(int32),
			Replicas:               intsOrNil(m.get("replicas")),
			RemovingReplicas:       intsOrNil(m.get("removingReplicas")),
			AddingReplicas:         intsOrNil(m.get("addingReplicas")),
			LeaderRecoveryState:    m.get("leaderRecoveryState").(int8),
			EligibleLeaderReplicas: intsOrNil(m.get("eligibleLeaderReplicas")),
			LastKnownElr:           intsOrNil(m.get("lastKnownElr")),
		}
		if d, ok := m.get("directories").([]Uuid); ok {
			r.Directories = d
		}
		return r, nil
	case 9:
		return &RemoveTopicRecord{TopicID: m.get("topicId").(Uuid)}, nil
	case 12:
		return &FeatureLevelRecord{Name: m.get("name").(string), FeatureLevel: m.get("featureLevel").(int16)}, nil
	case 17:
		return &BrokerRegistrationChangeRecord{
			BrokerID:             m.get("brokerId").(int32),
			BrokerEpoch:          m.get("brokerEpoch").(int64),
			Fenced:               m.get("fenced").(int8),
			InControlledShutdown: m.get("inControlledShutdown").(int8),
			LogDirs:              nilIfNoUuids(m.get("logDirs")),
			CordonedLogDirs:      uuidsOrNil(m.get("cordonedLogDirs")),
		}, nil
	case 15:
		return &ProducerIdsRecord{BrokerID: m.get("brokerId").(int32), BrokerEpoch: m.get("brokerEpoch").(int64), NextProducerID: m.get("nextProducerId").(int64)}, nil
	case 20:
		return &NoOpRecord{}, nil
	case 21:
		return &ZkMigrationStateRecord{State: m.get("zkMigrationState").(int8)}, nil
	case 23:
		r := &BeginTransactionRecord{}
		if v, ok := m.get("name").(string); ok {
			r.Name = &v
		}
		return r, nil
	case 24:
		return &EndTransactionRecord{}, nil
	case 28:
		return &ClearElrRecord{TopicName: m.get("topicName").(string)}, nil
	}
	return nil, fmt.Errorf("metadata: %s (type %d) is not modelled by this package", m.s.name, m.s.apiKey)
}

func nilIfNoInts(v any) []int32 {
	x, _ := v.([]int32)
	if len(x) == 0 {
		return nil
	}
	return x
}

func nilIfNoUuids(v any) []Uuid {
	x, _ := v.([]Uuid)
	if len(x) == 0 {
		return nil
	}
	return x
}

// intsOrNil keeps a nullable array as it is: null is nil, empty is empty.
func intsOrNil(v any) []int32 {
	x, _ := v.([]int32)
	return x
}

func sameFeatures(a, b []BrokerFeature) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
