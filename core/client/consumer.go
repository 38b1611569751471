package client

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"kafkascope/core/group"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/release"
	"kafkascope/core/rpc"
	"kafkascope/core/sim"
)

// ConsumerConfig holds the consumer settings the simulator implements.
type ConsumerConfig struct {
	ClientID string // client.id
	// ClientRack is client.rack ("": none): sent with every fetch, so a
	// leader with a replica selector can send the consumer to a replica
	// in its rack (KIP-392).
	ClientRack string
	GroupID    string // group.id (shown in log prefixes)
	// GroupInstanceID is group.instance.id: a static member (KIP-345)
	// when set, "" for a dynamic one.
	GroupInstanceID string
	AutoOffsetReset string // auto.offset.reset: earliest, latest, none
	// IsolationLevel is isolation.level: "read_uncommitted" (Kafka's
	// default; also for "") or "read_committed", which reads up to the
	// last stable offset and skips aborted transactions' records.
	IsolationLevel         string
	FetchMaxWait           time.Duration // fetch.max.wait.ms
	FetchMinBytes          int           // fetch.min.bytes
	FetchMaxBytes          int           // fetch.max.bytes
	MaxPartitionFetchBytes int           // max.partition.fetch.bytes
	RequestTimeout         time.Duration // request.timeout.ms

	// Group membership (used when the consumer subscribes).
	SessionTimeout     time.Duration // session.timeout.ms
	HeartbeatInterval  time.Duration // heartbeat.interval.ms
	MaxPollInterval    time.Duration // max.poll.interval.ms (also the rebalance timeout)
	MaxPollRecords     int           // max.poll.records
	EnableAutoCommit   bool          // enable.auto.commit
	AutoCommitInterval time.Duration // auto.commit.interval.ms
	RetryBackoff       time.Duration // retry.backoff.ms
	RetryBackoffMax    time.Duration // retry.backoff.max.ms
	MetadataMaxAge     time.Duration // metadata.max.age.ms
	// AssignmentStrategy is partition.assignment.strategy (class names);
	// nil means Kafka's default.
	AssignmentStrategy []string
	// GroupProtocol is group.protocol: "classic" ("" too) or "consumer",
	// KIP-848's protocol (AsyncKafkaConsumer: ConsumerGroupHeartbeat and
	// server-side assignment; consumer_membership.go).
	GroupProtocol string
	// GroupRemoteAssignor is group.remote.assignor ("" = null): the server
	// assignor a consumer-protocol member asks for.
	GroupRemoteAssignor string
	// Release is the client's Kafka release (the zero value means
	// release.Default): the consumer protocol's client changed in 4.0.
	Release release.Version
	// ProcessingTime is how long the application spends on each record a
	// poll returns before it polls again (simulator-only: it stands for
	// the application's work, which can exceed max.poll.interval.ms).
	ProcessingTime time.Duration
}

// DefaultConsumerConfig has Kafka's consumer defaults.
func DefaultConsumerConfig() ConsumerConfig {
	return ConsumerConfig{
		AutoOffsetReset: "latest", FetchMaxWait: 500 * time.Millisecond, FetchMinBytes: 1,
		FetchMaxBytes: 52428800, MaxPartitionFetchBytes: 1048576, RequestTimeout: 30 * time.Second,
		SessionTimeout: 45 * time.Second, HeartbeatInterval: 3 * time.Second, MaxPollInterval: 300 * time.Second,
		MaxPollRecords: 500, EnableAutoCommit: true, AutoCommitInterval: 5 * time.Second,
		RetryBackoff: 100 * time.Millisecond, RetryBackoffMax: time.Second, MetadataMaxAge: 300 * time.Second,
	}
}

// DefaultConsumerConfigFor is the consumer's defaults in release v: before
// 3.0, session.timeout.ms was 10 s (KIP-735 raised it to 45 s) and
// partition.assignment.strategy only the RangeAssignor (Subscribe).
func DefaultConsumerConfigFor(v release.Version) ConsumerConfig {
	cfg := DefaultConsumerConfig()
	cfg.Release = v
	if !v.AtLeast(3, 0) {
		cfg.SessionTimeout = 10 * time.Second
	}
	return cfg
}

