package render

import (
	"encoding/json"
	"sync"
)

// rewriteCache remembers the rewritten form of schemas, keyed by the schema
// bytes themselves (not by pointer), so a cached answer can never be stale:
// a caller that reuses or modifies a buffer simply misses. Lookups of
// m[string(b)] do not allocate. The cache holds at most maxCached entries
// per rewrite; when full it is emptied and refilled.
//
// Rewritten schemas handed out from the cache are shared by every caller;
// like Tool.InputSchema they must be treated as read-only.
type rewriteCache struct {
	mu sync.RWMutex
	m  map[string]rewritten
}

type rewritten struct {
	out json.RawMessage // the rewritten schema; nil for "omit" (Gemini no-argument tool)
	err error           // a *SchemaError without Renderer and Tool
}

const maxCached = 1024

func (c *rewriteCache) get(in []byte, rewrite func([]byte) (json.RawMessage, error)) (json.RawMessage, error) {
	c.mu.RLock()
	r, ok := c.m[string(in)]
	c.mu.RUnlock()
	if ok {
		return r.out, r.err
	}
	out, err := rewrite(in)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxCached {
		c.m = make(map[string]rewritten)
	}
	c.m[string(in)] = rewritten{out: out, err: err}
	c.mu.Unlock()
	return out, err
}
