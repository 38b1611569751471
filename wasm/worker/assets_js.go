//go:build js

package main

import (
	"fmt"
	"io"
	"net/http"

	"github.com/syumai/workers/cloudflare"
	"github.com/syumai/workers/cloudflare/fetch"
)

// pageAssets reads the page's files from the Worker's static assets (the
// ASSETS binding of wrangler.jsonc; the host of the URL does not matter to
// it). A Worker keeps nothing between requests: each reads them anew.
func pageAssets() assetReader {
	return func(name string) ([]byte, error) {
		client := fetch.NewClient(fetch.WithBinding(cloudflare.GetBinding("ASSETS"))).HTTPClient(fetch.RedirectModeFollow)
		resp, err := client.Get("https://assets.invalid/public/" + name)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("public/%s: %s", name, resp.Status)
		}
		return io.ReadAll(resp.Body)
	}
}