// ConsumerRecord is one record as the application sees it.
type ConsumerRecord struct {
	Topic         string
	Partition     int32
	Offset        int64
	Timestamp     int64
	TimestampType string
	Key, Value    []byte
	Headers       []record.Header
	LeaderEpoch   int32 // the partition leader epoch of the record's batch
}

// Start positions for an assigned partition. SeekNone is a partition with
// no position and auto.offset.reset=none: the consumer fails with
// NoOffsetForPartitionException instead of looking one up.
const (
	SeekEarliest int64 = -2
	SeekLatest   int64 = -1
	SeekNone     int64 = -3
)

type position struct {
	offset int64 // next offset to read; -1 while it must be looked up
	reset  int64 // SeekEarliest / SeekLatest when offset must be looked up
	// epoch is the leader epoch of the record before offset (Kafka's
	// FetchPosition.offsetEpoch): the last consumed batch's, or the one a
	// ListOffsets answer gave; -1 when unknown (after a seek).
	epoch int32
	// awaiting: a newly assigned partition waiting for its committed
	// offset (OffsetFetch) before it can be fetched.
	awaiting bool
	// buffer holds fetched records not yet returned by a poll; a partition
	// with buffered records is not fetched again (Kafka's fetcher skips
	// partitions with completed fetches). fetched is the offset after them.
	buffer  []ConsumerRecord
	fetched int64
	// paused: pending revocation (consumer protocol): not fetched, and
	// its buffered records are not returned.
	paused bool
	// seeks counts the seeks of the position: a fetch sent before one is
	// dropped when it answers (Kafka's fetcher checks the position).
	seeks int
	// preferred is the replica the leader named to read from (KIP-392),
	// until preferredUntil (metadata.max.age.ms after it was named);
	// -1: the leader.
	preferred      int32
	preferredUntil sim.Time
	// The last fetch answer's high watermark, last stable offset and log
	// start offset, for the lag and lead metrics (read only once an
	// answer set them); agg is the
	// fetch answer the buffered records came in, aggBytes and aggRecords
	// their share of it, recorded once they are all read.
	hw, lso, logStart    int64
	agg                  *fetchAggregate
	aggBytes, aggRecords int
}

// seek sets the position to offset, found outside a fetch (ListOffsets,
// a committed offset): fetched, the end of the last fetch, moves with it,
// or a poll would take the position back to where an earlier fetch ended
// (after OFFSET_OUT_OF_RANGE, the end of a log that has since been
// truncated, and the reset would repeat forever).
func (ps *position) seek(offset int64, epoch int32) {
	ps.offset, ps.epoch, ps.fetched = offset, epoch, offset
}

// lookUp leaves the position to be looked up by reset (SeekEarliest,
// SeekLatest).
func (ps *position) lookUp(reset int64) {
	ps.offset, ps.reset, ps.fetched = -1, reset, -1
}

// Consumer reads assigned partitions from their leaders: it looks up start
// offsets with ListOffsets, keeps one Fetch in flight per leader (long poll
// fetch.max.wait.ms), and hands records to OnRecords in offset order per
// partition.
type Consumer struct {
	cfg       ConsumerConfig
	net       *rpc.Client
	meta      *Metadata
	log       func(level Level, msg, logger string)
	assigned  []topicPartition
	pos       map[topicPartition]*position
	fetching  map[int32]bool
	lookups   map[int32]bool
	stopped   bool
	onRecords func(env *sim.Env, recs []ConsumerRecord)
	onError   func(env *sim.Env, err *Error)
	// onCommitted sees each partition's offset as the coordinator
	// acknowledges its commit (auto-commit and commitSync alike).
	onCommitted func(env *sim.Env, topic string, partition int32, offset int64)
	// onReset sees a partition's position reset by auto.offset.reset after
	// OFFSET_OUT_OF_RANGE (the log no longer has it, e.g. it was truncated).
	onReset func(env *sim.Env, topic string, partition int32, from int64)
	// onOffsetsFetched sees the coordinator whose OffsetFetch answer the
	// consumer took its committed offsets from.
	onOffsetsFetched func(env *sim.Env, coordinator sim.Addr)

	grp      *coordinator // nil unless subscribed with a group
	busy     bool         // the application is processing what a poll returned
	held     bool         // the application is not in poll() (Hold)
	lastPoll sim.Time
	// stuck tells the event feed why the consumer keeps failing, when the
	// cluster knows (stuck.go).
	stuck *stuckReporter
	// The rebalance listener of a consumer-protocol member
	// (consumer_listener.go).
	onRevoked, onAssigned, onLost func(env *sim.Env, partitions []group.TopicPartition)
	// metrics is the consumer's metrics registry (Metrics).
	metrics *consumerMetrics
}

