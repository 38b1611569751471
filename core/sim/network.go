package sim

import "time"

// DefaultLatency is the one-way delay of a link between two hosts. Messages
// between components of the same host (a broker talking to the controller in
// the same combined-mode process) take no time.
const DefaultLatency = time.Millisecond

type link struct{ from, to string }

// Network holds the state of every link: latency, extra delays and cuts.
// Links are directed, so a one-way cut is a cut of one link. Every link is
// FIFO, like a TCP connection: a message never overtakes an earlier one on
// the same link, even when the delay shrinks.
type Network struct {
	latency time.Duration
	delay   map[string]time.Duration // extra one-way delay on every message to or from a host
	cut     map[link]bool
	// lastDeliver is each link's latest delivery time, behind a pointer
	// so that a send looks its link up once (hashing two host names
	// twice per message was 2% of an idle cluster).
	lastDeliver map[link]*Time
	corrupt     map[string]int // host → how many more record-carrying messages to it arrive damaged
}

func newNetwork() *Network {
	return &Network{
		latency:     DefaultLatency,
		delay:       map[string]time.Duration{},
		cut:         map[link]bool{},
		lastDeliver: map[link]*Time{},
		corrupt:     map[string]int{},
	}
}

// Cut drops every message from host a to host b until healed.
func (n *Network) Cut(a, b string) { n.cut[link{a, b}] = true }

// Heal undoes a cut from a to b.
func (n *Network) Heal(a, b string) { delete(n.cut, link{a, b}) }

// HealAll removes every cut.
func (n *Network) HealAll() { n.cut = map[link]bool{} }

// IsCut reports whether messages from a to b are dropped.
func (n *Network) IsCut(a, b string) bool { return n.cut[link{a, b}] }

// Cuts lists the cut links, sorted, as (from, to) pairs.
func (n *Network) Cuts() [][2]string {
	out := make([][2]string, 0, len(n.cut))
	for l := range n.cut {
		out = append(out, [2]string{l.from, l.to})
	}
	sortPairs(out)
	return out
}

// Corruptible is a message that can arrive damaged: Corrupted returns a
// copy with one bit of its record data flipped, or nil if it carries none.
type Corruptible interface {
	Corrupted() Message
}

// SetCorrupt makes the next n Corruptible messages sent to host arrive
// with a flipped bit (0 cancels). Messages without record data do not
// count.
func (n *Network) SetCorrupt(host string, count int) {
	if count <= 0 {
		delete(n.corrupt, host)
		return
	}
	n.corrupt[host] = count
}

// Corrupt is how many more messages to host will arrive damaged.
func (n *Network) Corrupt(host string) int { return n.corrupt[host] }

// maybeCorrupt damages m if host still has corruption to hand out.
func (n *Network) maybeCorrupt(host string, m Message) Message {
	if n.corrupt[host] == 0 {
		return m
	}
	c, ok := m.(Corruptible)
	if !ok {
		return m
	}
	d := c.Corrupted()
	if d == nil {
		return m
	}
	n.SetCorrupt(host, n.corrupt[host]-1)
	return d
}

// SetDelay adds d to every message to or from host (0 removes it).
func (n *Network) SetDelay(host string, d time.Duration) {
	if d <= 0 {
		delete(n.delay, host)
		return
	}
	n.delay[host] = d
}

// Delay returns the extra delay configured for host.
func (n *Network) Delay(host string) time.Duration { return n.delay[host] }

// Latency is the one-way delay from host a to host b right now.
func (n *Network) Latency(a, b string) time.Duration {
	if a == b {
		return 0
	}
	return n.latency + n.delay[a] + n.delay[b]
}

// deliveryTime returns when a message sent now from a to b arrives, keeping
// the link FIFO, and records it.
func (n *Network) deliveryTime(now Time, a, b string) Time {
	at := now.Add(n.Latency(a, b))
	last := n.lastDeliver[link{a, b}]
	if last == nil {
		last = new(Time)
		n.lastDeliver[link{a, b}] = last
	}
	at = max(at, *last)
	*last = at
	return at
}

// LastDelivery is when the latest message sent from a to b arrives (or
// arrived): a message sent now arrives no earlier (FIFO).
func (n *Network) LastDelivery(a, b string) Time {
	if last := n.lastDeliver[link{a, b}]; last != nil {
		return *last
	}
	return 0
}

func sortPairs(p [][2]string) {
	for i := 1; i < len(p); i++ {
		for j := i; j > 0 && less(p[j], p[j-1]); j-- {
			p[j], p[j-1] = p[j-1], p[j]
		}
	}
}

func less(a, b [2]string) bool {
	if a[0] != b[0] {
		return a[0] < b[0]
	}
	return a[1] < b[1]
}
