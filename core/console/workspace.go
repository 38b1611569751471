package console

import (
	"path"
	"strings"
)

// The workspace holds the terminal's own files: a JSON plan for
// kafka-reassign-partitions.sh or a properties file, written with
// "cat > FILE" and the lines that follow as its input. They belong to the
// session, not to any broker (paths under log.dirs still mean a broker's
// disk), and, like everything a session does, they are rebuilt when the
// session is replayed.
const (
	MaxWorkspaceFiles     = 32
	MaxWorkspaceFileBytes = 64 << 10
)

// workspaceName normalises a file name; ok is false for paths that name a
// broker's log directory instead.
func workspaceName(p string) (string, bool) {
	if p == "" {
		return "", false
	}
	clean := path.Clean(p)
	if clean == homeDir || strings.HasPrefix(clean, homeDir+"/") {
		return "", false
	}
	return strings.TrimPrefix(clean, "./"), true
}

// readWorkspace returns a workspace file's content.
func (s *Session) readWorkspace(p string) (string, bool) {
	name, ok := workspaceName(p)
	if !ok {
		return "", false
	}
	data, ok := s.files[name]
	return data, ok
}

// catRedirect handles "cat > FILE" and "cat >> FILE": stdin becomes the
// file (or is appended to it). It reports whether args were a redirection.
func (s *Session) catRedirect(args []string, stdin []string) bool {
	var target string
	appendTo := false
	switch {
	case len(args) == 2 && (args[0] == ">" || args[0] == ">>"):
		target, appendTo = args[1], args[0] == ">>"
	case len(args) == 1 && strings.HasPrefix(args[0], ">>") && len(args[0]) > 2:
		target, appendTo = args[0][2:], true
	case len(args) == 1 && strings.HasPrefix(args[0], ">") && len(args[0]) > 1:
		target = args[0][1:]
	default:
		for _, a := range args {
			if strings.HasPrefix(a, ">") {
				s.print("usage: cat > FILE   (then the file's lines as input)")
				return true
			}
		}
		return false
	}
	name, ok := workspaceName(target)
	if !ok {
		s.printf("cat: %s: the simulator writes only to the terminal's own files, not into a broker's log directory", target)
		return true
	}
	text := strings.Join(stdin, "\n")
	if len(stdin) > 0 {
		text += "\n"
	}
	if appendTo {
		text = s.files[name] + text
	}
	if _, exists := s.files[name]; !exists && len(s.files) >= MaxWorkspaceFiles {
		s.printf("cat: %s: the terminal holds at most %d files", target, MaxWorkspaceFiles)
		return true
	}
	if len(text) > MaxWorkspaceFileBytes {
		s.printf("cat: %s: a file may hold at most %d bytes", target, MaxWorkspaceFileBytes)
		return true
	}
	if s.files == nil {
		s.files = map[string]string{}
	}
	s.files[name] = text
	return true
}

// catWorkspace prints a workspace file if args name one.
func (s *Session) catWorkspace(args []string) bool {
	if len(args) != 1 {
		return false
	}
	data, ok := s.readWorkspace(args[0])
	if !ok {
		return false
	}
	text := strings.TrimSuffix(data, "\n")
	if text == "" {
		return true
	}
	for _, l := range strings.Split(text, "\n") {
		s.print(l)
	}
	return true
}
