package view

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/cluster"
	"kafkascope/core/dashboard"
)

// A claim is one fact a scenario's narration states about the cluster, in
// a small fixed language, checked against the Snapshot the page draws (a
// transcript's "## state: " lines). It pins what the prose says to what the
// picture shows, so narration and picture cannot drift apart unnoticed:
//
//	controller 2            node 2 is the active controller (none: no leader)
//	controller 2 epoch 3    ... in quorum epoch 3
//	leader orders-0 3       the controller's metadata names broker 3 (none)
//	isr orders-0 1,2        the partition's ISR, in any order (empty: none)
//	elr orders-0 3          its eligible leader replicas (KIP-966), likewise
//	epoch orders-0 1        the partition's leader epoch
//	hw orders-0 2           the high watermark (the leader's: what is committed)
//	hw orders-0@2 1         broker 2's replica's own high watermark
//	leo orders-0@2 1        broker 2's replica's log end offset
//	start orders-0@2 4      broker 2's replica's log start offset
//	down orders-0           no running broker serves as its leader (up: one does)
//	broker 3 killed         a node's process: running, killed, power-off, stopped
//	broker 3 fenced         ... or as the controller sees it: fenced, unfenced
//	group g state Stable    a consumer group's state at its coordinator
//	group g coordinator 2   the broker coordinating it
//	group g generation 3    its generation
//	group g members a,b     its members' client ids, in any order (empty: none)
//	group g leader a        the client id of its group leader (none)
//	owner g orders-0 a      the client id the group assigned a partition to (none)
//	committed g orders-0 5  the group's committed offset for it (none)
//	metric urp 3            a dashboard metric's latest sample (core/dashboard's names:
//	                        urp, offline, under-min-isr, active-controllers,
//	                        lag, failed-produce, ...); >0 for any positive value
//
// Several claims may share a line, separated by ";".

// CheckClaims checks a line of claims against what the page would draw of
// c now (console.ClaimChecker).
func CheckClaims(c *cluster.Cluster, line string) []error {
	if c == nil {
		return []error{fmt.Errorf("%q: there is no cluster yet", line)}
	}
	return Take(c).CheckClaims(line)
}

// checkMetric checks "metric NAME VALUE" against the dashboard's latest
// sample, what the Metrics tab shows now (VALUE >0: any positive value).
func (s *Snapshot) checkMetric(name, want string) error {
	m, ok := dashboard.ByName(name)
	if !ok {
		return fmt.Errorf("there is no dashboard metric %q", name)
	}
	if s.Metrics == nil {
		return fmt.Errorf("the cluster keeps no dashboard")
	}
	v := s.Metrics[m.ID]
	if !v.Ok {
		return fmt.Errorf("%s has no value now", name)
	}
	if want == ">0" {
		if v.V > 0 {
			return nil
		}
		return fmt.Errorf("%s is %v", name, v.V)
	}
	x, err := strconv.ParseFloat(want, 64)
	if err != nil {
		return fmt.Errorf("%q is not a value", want)
	}
	if v.V != x {
		return fmt.Errorf("%s is %v", name, v.V)
	}
	return nil
}

// CheckClaims checks every claim of a line and returns one error per claim
// that does not hold (or cannot be read).
func (s *Snapshot) CheckClaims(line string) []error {
	var errs []error
	for _, c := range strings.Split(line, ";") {
		if c = strings.TrimSpace(c); c == "" {
			continue
		}
		if err := s.checkClaim(c); err != nil {
			errs = append(errs, fmt.Errorf("%q: %w", c, err))
		}
	}
	return errs
}

func (s *Snapshot) checkClaim(claim string) error {
	f := strings.Fields(claim)
	switch {
	case len(f) == 2 && f[0] == "controller":
		return s.checkController(f[1], "")
	case len(f) == 4 && f[0] == "controller" && f[2] == "epoch":
		return s.checkController(f[1], f[3])
	case len(f) == 3 && f[0] == "broker":
		return s.checkBroker(f[1], f[2])
	case len(f) == 3 && slices.Contains([]string{"leader", "isr", "elr", "epoch", "hw", "leo", "start"}, f[0]):
		return s.checkPartition(f[0], f[1], f[2])
	case len(f) == 2 && (f[0] == "isr" || f[0] == "elr" || f[0] == "down" || f[0] == "up"): // isr, elr: empty
		return s.checkPartition(f[0], f[1], "")
	case len(f) >= 3 && f[0] == "group" && (len(f) == 4 || len(f) == 3 && f[2] == "members"):
		return s.checkGroup(f[1], f[2], strings.Join(f[3:], " "))
	case len(f) == 4 && (f[0] == "owner" || f[0] == "committed"):
		return s.checkGroupPartition(f[0], f[1], f[2], f[3])
	case len(f) == 3 && f[0] == "metric":
		return s.checkMetric(f[1], f[2])
	}
	return fmt.Errorf("not a claim (see core/view/claims.go for the forms)")
}

func (s *Snapshot) checkController(id, epoch string) error {
	got := "none"
	if s.Controller.NodeID >= 0 {
		got = strconv.Itoa(int(s.Controller.NodeID))
	}
	if got != id {
		return fmt.Errorf("the active controller is %s", got)
	}
	if epoch != "" && strconv.Itoa(int(s.Controller.Epoch)) != epoch {
		return fmt.Errorf("the controller's epoch is %d", s.Controller.Epoch)
	}
	return nil
}

