package console

import (
	"sort"
	"strings"
	"unicode/utf8"

	"kafkascope/core/jdk"
	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// The CliCommands kafkascope runs (cli/*Command.java, release-3.5.9).
// Each parses its words (the command's name first) with its options;
// a parse error is a CliParseException, the usage a
// MalformedCommandException or CliParseException of getUsageStr(), all
// exit code 1. A path the client refuses (PathUtils.validatePath in each
// ZooKeeper method, on the path as given) is a MalformedPathException
// with the IllegalArgumentException's message.

// parseCli parses words, failing the command on a parse error.
func (p *zkShellProc) parseCli(opts cliOptions, words []string) (*cliLine, bool) {
	l, err := opts.parse(words)
	if err != "" {
		p.fail(err, 1)
		return nil, false
	}
	return l, true
}

// retainCompatibility is the 3.4 form "cmd path watch" that ls, get and
// stat still take: with more than two words left, the third word of the
// command line (whatever it was) becomes "-w", a warning goes to stderr,
// and the words are parsed again.
func (p *zkShellProc) retainCompatibility(opts cliOptions, l *cliLine, words []string, warning string) (*cliLine, bool) {
	if len(l.args) <= 2 {
		return l, true
	}
	words[2] = "-w"
	p.t.println(warning)
	return p.parseCli(opts, words)
}

// validPath is the client's PathUtils.validatePath.
func (p *zkShellProc) validPath(path string) bool {
	if msg := zookeeper.ValidatePath(path); msg != "" {
		p.fail(msg, 1)
		return false
	}
	return true
}

// keeperFailed ends the command with CliWrapperException's message for a
// failed call on path.
func (p *zkShellProc) keeperFailed(rc zookeeper.Code, path string) {
	p.fail(cliWrapperMessage(rc, path), 1)
}

// lsOptions are LsCommand's: -? prints its help, -s the parent's stat,
// -w sets a child watch, -R lists the subtree.
var lsOptions = cliOptions{"?": false, "s": false, "w": false, "R": false}

// lsHelp is LsCommand.printHelp: commons-cli 1.4's HelpFormatter with
// "ls [options] path" and the options sorted by key ignoring case, each
// " -x" and three spaces before its description.
var lsHelp = []string{"usage: ls [options] path", " -?   help", " -R   recurse", " -s   stat", " -w   watch"}

func (p *zkShellProc) ls(env *sim.Env, words []string) {
	l, ok := p.parseCli(lsOptions, words)
	if !ok {
		return
	}
	if l.hasOption("?") {
		p.t.printLines(lsHelp)
	}
	if l, ok = p.retainCompatibility(lsOptions, l, words, "'ls path [watch]' has been deprecated. Please use 'ls [-w] path' instead."); !ok {
		return
	}
	if len(l.args) < 2 {
		p.fail(zkUsageStr("ls"), 1)
		return
	}
	path, watch := l.args[1], l.hasOption("w")
	if l.hasOption("R") {
		p.lsRecursive(env, path, watch)
		return
	}
	p.getChildren(env, path, watch, func(env *sim.Env, children []string, st zookeeper.Stat) {
		// printChildren: sorted, "[a, b]", the stat glued to it with -s,
		// then a newline.
		sort.Strings(children)
		out := "[" + strings.Join(children, ", ") + "]"
		if l.hasOption("s") {
			out += st.Format()
		}
		p.printText(out)
		p.exit(0)
	})
}

// lsRecursive is ZKUtil.visitSubTreeDFS: a getData of the path (its
// NONODE fails the command), the path, then per node its children
// sorted, their paths, and each child's subtree; a node gone meanwhile
// (NONODE) is skipped. With -w every call sets its watch.
func (p *zkShellProc) lsRecursive(env *sim.Env, path string, watch bool) {
	if !p.validPath(path) {
		return
	}
	p.request(env, &zookeeper.Request{Type: zookeeper.OpGetData, Path: path, Watch: watch}, func(env *sim.Env, r *zookeeper.Reply) {
		if r.Err != zookeeper.OK {
			p.keeperFailed(r.Err, path)
			return
		}
		p.t.println(path)
		p.visit(env, path, watch, func(*sim.Env) { p.exit(0) })
	})
}

func (p *zkShellProc) visit(env *sim.Env, path string, watch bool, then func(env *sim.Env)) {
	p.request(env, &zookeeper.Request{Type: zookeeper.OpGetChildren2, Path: path, Watch: watch}, func(env *sim.Env, r *zookeeper.Reply) {
		switch r.Err {
		case zookeeper.OK:
		case zookeeper.NoNode:
			then(env)
			return
		default:
			p.keeperFailed(r.Err, path)
			return
		}
		children := append([]string(nil), r.Children...)
		sort.Strings(children)
		prefix := path + "/"
		if path == "/" {
			prefix = path
		}
		for _, c := range children {
			p.t.println(prefix + c)
		}
		var next func(env *sim.Env, i int)
		next = func(env *sim.Env, i int) {
			if i == len(children) {
				then(env)
				return
			}
			p.visit(env, prefix+children[i], watch, func(env *sim.Env) { next(env, i+1) })
		}
		next(env, 0)
	})
}

func (p *zkShellProc) ls2(env *sim.Env, words []string) {
	l, ok := p.parseCli(cliOptions{}, words)
	if !ok {
		return
	}
	if len(l.args) < 2 {
		p.fail(zkUsageStr("ls2"), 1)
		return
	}
	p.t.println("'ls2' has been deprecated. Please use 'ls [-s] path' instead.")
	// Ls2Command: any third word asks for a watch; the children in the
	// server's order (List.toString, no sort), then the stat.
	p.getChildren(env, l.args[1], len(l.args) > 2, func(env *sim.Env, children []string, st zookeeper.Stat) {
		p.printText("[" + strings.Join(children, ", ") + "]\n" + strings.TrimSuffix(st.Format(), "\n"))
		p.exit(0)
	})
}

// getChildren is zk.getChildren(path, watch, stat), failing the command
// with CliWrapperException's message.
func (p *zkShellProc) getChildren(env *sim.Env, path string, watch bool, k func(env *sim.Env, children []string, st zookeeper.Stat)) {
	if !p.validPath(path) {
		return
	}
	p.request(env, &zookeeper.Request{Type: zookeeper.OpGetChildren2, Path: path, Watch: watch}, func(env *sim.Env, r *zookeeper.Reply) {
		if r.Err != zookeeper.OK {
			p.keeperFailed(r.Err, path)
			return
		}
		k(env, append([]string(nil), r.Children...), r.Stat)
	})
}

// request sends a request on a client path: the chroot goes in front.
func (p *zkShellProc) request(env *sim.Env, req *zookeeper.Request, k func(env *sim.Env, r *zookeeper.Reply)) {
	req.Path = p.serverPath(req.Path)
	p.call(env, req, k)
}

var getOptions = cliOptions{"s": false, "w": false}

func (p *zkShellProc) get(env *sim.Env, words []string) {
	l, ok := p.parseCli(getOptions, words)
	if !ok {
		return
	}
	if len(l.args) < 2 {
		p.fail(zkUsageStr("get"), 1)
		return
	}
	if l, ok = p.retainCompatibility(getOptions, l, words, "'get path [watch]' has been deprecated. Please use 'get [-s] [-w] path' instead."); !ok {
		return
	}
	path := l.args[1]
	if !p.validPath(path) {
		return
	}
	p.request(env, &zookeeper.Request{Type: zookeeper.OpGetData, Path: path, Watch: l.hasOption("w")}, func(env *sim.Env, r *zookeeper.Reply) {
		if r.Err != zookeeper.OK {
			// GetCommand wraps the KeeperException in a plain
			// CliException: its toString is the message.
			p.fail(keeperToString(r.Err, path), 1)
			return
		}
		// new String(data), "null" for null data.
		out := "null"
		if r.Data != nil {
			out = javaString(r.Data)
		}
		if l.hasOption("s") {
			out += "\n" + strings.TrimSuffix(r.Stat.Format(), "\n")
		}
		p.printText(out)
		p.exit(0)
	})
}

// javaString is new String(bytes) in UTF-8: each byte that is not part
// of a valid sequence becomes U+FFFD.
func javaString(b []byte) string {
	var sb strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		sb.WriteRune(r)
		b = b[n:]
	}
	return sb.String()
}

