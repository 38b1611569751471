package kafkazk

import (
	"fmt"
	"kafkascope/core/scalacoll"
	"regexp"
	"strconv"
	"strings"

	"kafkascope/core/jsonvalue"
)

// Endpoint is one advertised listener of a broker.
type Endpoint struct {
	Listener         string // the listener name, e.g. PLAINTEXT or INTERNAL
	Host             string // "" is Kafka's null host
	Port             int32
	SecurityProtocol string // PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL
}

// BrokerInfo is a broker's registration, the data of /brokers/ids/<id>.
type BrokerInfo struct {
	ID        int32
	Endpoints []Endpoint
	Rack      string // "" for none
	JmxPort   int32  // -1 unless JMX is on
	Timestamp int64  // epoch ms, taken when the registration is encoded
}

// BrokerInfoVersion is the registration version Kafka 2.8 writes: 5 for
// inter.broker.protocol.version 2.7-IV0 and later (BrokerInfo.apply).
const BrokerInfoVersion = 5

// connectionString is EndPoint.connectionString: LISTENER://host:port,
// an IPv6 host in brackets (Utils.formatAddress), a null host as ":port".
func (e Endpoint) connectionString() string {
	port := strconv.Itoa(int(e.Port))
	switch {
	case e.Host == "":
		return e.Listener + "://:" + port
	case strings.Contains(e.Host, ":"):
		return e.Listener + "://[" + e.Host + "]:" + port
	}
	return e.Listener + "://" + e.Host + ":" + port
}

// EncodeBrokerInfo is BrokerIdZNode.encode at version 5. Kafka builds a
// collection.mutable.Map of six entries (version, host, port, endpoints,
// jmx_port, timestamp), then adds rack (when set),
// listener_security_protocol_map and features, so the keys come out in
// hash order. host and port are the first PLAINTEXT endpoint's, or null
// and -1 without one; listener_security_protocol_map is an immutable
// .toMap of the endpoints; features is {} (a 2.8 broker supports none).
func EncodeBrokerInfo(b BrokerInfo) []byte {
	host, port := jsonNull, jsonInt(-1)
	for _, e := range b.Endpoints {
		if e.SecurityProtocol == "PLAINTEXT" {
			if e.Host != "" {
				host = jsonString(e.Host)
			}
			port = jsonInt(int64(e.Port))
			break
		}
	}
	endpoints := make([][]byte, len(b.Endpoints))
	for i, e := range b.Endpoints {
		endpoints[i] = jsonString(e.connectionString())
	}
	members := []member{
		{"version", jsonInt(BrokerInfoVersion)},
		{"host", host},
		{"port", port},
		{"endpoints", jsonArray(endpoints)},
		{"jmx_port", jsonInt(int64(b.JmxPort))},
		{"timestamp", jsonString(strconv.FormatInt(b.Timestamp, 10))},
	}
	if b.Rack != "" {
		members = append(members, member{"rack", jsonString(b.Rack)})
	}
	members = append(members,
		member{"listener_security_protocol_map", listenerSecurityProtocolMap(b.Endpoints)},
		member{"features", []byte("{}")})
	keys := make([]string, len(members))
	for i, m := range members {
		keys[i] = m.key
	}
	return jsonObjectIn(scalacoll.MutableStringOrder(keys, 6), members)
}

// listenerSecurityProtocolMap is advertisedEndpoints.map(listener ->
// protocol).toMap: an immutable Map, where a repeated listener keeps its
// first place and takes the last value.
func listenerSecurityProtocolMap(endpoints []Endpoint) []byte {
	var names []string
	protocol := map[string]string{}
	for _, e := range endpoints {
		if _, ok := protocol[e.Listener]; !ok {
			names = append(names, e.Listener)
		}
		protocol[e.Listener] = e.SecurityProtocol
	}
	members := make([]member, 0, len(names))
	for _, n := range scalacoll.ImmutableStringOrder(names) {
		members = append(members, member{n, jsonString(protocol[n])})
	}
	return jsonObject(members)
}

// endpointRe is EndPoint.uriParseExp, which Scala matches against the
// whole string.
var endpointRe = regexp.MustCompile(`^(.*)://\[?([0-9a-zA-Z\-%._:]*)\]?:(-?[0-9]+)$`)

// securityProtocols are SecurityProtocol's names (SecurityProtocol.forName
// upper-cases its argument and takes only these).
var securityProtocols = []string{"PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"}

