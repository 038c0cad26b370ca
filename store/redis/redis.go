// Package redis is a [toolnexus.Store] on Redis (github.com/redis/go-redis/v9),
// for replicas that share MCP tasks, claims and keys: give it to
// mcp.ServerOptions.Store on every replica.
//
//	rdb := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:6379"})
//	srv := mcp.NewServer(reg, &mcp.ServerOptions{Stateless: true, Store: redis.New(rdb, "myapp/")})
//
// Keys are the store's keys after Prefix; TTLs are Redis expirations in
// milliseconds; CompareAndSwap is one Lua script, so it is atomic on the
// server; List walks SCAN with a MATCH pattern whose special characters
// are escaped, on every master of a cluster client and every shard of a
// ring. It is a separate module so that only programs that use it
// build go-redis.
package redis

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/toolnexus/toolnexus"
)

// Store is a toolnexus.Store on a Redis client.
type Store struct {
	rdb    goredis.UniversalClient
	prefix string
}

// New returns the store that keeps its keys in rdb under prefix (for
// example "myapp/"; "" for none). rdb may be a client, a cluster client
// or a ring; the caller closes it.
func New(rdb goredis.UniversalClient, prefix string) *Store {
	return &Store{rdb: rdb, prefix: prefix}
}

var _ toolnexus.Store = (*Store)(nil)

// Put implements toolnexus.Store (SET with PX).
func (s *Store) Put(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	return s.rdb.Set(ctx, s.prefix+key, value, ttlOf(ttl)).Err()
}

// Get implements toolnexus.Store (GET).
func (s *Store) Get(ctx context.Context, key string) ([]byte, bool, error) {
	v, err := s.rdb.Get(ctx, s.prefix+key).Bytes()
	if errors.Is(err, goredis.Nil) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return v, true, nil
}

// swap sets KEYS[1] to ARGV[2] (with PX ARGV[3] when not "0") if it holds
// ARGV[1], or, when ARGV[4] is "absent", if it does not exist.
var swap = goredis.NewScript(`
local cur = redis.call('GET', KEYS[1])
if ARGV[4] == 'absent' then
  if cur then return 0 end
elseif cur ~= ARGV[1] then
  return 0
end
if ARGV[3] == '0' then
  redis.call('SET', KEYS[1], ARGV[2])
else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
return 1`)

// CompareAndSwap implements toolnexus.Store (one Lua script).
func (s *Store) CompareAndSwap(ctx context.Context, key string, old, value []byte, ttl time.Duration) (bool, error) {
	mode := "value"
	if old == nil {
		mode = "absent"
	}
	n, err := swap.Run(ctx, s.rdb, []string{s.prefix + key}, old, value, ttlOf(ttl).Milliseconds(), mode).Int()
	return n == 1, err
}

// Delete implements toolnexus.Store (DEL).
func (s *Store) Delete(ctx context.Context, key string) error {
	return s.rdb.Del(ctx, s.prefix+key).Err()
}

// List implements toolnexus.Store (SCAN MATCH prefix*, on every master
// of a cluster and every shard of a ring).
func (s *Store) List(ctx context.Context, prefix string) ([]string, error) {
	match := globEscaper.Replace(s.prefix+prefix) + "*"
	var mu sync.Mutex
	var out []string
	scan := func(ctx context.Context, c *goredis.Client) error {
		iter := c.Scan(ctx, 0, match, 1000).Iterator()
		for iter.Next(ctx) {
			mu.Lock()
			out = append(out, strings.TrimPrefix(iter.Val(), s.prefix))
			mu.Unlock()
		}
		return iter.Err()
	}
	var err error
	switch c := s.rdb.(type) {
	case *goredis.ClusterClient:
		err = c.ForEachMaster(ctx, scan)
	case *goredis.Ring:
		err = c.ForEachShard(ctx, scan)
	case *goredis.Client:
		err = scan(ctx, c)
	default:
		iter := s.rdb.Scan(ctx, 0, match, 1000).Iterator()
		for iter.Next(ctx) {
			out = append(out, strings.TrimPrefix(iter.Val(), s.prefix))
		}
		err = iter.Err()
	}
	if err != nil {
		return nil, err
	}
	slices.Sort(out)
	return slices.Compact(out), nil // SCAN may return a key twice
}

// globEscaper escapes the characters of a Redis glob pattern.
var globEscaper = strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`, `]`, `\]`)

// ttlOf is ttl as Redis takes it: 0 for none, at least a millisecond.
func ttlOf(ttl time.Duration) time.Duration {
	if ttl <= 0 {
		return 0
	}
	return max(ttl, time.Millisecond)
}
