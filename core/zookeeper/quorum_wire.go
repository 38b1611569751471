package zookeeper

import (
	"fmt"

	"kafkascope/core/sim"
)

// The ports of an ensemble member (server.N=host:2888:3888 in zoo.cfg):
// followers talk to the leader on the quorum port, votes travel on the
// election port.
const (
	QuorumPort   = "2888"
	ElectionPort = "3888"
)

// PeerState is QuorumPeer.ServerState (release-3.5.9), without OBSERVING.
type PeerState int

const (
	Looking PeerState = iota
	Following
	Leading
)

func (s PeerState) String() string {
	switch s {
	case Following:
		return "FOLLOWING"
	case Leading:
		return "LEADING"
	}
	return "LOOKING"
}

// Vote is FastLeaderElection's notification (quorum/FastLeaderElection.java,
// ToSend and Notification): the proposed leader, its last logged zxid and
// epoch, the sender's election round (logicalclock) and state.
type Vote struct {
	Sid           int64 // the sender
	Leader        int64
	Zxid          int64
	ElectionEpoch int64
	PeerEpoch     int64
	State         PeerState
}

// Kind implements sim.Message.
func (*Vote) Kind() string { return "vote" }

// Summary implements sim.Summarizer.
func (v *Vote) Summary() string {
	return fmt.Sprintf("%s sid=%d leader=%d zxid=0x%s round=%d epoch=%d", v.State, v.Sid, v.Leader, ZxidString(v.Zxid), v.ElectionEpoch, v.PeerEpoch)
}

// PacketType is a QuorumPacket's type (quorum/Leader.java constants).
type PacketType int

const (
	PacketRequest      PacketType = 1
	PacketProposal     PacketType = 2
	PacketAck          PacketType = 3
	PacketCommit       PacketType = 4
	PacketPing         PacketType = 5
	PacketRevalidate   PacketType = 6
	PacketUpToDate     PacketType = 12
	PacketDiff         PacketType = 13
	PacketTrunc        PacketType = 14
	PacketSnap         PacketType = 15
	PacketFollowerInfo PacketType = 11
	PacketNewLeader    PacketType = 10
	PacketLeaderInfo   PacketType = 17
	PacketAckEpoch     PacketType = 18
)

var packetNames = map[PacketType]string{
	PacketRequest: "REQUEST", PacketProposal: "PROPOSAL", PacketAck: "ACK", PacketCommit: "COMMIT",
	PacketPing: "PING", PacketRevalidate: "REVALIDATE", PacketUpToDate: "UPTODATE", PacketDiff: "DIFF",
	PacketTrunc: "TRUNC", PacketSnap: "SNAP", PacketFollowerInfo: "FOLLOWERINFO", PacketNewLeader: "NEWLEADER",
	PacketLeaderInfo: "LEADERINFO", PacketAckEpoch: "ACKEPOCH",
}

func (t PacketType) String() string { return packetNames[t] }

// Packet is a QuorumPacket between a learner and the leader. Which fields
// matter depends on Type:
//   - FOLLOWERINFO: Sid, Zxid = makeZxid(acceptedEpoch, 0).
//   - LEADERINFO: Zxid = makeZxid(newEpoch, 0).
//   - ACKEPOCH: Epoch (the learner's currentEpoch), Zxid (its last logged).
//   - DIFF, TRUNC, SNAP: Zxid (TRUNC's target), Txns (the committed
//     transactions to log and apply; a SNAP's are the leader's whole
//     history, replayed into a fresh tree), Proposals.
//   - NEWLEADER, ACK, COMMIT: Zxid.
//   - PROPOSAL: Entry.
//   - REQUEST: Session, Cxid, Req (a forwarded write, createSession or
//     closeSession).
//   - PING: from the leader nothing; the reply carries Touches.
//   - REVALIDATE: Session, Timeout; the reply Valid.
type Packet struct {
	Type    PacketType
	Sid     int64
	Zxid    int64
	Epoch   int64
	Entry   Entry
	Txns    []Entry
	Session int64
	Cxid    int32
	Timeout int32
	Req     *Request
	Touches []SessionTouch
	Valid   bool
}

// Kind implements sim.Message.
func (p *Packet) Kind() string { return p.Type.String() }

// Summary implements sim.Summarizer.
func (p *Packet) Summary() string {
	switch p.Type {
	case PacketProposal:
		return fmt.Sprintf("PROPOSAL 0x%s %s", ZxidString(p.Entry.Txn.Zxid), p.Entry.Txn.Type)
	case PacketDiff, PacketTrunc, PacketSnap:
		return fmt.Sprintf("%s 0x%s (%d txns)", p.Type, ZxidString(p.Zxid), len(p.Txns))
	}
	return fmt.Sprintf("%s 0x%s", p.Type, ZxidString(p.Zxid))
}

// Entry is one logged transaction with the request it came from: the
// server that took the client's request (Origin) and the client's xid
// (TxnHeader.cxid), so that this server can answer once it commits.
type Entry struct {
	Txn    Txn
	Origin int64
	Cxid   int32
}

// SessionTouch is one session a learner saw traffic for since the last
// ping (LearnerSessionTracker's touchTable, sent in the PING reply).
type SessionTouch struct {
	Session int64
	Timeout int32
}

var (
	_ sim.Message = (*Vote)(nil)
	_ sim.Message = (*Packet)(nil)
)
