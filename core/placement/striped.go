// Package placement is Kafka's replica placement
// (org.apache.kafka.metadata.placement): the StripedReplicaPlacer that the
// KRaft controller uses for new topics and partitions, and that
// kafka-reassign-partitions.sh --generate uses from Kafka 4.0
// (ReassignPartitionsCommand.java's REPLICA_PLACER).
package placement

import (
	"fmt"
	"slices"

	"kafkascope/core/sim"
)

// Striped places replicas as Kafka's StripedReplicaPlacer does
// (StripedReplicaPlacer.java, 3.8.0): the brokers are grouped by
// broker.rack; each partition's leader comes from the next rack in turn
// (a random rack first), and its other replicas from the racks after it,
// one broker per rack while racks last, so a partition's replicas span as
// many racks as they can. Within a rack, brokers are taken in a rotating
// order, each partition starting one broker further on. After as many
// partitions as there are unfenced brokers, the rack list and every
// rack's broker lists are reshuffled. Fenced brokers are used only where a
// rack has no unfenced one left, and never as leader. Without racks there
// is one rack: partitions walk the sorted brokers from a random start.
//
// Kafka's placer draws from a java.util.Random (the controller's own; the
// 4.x reassign tool's is a static new Random() per run); here Rand is a
// stream of the simulation's seed, so the draws differ from Kafka's in
// order where that makes no difference to the rules: the errors are
// checked before any draw, a rack's unfenced list is started before its
// fenced one, and with a single rack no draw picks the first rack.
type Striped struct {
	Rand *sim.Rand
	// CordonedText: Kafka 4.3's messages, which name cordoned log
	// directories too (KIP-1066; StripedReplicaPlacer.java in 4.3).
	CordonedText bool
}

// Broker is a broker the placer may use (Kafka's UsableBroker).
type Broker struct {
	ID     int32
	Rack   string // "" : no broker.rack
	Fenced bool
}

// Place returns replica lists for count partitions of replication factor
// rf over brokers without racks (the unfenced and the fenced ones).
func (sp *Striped) Place(unfenced, fenced []int32, count int, rf int) ([][]int32, error) {
	brokers := make([]Broker, 0, len(unfenced)+len(fenced))
	for _, id := range unfenced {
		brokers = append(brokers, Broker{ID: id})
	}
	for _, id := range fenced {
		brokers = append(brokers, Broker{ID: id, Fenced: true})
	}
	return sp.PlaceBrokers(brokers, count, rf)
}

// PlaceBrokers returns replica lists for count partitions of replication
// factor rf. The error's message is the InvalidReplicationFactorException
// Kafka throws, checked in Kafka's order (rf not positive, no unfenced
// broker, too few brokers).
func (sp *Striped) PlaceBrokers(brokers []Broker, count int, rf int) ([][]int32, error) {
	unfenced := 0
	for _, b := range brokers {
		if !b.Fenced {
			unfenced++
		}
	}
	if rf <= 0 {
		return nil, fmt.Errorf("Invalid replication factor %d: the replication factor must be positive.", rf)
	}
	if unfenced == 0 {
		if sp.CordonedText {
			return nil, fmt.Errorf("All brokers are currently fenced, or have all their log directories cordoned.")
		}
		return nil, fmt.Errorf("All brokers are currently fenced.")
	}
	if rf > len(brokers) {
		if sp.CordonedText {
			return nil, fmt.Errorf("The target replication factor of %d cannot be reached because only %d broker(s) are registered or some brokers have all their log directories cordoned.", rf, len(brokers))
		}
		return nil, fmt.Errorf("The target replication factor of %d cannot be reached because only %d broker(s) are registered.", rf, len(brokers))
	}
	rl := newRackList(sp.Rand, brokers, unfenced)
	out := make([][]int32, 0, count)
	for p := 0; p < count; p++ {
		out = append(out, rl.place(rf))
	}
	return out, nil
}

