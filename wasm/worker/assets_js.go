//go:build js

package main

import (
	"fmt"
	"io"
	"net/http"

	"github.com/syumai/workers/cloudflare"
	"github.com/syumai/workers/cloudflare/fetch"
)

// pageAssets reads the site's files from the Worker's static assets (the
// ASSETS binding of wrangler.jsonc; the host of the URL does not matter to
// it). A Worker keeps nothing between requests: each reads them anew.
// index.html is asked for as "/": the platform answers /index.html with a
// redirect there.
func pageAssets() assetReader {
	return func(name string) ([]byte, error) {
		if name == "index.html" {
			name = ""
		}
		client := fetch.NewClient(fetch.WithBinding(cloudflare.GetBinding("ASSETS"))).HTTPClient(fetch.RedirectModeFollow)
		resp, err := client.Get("https://assets.invalid/" + name)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("/%s: %s", name, resp.Status)
		}
		return io.ReadAll(resp.Body)
	}
}
