package raft

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// Kafka's defaults for the controller.quorum.* configs, from
// raft/src/main/java/org/apache/kafka/raft/QuorumConfig.java at tag 3.8.0.
const (
	// controller.quorum.election.timeout.ms (QuorumConfig.java:64-67).
	DefaultElectionTimeout = 1000 * time.Millisecond
	// controller.quorum.fetch.timeout.ms (QuorumConfig.java:69-73).
	DefaultFetchTimeout = 2000 * time.Millisecond
	// controller.quorum.election.backoff.max.ms (QuorumConfig.java:75-78).
	DefaultElectionBackoffMax = 1000 * time.Millisecond
	// controller.quorum.request.timeout.ms (QuorumConfig.java:85-88).
	DefaultRequestTimeout = 2000 * time.Millisecond
	// controller.quorum.retry.backoff.ms (QuorumConfig.java:90-93).
	DefaultRetryBackoff = 20 * time.Millisecond
	// controller.quorum.append.linger.ms (QuorumConfig.java:80-83). Not
	// modelled: every Append is written at once (see doc.go).
	DefaultAppendLinger = 25 * time.Millisecond
)

// Constants of KafkaRaftClient and LeaderState (tag 3.8.0).
const (
	// FetchMaxWait is how long the leader parks a Fetch that finds nothing
	// new: KafkaRaftClient.MAX_FETCH_WAIT_MS (KafkaRaftClient.java:154).
	FetchMaxWait = 500 * time.Millisecond
	// MaxBatchSizeBytes bounds one appended batch and one Fetch response:
	// KafkaRaftClient.MAX_BATCH_SIZE_BYTES = MAX_FETCH_SIZE_BYTES
	// (KafkaRaftClient.java:155-156).
	MaxBatchSizeBytes = 8 * 1024 * 1024
	// electionBackoffBase is RETRY_BACKOFF_BASE_MS (KafkaRaftClient.java:153),
	// the unit of the binary exponential election backoff.
	electionBackoffBase = 100 * time.Millisecond
	// checkQuorumTimeoutFactor: a leader resigns when a majority of voters
	// has not fetched within fetch.timeout.ms × 1.5
	// (LeaderState.CHECK_QUORUM_TIMEOUT_FACTOR, LeaderState.java:51, 94).
	checkQuorumTimeoutFactor = 1.5
	// ObserverSessionTimeout: DescribeQuorum forgets observers that have not
	// fetched for this long (LeaderState.OBSERVER_SESSION_TIMEOUT_MS,
	// LeaderState.java:50, 442-448).
	ObserverSessionTimeout = 300 * time.Second
	// DefaultFetchSnapshotMaxBytes is FetchSnapshotRequest's MaxBytes default
	// (0x7fffffff in FetchSnapshotRequest.json); KafkaRaftClient never sets
	// it, so a snapshot travels in one response.
	DefaultFetchSnapshotMaxBytes = math.MaxInt32
	// DefaultSegmentBytes is metadata.log.segment.bytes (1 GiB, KRaftConfigs).
	DefaultSegmentBytes = 1 << 30
)

// The partition this package replicates: __cluster_metadata-0, whose topic
// id is the reserved Uuid.METADATA_TOPIC_ID = ONE_UUID (Uuid.java:44),
// printed as Kafka prints uuids.
const (
	MetadataTopic   = "__cluster_metadata"
	MetadataTopicID = "AAAAAAAAAAAAAAAAAAAAAQ"
	// QuorumStateFile is FileQuorumStateStore.DEFAULT_FILE_NAME, kept in the
	// partition directory (RaftManager.scala:193).
	QuorumStateFile = "quorum-state"
)

// MetadataPartition is the topic-partition of the replicated log.
var MetadataPartition = storage.TopicPartition{Topic: MetadataTopic, Partition: 0}