// DecodeBrokerInfo is BrokerIdZNode.decode for the broker id: version and
// jmx_port are required; version 1 has only host and port (a PLAINTEXT
// endpoint); later versions list endpoints, each mapped to its protocol
// by listener_security_protocol_map or, without that map, by taking the
// listener name as the protocol name. Features are not read (2.8 brokers
// register none). Timestamp, which Kafka does not read back, is returned
// when it is a decimal string.
func DecodeBrokerInfo(id int32, data []byte) (BrokerInfo, error) {
	obj, err := parseObject(data)
	if err != nil {
		return BrokerInfo{}, err
	}
	version, err := intField(obj, "version")
	if err != nil {
		return BrokerInfo{}, err
	}
	jmx, err := intField(obj, "jmx_port")
	if err != nil {
		return BrokerInfo{}, err
	}
	b := BrokerInfo{ID: id, JmxPort: jmx}
	switch {
	case version < 1:
		return BrokerInfo{}, fmt.Errorf("kafkazk: unsupported version of broker registration: %d", version)
	case version == 1:
		host, err := stringField(obj, "host")
		if err != nil {
			return BrokerInfo{}, err
		}
		port, err := intField(obj, "port")
		if err != nil {
			return BrokerInfo{}, err
		}
		b.Endpoints = []Endpoint{{Listener: "PLAINTEXT", Host: host, Port: port, SecurityProtocol: "PLAINTEXT"}}
	default:
		if b.Endpoints, err = decodeEndpoints(obj); err != nil {
			return BrokerInfo{}, err
		}
	}
	if v, ok := obj.Field("rack"); ok && v.Kind != jsonvalue.Null {
		if b.Rack, err = asString(v, `"rack"`); err != nil {
			return BrokerInfo{}, err
		}
	}
	if v, ok := obj.Field("timestamp"); ok && v.Kind == jsonvalue.String {
		if ms, err := strconv.ParseInt(v.Str, 10, 64); err == nil {
			b.Timestamp = ms
		}
	}
	return b, nil
}

// decodeEndpoints reads "endpoints" with "listener_security_protocol_map"
// (EndPoint.createEndPoint for each).
func decodeEndpoints(obj *jsonvalue.Value) ([]Endpoint, error) {
	protocolOf := map[string]string{}
	if v, ok := obj.Field("listener_security_protocol_map"); ok {
		if v.Kind != jsonvalue.Object {
			return nil, fmt.Errorf("kafkazk: listener_security_protocol_map is not an object")
		}
		for _, name := range v.Keys() {
			p, _ := v.Field(name)
			s, err := asString(p, "a security protocol")
			if err != nil {
				return nil, err
			}
			if protocolOf[name], err = securityProtocolForName(s); err != nil {
				return nil, err
			}
		}
	} else {
		for _, p := range securityProtocols {
			protocolOf[p] = p
		}
	}
	v, err := field(obj, "endpoints")
	if err != nil {
		return nil, err
	}
	if v.Kind != jsonvalue.Array {
		return nil, fmt.Errorf("kafkazk: endpoints is not an array")
	}
	out := make([]Endpoint, 0, len(v.Items))
	for _, it := range v.Items {
		s, err := asString(it, "an endpoint")
		if err != nil {
			return nil, err
		}
		m := endpointRe.FindStringSubmatch(s)
		if m == nil {
			return nil, fmt.Errorf("kafkazk: unable to parse %s to a broker endpoint", s)
		}
		port, err := strconv.ParseInt(m[3], 10, 32)
		if err != nil {
			return nil, fmt.Errorf("kafkazk: unable to parse %s to a broker endpoint", s)
		}
		// ListenerName.normalised upper-cases the endpoint's listener;
		// the map's keys are taken as written.
		listener := strings.ToUpper(m[1])
		protocol, ok := protocolOf[listener]
		if !ok {
			return nil, fmt.Errorf("kafkazk: no security protocol defined for listener %s", listener)
		}
		out = append(out, Endpoint{Listener: listener, Host: m[2], Port: int32(port), SecurityProtocol: protocol})
	}
	return out, nil
}

// securityProtocolForName is SecurityProtocol.forName.
func securityProtocolForName(name string) (string, error) {
	up := strings.ToUpper(name)
	for _, p := range securityProtocols {
		if p == up {
			return p, nil
		}
	}
	return "", fmt.Errorf("kafkazk: no enum constant SecurityProtocol.%s", up)
}