func (s *Snapshot) checkBroker(id, want string) error {
	n, err := strconv.ParseInt(id, 10, 32)
	if err != nil {
		return fmt.Errorf("%q is not a broker id", id)
	}
	i := slices.IndexFunc(s.Nodes, func(nd Node) bool { return nd.ID == int32(n) })
	if i < 0 {
		return fmt.Errorf("there is no node %d", n)
	}
	nd := s.Nodes[i]
	switch want {
	case "fenced", "unfenced":
		if got := map[bool]string{true: "fenced", false: "unfenced"}[nd.Fenced]; got != want {
			return fmt.Errorf("broker %d is %s", n, got)
		}
	case "running", "killed", "power-off", "stopped":
		if nd.State != want {
			return fmt.Errorf("node %d is %s", n, nd.State)
		}
	default:
		return fmt.Errorf("%q is not a node state", want)
	}
	return nil
}

// checkPartition checks what a partition's claim says; its subject is
// "topic-N", or "topic-N@B" for broker B's replica (hw, leo).
func (s *Snapshot) checkPartition(what, subject, want string) error {
	name, at, onReplica := strings.Cut(subject, "@")
	p := s.partition(name)
	if p == nil {
		return fmt.Errorf("there is no partition %s", name)
	}
	switch {
	case (what == "leo" || what == "start") && !onReplica:
		return fmt.Errorf("%s is said of a replica: topic-N@broker", what)
	case onReplica && what != "leo" && what != "hw" && what != "start":
		return fmt.Errorf("%s is said of a partition, not of a replica", what)
	}
	var got string
	switch what {
	case "leader":
		got = "none"
		if p.Leader >= 0 {
			got = strconv.Itoa(int(p.Leader))
		}
	case "isr":
		got = idList(p.ISR)
		want = idList(parseIDs(want))
	case "elr":
		got = idList(p.ELR)
		want = idList(parseIDs(want))
	case "epoch":
		got = strconv.Itoa(int(p.LeaderEpoch))
	case "down", "up":
		if got = "up"; p.Down {
			got = "down"
		}
		want = what
	case "hw", "leo", "start":
		if !onReplica {
			got = strconv.FormatInt(p.CommittedHW, 10)
			break
		}
		b, err := strconv.ParseInt(at, 10, 32)
		r := replicaOf(p, int32(b))
		if err != nil || r == nil {
			return fmt.Errorf("broker %q holds no replica of %s", at, name)
		}
		got = strconv.FormatInt(map[string]int64{"leo": r.LEO, "hw": r.HW, "start": r.LogStart}[what], 10)
	}
	if got != want {
		return fmt.Errorf("it is %s", got)
	}
	return nil
}

func (s *Snapshot) checkGroup(id, what, want string) error {
	g := s.group(id)
	if g == nil {
		return fmt.Errorf("no running coordinator holds group %s", id)
	}
	var got string
	switch what {
	case "state":
		got = g.State
	case "coordinator":
		got = strconv.Itoa(int(g.Coordinator))
	case "generation":
		got = strconv.Itoa(int(g.Generation))
	case "members":
		ids := make([]string, len(g.Members))
		for i, m := range g.Members {
			ids[i] = m.ClientID
		}
		got, want = nameSet(ids), nameSet(strings.Split(want, ","))
	case "leader":
		got = "none"
		for _, m := range g.Members {
			if m.Leader {
				got = m.ClientID
			}
		}
	default:
		return fmt.Errorf("%q is not said of a group", what)
	}
	if got != want {
		return fmt.Errorf("it is %s", got)
	}
	return nil
}

// checkGroupPartition checks which member owns a partition, or the
// group's committed offset for it.
func (s *Snapshot) checkGroupPartition(what, id, name, want string) error {
	g := s.group(id)
	if g == nil {
		return fmt.Errorf("no running coordinator holds group %s", id)
	}
	got := "none"
	for _, gp := range g.Partitions {
		if gp.Topic+"-"+strconv.Itoa(int(gp.Partition)) != name {
			continue
		}
		switch {
		case what == "owner" && gp.ClientID != "":
			got = gp.ClientID
		case what == "committed" && gp.Committed >= 0:
			got = strconv.FormatInt(gp.Committed, 10)
		}
	}
	if got != want {
		return fmt.Errorf("it is %s", got)
	}
	return nil
}

func (s *Snapshot) group(id string) *Group {
	for i := range s.Groups {
		if s.Groups[i].GroupID == id {
			return &s.Groups[i]
		}
	}
	return nil
}

// nameSet is a set of names in order, as "a,b".
func nameSet(names []string) string {
	var out []string
	for _, n := range names {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return strings.Join(out, ",")
}

func (s *Snapshot) partition(name string) *Partition {
	cut := strings.LastIndexByte(name, '-')
	if cut <= 0 {
		return nil
	}
	for ti := range s.Topics {
		t := &s.Topics[ti]
		if t.Name != name[:cut] {
			continue
		}
		for pi := range t.Partitions {
			if strconv.Itoa(int(t.Partitions[pi].Index)) == name[cut+1:] {
				return &t.Partitions[pi]
			}
		}
	}
	return nil
}

func replicaOf(p *Partition, broker int32) *Replica {
	for i := range p.Replicas {
		if p.Replicas[i].Broker == broker && p.Replicas[i].Present {
			return &p.Replicas[i]
		}
	}
	return nil
}

// parseIDs reads "1,2,3" (an unreadable id stays in as -1, so it fails
// the comparison rather than vanishing).
func parseIDs(s string) []int32 {
	var out []int32
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.ParseInt(f, 10, 32)
		if err != nil {
			n = -1
		}
		out = append(out, int32(n))
	}
	return out
}

// idList is a set of ids in ascending order, as "1,2,3".
func idList(ids []int32) string {
	sorted := slices.Sorted(slices.Values(ids))
	parts := make([]string, len(sorted))
	for i, id := range sorted {
		parts[i] = strconv.Itoa(int(id))
	}
	return strings.Join(parts, ",")
}
