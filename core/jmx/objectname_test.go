package jmx

import "testing"

// TestParseObjectNameErrors checks the JDK's messages for malformed names
// (javax.management.ObjectName's parser).
func TestParseObjectNameErrors(t *testing.T) {
	for _, c := range []struct{ in, msg string }{
		{"ReplicaManager", "Key properties cannot be empty"},
		{"kafka.server:", "Key properties cannot be empty"},
		{"type=ReplicaManager", "Domain part must be specified"},
		{"kafka.server:type", "Unterminated key property part"},
		{"kafka.server:=x", "Invalid key (empty)"},
		{"kafka.server:ty*pe=x", "Invalid character '*' in key part of property"},
		{"kafka.server:type=a:b", "Invalid character ':' in value part of property"},
		{"kafka.server:type=a,", "Invalid ending comma"},
		{"kafka.server:type=a,type=b", "key `type' already defined"},
		{"kafka.server:*,*", "Cannot have several '*' characters in pattern property list"},
		{"kafka.server:*x", "Invalid character found after '*': end of name or ',' expected"},
		{`kafka.server:type="a`, "Unterminated quoted value"},
		{`kafka.server:type="a\x"`, `Invalid escape sequence '\x' in quoted value`},
	} {
		_, err := ParseObjectName(c.in)
		if err == nil || err.Error() != c.msg {
			t.Errorf("ParseObjectName(%q) = %v, want %q", c.in, err, c.msg)
		}
	}
}

// TestObjectNameMatches checks queryNames' matching: wildcards in the
// domain and values, exact key sets unless the list ends with '*'.
func TestObjectNameMatches(t *testing.T) {
	name := MustObjectName("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec,topic=orders")
	all := MustObjectName("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec")
	for _, c := range []struct {
		pattern string
		want    bool
	}{
		{"kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec,topic=orders", true},
		{"kafka.server:topic=orders,name=BytesInPerSec,type=BrokerTopicMetrics", true}, // order does not matter
		{"kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec", false},             // fewer keys, no list pattern
		{"kafka.server:type=BrokerTopicMetrics,*", true},
		{"kafka.server:type=BrokerTopicMetrics,name=Bytes*,*", true},
		{"kafka.server:type=BrokerTopicMetrics,name=*Out*,*", false},
		{"kafka.*:type=BrokerTopicMetrics,*", true},
		{"kafka.serve?:*", true},
		{"kafka.controller:*", false},
		{"kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec,topic=o?ders", true},
		{"kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec,partition=0,*", false},
		{"", true}, // *:*
	} {
		p, err := ParseObjectName(c.pattern)
		if err != nil {
			t.Fatalf("%q: %v", c.pattern, err)
		}
		if got := p.Matches(name); got != c.want {
			t.Errorf("%q matches %s: %v, want %v", c.pattern, name, got, c.want)
		}
	}
	if p := MustObjectName("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec"); !p.Matches(all) || p.IsPattern() {
		t.Errorf("an exact name must match itself and not be a pattern")
	}
	if !MustObjectName("kafka.server:type=ReplicaManager,name=Under*").IsPattern() || !MustObjectName("kafka.server:*").IsPattern() || !MustObjectName("k*:type=x").IsPattern() {
		t.Errorf("value, list and domain patterns must be patterns")
	}
}

type beans []MBean

func (b beans) MBeans() []MBean { return b }

// TestServe checks the server side of a connection: a connect names the
// incarnation, a query returns each matched bean once, a read of a bean
// that is gone throws InstanceNotFoundException, and a stub of an earlier
// incarnation is refused.
func TestServe(t *testing.T) {
	reg := beans{Gauge("kafka.server:type=ReplicaManager,name=LeaderCount", 2), Gauge("kafka.server:type=ReplicaManager,name=PartitionCount", 3)}
	if a := Serve(&Query{Op: Connect}, 7, reg); a.Server != 7 || a.Exception != "" {
		t.Fatalf("connect: %+v", a)
	}
	q := []ObjectName{MustObjectName("kafka.server:*"), MustObjectName("kafka.server:type=ReplicaManager,name=LeaderCount")}
	if a := Serve(&Query{Op: QueryNames, Server: 7, Queries: q}, 7, reg); len(a.Beans) != 2 {
		t.Errorf("queryNames: %d beans, want each of the two once", len(a.Beans))
	}
	gone := MustObjectName("kafka.server:type=ReplicaManager,name=Missing")
	if a := Serve(&Query{Op: GetAttributes, Server: 7, Names: []ObjectName{gone}}, 7, reg); a.Exception != "javax.management.InstanceNotFoundException" || a.Message != gone.String() {
		t.Errorf("reading a missing bean: %+v", a)
	}
	if a := Serve(&Query{Op: GetAttributes, Server: 6, Names: q[1:]}, 7, reg); a.Exception != "java.rmi.NoSuchObjectException" {
		t.Errorf("a stale stub: %+v", a)
	}
	if a := Serve(&Query{Op: GetAttributes, Server: 7, Names: q[1:]}, 7, reg); len(a.Beans) != 1 || a.Beans[0].Attrs[0] != (Attribute{"Value", "2"}) {
		t.Errorf("getAttributes: %+v", a)
	}
}