// brokerList is one rack's unfenced or fenced brokers (BrokerList): next
// hands them out in a rotation that starts one broker further on in each
// epoch (each partition), and -1 once all were handed out in this one.
type brokerList struct {
	ids                  []int32
	index, offset, epoch int
}

func (l *brokerList) initialize(r *sim.Rand) {
	if len(l.ids) > 0 {
		slices.Sort(l.ids)
		l.offset = r.Intn(len(l.ids))
	}
}

func (l *brokerList) shuffle(r *sim.Rand) {
	r.Shuffle(len(l.ids), func(i, j int) { l.ids[i], l.ids[j] = l.ids[j], l.ids[i] })
}

func (l *brokerList) next(epoch int) int32 {
	if len(l.ids) == 0 {
		return -1
	}
	if l.epoch != epoch {
		l.epoch, l.index = epoch, 0
		l.offset = (l.offset + 1) % len(l.ids)
	}
	if l.index >= len(l.ids) {
		return -1
	}
	id := l.ids[(l.index+l.offset)%len(l.ids)]
	l.index++
	return id
}

// rack is one rack's brokers (Rack): an unfenced broker when one is left,
// else a fenced one.
type rack struct{ unfenced, fenced brokerList }

func (k *rack) next(epoch int) int32 {
	if id := k.unfenced.next(epoch); id >= 0 {
		return id
	}
	return k.fenced.next(epoch)
}

// rackList is every rack in name order (RackList), with the rack the next
// partition's leader comes from (offset) and the partitions placed since
// the last reshuffle (epoch).
type rackList struct {
	r             *sim.Rand
	names         []string
	racks         map[string]*rack
	unfenced      int
	epoch, offset int
}

func newRackList(r *sim.Rand, brokers []Broker, unfenced int) *rackList {
	rl := &rackList{r: r, racks: map[string]*rack{}, unfenced: unfenced}
	for _, b := range brokers {
		k := rl.racks[b.Rack]
		if k == nil {
			k = &rack{}
			rl.racks[b.Rack] = k
			rl.names = append(rl.names, b.Rack)
		}
		if b.Fenced {
			k.fenced.ids = append(k.fenced.ids, b.ID)
		} else {
			k.unfenced.ids = append(k.unfenced.ids, b.ID)
		}
	}
	slices.Sort(rl.names) // no rack ("") first, as Optional.empty sorts
	for _, n := range rl.names {
		rl.racks[n].unfenced.initialize(r)
		rl.racks[n].fenced.initialize(r)
	}
	if len(rl.names) > 1 {
		rl.offset = r.Intn(len(rl.names))
	}
	return rl
}

func (rl *rackList) shuffle() {
	rl.r.Shuffle(len(rl.names), func(i, j int) { rl.names[i], rl.names[j] = rl.names[j], rl.names[i] })
	for _, n := range rl.names {
		rl.racks[n].unfenced.shuffle(rl.r)
		rl.racks[n].fenced.shuffle(rl.r)
	}
}

// place is one partition's replicas: the leader from the first rack, from
// offset on, with an unfenced broker left; then a broker from each rack
// after offset in turn, skipping the leader's rack once, round and round
// until rf are chosen.
func (rl *rackList) place(rf int) []int32 {
	if rl.epoch == rl.unfenced && rl.unfenced > 1 {
		rl.shuffle()
		rl.epoch = 0
	}
	if rl.offset == len(rl.names) {
		rl.offset = 0
	}
	replicas := make([]int32, 0, rf)
	first := rl.offset
	for {
		if id := rl.racks[rl.names[first]].unfenced.next(rl.epoch); id >= 0 {
			replicas = append(replicas, id)
			break
		}
		first = (first + 1) % len(rl.names)
	}
	at := rl.offset
	for len(replicas) < rf {
		id := int32(-1)
		for id < 0 {
			if at == first {
				first = -1
			} else {
				id = rl.racks[rl.names[at]].next(rl.epoch)
			}
			at = (at + 1) % len(rl.names)
		}
		replicas = append(replicas, id)
	}
	rl.epoch++
	rl.offset++
	return replicas
}
