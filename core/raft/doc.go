// Package raft is KRaft: the Raft variant Kafka uses to replicate the
// __cluster_metadata-0 partition (KIP-595, with KIP-630 snapshots), as a
// state machine that runs inside a core/sim process. The active controller
// is the quorum leader; the other controllers are voters that follow it;
// brokers are observers that replay the committed log. Facts come from
// Apache Kafka at tag 3.8.0 (raft/src/main/java/org/apache/kafka/raft/...),
// cited where they are used, and, for the 4.x election rules, from 4.1.0 and
// 4.3.0.
//
// # What it owns
//
//   - Roles and transitions (QuorumState): Unattached, Voted, Candidate,
//     Leader, Follower, Resigned; epochs; one vote per epoch, durable before
//     it is answered; randomised election timeouts, election backoff,
//     fetch timeout, check-quorum, graceful resignation with EndQuorumEpoch,
//     graceful shutdown (a stopping controller answers until another voter
//     leads, up to 5 s).
//   - Elections by release (Config.PreVote). Kafka 3.8: a voter whose
//     leader goes silent for controller.quorum.fetch.timeout.ms (or whose
//     election timeout expires) stands as Candidate in epoch+1 at once; a
//     lost election backs off randomly (binary exponential, up to
//     controller.quorum.election.backoff.max.ms) and stands again. Kafka
//     4.1 and 4.3: it first becomes Prospective and asks in a pre-vote
//     (KIP-996, Vote v2 with PreVote) in its current epoch, keeping its
//     leader and vote and writing nothing; the leader, and a follower that
//     has fetched from it since it began following, refuse; every other
//     state grants an up-to-date pre-vote and records nothing. Only a
//     majority of grants makes it Candidate in epoch+1; a majority of
//     refusals or its election timer sends it back to following the leader
//     it knew (or to Unattached). A lost or timed-out candidacy waits out
//     its election timer, with no backoff, and goes back to Prospective
//     (KAFKA-18345, 4.1); a resigned leader's timeout moves it to epoch+1
//     as Unattached; a node that voted and then learns the leader keeps the
//     vote, so quorum-state may name both.
//   - Pull replication (Fetch): followers and observers fetch from their log
//     end offset with the epoch of their last entry; the leader answers with
//     records and its high watermark, with a diverging epoch when the logs
//     differ (the fetcher truncates), or with a snapshot id when the fetch
//     offset is below the log start (the fetcher downloads it with
//     FetchSnapshot). The high watermark is the offset a majority of voters
//     has reached, and moves only after the leader's LeaderChangeMessage of
//     its own epoch is on a majority.
//   - The replicated log on disk, in Kafka's layout under
//     <LogDir>/__cluster_metadata-0/: record batch v2 segments whose
//     partition leader epoch is the Raft epoch, leader-epoch-checkpoint,
//     partition.metadata (topic id AAAAAAAAAAAAAAAAAAAAAQ), quorum-state
//     (Kafka's JSON, version 0), and snapshots
//     <20-digit end offset>-<10-digit epoch>.checkpoint.
//   - Control records encoded as Kafka encodes them: LeaderChangeMessage,
//     SnapshotHeaderRecord, SnapshotFooterRecord.
//
// It never interprets payloads (the caller serializes metadata records),
// never reads the wall clock or global randomness, never iterates a map to
// decide anything, and never touches another package's state.
//
// # API
//
//	n := raft.NewNode(raft.Config{
//	    NodeID: 1, Addr: "kafka-1:9093",
//	    Voters: map[int32]sim.Addr{1: "kafka-1:9093", 2: "kafka-2:9093", 3: "kafka-3:9093"},
//	    ClusterID: clusterID, Disk: disk, LogDir: "/tmp/kafka-logs",
//	}, listener)
//	err := n.Start(env)             // in the process's Start: recovery, then timers
//	if n.Handle(env, e) { return }  // first thing in the process's Receive
//	off, epoch, err := n.Append(env, payloads) // leader only; one batch per call
//	n.Resign(env, epoch)            // graceful: EndQuorumEpoch to the others
//	id, err := n.CreateSnapshot(env, endOffset, payloads) // any node, committed state
//	n.DeleteBeforeSnapshot(env, id) // move the log start up to a snapshot, deleting segments below it
//	n.Role(); n.LeaderAndEpoch(); n.HighWatermark(); n.LogEndOffset()
//	n.LogStartOffset(); n.Snapshots(); n.Log(); n.DescribeQuorum(now)
//
// A node whose NodeID is not in Voters is an observer. Zero durations in
// Config take Kafka's defaults (DefaultElectionTimeout etc.).
//
// The Listener (embed BaseListener) receives, on every node: HandleCommit
// for each committed batch in offset order (data batches and KRaft's own
// control batches, marked Control), HandleLoadSnapshot when it must start
// from a snapshot, HandleLeaderChange for every new epoch or newly known
// leader; and on the leader's node HandleBecomeLeader once the listener has
// every committed entry before the epoch (start the active controller
// there, not on a HandleLeaderChange that names this node: a restarted
// leader is Resigned, and Kafka reports it as leader of its old epoch
// until the next one), and HandleResign when it stops leading (stop
// appending). After every (re)start delivery begins again at offset 0, or
// at the latest snapshot. Callbacks run inside the node's call and may call
// Append, Resign and CreateSnapshot; their effects are handled after the
// callback returns, so callbacks never nest.
//
// # Wiring it into a cluster node (for the integrator)
//
// A voter's raft node uses the controller listener (kafka-N:9093) as Addr,
// and receives Vote, BeginQuorumEpoch, EndQuorumEpoch, Fetch and
// FetchSnapshot there. A broker-only node runs an observer whose Addr is
// its broker address (kafka-N:9092): it sends Fetch to the leader's
// controller listener, and the answers come back to kafka-N:9092. In
// combined mode one raft node (the voter) serves both the controller and the
// broker (Kafka shares one KafkaRaftClient); register both as listeners
// (Register). In the host's Receive, call Handle before anything else on
// that address, including a core/rpc client: raft messages are not
// protocol.Request/Response, and Handle claims a sim.Disconnected only when
// it answers a raft request. The host must also keep the Disk across
// process restarts and call PowerLoss on it for a power cut.
//
// # Simplified relative to Kafka, and why
//
//   - Static voters only (kraft.version 0, as 3.8 with
//     controller.quorum.voters): no KIP-853 reconfiguration, no directory
//     ids, no KRaftVersion/Voters records, quorum-state version 0.
//   - No append linger (controller.quorum.append.linger.ms): each Append is
//     written, flushed and offered to followers at once, as one batch (what
//     Kafka's atomic append guarantees about its records).
//   - Moving the log start offset to a snapshot (DeleteBeforeSnapshot)
//     deletes the segments wholly below it, as Kafka does; the bytes below
//     it in the segment that holds it stay, and reads and fetches below it
//     are refused (a snapshot is sent). Like Kafka's metadata log the log
//     start is not persisted (a restart falls back to the first segment's
//     base offset).
//   - Snapshot retention (metadata.max.retention.bytes/.ms) and when to
//     snapshot (metadata.log.max.record.bytes.between.snapshots) are the
//     caller's decision: CreateSnapshot and DeleteBeforeSnapshot.
//   - Kafka 3.9 folded VotedState into UnattachedState (with a voted key);
//     this package calls it Voted in every release, with 4.x's rules.
//   - Kafka 4.x parts not modelled: the leader's BeginQuorumEpoch every
//     fetch.timeout.ms/2 to voters that have not fetched (KAFKA-16926; the
//     leader sends it until acknowledged, as 3.8 does); an Unattached voter
//     fetching from the bootstrap voters to find the leader; a follower
//     fetching from another voter when its leader's request timed out; and
//     UpdateRaftVoter after a new leader. None of them changes who leads.
//   - No metrics; notes in the sim trace (raft.transition, raft.vote,
//     raft.truncate, raft.snapshot.*) explain what happened.
//   - Parked fetches are answered with NOT_LEADER_OR_FOLLOWER whenever the
//     node stops leading (Kafka does so on resignation and on becoming
//     follower, and otherwise lets them expire).
//   - A Vote, BeginQuorumEpoch or EndQuorumEpoch from, or to, a node
//     outside the voter set is refused with INCONSISTENT_VOTER_SET, which
//     Kafka 3.8 documents but does not check.
//   - The simulated network has no jitter: followers whose last fetch
//     responses left the leader together time out together, so after a
//     leader crash the first election of a 3-voter quorum usually splits
//     and the next epoch wins (3-4 s instead of 2-3 s). Kafka does the
//     same whenever the timers line up.
package raft
