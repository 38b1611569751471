//go:build !js

package main

import "os"

// pageAssets reads the site's files from $KAFKASCOPE_SITE, or the
// current directory (the repository's root: index.html and public/).
func pageAssets() assetReader {
	dir := os.Getenv("KAFKASCOPE_SITE")
	if dir == "" {
		dir = "."
	}
	return dirAssets(dir)
}
