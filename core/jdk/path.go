package jdk

import "strings"

// Path is how java.nio.file.Paths.get(p) prints a Unix path: repeated
// and trailing slashes removed (UnixPath.normalizeAndCheck).
func Path(p string) string {
	for strings.Contains(p, "//") {
		p = strings.ReplaceAll(p, "//", "/")
	}
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	return p
}