var statOptions = cliOptions{"w": false}

func (p *zkShellProc) stat(env *sim.Env, words []string) {
	l, ok := p.parseCli(statOptions, words)
	if !ok {
		return
	}
	if len(l.args) < 2 {
		p.fail(zkUsageStr("stat"), 1)
		return
	}
	if l, ok = p.retainCompatibility(statOptions, l, words, "'stat path [watch]' has been deprecated. Please use 'stat [-w] path' instead."); !ok {
		return
	}
	path := l.args[1]
	if !p.validPath(path) {
		return
	}
	// zk.exists: a missing node is null, which StatCommand turns into a
	// NoNodeException (and the watch, if any, waits for its creation).
	p.request(env, &zookeeper.Request{Type: zookeeper.OpExists, Path: path, Watch: l.hasOption("w")}, func(env *sim.Env, r *zookeeper.Reply) {
		if r.Err != zookeeper.OK {
			p.keeperFailed(r.Err, path)
			return
		}
		p.printText(strings.TrimSuffix(r.Stat.Format(), "\n"))
		p.exit(0)
	})
}

// javaParseInt is Integer.parseInt, whose NumberFormatException is not
// a CliException: it leaves main (SetCommand and DeleteCommand parse -v
// so).
func (p *zkShellProc) javaParseInt(s string) (int32, bool) {
	n, ok := jdk.ParseInt(s, 32)
	if !ok {
		p.crash(javaNumberFormat(s))
		return 0, false
	}
	return int32(n), true
}
