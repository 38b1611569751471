package zookeeper

import "strconv"

// EventType is Watcher.Event.EventType (Watcher.java, release-3.5.9).
type EventType int32

const (
	EventNone                EventType = -1
	EventNodeCreated         EventType = 1
	EventNodeDeleted         EventType = 2
	EventNodeDataChanged     EventType = 3
	EventNodeChildrenChanged EventType = 4
	EventDataWatchRemoved    EventType = 5
	EventChildWatchRemoved   EventType = 6
)

var eventNames = map[EventType]string{
	EventNone: "None", EventNodeCreated: "NodeCreated", EventNodeDeleted: "NodeDeleted",
	EventNodeDataChanged: "NodeDataChanged", EventNodeChildrenChanged: "NodeChildrenChanged",
	EventDataWatchRemoved: "DataWatchRemoved", EventChildWatchRemoved: "ChildWatchRemoved",
}

// String is the enum constant's name.
func (t EventType) String() string {
	if n, ok := eventNames[t]; ok {
		return n
	}
	return "EventType(" + strconv.Itoa(int(t)) + ")"
}

// KeeperState is Watcher.Event.KeeperState (Watcher.java, release-3.5.9).
type KeeperState int32

const (
	StateUnknown           KeeperState = -1
	StateDisconnected      KeeperState = 0
	StateNoSyncConnected   KeeperState = 1
	StateSyncConnected     KeeperState = 3
	StateAuthFailed        KeeperState = 4
	StateConnectedReadOnly KeeperState = 5
	StateSaslAuthenticated KeeperState = 6
	StateExpired           KeeperState = -112
	StateClosed            KeeperState = 7
)

var stateNames = map[KeeperState]string{
	StateUnknown: "Unknown", StateDisconnected: "Disconnected", StateNoSyncConnected: "NoSyncConnected",
	StateSyncConnected: "SyncConnected", StateAuthFailed: "AuthFailed",
	StateConnectedReadOnly: "ConnectedReadOnly", StateSaslAuthenticated: "SaslAuthenticated",
	StateExpired: "Expired", StateClosed: "Closed",
}

// String is the enum constant's name.
func (s KeeperState) String() string {
	if n, ok := stateNames[s]; ok {
		return n
	}
	return "KeeperState(" + strconv.Itoa(int(s)) + ")"
}

// WatchedEvent is org.apache.zookeeper.WatchedEvent. The tree's events are
// always in state SyncConnected (WatchManager.triggerWatch).
type WatchedEvent struct {
	Type  EventType
	State KeeperState
	Path  string
}

// String is WatchedEvent.toString, which zookeeper-shell prints after a
// "WATCHER::" line when a watch fires (ZooKeeperMain.MyWatcher):
// "WatchedEvent state:SyncConnected type:NodeDataChanged path:/a".
func (e WatchedEvent) String() string {
	path := e.Path
	if path == "" {
		path = "null" // a state change's path is null
	}
	return "WatchedEvent state:" + e.State.String() + " type:" + e.Type.String() + " path:" + path
}

// WatcherID names who set a watch: the server's connection for a session
// (a ServerCnxn is the Watcher in WatchManager). NoWatch means "do not
// watch".
type WatcherID int64

// NoWatch, passed to a read, sets no watch.
const NoWatch WatcherID = 0

// Fired is one watch that fired: the event goes to Watcher.
type Fired struct {
	Watcher WatcherID
	Event   WatchedEvent
}
