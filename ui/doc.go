// Package ui holds kafkascope's Vugu components (.vugu files, their paired
// .go files, and the generated *_gen.go, whose Build methods build their
// nodes through the helpers of vgbuild.go: scripts/vugutrim rewrites
// vugugen's output so, for a smaller main.wasm): the app frame (app), the
// cluster diagram (diagram), the terminal, the timeline bar, the story
// panel, the scenario gallery, the event feed, and beside it (a tab of the
// side column) the KRaft controller quorum (quorum) and the __cluster_metadata
// log as a list of events (meta-log.vugu, the MetaLog component: vugugen
// names a component after its file, so the file is hyphenated), and a
// partition on one broker's disk (disk: its files, its segments, a record
// batch's bytes with every field labelled; disk_hex.go draws the bytes).
// A ZooKeeper-era cluster (--version 2.8) has no quorum and no metadata
// log: its tab is ZooKeeper's (zoo-keeper.vugu, the ZooKeeper component:
// the znode tree, a znode's stat, the watches that fired), and the
// diagram draws the ensemble in a row above the brokers
// (diagram_zookeeper.go).
// A click on a replica strip in the diagram opens the disk tab on it.
// Under the brokers the diagram draws a card per producer (its record
// accumulator and sender: diagram_clients.go) and per consumer group
// (members, assignment, offsets and lag, rebalances: diagram_groups.go),
// and badges the broker that coordinates each group. Transactions
// (diagram_txn.go) mark the strips: a marker (a control batch) as a
// cell of its own, an aborted transaction's records struck through, an
// open one's ringed, and a replica's LSO, where below its HW, as a line
// like the HW's; a transactional producer's card shows its
// TransactionManager's state, its coordinator and the partitions in its
// transaction (diagram_txn_card.go), and the coordinator's card names
// its transactional ids.
//
// Every component is a view of a core/player.Player and forwards what the
// user does to it (a typed command, a click on a broker, a scrub); none holds
// simulation logic or decides what the cluster does. They never touch
// JavaScript: what they need from the page (the clipboard, the URL, focus)
// goes through the Host interface, so they build and test natively with
// Vugu's staticrender. wasm/ supplies the browser Host, runs the render
// loop, and drives App.Frame from requestAnimationFrame.
//
// The render loop passes every build through Prepare (a Preparer), which
// makes a panic in any handler a message on the page instead of a dead
// page (see render.go), and draws it with ui/patch, which sends the page
// only what changed since the last build. The parts that change every
// frame while a cluster plays are built so that the rest costs nothing: a
// component handing back its last output is skipped whole (TermChunk,
// FeedList, and each partition row of the diagram: DgRowMemo), long
// lists are keyed (data-key), and a large topic is drawn where the
// viewer looks (App.PartsView).
package ui
