package sim

import "strings"

// Addr is a network address, "host:port". A host is one process (a Kafka
// node, or a client tool); the port picks the listener inside it, as in
// Kafka's 9092 (broker) and 9093 (controller).
type Addr string

// Host returns the host part of the address.
func (a Addr) Host() string {
	if i := strings.LastIndexByte(string(a), ':'); i >= 0 {
		return string(a[:i])
	}
	return string(a)
}

// Message is anything sent over the network. Messages are immutable once
// sent: the receiver and the trace may both hold them.
type Message interface {
	// Kind names the message in the trace, e.g. "Fetch" or "FetchResponse".
	Kind() string
}

// Summarizer is implemented by messages that can describe themselves in one
// line for the trace and the UI's event feed.
type Summarizer interface {
	Summary() string
}

// Envelope is one message in flight or delivered.
type Envelope struct {
	ID        uint64 // the sequence number it was sent with; unique per run
	From, To  Addr
	Msg       Message
	SentAt    Time
	DeliverAt Time
	// Dropped: a network cut took it (the sender's TCP would retransmit
	// it; Stream does), or a Stream superseded it.
	Dropped bool
	// stream is the Stream it was sent on (nil: a bare message), until
	// it arrives or is superseded; delivered says it reached a process.
	stream    *Stream
	delivered bool
}

// Disconnected is what a sender receives when its message reached a host
// whose process is not running: the operating system there answered with a
// TCP reset. (A host that is powered off or cut off answers nothing; the
// sender only learns from its own timeouts.)
type Disconnected struct {
	Peer    Addr    // where the message was going
	Request Message // the message that was refused
}

// Kind implements Message.
func (*Disconnected) Kind() string { return "Disconnected" }

// Closed is what a peer receives when the other end closed the connection
// its messages came from (a TCP FIN): a client gave up on a request that
// timed out. The peer forgets the connection; an answer still being
// prepared for it is never sent.
type Closed struct{}

// Kind implements Message.
func (*Closed) Kind() string { return "Closed" }