const loggerFetcher = "org.apache.kafka.clients.consumer.internals.AbstractFetch"

// NewConsumer makes a consumer sending from self.
func NewConsumer(self sim.Addr, bootstrap []sim.Addr, cfg ConsumerConfig, log func(level Level, msg, logger string)) *Consumer {
	c := &Consumer{cfg: cfg, net: rpc.NewClient(self, cfg.ClientID).Reconnecting(), pos: map[topicPartition]*position{}, fetching: map[int32]bool{}, lookups: map[int32]bool{},
		metrics: newConsumerMetrics()}
	// ConsumerUtils.createLogContext: a static member's lines name its
	// instance first.
	prefix := fmt.Sprintf("[Consumer clientId=%s, groupId=%s] ", cfg.ClientID, cfg.GroupID)
	if cfg.GroupInstanceID != "" {
		prefix = fmt.Sprintf("[Consumer instanceId=%s, clientId=%s, groupId=%s] ", cfg.GroupInstanceID, cfg.ClientID, cfg.GroupID)
	}
	c.log = func(level Level, msg, logger string) { log(level, prefix+msg, logger) }
	c.meta = NewMetadata(c.net, bootstrap, true, func(level Level, msg string) { c.log(level, msg, loggerNetworkClient) })
	c.meta.release = cfg.Release
	c.stuck = newStuckReporter(true, cfg.ClientID, cfg.GroupID)
	c.meta.stuck = c.stuck
	c.meta.OnUpdate(func(env *sim.Env) {
		if c.grp != nil {
			c.grp.checkMetadata(env)
		}
		c.run(env)
	})
	return c
}

// Handle routes a message to the consumer's network clients.
func (c *Consumer) Handle(env *sim.Env, e *sim.Envelope) bool {
	if c.grp != nil {
		c.grp.heard(e)
		if c.grp.net.Handle(env, e) {
			return true
		}
	}
	return c.net.Handle(env, e)
}

// Metadata exposes the consumer's metadata cache.
func (c *Consumer) Metadata() *Metadata { return c.meta }

// OnRecords sets the record handler; OnError the handler of fatal errors.
func (c *Consumer) OnRecords(fn func(env *sim.Env, recs []ConsumerRecord)) { c.onRecords = fn }
func (c *Consumer) OnError(fn func(env *sim.Env, err *Error))              { c.onError = fn }

// OnOffsetReset sets a handler called when auto.offset.reset moves a
// partition's position because the fetch position is out of range: the
// consumer then re-reads from the log start (earliest) or skips to its end
// (latest), and what it commits may be below what it committed before.
func (c *Consumer) OnOffsetReset(fn func(env *sim.Env, topic string, partition int32, from int64)) {
	c.onReset = fn
}

// OnCommitted sets a handler called for every partition whose offset commit
// the coordinator acknowledged, with the offset committed: what a checker
// may hold the group to afterwards.
func (c *Consumer) OnCommitted(fn func(env *sim.Env, topic string, partition int32, offset int64)) {
	c.onCommitted = fn
}

// OnOffsetsFetched sets a handler called whenever the consumer takes
// committed offsets from an OffsetFetch answer, with the broker that gave
// it: the coordinator the consumer knew, which a checker can tell from the
// one the controller names (a deposed leader answers from its own cache).
func (c *Consumer) OnOffsetsFetched(fn func(env *sim.Env, coordinator sim.Addr)) {
	c.onOffsetsFetched = fn
}

