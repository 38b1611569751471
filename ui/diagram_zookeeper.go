package ui

import (
	"fmt"
	"strconv"
	"strings"

	"kafkascope/core/view"
)

// The ZooKeeper era on the diagram (--version 2.8): the ensemble is a row
// above the brokers, one pill per server with its role (dimmed while
// down); a message between a broker and a server runs on a curve from
// that server's pill down to the broker's card; the controller's card
// says its epoch (there is no metadata log, so no high watermark), and
// every card says whether its ZooKeeper session is connected instead of
// how far it replayed a metadata log.

// dgLaneZK is server 1's lane index on links and messages; server n's is
// dgLaneZK-(n-1) (-1 is the clients).
const dgLaneZK = -2

// The ensemble's row: its top, height, and the band it adds above the
// cards.
const (
	dgZkTop  = 8.0
	dgZkH    = 22.0
	dgZkBand = dgZkTop + dgZkH + 6
	dgZkGap  = 10.0
)

// dgEnsemble is the ensemble's row.
type dgEnsemble struct {
	On      bool
	T       string
	Title   string
	TitleX  string
	Servers []dgZkServer
	x       []float64 // each pill's left edge and width
	w       float64
}

// dgZkServer is one server's pill.
type dgZkServer struct {
	T, Class     string
	Ws           string
	Name, Role   string
	RoleX, RoleW string
	RoleTX       string
	Tip          string
}

// zkBand is the height the ensemble's row adds above the cards (0 on
// KRaft).
func zkBand(s *view.Snapshot) float64 {
	if s.ZooKeeper == nil {
		return 0
	}
	return dgZkBand
}

// ensemble lays out the row (after size: the width is known).
func (l *dgLayout) ensemble(s *view.Snapshot, t dgTranslator) {
	e := &l.Ensemble
	e.Servers, e.x = e.Servers[:0], e.x[:0]
	e.On = s.ZooKeeper != nil
	if !e.On {
		return
	}
	e.T = dgTranslate(0, dgZkTop)
	e.Title = t("zookeeper")
	e.TitleX = dgf(dgPadX + 4)
	left := dgPadX + 4 + dgTextWidth(e.Title, 11)*1.15 + 12 // .kd-zk-title: bold, spaced
	n := len(s.ZooKeeper.Servers)
	e.w = min(260, (l.W-dgPadX-left-dgZkGap*float64(n-1))/float64(max(n, 1)))
	for i, sv := range s.ZooKeeper.Servers {
		x := left + float64(i)*(e.w+dgZkGap)
		e.x = append(e.x, x)
		z := dgZkServer{T: dgTranslate(x, 0), Ws: dgf(e.w), Class: "kd-zk-server"}
		switch {
		case sv.State != "running":
			z.Role = t("state." + sv.State)
			z.Class += " kd-zk-down"
		case sv.Role == "standalone":
			z.Role = t("zk.standalone")
			z.Class += " kd-zk-lead"
		default:
			z.Role = sv.Role
			if sv.Role == "LEADING" {
				z.Class += " kd-zk-lead"
			}
		}
		if sv.State == "running" && !sv.Serving {
			z.Class += " kd-zk-looking"
		}
		rw := dgTextWidth(z.Role, 9.5)*1.12 + 12 // .kd-zk-role-text is bold
		z.RoleW, z.RoleX, z.RoleTX = dgf(rw), dgf(e.w-3-rw), dgf(e.w-3-rw/2)
		z.Name = sv.Host
		if 20+dgTextWidth(z.Name, 10.5)+6 > e.w-3-rw {
			z.Name = "#" + strconv.Itoa(sv.ID) // a narrow panel: the row's title says ZooKeeper
		}
		z.Tip = fmt.Sprintf(t("zk.server.tip"), sv.Host, z.Role, "0x"+strconv.FormatInt(sv.LastZxid, 16), sv.Sessions)
		e.Servers = append(e.Servers, z)
	}
}

// zkHost is the number of ZooKeeper server host (zookeeper-2: 2), 0 for
// any other host.
func zkHost(host string) int {
	rest, ok := strings.CutPrefix(host, "zookeeper-")
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(rest)
	if err != nil {
		return 0
	}
	return n
}

// msgLanes is the lanes a message runs between: a server's pill for a
// ZooKeeper server, the clients for another host that is no node. A
// message between two servers (their own quorum) is not drawn.
func (l *dgLayout) msgLanes(m *view.Message) (int, int, bool) {
	end := func(id int32, host string) (int, bool) {
		if n := zkHost(host); n > 0 {
			return dgLaneZK - (n - 1), l.Ensemble.On && n <= len(l.Ensemble.x)
		}
		return l.endpoint(id)
	}
	a, okA := end(m.From, m.FromHost)
	b, okB := end(m.To, m.ToHost)
	return a, b, okA && okB && !(a <= dgLaneZK && b <= dgLaneZK)
}

// zkCurve is the curve from server lane a's pill down to lane b's card
// (the clients' box for b == -1: a tool such as zookeeper-shell).
func (l *dgLayout) zkCurve(a, b int) [4][2]float64 {
	e := &l.Ensemble
	k := dgLaneZK - a
	p0 := [2]float64{e.x[k] + e.w/2, dgZkTop + dgZkH}
	p3 := [2]float64{l.anchor(b, -1), l.cardsY}
	if b < 0 {
		p3[1] = l.cardsY + max(0, (dgCardH-l.clientsH)/2)
	}
	dy := p3[1] - p0[1]
	return [4][2]float64{p0, {p0[0], p0[1] + 0.5*dy}, {p3[0], p3[1] - 0.5*dy}, p3}
}

// zkCardMeta is a ZooKeeper-era card's last line: its session, which
// keeps its registration (/brokers/ids) alive.
func (l *dgLayout) zkCardMeta(b *dgBroker, nd view.Node, t dgTranslator) {
	room := b.W - 20
	b.MetaBarW = "0"
	forms := []string{t("zk.session.none")}
	switch {
	case nd.State != "running":
		forms = []string{t("zk.session.down"), "—"}
	case nd.ZkConnected:
		forms = []string{fmt.Sprintf(t("zk.session"), nd.ZkSession), t("zk.session.short")}
		b.MetaBarW = dgf(room)
	default:
		b.MetaLag = true
	}
	for _, m := range forms {
		b.Meta = m
		if dgTextWidth(m, 11) <= room {
			return
		}
	}
}

// quorumCat is the legend's word for the coordination messages' colour:
// the KRaft quorum's, or on a ZooKeeper-era cluster ZooKeeper's.
func (c *Diagram) quorumCat() string {
	if c.lay.Ensemble.On {
		return c.t("zookeeper")
	}
	return c.t("cat.quorum")
}
