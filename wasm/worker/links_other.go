//go:build !js

package main

import "sync"

// memLinks keeps short links in memory (natively: tests and local runs).
type memLinks struct {
	mu sync.Mutex
	m  map[string]string
}

func newLinkStore() linkStore { return &memLinks{m: map[string]string{}} }

func (l *memLinks) Get(id string) (string, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f, ok := l.m[id]
	return f, ok, nil
}

func (l *memLinks) Put(id, fields string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.m[id] = fields
	return nil
}
