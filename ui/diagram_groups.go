package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/view"
)

// Consumer groups' cards: the coordinator's view of each group (its state
// and generation, the members and what each was assigned, the committed
// offset and lag of each partition, the last rebalance events), and on the
// coordinating broker's card a badge naming its groups.

// Bounds on a group card's body.
const (
	dgLagRowsShown = 12 // partitions in the offsets table
	dgEventsShown  = 4  // newest rebalance events
	dgMemberIDRune = 30 // member ids are cut to this many runes (the full id is in the tooltip)
)

// dgGroup is one group's card.
type dgGroup struct {
	Key        string
	ID         string
	State      string // Kafka's name: Empty, PreparingRebalance, ...
	StateClass string
	Sub        string // generation, members, coordinator
	Open       bool
	Fold       string
	Info       string // assignor and __consumer_offsets partition
	Empty      string // no members: Kafka's sentence
	Members    []dgMember
	Rows       []dgLagRow
	More       string
	Events     []dgEvent
}

// dgMember is one member: its client id, member id and assignment.
type dgMember struct {
	Client   string
	ID       string
	Tip      string
	Leader   string // "leader" or ""
	Assigned string
	Class    string
	// A consumer-protocol member (KIP-848): its epoch, and its target
	// when it differs from what it holds (partitions to give back or to
	// receive).
	Epoch  string
	Target string
}

// dgLagRow is one partition of the group (kafka-consumer-groups.sh
// --describe's columns).
type dgLagRow struct {
	Part      string
	Committed string
	LogEnd    string
	Lag       string
	Client    string
	Position  string
	Class     string
}

// dgEvent is one rebalance event, newest last. Reason is the rebalance's
// reason as the coordinator gives it (Kafka's English, drawn marked
// lang="en"), cut short, and ReasonTip the whole of it; Tip is a member's
// whole id.
type dgEvent struct {
	At        string
	Text      string
	Reason    string
	ReasonTip string
	Tip       string
}

func dgGroupKey(g view.Group) string { return "group/" + g.GroupID }

// groups lays out the groups' cards (bodies only for open cards) and
// returns, per coordinating broker, the groups it coordinates.
func (l *dgLayout) groups(s *view.Snapshot, t dgTranslator, o dgOptions) {
	l.Groups = l.Groups[:0]
	for _, g := range s.Groups {
		c := dgGroup{Key: dgGroupKey(g), ID: g.GroupID, State: g.State, StateClass: "kd-gstate kd-gs-" + strings.ToLower(g.State)}
		// An Empty group (a console consumer's, once it ended) starts
		// folded: its card is one line until the viewer opens it.
		folded, chosen := o.ClientFolded[c.Key]
		c.Open = !folded
		if !chosen {
			c.Open = g.State != "Empty"
		}
		c.Fold = "▾"
		if !c.Open {
			c.Fold = "▸"
		}
		c.Sub = fmt.Sprintf(t("group.summary"), g.Generation, dgCountOf(t, len(g.Members), "count.member"), g.Coordinator)
		if g.Type == "consumer" {
			c.Sub = fmt.Sprintf(t("group.summary.consumer"), g.GroupEpoch, g.AssignmentEpoch, dgCountOf(t, len(g.Members), "count.member"), g.Coordinator)
		}
		if c.Open {
			l.groupBody(&c, g, s, t)
		}
		l.Groups = append(l.Groups, c)
	}
}

// dgTPList is partitions as "t-0, t-1".
func dgTPList(tps []view.TopicPartition) string {
	var b strings.Builder
	for i, tp := range tps {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(tp.Topic + "-" + strconv.Itoa(int(tp.Partition)))
	}
	return b.String()
}

// consumerMember adds a consumer-protocol member's epoch, the partitions it
// is giving back, and its target when it differs from what it holds: the
// coordinator moves each member toward its target one heartbeat at a
// time, with no group-wide barrier (KIP-848).
func (l *dgLayout) consumerMember(mv *dgMember, m view.GroupMember, t dgTranslator) {
	mv.Epoch = fmt.Sprintf(t("group.member.epoch"), m.Epoch)
	mv.Tip = m.MemberID + " " + m.ClientHost + " · " + fmt.Sprintf(t("group.member.state"), m.State, m.Epoch)
	if len(m.Revoking) > 0 {
		mv.Assigned += " " + fmt.Sprintf(t("group.member.revoking"), dgTPList(m.Revoking))
		mv.Class += " kd-member-moving"
	}
	if !slices.Equal(m.Target, m.Assigned) {
		target := t("group.nothing")
		if len(m.Target) > 0 {
			target = dgTPList(m.Target)
		}
		mv.Target = fmt.Sprintf(t("group.member.target"), target)
		mv.Class += " kd-member-moving"
	}
}