// Assign sets the partitions to read and where to start: an offset, or
// SeekEarliest / SeekLatest.
func (c *Consumer) Assign(env *sim.Env, topic string, partitions []int32, start int64) {
	c.meta.Add(topic)
	for _, p := range partitions {
		tp := topicPartition{topic, p}
		c.assigned = append(c.assigned, tp)
		ps := &position{offset: start, epoch: -1, fetched: start, preferred: -1}
		if start < 0 {
			ps.lookUp(start)
		}
		c.pos[tp] = ps
	}
	c.run(env)
}

// Stop ends consumption; late answers are ignored.
func (c *Consumer) Stop() { c.stopped = true }

// run looks up missing positions and sends fetches to every leader that has
// none in flight.
func (c *Consumer) run(env *sim.Env) {
	if c.stopped {
		return
	}
	c.lookupOffsets(env)
	c.deliver(env)
	nodes, groups, addrs := c.byReadReplica(env, func(ps *position) bool { return ps.offset >= 0 && !ps.awaiting && !ps.paused && len(ps.buffer) == 0 }, c.fetching)
	if len(nodes) > 0 {
		c.metrics.updateAssignment(c.assigned) // prepareFetchRequests
	}
	byNode := map[int32]*protocol.FetchRequest{}
	for _, id := range nodes {
		req := &protocol.FetchRequest{
			ReplicaID: protocol.ConsumerReplicaID, ReplicaEpoch: -1,
			MaxWaitMs: int32(c.cfg.FetchMaxWait.Milliseconds()), MinBytes: int32(c.cfg.FetchMinBytes), MaxBytes: int32(c.cfg.FetchMaxBytes),
			IsolationLevel: c.isolation(), RackID: c.cfg.ClientRack,
		}
		for _, tp := range groups[id] {
			req.Add(tp.topic, protocol.FetchPartition{Index: tp.partition, CurrentLeaderEpoch: c.meta.Topic(tp.topic).Partitions[tp.partition].LeaderEpoch,
				FetchOffset: c.pos[tp].offset, LastFetchedEpoch: -1, LogStartOffset: -1, PartitionMaxBytes: int32(c.cfg.MaxPartitionFetchBytes)})
		}
		byNode[id] = req
	}
	for _, id := range nodes {
		id := id
		c.fetching[id] = true
		tps := groups[id]
		seeks := make(map[topicPartition]int, len(tps))
		for _, tp := range tps {
			seeks[tp] = c.pos[tp].seeks
		}
		sent := env.Now()
		c.net.Send(env, addrs[id], byNode[id], c.cfg.RequestTimeout+c.cfg.FetchMaxWait, func(env *sim.Env, resp protocol.Response, err error) {
			c.fetching[id] = false
			if c.stopped {
				return
			}
			if err == nil {
				// AbstractFetch.handleFetchSuccess: the answer's latency;
				// the network client's throttle-time record of it.
				c.metrics.fetchLatency.Record(env.Now(), latency(sent, env.Now()))
				c.metrics.throttle.Record(env.Now(), 0)
			}
			for _, tp := range tps {
				leaderAnswered(env, c.stuck, c.meta, tp, id, err)
			}
			if err != nil {
				c.meta.RequestUpdate(env)
				env.After(100*time.Millisecond, "consumer-fetch-backoff", c.run)
				return
			}
			c.handleFetch(env, resp.(*protocol.FetchResponse), seeks)
			c.run(env)
		})
	}
}

