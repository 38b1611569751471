package client

import (
	"fmt"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/rpc"
	"kafkascope/core/sim"
)

// ConsumerConfig holds the consumer settings the simulator implements.
type ConsumerConfig struct {
	ClientID               string        // client.id
	GroupID                string        // group.id (shown in log prefixes)
	AutoOffsetReset        string        // auto.offset.reset: earliest, latest, none
	FetchMaxWait           time.Duration // fetch.max.wait.ms
	FetchMinBytes          int           // fetch.min.bytes
	FetchMaxBytes          int           // fetch.max.bytes
	MaxPartitionFetchBytes int           // max.partition.fetch.bytes
	RequestTimeout         time.Duration // request.timeout.ms
}

// DefaultConsumerConfig has Kafka's consumer defaults.
func DefaultConsumerConfig() ConsumerConfig {
	return ConsumerConfig{
		AutoOffsetReset: "latest", FetchMaxWait: 500 * time.Millisecond, FetchMinBytes: 1,
		FetchMaxBytes: 52428800, MaxPartitionFetchBytes: 1048576, RequestTimeout: 30 * time.Second,
	}
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

// Start positions for an assigned partition.
const (
	SeekEarliest int64 = -2
	SeekLatest   int64 = -1
)

type position struct {
	offset int64 // next offset to read; -1 while it must be looked up
	reset  int64 // SeekEarliest / SeekLatest when offset must be looked up
	epoch  int32
	paused bool // waiting for a lookup or a leader
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
}

const loggerFetcher = "org.apache.kafka.clients.consumer.internals.AbstractFetch"

// NewConsumer makes a consumer sending from self.
func NewConsumer(self sim.Addr, bootstrap []sim.Addr, cfg ConsumerConfig, log func(level Level, msg, logger string)) *Consumer {
	c := &Consumer{cfg: cfg, net: rpc.NewClient(self, cfg.ClientID), pos: map[topicPartition]*position{}, fetching: map[int32]bool{}, lookups: map[int32]bool{}}
	prefix := fmt.Sprintf("[Consumer clientId=%s, groupId=%s] ", cfg.ClientID, cfg.GroupID)
	c.log = func(level Level, msg, logger string) { log(level, prefix+msg, logger) }
	c.meta = NewMetadata(c.net, bootstrap, true, func(level Level, msg string) { c.log(level, msg, loggerNetworkClient) })
	c.meta.OnUpdate(c.run)
	return c
}

// Handle routes a message to the consumer's network client.
func (c *Consumer) Handle(env *sim.Env, e *sim.Envelope) bool { return c.net.Handle(env, e) }

// Metadata exposes the consumer's metadata cache.
func (c *Consumer) Metadata() *Metadata { return c.meta }

// OnRecords sets the record handler; OnError the handler of fatal errors.
func (c *Consumer) OnRecords(fn func(env *sim.Env, recs []ConsumerRecord)) { c.onRecords = fn }
func (c *Consumer) OnError(fn func(env *sim.Env, err *Error))              { c.onError = fn }

// Assign sets the partitions to read and where to start: an offset, or
// SeekEarliest / SeekLatest.
func (c *Consumer) Assign(env *sim.Env, topic string, partitions []int32, start int64) {
	c.meta.Add(topic)
	for _, p := range partitions {
		tp := topicPartition{topic, p}
		c.assigned = append(c.assigned, tp)
		ps := &position{offset: start, epoch: -1}
		if start < 0 {
			ps.offset, ps.reset = -1, start
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
	type fetch struct {
		addr sim.Addr
		req  *protocol.FetchRequest
	}
	byNode := map[int32]*fetch{}
	var nodes []int32
	for _, tp := range c.assigned {
		ps := c.pos[tp]
		if ps.offset < 0 {
			continue
		}
		addr, leader, ok := c.meta.Leader(tp.topic, tp.partition)
		if !ok {
			c.meta.RequestUpdate(env)
			continue
		}
		if c.fetching[leader] {
			continue
		}
		f, ok := byNode[leader]
		if !ok {
			f = &fetch{addr: addr, req: &protocol.FetchRequest{
				ReplicaID: protocol.ConsumerReplicaID, ReplicaEpoch: -1,
				MaxWaitMs: int32(c.cfg.FetchMaxWait.Milliseconds()), MinBytes: int32(c.cfg.FetchMinBytes), MaxBytes: int32(c.cfg.FetchMaxBytes),
			}}
			byNode[leader] = f
			nodes = append(nodes, leader)
		}
		fp := protocol.FetchPartition{Index: tp.partition, CurrentLeaderEpoch: c.meta.Topic(tp.topic).Partitions[tp.partition].LeaderEpoch,
			FetchOffset: ps.offset, LastFetchedEpoch: -1, LogStartOffset: -1, PartitionMaxBytes: int32(c.cfg.MaxPartitionFetchBytes)}
		if n := len(f.req.Topics); n > 0 && f.req.Topics[n-1].Name == tp.topic {
			f.req.Topics[n-1].Partitions = append(f.req.Topics[n-1].Partitions, fp)
		} else {
			f.req.Topics = append(f.req.Topics, protocol.FetchTopic{Name: tp.topic, Partitions: []protocol.FetchPartition{fp}})
		}
	}
	for _, id := range nodes {
		id := id
		f := byNode[id]
		c.fetching[id] = true
		c.net.Send(env, f.addr, f.req, c.cfg.RequestTimeout+c.cfg.FetchMaxWait, func(env *sim.Env, resp protocol.Response, err error) {
			c.fetching[id] = false
			if c.stopped {
				return
			}
			if err != nil {
				c.meta.RequestUpdate(env)
				env.After(100*time.Millisecond, "consumer-fetch-backoff", c.run)
				return
			}
			c.handleFetch(env, resp.(*protocol.FetchResponse))
			c.run(env)
		})
	}
}

func (c *Consumer) handleFetch(env *sim.Env, r *protocol.FetchResponse) {
	var out []ConsumerRecord
	for _, t := range r.Topics {
		for _, pr := range t.Partitions {
			tp := topicPartition{t.Name, pr.Index}
			ps := c.pos[tp]
			if ps == nil || ps.offset < 0 {
				continue
			}
			switch pr.ErrorCode {
			case protocol.NONE:
				data := pr.Records
				for len(data) > 0 {
					b, n, err := record.Decode(data)
					if err != nil {
						break
					}
					data = data[n:]
					for _, rec := range b.Records {
						if rec.Offset < ps.offset {
							continue
						}
						out = append(out, ConsumerRecord{
							Topic: t.Name, Partition: pr.Index, Offset: rec.Offset, Timestamp: b.RecordTimestamp(&rec),
							TimestampType: b.TimestampType(), Key: rec.Key, Value: rec.Value, Headers: rec.Headers, LeaderEpoch: b.PartitionLeaderEpoch,
						})
						ps.offset = rec.Offset + 1
					}
					if b.NextOffset() > ps.offset {
						ps.offset = b.NextOffset()
					}
				}
			case protocol.OFFSET_OUT_OF_RANGE:
				switch c.cfg.AutoOffsetReset {
				case "earliest":
					ps.offset, ps.reset = -1, SeekEarliest
				case "latest":
					ps.offset, ps.reset = -1, SeekLatest
				default:
					c.fatal(env, &Error{Class: "org.apache.kafka.clients.consumer.OffsetOutOfRangeException",
						Message: fmt.Sprintf("Fetch position FetchPosition{offset=%d} is out of range for partition %s", ps.offset, tp)})
					return
				}
			case protocol.UNKNOWN_TOPIC_OR_PARTITION:
				c.log(LevelWarn, fmt.Sprintf("Received unknown topic or partition error in fetch for partition %s", tp), loggerFetcher)
				c.meta.RequestUpdate(env)
			default:
				c.meta.RequestUpdate(env)
			}
		}
	}
	if len(out) > 0 && c.onRecords != nil {
		c.onRecords(env, out)
	}
}

func (c *Consumer) fatal(env *sim.Env, err *Error) {
	c.stopped = true
	if c.onError != nil {
		c.onError(env, err)
	}
}

// lookupOffsets sends ListOffsets for partitions whose position is unknown.
func (c *Consumer) lookupOffsets(env *sim.Env) {
	type lookup struct {
		addr sim.Addr
		req  *protocol.ListOffsetsRequest
		tps  []topicPartition
	}
	byNode := map[int32]*lookup{}
	var nodes []int32
	for _, tp := range c.assigned {
		ps := c.pos[tp]
		if ps.offset >= 0 {
			continue
		}
		addr, leader, ok := c.meta.Leader(tp.topic, tp.partition)
		if !ok {
			c.meta.RequestUpdate(env)
			continue
		}
		if c.lookups[leader] {
			continue
		}
		l, ok := byNode[leader]
		if !ok {
			l = &lookup{addr: addr, req: &protocol.ListOffsetsRequest{ReplicaID: -1}}
			byNode[leader] = l
			nodes = append(nodes, leader)
		}
		lp := protocol.ListOffsetsPartition{Index: tp.partition, CurrentLeaderEpoch: -1, Timestamp: ps.reset}
		if n := len(l.req.Topics); n > 0 && l.req.Topics[n-1].Name == tp.topic {
			l.req.Topics[n-1].Partitions = append(l.req.Topics[n-1].Partitions, lp)
		} else {
			l.req.Topics = append(l.req.Topics, protocol.ListOffsetsTopic{Name: tp.topic, Partitions: []protocol.ListOffsetsPartition{lp}})
		}
		l.tps = append(l.tps, tp)
	}
	for _, id := range nodes {
		id := id
		l := byNode[id]
		c.lookups[id] = true
		c.net.Send(env, l.addr, l.req, c.cfg.RequestTimeout, func(env *sim.Env, resp protocol.Response, err error) {
			c.lookups[id] = false
			if c.stopped {
				return
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
					ps.offset = pr.Offset
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

// Positions returns the next offset per assigned partition (-1 unknown).
func (c *Consumer) Positions() map[string]int64 {
	out := map[string]int64{}
	for _, tp := range c.assigned {
		out[tp.String()] = c.pos[tp].offset
	}
	return out
}