// Config is what a raft node needs at start. Zero durations take Kafka's
// defaults.
type Config struct {
	// NodeID is node.id. A node whose id is not in Voters is an observer.
	NodeID int32
	// Addr is the local address the node sends from and receives responses
	// on: a voter's controller listener (kafka-N:9093), or a broker-only
	// node's broker address (kafka-N:9092) when it observes.
	Addr sim.Addr
	// Voters is controller.quorum.voters: each voter's id and its controller
	// listener address. Static, as in Kafka 3.8 with kraft.version 0.
	Voters map[int32]sim.Addr
	// ClusterID is checked against every request that carries one.
	ClusterID string
	// Disk and LogDir (metadata.log.dir) hold __cluster_metadata-0.
	Disk   *storage.Disk
	LogDir string

	ElectionTimeout    time.Duration // controller.quorum.election.timeout.ms
	ElectionBackoffMax time.Duration // controller.quorum.election.backoff.max.ms
	FetchTimeout       time.Duration // controller.quorum.fetch.timeout.ms
	RequestTimeout     time.Duration // controller.quorum.request.timeout.ms
	RetryBackoff       time.Duration // controller.quorum.retry.backoff.ms
	// FetchMaxWait is the MaxWaitMs a node puts in its Fetch requests.
	FetchMaxWait time.Duration
	// FetchSnapshotMaxBytes is the MaxBytes of FetchSnapshot requests.
	FetchSnapshotMaxBytes int32
	// SegmentBytes is metadata.log.segment.bytes.
	SegmentBytes int64
	// PreVote selects the election rules of Kafka 4.1 and later instead of
	// 3.8's (see doc.go, "Elections by release"): a voter that loses its
	// leader first asks the others in a pre-vote (KIP-996, Kafka 4.0), and
	// only a won pre-vote starts a new epoch; a lost or timed-out election
	// waits out its timer with no random backoff (KAFKA-18345, Kafka 4.1);
	// a resigned leader moves to the next epoch unattached.
	PreVote bool

	// hooks plant bugs for the tests that prove the safety checkers can
	// fail. Always nil outside this package's tests.
	hooks *testHooks
}

// withDefaults fills unset fields with Kafka's defaults.
func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.ElectionTimeout, DefaultElectionTimeout)
	def(&c.ElectionBackoffMax, DefaultElectionBackoffMax)
	def(&c.FetchTimeout, DefaultFetchTimeout)
	def(&c.RequestTimeout, DefaultRequestTimeout)
	def(&c.RetryBackoff, DefaultRetryBackoff)
	def(&c.FetchMaxWait, FetchMaxWait)
	if c.FetchSnapshotMaxBytes <= 0 {
		c.FetchSnapshotMaxBytes = DefaultFetchSnapshotMaxBytes
	}
	if c.SegmentBytes <= 0 {
		c.SegmentBytes = DefaultSegmentBytes
	}
	return c
}

// validate rejects configs Kafka would refuse or this package cannot run.
func (c Config) validate() error {
	if c.NodeID < 0 {
		return fmt.Errorf("raft: node.id %d must not be negative", c.NodeID)
	}
	if len(c.Voters) == 0 {
		return errors.New("raft: controller.quorum.voters is empty")
	}
	if len(c.Voters) > maxVoters {
		return fmt.Errorf("raft: %d voters exceed the limit of %d", len(c.Voters), maxVoters)
	}
	for id, a := range c.Voters {
		if id < 0 || a == "" {
			return fmt.Errorf("raft: invalid voter %d@%q", id, a)
		}
	}
	if c.Addr == "" {
		return errors.New("raft: no local address")
	}
	if c.Disk == nil || c.LogDir == "" {
		return errors.New("raft: no disk or log dir")
	}
	if c.ElectionTimeout < time.Millisecond || c.FetchTimeout < time.Millisecond {
		return errors.New("raft: election and fetch timeouts must be at least 1ms")
	}
	return nil
}

// maxVoters bounds the quorum size (and so every per-voter loop).
const maxVoters = 64

// voterIDs returns the voters' ids in ascending order. Kafka iterates a
// HashSet<Integer>, which for ids below its capacity is ascending order too.
func (c Config) voterIDs() []int32 {
	ids := make([]int32, 0, len(c.Voters))
	for id := range c.Voters {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}
