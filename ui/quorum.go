package ui

import (
	"fmt"
	"strconv"
	"strings"

	"kafkascope/core/view"
)

// Quorum is the KRaft controller quorum panel: one row per node, voters
// first (raft role, epoch coloured as the diagram colours epochs, log end
// offset, the high watermark it knows, the active controller marked as the
// diagram marks it), then the brokers that only observe; for every node how
// far its broker has applied the committed log and how far behind that is.
// When no leader can commit, a banner says that metadata is frozen and why.
//
// It draws from the player's snapshot only.
type Quorum struct {
	App *App

	q    *view.Quorum // read once per build
	rows []kqRow
}

// kqRow is one node as drawn.
type kqRow struct {
	ID         int32
	Name       string
	Role       string // raft's name, Observer, or the node's state when down
	RoleClass  string
	Epoch      string
	EpochClass string
	LEO, HW    string
	Applied    string
	Lag        string // "" when caught up
	Active     bool
	Class      string
	Tip        string
}

// BeforeBuild reads the quorum once per render.
func (c *Quorum) BeforeBuild() {
	c.q, c.rows = nil, c.rows[:0]
	snap := c.App.Player.Snapshot()
	if snap == nil {
		return
	}
	c.q = &snap.Quorum
	replay := map[int32]view.MetadataReplay{}
	for _, n := range c.q.Nodes {
		replay[n.ID] = n
	}
	voters := map[int32]bool{}
	for _, v := range c.q.Voters {
		voters[v.ID] = true
		c.rows = append(c.rows, c.voterRow(v, replay[v.ID]))
	}
	for _, n := range c.q.Nodes {
		if !voters[n.ID] {
			c.rows = append(c.rows, c.observerRow(n, snap))
		}
	}
}

func (c *Quorum) t(key string) string { return c.App.T(key) }

// metadataLagShown is the lag (in records) from which a node is shown
// behind, here and on the diagram's broker cards. Below it is the normal
// trail: a follower learns of a new high watermark with its next fetch, so
// right after a commit (a NoOpRecord every 500 ms) every broker but the
// leader's is a record or two behind.
const metadataLagShown = 3

// kqEpochClass colours an epoch as the diagram colours leader epochs.
func kqEpochClass(epoch int32) string {
	return "kq-epoch kd-e" + strconv.Itoa(int(epoch)%dgEpochPalette)
}

func kqOffset(o int64) string {
	if o < 0 {
		return "—"
	}
	return strconv.FormatInt(o, 10)
}

func (c *Quorum) voterRow(v view.Voter, r view.MetadataReplay) kqRow {
	row := kqRow{ID: v.ID, Name: "kafka-" + strconv.Itoa(int(v.ID)), Active: v.Active,
		LEO: kqOffset(v.LEO), HW: kqOffset(v.HW), Epoch: "—", EpochClass: "kq-epoch"}
	var tip []string
	if !v.Running {
		row.Role = c.t("state." + v.State)
		row.RoleClass = "kq-role kq-role-down"
		row.Class = "kq-row kq-down"
		tip = append(tip, fmt.Sprintf(c.t("quorum.tip.down"), v.ID, row.Role))
	} else {
		row.Role = v.Role
		row.RoleClass = "kq-role kq-role-" + strings.ToLower(v.Role)
		row.Class = "kq-row"
		row.Epoch, row.EpochClass = strconv.Itoa(int(v.Epoch)), kqEpochClass(v.Epoch)
		tip = append(tip, fmt.Sprintf(c.t("quorum.tip.role"), v.ID, v.Role, v.Epoch))
		if v.LeaderID >= 0 && v.LeaderID != v.ID {
			tip = append(tip, fmt.Sprintf(c.t("quorum.tip.follows"), v.LeaderID))
		}
		if v.LeaderViewLEO >= 0 && v.LastFetchAgoMs >= 0 && v.ID != c.q.LeaderID {
			tip = append(tip, fmt.Sprintf(c.t("quorum.tip.seen"), v.LeaderViewLEO, v.LastFetchAgoMs))
		}
		if v.CutFromLeader {
			row.Class += " kq-cut"
			tip = append(tip, c.t("quorum.cut"))
		}
	}
	if v.ID == c.q.LeaderID {
		row.Class += " kq-leader"
	}
	c.applied(&row, r, &tip)
	if v.Active {
		tip = append(tip, c.t("quorum.active.tip"))
	}
	row.Tip = strings.Join(tip, " · ")
	return row
}

