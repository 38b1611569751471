//go:build !js

package main

import "os"

// pageAssets reads the page's files from $KAFKASCOPE_PUBLIC, or ./public
// (run from the repository's root).
func pageAssets() assetReader {
	dir := os.Getenv("KAFKASCOPE_PUBLIC")
	if dir == "" {
		dir = "public"
	}
	return dirAssets(dir)
}
