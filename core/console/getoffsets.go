package console

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/javacli"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

func getOffsetsSpecs() []*javacli.OptionSpec { return withCommon(getOffsetsSpecList) }

// getOffsetsSpecsFor are the options in release v: --time's description
// lists the offset specs GetOffsetShell knows (offsetTimes).
func getOffsetsSpecsFor(v release.Version) []*javacli.OptionSpec {
	specs := getOffsetsSpecs()
	if names := offsetTimes(v); names != offsetTimes(release.Default) {
		for i, s := range specs {
			if s.Name == "time" {
				c := *s
				c.ArgDesc = "<timestamp> / " + names
				specs[i] = &c
			}
		}
	}
	return specs
}

// offsetTimes is the list of named offset specs GetOffsetShell prints in
// --time's help and its "Malformed time argument" error: Kafka 4.0 added
// earliest-local and latest-tiered (KIP-1005), 4.3 earliest-pending-upload
// (GetOffsetShell.java).
func offsetTimes(v release.Version) string {
	names := "-1 or latest / -2 or earliest / -3 or max-timestamp"
	if v.AtLeast(4, 0) {
		names += " / -4 or earliest-local / -5 or latest-tiered"
	}
	if v.AtLeast(4, 3) {
		names += " / -6 or earliest-pending-upload"
	}
	return names
}

var getOffsetsSpecList = []javacli.OptionSpec{
	{Name: "bootstrap-server", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "HOST1:PORT1,...,HOST3:PORT3", Desc: "The Kafka server to connect to (optional in kafkascope: every broker)."},
	{Name: "topic-partitions", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "topic1:1,topic2:0-3,topic3,topic4:5-,topic5:-3", Desc: "Topic-partition rules: a topic regex, optionally with :partition or :range."},
	{Name: "topic", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "topic", Desc: "Topics to query, as a regular expression (default: all)."},
	{Name: "partitions", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "partition ids", Desc: "Comma-separated partition ids (default: all)."},
	{Name: "time", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "<timestamp> / -1 or latest / -2 or earliest / -3 or max-timestamp", Desc: "Which offset to get.", Default: "latest"},
	{Name: "command-config", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "config file", Desc: "Admin client properties file (not read by the simulator)."},
	{Name: "exclude-internal-topics", Desc: "Leave internal topics out."},
}

// partRule is one --topic-partitions rule.
type partRule struct {
	topic    *regexp.Regexp
	from, to int64 // to exclusive; -1 = unbounded
}

func (r partRule) matches(topic string, p int32) bool {
	return r.topic.MatchString(topic) && int64(p) >= r.from && (r.to < 0 || int64(p) < r.to)
}

var topicPartitionsRe = regexp.MustCompile(`^([^:,]*)(?::(?:([0-9]*)|(?:([0-9]*)-([0-9]*))))?$`)

// getOffsetsTool is kafka-get-offsets.sh.
func getOffsetsTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	rel := t.rel()
	specs := getOffsetsSpecsFor(rel)
	fail := func(msg string) func(string) sim.Process {
		t.println("Error occurred: " + msg)
		t.finish(1)
		return nil
	}
	if len(args) == 0 {
		t.usage("An interactive shell for getting topic-partition offsets.", specs)
		return nil
	}
	p, err := javacli.ParseOptions(specs, args)
	if err != nil {
		return fail(err.Error())
	}
	if t.helpOrVersion(p, args, "An interactive shell for getting topic-partition offsets.", specs) {
		return nil
	}
	if p.Has("bootstrap-server") && !validBootstrapSyntax(p.Value("bootstrap-server")) {
		t.usage("Please provide valid host:port like host1:9091,host2:9092\n", specs)
		return nil
	}
	if p.Has("topic-partitions") && (p.Has("topic") || p.Has("partitions")) {
		return fail("--topic-partitions cannot be used with --topic or --partitions")
	}
	ts, ok := parseOffsetSpec(p.Value("time"))
	if !ok {
		if tieredSpec(p.Value("time"), rel) {
			t.println("kafkascope: --time " + p.Value("time") + " asks about tiered storage (KIP-405), which is not simulated")
			t.finish(1)
			return nil
		}
		return fail(fmt.Sprintf("Malformed time argument %s. Please use %s, or a specified long format timestamp", p.Value("time"), offsetTimes(rel)))
	}
	var rules []partRule
	if p.Has("topic-partitions") {
		for _, spec := range strings.Split(p.Value("topic-partitions"), ",") {
			m := topicPartitionsRe.FindStringSubmatch(spec)
			if m == nil {
				return fail("org.apache.kafka.tools.TerseException: Invalid rule specification: " + spec)
			}
			re, err := topicFilter(m[1])
			if m[1] == "" {
				re, err = regexp.Compile(".*")
			}
			if err != nil {
				return fail(err.Error())
			}
			r := partRule{topic: re, from: 0, to: -1}
			num := func(s string) (int64, bool) {
				n, err := strconv.ParseInt(s, 10, 32)
				return n, err == nil
			}
			switch {
			case m[2] != "":
				n, ok := num(m[2])
				if !ok {
					return fail(fmt.Sprintf("For input string: \"%s\"", m[2]))
				}
				r.from, r.to = n, n+1
			case m[3] != "" || m[4] != "":
				if m[3] != "" {
					n, ok := num(m[3])
					if !ok {
						return fail(fmt.Sprintf("For input string: \"%s\"", m[3]))
					}
					r.from = n
				}
				if m[4] != "" {
					n, ok := num(m[4])
					if !ok {
						return fail(fmt.Sprintf("For input string: \"%s\"", m[4]))
					}
					r.to = n
				}
			}
			rules = append(rules, r)
		}
	} else {
		re := regexp.MustCompile(".*")
		if p.Has("topic") {
			var err error
			if re, err = topicFilter(p.Value("topic")); err != nil {
				return fail(err.Error())
			}
		}
		if parts := p.Value("partitions"); parts != "" {
			for _, s := range strings.Split(parts, ",") {
				n, err := strconv.ParseInt(s, 10, 32)
				if err != nil {
					return fail("--partitions expects a comma separated list of numeric partition ids, but received: " + parts)
				}
				rules = append(rules, partRule{topic: re, from: n, to: n + 1})
			}
		} else {
			rules = append(rules, partRule{topic: re, from: 0, to: -1})
		}
	}
	bootstrap, berr := t.s.resolveBootstrap(p.Value("bootstrap-server"))
	if berr != nil {
		return fail("Failed to create new KafkaAdminClient")
	}
	g := &getOffsets{t: t, rules: rules, ts: ts, excludeInternal: p.Has("exclude-internal-topics")}
	return func(host string) sim.Process {
		cfg := client.DefaultAdminConfig()
		cfg.ClientID = "GetOffsetShell"
		g.admin = client.NewAdmin(sim.Addr(host+":50000"), bootstrap, cfg)
		return &client.Process{Handlers: []client.Handler{g.admin}, OnStart: g.run}
	}
}

