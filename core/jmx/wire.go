package jmx

import "fmt"

// Port is where a simulated Kafka process listens for JMX: every node is
// started as with JMX_PORT=9999 (kafka-run-class.sh then passes
// -Dcom.sun.management.jmxremote.port=9999), the port JmxTool's default
// URL names.
const Port = 9999

// Op is what a Query asks.
type Op uint8

const (
	// Connect looks the server up (RMI's registry lookup): the answer
	// names the server incarnation.
	Connect Op = iota + 1
	// QueryNames is queryNames for each of Queries, with every matched
	// bean's attributes (getMBeanInfo and getAttributes).
	QueryNames
	// GetAttributes reads the beans Names names, exactly.
	GetAttributes
)

// Query is a JMX client's call on a server it connected to (Server; 0
// for Connect).
type Query struct {
	Op      Op
	Server  uint64
	Queries []ObjectName // QueryNames; nil: every bean
	Names   []ObjectName // GetAttributes
}

func (*Query) Kind() string { return "JMX" }

func (q *Query) Summary() string {
	switch q.Op {
	case Connect:
		return "JMX connect"
	case QueryNames:
		return "JMX queryNames"
	}
	return fmt.Sprintf("JMX getAttributes (%d MBeans)", len(q.Names))
}

// Answer is the process's answer: the server incarnation, the beans read,
// or the exception the call threw.
type Answer struct {
	Server uint64
	Beans  []MBean
	// Exception and Message are the Java exception's class and message.
	Exception, Message string
}

func (*Answer) Kind() string { return "JMXResponse" }

func (a *Answer) Summary() string {
	if a.Exception != "" {
		return "JMX " + a.Exception
	}
	return fmt.Sprintf("JMX answer (%d MBeans)", len(a.Beans))
}

// Serve answers q from the process's registry, whose incarnation is
// server (never 0).
func Serve(q *Query, server uint64, reg Registry) *Answer {
	switch {
	case q.Op == Connect:
		return &Answer{Server: server}
	case q.Server != server:
		// The client's stub names an object of a server that is gone.
		return &Answer{Exception: "java.rmi.NoSuchObjectException", Message: "no such object in table"}
	case q.Op == QueryNames:
		return &Answer{Server: server, Beans: Find(reg.MBeans(), q.Queries)}
	}
	beans := reg.MBeans()
	out := make([]MBean, 0, len(q.Names))
	for _, n := range q.Names {
		i := indexOf(beans, n)
		if i < 0 {
			return &Answer{Exception: "javax.management.InstanceNotFoundException", Message: n.String()}
		}
		out = append(out, beans[i])
	}
	return &Answer{Server: server, Beans: out}
}

func indexOf(beans []MBean, n ObjectName) int {
	for i, b := range beans {
		if b.Name.String() == n.String() {
			return i
		}
	}
	return -1
}
