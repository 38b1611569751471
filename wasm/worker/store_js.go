//go:build js

package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/syumai/workers/cloudflare/cache"
	"github.com/syumai/workers/cloudflare/kv"
)

// kvLinks keeps short links in the Workers KV namespace bound as LINKS
// (wrangler.jsonc). A missing key reads as the text "<null>", so values
// are stored behind a "#": a value without one is no link.
type kvLinks struct{}

func newLinkStore() linkStore { return kvLinks{} }

func (kvLinks) Get(id string) (string, bool, error) {
	ns, err := kv.NewNamespace("LINKS")
	if err != nil {
		return "", false, err
	}
	v, err := ns.GetString(id, nil)
	if err != nil {
		return "", false, err
	}
	fields, ok := strings.CutPrefix(v, "#")
	return fields, ok, nil
}

func (kvLinks) Put(id, fields string) error {
	ns, err := kv.NewNamespace("LINKS")
	if err != nil {
		return err
	}
	return ns.PutString(id, "#"+fields, nil)
}

// workerCache keeps answers in the data center's cache (the Cache API).
// Its keys are body-less GET requests made here: the incoming request
// carries an empty body that the JavaScript side refuses for a GET.
type workerCache struct{ c *cache.Cache }

func newResponseCache() responseCache { return workerCache{c: cache.New()} }

func (c workerCache) Get(key string) (*stored, bool) {
	req, err := http.NewRequest(http.MethodGet, key, nil)
	if err != nil {
		return nil, false
	}
	resp, err := c.c.Match(req, nil)
	if err != nil {
		return nil, false
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		return nil, false
	}
	return &stored{header: resp.Header, body: body}, true
}

func (c workerCache) Put(key string, s *stored) {
	req, err := http.NewRequest(http.MethodGet, key, nil)
	if err != nil {
		return
	}
	resp := &http.Response{
		StatusCode:    http.StatusOK,
		Header:        s.header.Clone(),
		Body:          io.NopCloser(bytes.NewReader(s.body)),
		ContentLength: int64(len(s.body)),
	}
	if err := c.c.Put(req, resp); err != nil {
		fmt.Println("kafkascope: cache put:", err) // the Worker's log; the answer still goes out
	}
}