func parseOffsetSpec(s string) (int64, bool) {
	switch s {
	case "latest":
		return protocol.LatestTimestamp, true
	case "earliest":
		return protocol.EarliestTimestamp, true
	case "max-timestamp":
		return protocol.MaxTimestampTimestamp, true
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < -3 {
		return 0, false
	}
	return n, true
}

// tieredSpec reports whether s names one of the tiered-storage offset specs
// release v knows (offsetTimes).
func tieredSpec(s string, v release.Version) bool {
	switch s {
	case "earliest-local", "latest-tiered", "-4", "-5":
		return v.AtLeast(4, 0)
	case "earliest-pending-upload", "-6":
		return v.AtLeast(4, 3)
	}
	return false
}

type getOffsets struct {
	t               *toolRun
	admin           *client.Admin
	rules           []partRule
	ts              int64
	excludeInternal bool
}

type offsetLine struct {
	key  string // "topic-partition", the sort key
	text string
}

func (g *getOffsets) run(env *sim.Env) {
	g.admin.Call(env, "listTopics", func() protocol.Request { return &protocol.MetadataRequest{} }, func(env *sim.Env, resp protocol.Response, err *client.Error) {
		if err != nil {
			g.t.println("Error occurred: " + err.Error())
			g.t.finish(1)
			return
		}
		md := resp.(*protocol.MetadataResponse)
		addrs := map[int32]sim.Addr{}
		for _, b := range md.Brokers {
			addrs[b.NodeID] = sim.Addr(fmt.Sprintf("%s:%d", b.Host, b.Port))
		}
		type target struct {
			topic string
			part  int32
		}
		byLeader := map[int32][]target{}
		var leaders []int32
		found := 0
		for _, t := range md.Topics {
			if t.ErrorCode != protocol.NONE || (g.excludeInternal && metadata.IsInternalTopic(t.Name)) {
				continue
			}
			for _, mp := range t.Partitions {
				match := false
				for _, r := range g.rules {
					match = match || r.matches(t.Name, mp.Index)
				}
				if !match {
					continue
				}
				found++
				if _, ok := byLeader[mp.LeaderID]; !ok {
					leaders = append(leaders, mp.LeaderID)
				}
				byLeader[mp.LeaderID] = append(byLeader[mp.LeaderID], target{t.Name, mp.Index})
			}
		}
		if found == 0 {
			g.t.println("Error occurred: Could not match any topic-partitions with the specified filters")
			g.t.finish(1)
			return
		}
		var lines []offsetLine
		pending := len(leaders)
		finish := func() {
			sort.Slice(lines, func(i, j int) bool { return lines[i].key < lines[j].key })
			for _, l := range lines {
				g.t.println(l.text)
			}
			g.t.finish(0)
		}
		for _, leader := range leaders {
			targets := byLeader[leader]
			if _, ok := addrs[leader]; !ok {
				for _, tg := range targets {
					g.t.println(fmt.Sprintf("Skip getting offsets for topic-partition %s-%d due to error: org.apache.kafka.common.errors.LeaderNotAvailableException: There is no leader for this topic-partition as we are in the middle of a leadership election.", tg.topic, tg.part))
				}
				pending--
				continue
			}
			build := func() protocol.Request {
				r := &protocol.ListOffsetsRequest{ReplicaID: -1}
				for _, tg := range targets {
					r.Add(tg.topic, protocol.ListOffsetsPartition{Index: tg.part, CurrentLeaderEpoch: -1, Timestamp: g.ts})
				}
				return r
			}
			g.admin.CallNode(env, "listOffsets", leader, build, func(env *sim.Env, resp protocol.Response, err *client.Error) {
				if err == nil {
					for _, t := range resp.(*protocol.ListOffsetsResponse).Topics {
						for _, pr := range t.Partitions {
							switch {
							case pr.ErrorCode != protocol.NONE:
								g.t.println(fmt.Sprintf("Skip getting offsets for topic-partition %s-%d due to error: %s", t.Name, pr.Index, client.Exception(pr.ErrorCode.Exception(), pr.ErrorCode.Message())))
							case pr.Offset >= 0:
								lines = append(lines, offsetLine{fmt.Sprintf("%s-%d", t.Name, pr.Index), fmt.Sprintf("%s:%d:%d", t.Name, pr.Index, pr.Offset)})
							}
						}
					}
				}
				pending--
				if pending == 0 {
					finish()
				}
			})
		}
		if pending == 0 {
			finish()
		}
	})
}
