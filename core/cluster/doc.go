// Package cluster composes a simulated Kafka cluster: a sim.World, one
// process per Kafka node (broker plus, for voters, controller, as in KRaft
// combined mode), each node's disk, and the client processes the console
// starts. It is the facade the console, the UI and tests drive: create the
// cluster, kill/stop/start nodes, cut and heal the network, advance time, and
// read any node's state between steps.
//
// It owns composition and lifecycles only; Kafka's rules live in the node
// packages. With Config.Leap it also leaps the spans in which only an idle
// cluster's steady loops run (leap.go), computed in closed form by the
// node packages; Digest describes the moving state a leaped run must share
// with a stepped one.
package cluster
