package zookeeper

import (
	"strconv"
	"strings"
	"unicode/utf16"
)

// The four nodes every 3.5 server starts with (DataTree's constructor and
// addConfigNode, release-3.5.9; the names from Quotas.java and
// ZooDefs.CONFIG_NODE). They cannot be deleted
// (PrepRequestProcessor.getParentPathAndValidate rejects them with
// BadArguments).
const (
	RootPath      = "/"
	ProcPath      = "/zookeeper"
	QuotaPath     = "/zookeeper/quota"
	ConfigPath    = "/zookeeper/config"
	sequenceWidth = 10
)

func isSpecialPath(p string) bool {
	return p == RootPath || p == ProcPath || p == QuotaPath || p == ConfigPath
}

// ValidatePath is common/PathUtils.validatePath: "" when p is a valid
// znode path, else the IllegalArgumentException's message. Positions and
// characters are UTF-16 code units, as Java's String.charAt.
func ValidatePath(p string) string {
	if p == "" {
		return "Path length must be > 0"
	}
	if p[0] != '/' {
		return "Path must start with / character"
	}
	if p == "/" {
		return ""
	}
	if p[len(p)-1] == '/' {
		return "Path must not end with / character"
	}
	chars := utf16.Encode([]rune(p))
	reason := ""
	lastc := uint16('/')
	for i := 1; i < len(chars); lastc, i = chars[i], i+1 {
		c := chars[i]
		atEnd := i+1 == len(chars)
		switch {
		case c == 0:
			reason = "null character not allowed @" + strconv.Itoa(i)
		case c == '/' && lastc == '/':
			reason = "empty node name specified @" + strconv.Itoa(i)
		case c == '.' && lastc == '.':
			if chars[i-2] == '/' && (atEnd || chars[i+1] == '/') {
				reason = "relative paths not allowed @" + strconv.Itoa(i)
			}
		case c == '.':
			if chars[i-1] == '/' && (atEnd || chars[i+1] == '/') {
				reason = "relative paths not allowed @" + strconv.Itoa(i)
			}
		case c > 0 && c <= 0x1f, c >= 0x7f && c <= 0x9f,
			c >= 0xd800 && c <= 0xf8ff, c >= 0xfff0:
			reason = "invalid character @" + strconv.Itoa(i)
		}
		if reason != "" {
			return "Invalid path string \"" + p + "\" caused by " + reason
		}
	}
	return ""
}

// splitPath is path.lastIndexOf('/') as DataTree and PrepRequestProcessor
// use it: the parent ("" for a child of the root, which the tree knows as
// an alias of "/") and the child's name; ok is false when p has no '/'.
func splitPath(p string) (parent, child string, ok bool) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", "", false
	}
	return p[:i], p[i+1:], true
}

// watchPath is the path a parent's child watch is kept under: DataTree
// triggers "/" for the root's children ("".equals(parentName) ? "/" : …).
func watchPath(parent string) string {
	if parent == "" {
		return "/"
	}
	return parent
}