func (c *Consumer) handleFetch(env *sim.Env, r *protocol.FetchResponse, seeks map[topicPartition]int) {
	n := 0
	for _, t := range r.Topics {
		n += len(t.Partitions)
	}
	// Every partition of the answer counts for its metrics: one that is
	// not read (no longer fetchable, an error) is drained with nothing.
	agg := c.metrics.newAggregate(n)
	for _, t := range r.Topics {
		for _, pr := range t.Partitions {
			tp := topicPartition{t.Name, pr.Index}
			ps := c.pos[tp]
			if ps == nil || ps.offset < 0 || ps.awaiting || len(ps.buffer) > 0 || ps.seeks != seeks[tp] {
				agg.drained(env.Now(), tp, 0, 0)
				continue
			}
			if pr.ErrorCode != protocol.NONE {
				agg.drained(env.Now(), tp, 0, 0)
			}
			if pr.ErrorCode == protocol.NONE && pr.PreferredReadReplica >= 0 {
				agg.drained(env.Now(), tp, 0, 0)
				// The leader names a replica to read from (KIP-392):
				// until the metadata would be refreshed, fetches of this
				// partition go there (SubscriptionState.updatePreferredReadReplica).
				ps.preferred, ps.preferredUntil = pr.PreferredReadReplica, env.Now().Add(c.cfg.MetadataMaxAge)
				continue
			}
			if pr.ErrorCode != protocol.NONE && ps.preferred >= 0 {
				// An error from the preferred replica sends the partition
				// back to the leader (FetchCollector.handleInitializeErrors
				// clears it); out of range there is not the position's
				// fault, so nothing is reset.
				wasOutOfRange := pr.ErrorCode == protocol.OFFSET_OUT_OF_RANGE
				ps.preferred = -1
				if wasOutOfRange {
					continue
				}
			}
			switch pr.ErrorCode {
			case protocol.NONE:
				data := pr.Records
				ps.fetched = ps.offset
				ps.hw, ps.lso, ps.logStart = pr.HighWatermark, pr.LastStableOffset, pr.LogStartOffset
				bytes := 0
				skip := c.abortedSkipper(pr.AbortedTransactions)
				for len(data) > 0 {
					b, n, err := record.Decode(data)
					if err != nil {
						break
					}
					data = data[n:]
					bytes += n
					if skip(&b) || b.IsControl() {
						// Control records (transaction markers) never reach
						// the application; nor, read_committed, do aborted
						// transactions' records (CompletedFetch).
						ps.fetched = max(ps.fetched, b.NextOffset())
						continue
					}
					for _, rec := range b.Records {
						if rec.Offset < ps.fetched {
							continue
						}
						ps.buffer = append(ps.buffer, ConsumerRecord{
							Topic: t.Name, Partition: pr.Index, Offset: rec.Offset, Timestamp: b.RecordTimestamp(&rec),
							TimestampType: b.TimestampType(), Key: rec.Key, Value: rec.Value, Headers: rec.Headers, LeaderEpoch: b.PartitionLeaderEpoch,
						})
						ps.fetched = rec.Offset + 1
					}
					if b.NextOffset() > ps.fetched {
						ps.fetched = b.NextOffset()
					}
				}
				if len(ps.buffer) == 0 {
					ps.offset = ps.fetched // only control records or compacted gaps
					agg.drained(env.Now(), tp, bytes, 0)
					c.metrics.positionRead(env.Now(), tp, ps, c.isolation() == 1)
				} else {
					ps.agg, ps.aggBytes, ps.aggRecords = agg, bytes, len(ps.buffer)
				}
			case protocol.OFFSET_OUT_OF_RANGE:
				// FetchCollector: with a reset policy the position is looked
				// up again (Kafka logs that at INFO, which the tools do not
				// print); without one the application gets the exception.
				msg := fmt.Sprintf("Fetch position %s is out of range for partition %s", c.fetchPosition(tp, ps), tp)
				from := ps.offset
				switch c.cfg.AutoOffsetReset {
				case "earliest":
					ps.lookUp(SeekEarliest)
				case "latest":
					ps.lookUp(SeekLatest)
				default:
					c.fatal(env, &Error{Class: "org.apache.kafka.clients.consumer.OffsetOutOfRangeException", Message: msg})
					return
				}
				if c.onReset != nil {
					c.onReset(env, tp.topic, tp.partition, from)
				}
			case protocol.UNKNOWN_TOPIC_OR_PARTITION:
				c.log(LevelWarn, fmt.Sprintf("Received unknown topic or partition error in fetch for partition %s", tp), loggerFetcher)
				c.meta.RequestUpdate(env)
			default:
				c.meta.RequestUpdate(env)
			}
		}
	}
	c.deliver(env)
}

func (c *Consumer) fatal(env *sim.Env, err *Error) {
	c.stopped = true
	if c.onError != nil {
		c.onError(env, err)
	}
}

