package console

import (
	"path"
	"strings"

	"kafkascope/core/storage"
)

// homeDir is where the shell helpers start: the brokers' log.dirs, so "ls"
// alone lists it.
const homeDir = "/tmp/kafka-logs"

// diskArgs splits "--broker N" from the other arguments and picks the disk
// (default: the first running broker).
func (s *Session) diskArgs(cmd string, args []string) (*storage.Disk, int32, []string, bool) {
	if !s.needCluster(cmd) {
		return nil, 0, nil, false
	}
	var rest []string
	id := int32(-1)
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--broker" && i+1 < len(args):
			n, ok := s.brokerID(cmd, args[i+1])
			if !ok {
				return nil, 0, nil, false
			}
			id = n
			i++
		case strings.HasPrefix(args[i], "--broker="):
			n, ok := s.brokerID(cmd, strings.TrimPrefix(args[i], "--broker="))
			if !ok {
				return nil, 0, nil, false
			}
			id = n
		default:
			rest = append(rest, args[i])
		}
	}
	if id < 0 {
		for _, n := range s.cluster.NodeIDs() {
			if s.cluster.BrokerIsRunning(n) {
				id = n
				break
			}
		}
		if id < 0 {
			id = s.cluster.NodeIDs()[0]
		}
	}
	d := s.cluster.Disk(id)
	if d == nil {
		s.printf("%s: no broker with id %d", cmd, id)
		return nil, 0, nil, false
	}
	return d, id, rest, true
}

func resolvePath(p string) string {
	if !strings.HasPrefix(p, "/") {
		p = path.Join(homeDir, p)
	}
	return path.Clean(p)
}

// cmdLs lists a directory one name per line (as ls does when its output is
// not a terminal); -a shows dot files.
func (s *Session) cmdLs(args []string) {
	d, _, rest, ok := s.diskArgs("ls", args)
	if !ok {
		return
	}
	all := false
	var paths []string
	for _, a := range rest {
		switch {
		case a == "-a" || a == "-1" || a == "-a1" || a == "-1a":
			all = all || strings.Contains(a, "a")
		case strings.HasPrefix(a, "-"):
			s.printf("ls: option %s is not supported by the simulator (try ls, ls -a)", a)
			return
		default:
			paths = append(paths, a)
		}
	}
	if len(paths) == 0 {
		paths = []string{homeDir}
	}
	for i, p := range paths {
		full := resolvePath(p)
		if !d.Exists(full) {
			s.printf("ls: cannot access '%s': No such file or directory", p)
			continue
		}
		if !d.IsDir(full) {
			s.print(p)
			continue
		}
		if len(paths) > 1 {
			if i > 0 {
				s.print("")
			}
			s.print(p + ":")
		}
		for _, e := range d.List(full) {
			if strings.HasPrefix(e.Name, ".") && !all {
				continue
			}
			s.print(e.Name)
		}
	}
}

// readArg reads one file argument.
func (s *Session) readArg(cmd string, args []string) ([]byte, bool) {
	d, _, rest, ok := s.diskArgs(cmd, args)
	if !ok {
		return nil, false
	}
	if len(rest) != 1 {
		s.printf("usage: %s [--broker N] FILE", cmd)
		return nil, false
	}
	full := resolvePath(rest[0])
	if d.IsDir(full) {
		s.printf("%s: %s: Is a directory", cmd, rest[0])
		return nil, false
	}
	data, err := d.ReadFile(full)
	if err != nil {
		s.printf("%s: %s: No such file or directory", cmd, rest[0])
		return nil, false
	}
	return data, true
}

// cmdCat prints a file; a last line without a newline is printed as a line.
func (s *Session) cmdCat(args []string) {
	data, ok := s.readArg("cat", args)
	if !ok || len(data) == 0 {
		return
	}
	text := strings.TrimSuffix(string(data), "\n")
	for _, l := range strings.Split(text, "\n") {
		s.print(l)
	}
}

// cmdXxd prints a hex dump in xxd's default format; -a skips runs of zero
// lines as xxd -a does (see xxd.go).
func (s *Session) cmdXxd(args []string) {
	autoskip := false
	var rest []string
	for _, a := range args {
		if a == "-a" || a == "-autoskip" {
			autoskip = !autoskip // xxd's -a toggles
			continue
		}
		rest = append(rest, a)
	}
	data, ok := s.readArg("xxd", rest)
	if !ok {
		return
	}
	for _, l := range hexDump(data, autoskip || len(data) > xxdAutoskipBytes) {
		s.print(l)
	}
}
