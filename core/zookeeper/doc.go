// Package zookeeper is ZooKeeper 3.5.9's server-side data model (the
// release Kafka 2.8 ships), as a pure deterministic library: the znode
// tree with its stats, the checks that turn a write into a transaction,
// the application of transactions, one-shot watches and the sessions'
// ephemeral nodes. Facts come from apache/zookeeper at tag release-3.5.9
// (zookeeper-server/src/main/java/org/apache/zookeeper/...); each file
// names the class it follows.
//
//   - Tree (server/DataTree.java, DataNode.java): the nodes, reads
//     (GetData, Exists, GetChildren) that may set watches, and Apply, which
//     applies a committed transaction and returns the watches it fired.
//   - Prep (server/PrepRequestProcessor.java): checks a write against the
//     tree and the changes still in flight, takes the next zxid and makes a
//     Txn, or an error Txn (the zxid is used either way); Multi with
//     ZooKeeper's per-step results and rollback; CloseSession.
//   - Local: Prep then Apply at once, a standalone server with nothing in
//     flight; the tests drive it.
//   - Stat.Format: zookeeper-shell's stat lines (cli/StatPrinter.java).
//   - Code and Error: KeeperException's codes and getMessage.
//   - WatchedEvent, EventType, KeeperState: Watcher.java and
//     WatchedEvent.toString.
//   - zxids: epoch<<32 | counter (server/util/ZxidUtils.java).
//   - Server (server.go, server_request.go, session_tracker.go): a
//     standalone server as a sim.Process on host:2181
//     (ZooKeeperServer, SessionTrackerImpl with ExpiryQueue,
//     FinalRequestProcessor): sessions on tickTime expiry buckets,
//     createSession and closeSession as transactions, requests through
//     Prep then Apply, watch notifications to the connection that set
//     them, SetWatches on a reconnect, a closed connection's watches
//     dropped (its session lives until it expires).
//   - Client (client.go, client_ops.go, client_watches.go): ZooKeeper
//     and ClientCnxn for a process to embed: connect, pings and the read
//     timeout as SendThread.run computes them, replies matched by xid,
//     connection loss (CONNECTIONLOSS for what was in flight, a
//     Disconnected event, the next server after the host provider's and
//     startConnect's sleeps), Expired when the server no longer has the
//     session, SESSIONEXPIRED afterwards. Every watch is the client's
//     default watcher, as Kafka 2.8's ZooKeeperClient sets them.
//   - Connections: client and server, and ensemble members, send through
//     a sim.Stream per direction of a connection, so a cut delays what it
//     takes (TCP retransmits it) instead of losing one message of a
//     connection that stays up: ZooKeeper's client has no request
//     timeout, only the read timeout of a silent connection.
//   - Ensemble (quorum*.go): a Server with ServerConfig.Peers is a
//     QuorumPeer on host:2181, :2888 (quorum) and :3888 (election).
//     FastLeaderElection (quorum/FastLeaderElection.java): votes ordered
//     by (epoch, last logged zxid, sid), rounds, the 200 ms finalizeWait,
//     notification resends doubling to 60 s, joining an established
//     leader when a quorum follows it and it says LEADING. ZAB
//     (quorum/Leader.java, LearnerHandler.java, Learner.java,
//     Follower.java): FOLLOWERINFO → LEADERINFO (new epoch = max
//     acceptedEpoch + 1) → ACKEPOCH → DIFF, TRUNC or SNAP → NEWLEADER →
//     ACK → UPTODATE; then PROPOSAL, ACK from a quorum, COMMIT in zxid
//     order. Followers forward writes, createSession and closeSession
//     (FollowerRequestProcessor) and answer them when they commit; reads
//     are local, so a follower may answer stale. The leader owns the
//     sessions (LeaderSessionTracker): followers send their sessions'
//     touches in PING replies and REVALIDATE reconnects. initLimit 10
//     and syncLimit 5 ticks (conf/zoo_sample.cfg): a follower drops a
//     leader silent for syncLimit ticks, a leader steps down when fewer
//     than a quorum answered within syncLimit ticks; either closes its
//     clients' connections. Disk (the log and the epoch files) survives
//     a restart of the same Server object; a peer loads its tree from
//     the whole log, proposals never committed included
//     (fastForwardDataBase), which a new leader's TRUNC removes.
//   - wire.go: the protocol's messages (ConnectRequest, Request, Reply,
//     Notification); Kind is the op's name in ZooDefs.opNames.
//
// Timeouts under Kafka 2.8: tickTime 3000 ms (ZooKeeperServer's default;
// Kafka's config/zookeeper.properties sets none), sessions negotiated
// into [2, 20] ticks, zookeeper.session.timeout.ms 18000, so a client
// reads for 12000 ms, pings after 6000 ms without sending, and a session
// expires at the first tick multiple after its last touch + 18000.
//
// Facts kept exactly:
//   - A fresh tree has /, /zookeeper, /zookeeper/quota and
//     /zookeeper/config with empty data and zero stats; the root's
//     cversion reads -1 and /zookeeper's -2 (DataNode.copyStat reports the
//     persisted cversion, which counts creates only, times two less the
//     children; those children were never created by a transaction), and
//     /zookeeper/config's aclVersion is -1.
//   - Sequential names append the parent's persisted cversion as %010d,
//     so deletes do not free numbers and the first child of a new node is
//     0000000000.
//   - Children come back in the order of the parent's HashSet<String>(8)
//     (core/jdk StringHashSet follows it through adds and removes).
//     zookeeper-shell 3.5.9's ls sorts them (Collections.sort in
//     cli/LsCommand.java printChildren), so the shell shows sorted names;
//     programs that call getChildren (Kafka's KafkaZkClient) see the
//     HashSet order.
//   - Closing or expiring a session deletes its ephemeral nodes with the
//     closeSession's zxid in the order of the session's HashSet<String>
//     (DataTree.killSession), each firing its watches.
//   - Watches: getData and exists set data watches (exists also on a
//     missing node), getChildren child watches; create fires NodeCreated
//     (data watches of the path) and NodeChildrenChanged (child watches of
//     the parent); delete fires NodeDeleted (data watches, then child
//     watches of the path not already told) and NodeChildrenChanged (the
//     parent's); setData fires NodeDataChanged. All in state
//     SyncConnected, each watch once.
//
// Choices where Java leaves the order open: a path's watchers are held in
// a HashSet of connection objects whose order follows identity hash codes;
// here they fire in the order they were set. Times are milliseconds the
// caller passes (the simulation's clock); Stat.Format prints them as
// java.util.Date.toString in UTC, a zone the JVM would take from its host.
//
// Not modelled (later steps or never): ACLs (every node is open;
// aversion is kept), quotas, CONTAINER and TTL nodes, reconfig, snapshots
// (a restarted standalone Server starts empty and knows no session; an
// ensemble member replays its whole log, and a SNAP ships the leader's
// whole committed history, replayed into a fresh tree, so children keep
// the leader's HashSet order where a deserialized snapshot might not),
// SessionMoved, session passwords, the connect string's shuffle
// (StaticHostProvider; servers are tried in the given order), the
// client's own path validation. In the ensemble: observers, local
// sessions, the sync op, QuorumCnxManager's connection rules (only the
// higher sid connects), Learner.connectToLeader's retries, the epoch
// checks that make a leader give up when a follower is ahead
// (waitForEpochAck), reading old transactions from the log files to
// DIFF past the 500 kept in memory (SNAP instead), the leader's
// learner-handler queues and their syncLimit-based proposal lag check.
//
// Determinism: the only clock is the simulation's, the only randomness
// the client's reconnect sleep from the run's seeded stream
// "zk-client-reconnect", and no result depends on Go's map order (maps
// are looked up, or their keys sorted or reduced to a minimum).
package zookeeper