// lookupOffsets sends ListOffsets for partitions whose position is unknown.
// Partitions without a position and without a reset policy fail the
// consumer first (SubscriptionState.resetInitializingPositions); Kafka
// lists them in hash-set order, the simulator in assignment order.
func (c *Consumer) lookupOffsets(env *sim.Env) {
	var undefined []string
	for _, tp := range c.assigned {
		if ps := c.pos[tp]; ps.offset < 0 && ps.reset == SeekNone && !ps.awaiting {
			undefined = append(undefined, tp.String())
		}
	}
	if len(undefined) > 0 {
		c.fatal(env, &Error{Class: "org.apache.kafka.clients.consumer.NoOffsetForPartitionException",
			Message: "Undefined offset with no reset policy for partitions: [" + strings.Join(undefined, ", ") + "]"})
		return
	}
	nodes, groups, addrs := c.byLeader(env, func(ps *position) bool { return ps.offset < 0 && !ps.awaiting }, c.lookups)
	for _, id := range nodes {
		id := id
		req := &protocol.ListOffsetsRequest{ReplicaID: -1, IsolationLevel: c.isolation()}
		for _, tp := range groups[id] {
			req.Add(tp.topic, protocol.ListOffsetsPartition{Index: tp.partition, CurrentLeaderEpoch: -1, Timestamp: c.pos[tp].reset})
		}
		c.lookups[id] = true
		tps := groups[id]
		c.net.Send(env, addrs[id], req, c.cfg.RequestTimeout, func(env *sim.Env, resp protocol.Response, err error) {
			c.lookups[id] = false
			if c.stopped {
				return
			}
			for _, tp := range tps {
				leaderAnswered(env, c.stuck, c.meta, tp, id, err)
			}
			if err != nil {
				env.After(100*time.Millisecond, "consumer-lookup-backoff", c.run)
				return
			}
			retry := false
			for _, t := range resp.(*protocol.ListOffsetsResponse).Topics {
				for _, pr := range t.Partitions {
					ps := c.pos[topicPartition{t.Name, pr.Index}]
					if ps == nil || ps.offset >= 0 {
						continue
					}
					if pr.ErrorCode != protocol.NONE {
						retry = true
						continue
					}
					ps.seek(pr.Offset, pr.LeaderEpoch)
				}
			}
			if retry {
				c.meta.RequestUpdate(env)
				env.After(100*time.Millisecond, "consumer-lookup-backoff", c.run)
				return
			}
			c.run(env)
		})
	}
}

// byLeader groups the assigned partitions that want work by their leader,
// skipping leaders with a request already in flight (busy) and asking for
// a metadata refresh when a leader is unknown. Leaders come in the order
// their first partition was assigned.
func (c *Consumer) byLeader(env *sim.Env, want func(*position) bool, busy map[int32]bool) ([]int32, map[int32][]topicPartition, map[int32]sim.Addr) {
	var nodes []int32
	groups := map[int32][]topicPartition{}
	addrs := map[int32]sim.Addr{}
	for _, tp := range c.assigned {
		if !want(c.pos[tp]) {
			continue
		}
		addr, leader, ok := c.meta.Leader(tp.topic, tp.partition)
		if !ok {
			c.stuck.stuck(env, scopeLeader(tp), noLeaderCause(c.meta, tp))
			c.meta.RequestUpdate(env)
			continue
		}
		if busy[leader] {
			continue
		}
		if _, seen := groups[leader]; !seen {
			nodes = append(nodes, leader)
			addrs[leader] = addr
		}
		groups[leader] = append(groups[leader], tp)
	}
	return nodes, groups, addrs
}

// byReadReplica groups the partitions to fetch by the node to fetch them
// from: the replica the leader named while that holds and the node is
// known (Fetcher.selectReadReplica), else the leader.
func (c *Consumer) byReadReplica(env *sim.Env, want func(*position) bool, busy map[int32]bool) ([]int32, map[int32][]topicPartition, map[int32]sim.Addr) {
	nodes, groups, addrs := c.byLeader(env, func(ps *position) bool { return want(ps) && !c.readsFromReplica(env, ps) }, busy)
	for _, tp := range c.assigned {
		ps := c.pos[tp]
		if !want(ps) || !c.readsFromReplica(env, ps) || busy[ps.preferred] {
			continue
		}
		addr, _ := c.meta.BrokerAddr(ps.preferred)
		if _, seen := groups[ps.preferred]; !seen {
			nodes = append(nodes, ps.preferred)
			addrs[ps.preferred] = addr
		}
		groups[ps.preferred] = append(groups[ps.preferred], tp)
	}
	return nodes, groups, addrs
}

