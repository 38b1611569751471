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
// and their replay (a restarted Server starts empty and knows no
// session), SessionMoved, session passwords, the connect string's
// shuffle (StaticHostProvider; servers are tried in the given order),
// ZAB, the client's own path validation.
//
// Determinism: the only clock is the simulation's, the only randomness
// the client's reconnect sleep from the run's seeded stream
// "zk-client-reconnect", and no result depends on Go's map order (maps
// are looked up, or their keys sorted or reduced to a minimum).
package zookeeper