func (l *dgLayout) groupBody(c *dgGroup, g view.Group, s *view.Snapshot, t dgTranslator) {
	proto := g.Protocol
	if proto == "" {
		proto = "—"
	}
	c.Info = fmt.Sprintf(t("group.info"), proto, g.Partition, g.Coordinator)
	if g.Type == "consumer" {
		c.Info = fmt.Sprintf(t("group.info.consumer"), g.Partition, g.Coordinator)
	}
	if len(g.Members) == 0 {
		c.Empty = fmt.Sprintf(t("group.no.members"), g.GroupID)
	}
	clients := map[string]int{}
	for _, m := range g.Members {
		clients[m.ClientID]++
	}
	for _, m := range g.Members {
		mv := dgMember{Client: m.ClientID, ID: dgCut(m.MemberID, dgMemberIDRune), Tip: m.MemberID + " " + m.ClientHost, Class: "kd-member"}
		if clients[m.ClientID] > 1 && m.ClientHost != "" {
			// Members with the same client.id (console consumers all
			// use console-consumer) are told apart by their host.
			mv.Client += " " + m.ClientHost
		}
		if m.ClientState != "" {
			mv.Tip += " · " + fmt.Sprintf(t("group.client.state"), m.ClientState, m.ClientGeneration)
		} else {
			mv.Tip += " · " + t("group.client.gone")
			mv.Class += " kd-member-gone"
		}
		if m.Leader {
			mv.Leader = t("group.leader")
		}
		if len(m.Assigned) == 0 {
			mv.Assigned = t("group.nothing")
		} else {
			mv.Assigned = dgTPList(m.Assigned)
		}
		if g.Type == "consumer" {
			l.consumerMember(&mv, m, t)
		}
		c.Members = append(c.Members, mv)
	}
	for _, m := range g.Joining {
		id := m.MemberID
		if id == "" {
			id = "—"
		}
		c.Members = append(c.Members, dgMember{Client: m.ClientID, ID: dgCut(id, dgMemberIDRune), Tip: m.MemberID, Class: "kd-member kd-member-joining",
			Assigned: fmt.Sprintf(t("group.joining"), m.ClientState)})
	}
	for i, p := range g.Partitions {
		if i == dgLagRowsShown {
			c.More = fmt.Sprintf(t("clients.more"), len(g.Partitions)-dgLagRowsShown)
			break
		}
		r := dgLagRow{Part: p.Topic + "-" + strconv.Itoa(int(p.Partition)), Committed: "-", LogEnd: "-", Lag: "-", Client: "-", Position: "-", Class: "kd-lagrow"}
		if p.Position >= 0 {
			r.Position = strconv.FormatInt(p.Position, 10)
		}
		if p.Committed >= 0 {
			r.Committed = strconv.FormatInt(p.Committed, 10)
		}
		if p.LogEnd >= 0 {
			r.LogEnd = strconv.FormatInt(p.LogEnd, 10)
		}
		if p.HasLag {
			r.Lag = strconv.FormatInt(p.Lag, 10)
			if p.Lag != 0 {
				r.Class += " kd-lag-behind"
			}
		}
		if p.ClientID != "" {
			r.Client = p.ClientID
		}
		c.Rows = append(c.Rows, r)
	}
	from := max(0, len(g.Events)-dgEventsShown)
	for _, e := range g.Events[from:] {
		c.Events = append(c.Events, dgGroupEvent(e, t))
	}
}

func dgGroupEvent(e view.GroupEvent, t dgTranslator) dgEvent {
	ev := dgEvent{At: fmtVirtualTime(e.At)}
	switch e.Kind {
	case "rebalance":
		ev.Text = fmt.Sprintf(t("gev.rebalance"), e.Generation)
		if e.Reason != "" {
			ev.Text += ": "
			ev.Reason, ev.ReasonTip = dgCut(e.Reason, 70), e.Reason
		}
	case "generation":
		ev.Text = fmt.Sprintf(t("gev.generation"), e.Generation)
		if e.Members == 0 {
			ev.Text = fmt.Sprintf(t("gev.empty"), e.Generation)
		}
	case "stable":
		ev.Text = fmt.Sprintf(t("gev.stable"), e.Generation)
	case "member-left":
		ev.Text = fmt.Sprintf(t("gev.left"), dgCut(e.Member, dgMemberIDRune))
		ev.Tip = e.Member
	case "member-expired":
		ev.Text = fmt.Sprintf(t("gev.expired"), dgCut(e.Member, dgMemberIDRune))
		ev.Tip = e.Member
	default:
		ev.Text = e.Kind
	}
	return ev
}

// coordinators marks every broker card that coordinates groups or
// transactional ids: a badge naming the group or id (or how many).
func (l *dgLayout) coordinators(s *view.Snapshot, t dgTranslator) {
	for i := range l.Brokers {
		b := &l.Brokers[i]
		b.Coord = ""
		n, first := 0, ""
		for _, g := range s.Groups {
			if g.Coordinator == b.ID {
				if n == 0 {
					first = g.GroupID
				}
				n++
			}
		}
		txns, firstTxn := dgTxnsOn(s, b.ID)
		// The badge stays inside its card: from 12 in to 12 from the
		// right edge, its text 7 from each of its ends.
		text := dgCoordinatorBadge(n, first, txns, firstTxn, b.W-24-14, t)
		if text == "" {
			continue
		}
		w := dgTextWidth(text, 10) + 14
		b.Coord, b.CoordW = text, dgf(w)
		b.CoordX, b.CoordTX = dgf(b.W-12-w), dgf(b.W-12-w/2)
		b.Tip += " · " + text
	}
}
