package toolnexus

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"time"
)

// Store keeps small records that several processes share: MCP tasks and
// their results, the claims that make a suspended call run once, the key
// that seals state handed to clients. Keys are strings such as
// "toolnexus/task/ID"; values are bytes (JSON in toolnexus's own use).
// Every method is safe for concurrent use and honours ctx; an error is
// the store's own failure (a lost connection), never "not found".
//
// [NewMemoryStore] keeps them in this process. A store shared by
// replicas (github.com/toolnexus/toolnexus/store/redis) lets any replica
// take up what another began. The conformance suite in package storetest
// checks an implementation.
type Store interface {
	// Put stores value under key, replacing what was there, for ttl
	// (zero: until deleted).
	Put(ctx context.Context, key string, value []byte, ttl time.Duration) error
	// Get returns the value under key; ok is false when there is none or
	// it expired.
	Get(ctx context.Context, key string) (value []byte, ok bool, err error)
	// CompareAndSwap stores value under key for ttl only if the key now
	// holds old exactly, or, with old nil, only if it holds nothing; it
	// reports whether it stored. Two callers racing with the same old
	// never both succeed: this is how a call is claimed before it runs.
	CompareAndSwap(ctx context.Context, key string, old, value []byte, ttl time.Duration) (bool, error)
	// Delete removes key; a missing key is not an error.
	Delete(ctx context.Context, key string) error
	// List returns the keys that start with prefix (for example one
	// owner's "toolnexus/task/OWNER/"), sorted; expired keys are not
	// listed.
	List(ctx context.Context, prefix string) ([]string, error)
}

// NewMemoryStore returns a Store in this process's memory: what package
// mcp and exec use when no store is given. Expired values are dropped
// when read or listed, and at most once a minute otherwise.
func NewMemoryStore() Store {
	return &memoryStore{m: map[string]memoryValue{}}
}

type memoryStore struct {
	mu    sync.Mutex
	m     map[string]memoryValue
	swept time.Time
}

type memoryValue struct {
	v       []byte
	expires time.Time // zero: never
}

func (e memoryValue) live(now time.Time) bool { return e.expires.IsZero() || now.Before(e.expires) }

func expiry(ttl time.Duration) time.Time {
	if ttl <= 0 {
		return time.Time{}
	}
	return time.Now().Add(ttl)
}

// sweep drops expired values, at most once a minute; the caller holds mu.
func (s *memoryStore) sweep(now time.Time) {
	if now.Sub(s.swept) < time.Minute {
		return
	}
	s.swept = now
	for k, e := range s.m {
		if !e.live(now) {
			delete(s.m, k)
		}
	}
}

func (s *memoryStore) Put(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweep(time.Now())
	s.m[key] = memoryValue{v: bytes.Clone(value), expires: expiry(ttl)}
	return nil
}

func (s *memoryStore) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.m[key]
	if !ok || !e.live(time.Now()) {
		return nil, false, nil
	}
	return bytes.Clone(e.v), true, nil
}

func (s *memoryStore) CompareAndSwap(ctx context.Context, key string, old, value []byte, ttl time.Duration) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	s.sweep(now)
	e, ok := s.m[key]
	ok = ok && e.live(now)
	if old == nil && ok || old != nil && (!ok || !bytes.Equal(e.v, old)) {
		return false, nil
	}
	s.m[key] = memoryValue{v: bytes.Clone(value), expires: expiry(ttl)}
	return true, nil
}

func (s *memoryStore) Delete(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, key)
	return nil
}

func (s *memoryStore) List(ctx context.Context, prefix string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	var out []string
	for k, e := range s.m {
		if strings.HasPrefix(k, prefix) && e.live(now) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out, nil
}