// readsFromReplica: the position's partition is read from a preferred
// replica now (one was named, it has not expired, and the metadata knows
// the node).
func (c *Consumer) readsFromReplica(env *sim.Env, ps *position) bool {
	if ps.preferred < 0 {
		return false
	}
	if env.Now() >= ps.preferredUntil {
		ps.preferred = -1
		return false
	}
	if _, ok := c.meta.BrokerAddr(ps.preferred); !ok {
		// Gone from the metadata (fenced, or stale metadata): back to the
		// leader, and a metadata refresh (AbstractFetch.selectReadReplica).
		ps.preferred = -1
		c.meta.RequestUpdate(env)
		return false
	}
	return true
}

// fetchPosition renders a position as Kafka's FetchPosition.toString:
// the offset, the epoch of the record before it, and the partition's
// current leader and leader epoch from the metadata.
func (c *Consumer) fetchPosition(tp topicPartition, ps *position) string {
	epoch := "Optional.empty"
	if ps.epoch >= 0 {
		epoch = fmt.Sprintf("Optional[%d]", ps.epoch)
	}
	leader, leaderEpoch := "Optional.empty", "absent"
	if addr, id, ok := c.meta.Leader(tp.topic, tp.partition); ok {
		leader = "Optional[" + c.meta.NodeString(addr, id) + "]"
	}
	if t := c.meta.Topic(tp.topic); t != nil && int(tp.partition) < len(t.Partitions) && t.Partitions[tp.partition].LeaderEpoch >= 0 {
		leaderEpoch = fmt.Sprint(t.Partitions[tp.partition].LeaderEpoch)
	}
	return fmt.Sprintf("FetchPosition{offset=%d, offsetEpoch=%s, currentLeader=LeaderAndEpoch{leader=%s, epoch=%s}}", ps.offset, epoch, leader, leaderEpoch)
}

// Positions returns the next offset per assigned partition (-1 unknown).
func (c *Consumer) Positions() map[string]int64 {
	out := map[string]int64{}
	for _, tp := range c.assigned {
		out[tp.String()] = c.pos[tp].offset
	}
	return out
}

// isolation is the fetch's isolation level.
func (c *Consumer) isolation() int8 {
	if c.cfg.IsolationLevel == "read_committed" {
		return protocol.ReadCommitted
	}
	return protocol.ReadUncommitted
}

// abortedSkipper is CompletedFetch's read_committed filter over one
// partition's batches, in order: the aborted transactions the leader
// named are taken in by first offset as the batches reach them; a
// transactional batch of a producer with an aborted transaction open is
// skipped, and that producer's ABORT marker closes it. It reports whether
// to skip a batch (always false read_uncommitted).
func (c *Consumer) abortedSkipper(aborted []protocol.AbortedTransaction) func(b *record.Batch) bool {
	if c.isolation() != protocol.ReadCommitted {
		return func(*record.Batch) bool { return false }
	}
	pending := slices.Clone(aborted)
	slices.SortStableFunc(pending, func(a, b protocol.AbortedTransaction) int { return cmp.Compare(a.FirstOffset, b.FirstOffset) })
	open := map[int64]bool{}
	return func(b *record.Batch) bool {
		if b.ProducerID < 0 {
			return false
		}
		for len(pending) > 0 && pending[0].FirstOffset <= b.LastOffset() {
			open[pending[0].ProducerID] = true
			pending = pending[1:]
		}
		if b.IsControl() {
			if len(b.Records) > 0 {
				if m, err := record.ParseEndTxnMarker(b.Records[0].Key, b.Records[0].Value); err == nil && m.Type == record.ControlAbort {
					delete(open, b.ProducerID)
				}
			}
			return false
		}
		return b.IsTransactional() && open[b.ProducerID]
	}
}
