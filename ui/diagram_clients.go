package ui

import (
	"fmt"
	"slices"
	"strconv"

	"kafkascope/core/view"
)

// The clients' cards under the brokers: one per producer (its record
// accumulator and sender) and one per consumer group. A card is open or
// folded; a folded card is one line, and nothing of its body is laid out
// (the diagram is rebuilt every frame). Cards are HTML: their text wraps.

// Bounds on a card's body, so one busy producer cannot flood the page.
const (
	dgQueuesShown  = 6 // partitions of a producer's accumulator
	dgBatchesShown = 4 // batches of one partition's queue
)

// dgProducer is one producer's card.
type dgProducer struct {
	Key    string // fold key
	Host   string
	Name   string // client.id
	Sub    string // the one-line summary
	Open   bool
	Fold   string
	Config string // batch.size, linger.ms, acks, max.in.flight, enable.idempotence
	Note   string // sends blocked on metadata or buffer.memory, or closing
	Idem   string // producer id and epoch ("" without idempotence)
	Buffer dgFlight
	Flight []dgFlight
	Queues []dgQueue
	More   string // queues not shown
	Class  string // the card's (an error state marks its border)
	// A transactional producer (diagram_txn_card.go): its state under
	// Kafka's name, the pill's class and tooltip; in its body, its
	// transaction's line and its error ("" when none).
	Txn, TxnClass, TxnTip          string
	TxnParts                       []string
	TxnErr, TxnErrTip, TxnErrLabel string
}

// dgFlight is the requests in flight to one broker, against
// max.in.flight.requests.per.connection.
type dgFlight struct {
	Text  string
	Fill  string // style: the meter's width
	Class string
}

// dgQueue is one partition's queue of batches.
type dgQueue struct {
	Name    string // t-0
	Leader  string
	Seq     string // the next sequence (idempotence)
	Batches []dgBatch
	More    string
	Empty   string
}

// dgBatch is one batch: how full it is against batch.size, and what the
// sender does with it.
type dgBatch struct {
	Class string
	Fill  string // style: width in percent of batch.size
	Text  string // records and bytes
	Sub   string // linger left, ready, in flight, retry and backoff
	Tip   string
}

func dgProducerKey(p view.Producer) string { return "producer/" + p.Host + "/" + p.ClientID }

// producers lays out the producers' cards (bodies only for open cards).
func (l *dgLayout) producers(s *view.Snapshot, t dgTranslator, o dgOptions) {
	l.Prods = l.Prods[:0]
	for _, p := range s.Producers {
		c := dgProducer{Key: dgProducerKey(p), Host: p.Host, Name: p.ClientID}
		c.Open = !o.ClientFolded[c.Key]
		c.Fold = "▾"
		if !c.Open {
			c.Fold = "▸"
		}
		batches, flight := 0, 0
		for _, q := range p.Partitions {
			batches += len(q.Batches)
		}
		for _, f := range p.InFlight {
			flight += f.Requests
		}
		c.Sub = fmt.Sprintf(t("producer.summary"), dgCountOf(t, p.Records, "count.record"), dgCountOf(t, batches, "count.batch"), dgCountOf(t, flight, "count.request"))
		dgTxnHead(&c, p, t)
		if c.Open {
			l.producerBody(&c, p, t)
			dgTxnBody(&c, p, s, t)
		}
		l.Prods = append(l.Prods, c)
	}
}

