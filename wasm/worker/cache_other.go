//go:build !js

package main

import "sync"

// memCache keeps the last memCacheSize answers in memory (natively).
type memCache struct {
	mu    sync.Mutex
	m     map[string]*stored
	order []string // keys, oldest first
}

const memCacheSize = 64

func newResponseCache() responseCache { return &memCache{m: map[string]*stored{}} }

func (c *memCache) Get(key string) (*stored, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.m[key]
	return s, ok
}

func (c *memCache) Put(key string, s *stored) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; !ok {
		c.order = append(c.order, key)
	}
	c.m[key] = s
	if len(c.order) > memCacheSize {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
}
