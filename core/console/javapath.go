package console

import "strings"

// javaPath is how Paths.get(p) prints a path: repeated and trailing
// slashes removed.
func javaPath(p string) string {
	for strings.Contains(p, "//") {
		p = strings.ReplaceAll(p, "//", "/")
	}
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	return p
}

// perfWorkDir is the working directory a relative path is resolved
// against when the tool prints it. The terminal has none of its own; we
// use /opt/kafka, the installation the tools' example paths
// (/opt/kafka/bin/...) come from.
const perfWorkDir = "/opt/kafka"

// absPath is Paths.get(p).toAbsolutePath().
func absPath(p string) string {
	p = javaPath(p)
	switch {
	case strings.HasPrefix(p, "/"):
		return p
	case p == "":
		return perfWorkDir
	}
	return perfWorkDir + "/" + p
}