func (c *Quorum) observerRow(n view.MetadataReplay, snap *view.Snapshot) kqRow {
	row := kqRow{ID: n.ID, Name: "kafka-" + strconv.Itoa(int(n.ID)),
		Epoch: "—", EpochClass: "kq-epoch", LEO: "—", HW: "—", Class: "kq-row kq-observer"}
	var tip []string
	if !n.Running {
		state := "killed"
		for _, nd := range snap.Nodes {
			if nd.ID == n.ID {
				state = nd.State
			}
		}
		row.Role = c.t("state." + state)
		row.RoleClass = "kq-role kq-role-down"
		row.Class += " kq-down"
		tip = append(tip, fmt.Sprintf(c.t("quorum.tip.down"), n.ID, row.Role))
	} else {
		row.Role, row.RoleClass = c.t("quorum.observer"), "kq-role kq-role-observer"
		tip = append(tip, fmt.Sprintf(c.t("quorum.tip.observer"), n.ID))
		if n.CutFromLeader {
			row.Class += " kq-cut"
			tip = append(tip, c.t("quorum.cut"))
		}
	}
	c.applied(&row, n, &tip)
	row.Tip = strings.Join(tip, " · ")
	return row
}

// applied fills in how far the node's broker replayed the log.
func (c *Quorum) applied(row *kqRow, r view.MetadataReplay, tip *[]string) {
	row.Applied = "—"
	if !r.Running {
		return
	}
	row.Applied = kqOffset(r.Applied)
	if r.Applied >= 0 {
		*tip = append(*tip, fmt.Sprintf(c.t("quorum.tip.applied"), r.Applied))
	}
	if r.Lag >= metadataLagShown {
		row.Lag = fmt.Sprintf(c.t("metadata.lag"), r.Lag)
		row.Class += " kq-lagging"
		*tip = append(*tip, row.Lag)
	}
}

// frozen reports whether the banner shows.
func (c *Quorum) frozen() bool { return c.q != nil && c.q.Frozen() }

func (c *Quorum) statusClass() string {
	if c.q == nil {
		return "kq-status"
	}
	switch c.q.Status {
	case view.QuorumOK:
		return "kq-status kq-ok"
	case view.QuorumElecting:
		return "kq-status kq-warn"
	}
	return "kq-status kq-bad"
}

func (c *Quorum) statusText() string {
	if c.q == nil {
		return ""
	}
	switch c.q.Status {
	case view.QuorumOK:
		return fmt.Sprintf(c.t("quorum.status.ok"), c.q.LeaderID, c.q.Epoch, c.q.HighWatermark)
	case view.QuorumElecting:
		return fmt.Sprintf(c.t("quorum.status.electing"), c.q.Epoch)
	}
	return c.t("quorum.status.lost")
}

func (c *Quorum) bannerTitle() string {
	if c.q != nil && c.q.Status == view.QuorumElecting {
		return c.t("quorum.electing")
	}
	return c.t("quorum.lost")
}

func (c *Quorum) bannerText() string {
	if c.q == nil {
		return ""
	}
	if c.q.Status == view.QuorumElecting {
		return fmt.Sprintf(c.t("quorum.electing.detail"), c.q.Connected, len(c.q.Voters))
	}
	return fmt.Sprintf(c.t("quorum.lost.detail"), c.q.Connected, len(c.q.Voters), c.q.Majority)
}

func (c *Quorum) bannerClass() string {
	if c.q != nil && c.q.Status == view.QuorumElecting {
		return "kq-banner kq-banner-electing"
	}
	return "kq-banner"
}

// tip explains the panel: what committed means here, then what the
// simulator simplifies.
func (c *Quorum) tip() string {
	if c.q == nil || len(c.q.Voters) == 0 {
		return c.t("quorum.tip")
	}
	return fmt.Sprintf(c.t("quorum.foot"), c.q.Majority, len(c.q.Voters)) + " " + c.t("quorum.tip")
}