func (l *dgLayout) producerBody(c *dgProducer, p view.Producer, t dgTranslator) {
	acks := strconv.Itoa(int(p.Acks))
	if p.Acks == -1 {
		acks = "all"
	}
	c.Config = "acks=" + acks + " · batch.size " + strconv.Itoa(p.BatchSize) + " · linger.ms " + strconv.FormatInt(p.LingerMs, 10) +
		" · max.in.flight.requests.per.connection " + strconv.Itoa(p.MaxInFlight) + " · enable.idempotence=" + strconv.FormatBool(p.Idempotent)
	switch {
	case p.Waiting > 0 && p.WaitingForMemory:
		c.Note = fmt.Sprintf(t("producer.waiting.memory"), p.Waiting)
	case p.Waiting > 0:
		c.Note = fmt.Sprintf(t("producer.waiting"), p.Waiting)
	case p.Closing:
		c.Note = t("producer.closing")
	}
	c.Buffer = dgFlight{Text: fmt.Sprintf(t("producer.buffer"), p.BufferUsed, p.BufferMemory), Class: "kd-flight kd-buffer"}
	if p.BufferMemory > 0 {
		c.Buffer.Fill = "width:" + dgf(100*min(float64(p.BufferUsed)/float64(p.BufferMemory), 1)) + "%"
		if p.BufferUsed*10 >= p.BufferMemory*9 {
			c.Buffer.Class += " kd-flight-full"
		}
	}
	if p.Idempotent {
		c.Idem = t("producer.pid.none")
		if p.ProducerID >= 0 {
			c.Idem = fmt.Sprintf(t("producer.pid"), p.ProducerID, p.ProducerEpoch)
		}
	}
	// In flight, per broker: every leader the queues send to, and any
	// broker still owing an answer (a leader may have moved).
	var brokers []int32
	for _, q := range p.Partitions {
		if q.Leader >= 0 && !slices.Contains(brokers, q.Leader) {
			brokers = append(brokers, q.Leader)
		}
	}
	for _, f := range p.InFlight {
		if !slices.Contains(brokers, f.Broker) {
			brokers = append(brokers, f.Broker)
		}
	}
	slices.Sort(brokers)
	for _, b := range brokers {
		n := 0
		for _, f := range p.InFlight {
			if f.Broker == b {
				n = f.Requests
			}
		}
		f := dgFlight{Text: fmt.Sprintf(t("producer.inflight"), b, n, p.MaxInFlight), Class: "kd-flight"}
		if p.MaxInFlight > 0 {
			f.Fill = "width:" + dgf(100*float64(min(n, p.MaxInFlight))/float64(p.MaxInFlight)) + "%"
		}
		if n >= p.MaxInFlight {
			f.Class += " kd-flight-full"
		}
		c.Flight = append(c.Flight, f)
	}
	for i, q := range p.Partitions {
		if i == dgQueuesShown {
			c.More = fmt.Sprintf(t("clients.more"), len(p.Partitions)-dgQueuesShown)
			break
		}
		qv := dgQueue{Name: q.Topic + "-" + strconv.Itoa(int(q.Partition)), Leader: t("leader.none")}
		if q.Leader >= 0 {
			qv.Leader = t("leader") + " " + strconv.Itoa(int(q.Leader))
		}
		if p.Idempotent && q.NextSequence >= 0 {
			qv.Seq = fmt.Sprintf(t("queue.seq"), q.NextSequence)
		}
		if len(q.Batches) == 0 {
			qv.Empty = t("queue.empty")
		}
		for j, b := range q.Batches {
			if j == dgBatchesShown {
				qv.More = fmt.Sprintf(t("clients.more"), len(q.Batches)-dgBatchesShown)
				break
			}
			qv.Batches = append(qv.Batches, dgBatchOf(b, p.BatchSize, t))
		}
		c.Queues = append(c.Queues, qv)
	}
}

func dgBatchOf(b view.ProducerBatch, batchSize int, t dgTranslator) dgBatch {
	v := dgBatch{Class: "kd-batch kd-b-" + b.State}
	frac := 1.0
	if batchSize > 0 {
		frac = min(float64(b.Bytes)/float64(batchSize), 1)
	}
	v.Fill = "width:" + dgf(100*frac) + "%"
	v.Text = fmt.Sprintf(t("batch.records"), b.Records) + " · " + strconv.Itoa(b.Bytes) + "/" + strconv.Itoa(batchSize) + " B"
	switch b.State {
	case view.BatchOpen:
		v.Sub = fmt.Sprintf(t("batch.open"), b.LingerLeftMs)
	case view.BatchReady:
		v.Sub = t("batch.ready")
	case view.BatchInFlight:
		v.Sub = t("batch.inflight")
		if b.Attempt > 0 {
			v.Sub = fmt.Sprintf(t("batch.inflight.retry"), b.Attempt)
		}
	case view.BatchBackoff:
		v.Sub = fmt.Sprintf(t("batch.backoff"), b.Attempt, b.BackoffLeftMs)
	}
	if b.BaseSequence >= 0 {
		v.Sub += " · seq " + strconv.Itoa(int(b.BaseSequence))
		if b.LastSequence > b.BaseSequence {
			v.Sub += "–" + strconv.Itoa(int(b.LastSequence))
		}
	}
	v.Tip = fmt.Sprintf(t("batch.tip"), b.Records, b.Bytes, batchSize, b.AgeMs)
	return v
}

// dgCountOf is "1 record", "3 records" in the UI's language: key is the
// singular's, key+".n" the plural's.
func dgCountOf(t dgTranslator, n int, key string) string {
	if n == 1 {
		return fmt.Sprintf(t(key), n)
	}
	return fmt.Sprintf(t(key+".n"), n)
}
