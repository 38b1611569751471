package console

import (
	"strings"

	"kafkascope/core/jdk"
	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// The writing CliCommands (cli/CreateCommand.java, SetCommand.java,
// DeleteCommand.java, DeleteAllCommand.java, release-3.5.9).

// createOptions: -e ephemeral, -s sequential, -c container, -t ttl.
var createOptions = cliOptions{"e": false, "s": false, "c": false, "t": true}

func (p *zkShellProc) create(env *sim.Env, words []string) {
	l, ok := p.parseCli(createOptions, words)
	if !ok {
		return
	}
	if len(l.args) < 2 {
		p.fail(zkUsageStr("create"), 1)
		return
	}
	hasE, hasS, hasC, hasT := l.hasOption("e"), l.hasOption("s"), l.hasOption("c"), l.hasOption("t")
	if hasC && (hasE || hasS) {
		p.fail("-c cannot be combined with -s or -e. Containers cannot be ephemeral or sequential.", 1)
		return
	}
	if hasT {
		if _, ok := jdk.ParseInt(l.opts["t"], 64); !ok {
			p.fail("-t argument must be a long value", 1)
			return
		}
		if hasE {
			p.fail("TTLs cannot be used with Ephemeral znodes", 1)
			return
		}
		if hasC {
			p.fail("TTLs cannot be used with Container znodes", 1)
			return
		}
	}
	if hasC || hasT {
		p.fail("kafkascope: container and TTL znodes (create -c, -t) are not simulated", 1)
		return
	}
	mode := zookeeper.Persistent
	switch {
	case hasE && hasS:
		mode = zookeeper.EphemeralSequential
	case hasE:
		mode = zookeeper.Ephemeral
	case hasS:
		mode = zookeeper.PersistentSequential
	}
	path := l.args[1]
	var data []byte // null unless given
	if len(l.args) > 2 {
		data = []byte(l.args[2])
	}
	if len(l.args) > 3 {
		p.fail("kafkascope: create's acl is not simulated: ACLs are not modelled (every znode is open to everyone)", 1)
		return
	}
	// ZooKeeper.create validates a sequential node's path with a digit
	// appended (PathUtils.validatePath(path, isSequential)).
	check := path
	if mode.IsSequential() {
		check += "1"
	}
	if !p.validPath(check) {
		return
	}
	p.request(env, &zookeeper.Request{Type: zookeeper.OpCreate, Path: path, Data: data, Mode: mode}, func(env *sim.Env, r *zookeeper.Reply) {
		if r.Err != zookeeper.OK {
			p.keeperFailed(r.Err, path)
			return
		}
		// On stderr, with the created name (the chroot taken off, as
		// ZooKeeper.create returns it).
		p.t.println("Created " + p.clientPath(r.Path))
		p.exit(0)
	})
}

var setOptions = cliOptions{"s": false, "v": true}

func (p *zkShellProc) set(env *sim.Env, words []string) {
	l, ok := p.parseCli(setOptions, words)
	if !ok {
		return
	}
	if len(l.args) < 3 {
		p.fail(zkUsageStr("set"), 1)
		return
	}
	path, data := l.args[1], []byte(l.args[2])
	version, ok := p.versionOption(l)
	if !ok || !p.validPath(path) {
		return
	}
	p.request(env, &zookeeper.Request{Type: zookeeper.OpSetData, Path: path, Data: data, Version: version}, func(env *sim.Env, r *zookeeper.Reply) {
		if r.Err != zookeeper.OK {
			p.keeperFailed(r.Err, path)
			return
		}
		if l.hasOption("s") {
			p.printText(strings.TrimSuffix(r.Stat.Format(), "\n"))
		}
		p.exit(0)
	})
}

// versionOption is -v's Integer.parseInt, -1 (any version) without it.
func (p *zkShellProc) versionOption(l *cliLine) (int32, bool) {
	if !l.hasOption("v") {
		return -1, true
	}
	return p.javaParseInt(l.opts["v"])
}

var deleteOptions = cliOptions{"v": true}

func (p *zkShellProc) delete(env *sim.Env, words []string) {
	l, ok := p.parseCli(deleteOptions, words)
	if !ok {
		return
	}
	if len(l.args) < 2 {
		p.fail(zkUsageStr("delete"), 1)
		return
	}
	if len(l.args) > 2 {
		// DeleteCommand.retainCompatibility warns and parses the same
		// words again: the old "delete path version" form's version is
		// ignored.
		p.t.println("'delete path [version]' has been deprecated. Please use 'delete [-v version] path' instead.")
	}
	path := l.args[1]
	version, ok := p.versionOption(l)
	if !ok || !p.validPath(path) {
		return
	}
	p.deleteNode(env, path, version, func(*sim.Env) { p.exit(0) })
}

// deleteNode is zk.delete. Its server path keeps "/" as it is, even under
// a chroot (ZooKeeper.delete: "root cannot be deleted").
func (p *zkShellProc) deleteNode(env *sim.Env, path string, version int32, then func(env *sim.Env)) {
	req := &zookeeper.Request{Type: zookeeper.OpDelete, Path: p.serverPath(path), Version: version}
	if path == "/" {
		req.Path = path
	}
	p.call(env, req, func(env *sim.Env, r *zookeeper.Reply) {
		if r.Err != zookeeper.OK {
			p.keeperFailed(r.Err, path)
			return
		}
		then(env)
	})
}

// deleteAll is DeleteAllCommand (and its deprecated name rmr):
// ZKUtil.deleteRecursive lists the subtree breadth first (getChildren,
// the server's order, each child's path as node + "/" + child, so the
// root's children come out as "//name", which the client refuses), then
// deletes it from the last node listed back to the first.
func (p *zkShellProc) deleteAll(env *sim.Env, words []string) {
	l, ok := p.parseCli(cliOptions{}, words)
	if !ok {
		return
	}
	if len(l.args) < 2 {
		p.fail(zkUsageStr(words[0]), 1)
		return
	}
	if l.args[0] == "rmr" {
		p.t.println("The command 'rmr' has been deprecated. Please use 'deleteall' instead.")
	}
	root := l.args[1]
	if !p.validPath(root) {
		return
	}
	tree := []string{root}
	var list func(env *sim.Env, i int)
	list = func(env *sim.Env, i int) {
		if i == len(tree) {
			p.deleteFrom(env, tree, len(tree)-1)
			return
		}
		node := tree[i]
		if !p.validPath(node) {
			return
		}
		p.request(env, &zookeeper.Request{Type: zookeeper.OpGetChildren2, Path: node}, func(env *sim.Env, r *zookeeper.Reply) {
			if r.Err != zookeeper.OK {
				p.keeperFailed(r.Err, node)
				return
			}
			for _, c := range r.Children {
				tree = append(tree, node+"/"+c)
			}
			list(env, i+1)
		})
	}
	list(env, 0)
}

func (p *zkShellProc) deleteFrom(env *sim.Env, tree []string, i int) {
	if i < 0 {
		p.exit(0)
		return
	}
	if !p.validPath(tree[i]) {
		return
	}
	p.deleteNode(env, tree[i], -1, func(env *sim.Env) { p.deleteFrom(env, tree, i-1) })
}
