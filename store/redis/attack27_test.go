package redis_test

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/toolnexus/toolnexus/store/redis"
)

// Keys with every byte a glob or the protocol could trip on (NUL, CR LF,
// backslash, pattern characters, invalid UTF-8, 64 KiB long) are stored,
// swapped and listed literally, under a prefix with pattern characters
// too.
func TestAttack27OddKeys(t *testing.T) {
	rdb := redisClient(t)
	ctx := context.Background()
	prefix := "toolnexus-attack27/[a-z]*?\\/" + time.Now().Format("150405.000000") + "/"
	s := redis.New(rdb, prefix)
	keys := []string{"a\x00b", "a\r\nb", `a\b`, `a\*`, "a*", "a?", "a[b]", "a[^b]", "a\xff\xfe", "a" + strings.Repeat("k", 64<<10), "a-^!"}
	t.Cleanup(func() {
		for _, k := range keys {
			_ = s.Delete(ctx, k)
		}
		_ = s.Delete(ctx, "b")
	})
	for _, k := range keys {
		if ok, err := s.CompareAndSwap(ctx, k, nil, []byte(k), time.Minute); err != nil || !ok {
			t.Fatalf("claim %q: %v %v", k[:min(len(k), 10)], ok, err)
		}
		if ok, err := s.CompareAndSwap(ctx, k, []byte(k), []byte("\x00"+k), time.Minute); err != nil || !ok {
			t.Fatalf("swap %q: %v %v", k[:min(len(k), 10)], ok, err)
		}
		if v, ok, err := s.Get(ctx, k); err != nil || !ok || !bytes.Equal(v, []byte("\x00"+k)) {
			t.Fatalf("get %q: %v %v", k[:min(len(k), 10)], ok, err)
		}
	}
	if err := s.Put(ctx, "b", nil, 0); err != nil {
		t.Fatal(err)
	}
	got, err := s.List(ctx, "a")
	want := slices.Sorted(slices.Values(keys))
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("List = %d keys %v; want %d", len(got), err, len(want))
	}
	for _, k := range keys {
		got, err := s.List(ctx, k)
		if err != nil || !slices.Contains(got, k) {
			t.Fatalf("List(%q) = %q, %v", k[:min(len(k), 10)], got, err)
		}
		for _, g := range got {
			if !strings.HasPrefix(g, k) {
				t.Fatalf("List(%q) holds %q", k[:min(len(k), 10)], g[:min(len(g), 10)])
			}
		}
	}
	// An empty value is a value: it is not "absent", and old []byte{} matches it.
	if ok, err := s.CompareAndSwap(ctx, "b", nil, []byte("x"), 0); err != nil || ok {
		t.Fatalf("claim of a key holding \"\" = %v %v", ok, err)
	}
	if ok, err := s.CompareAndSwap(ctx, "b", []byte{}, []byte("x"), 0); err != nil || !ok {
		t.Fatalf("swap from \"\" = %v %v", ok, err)
	}
}

// A Redis that is not there is an error from every method, within the
// context (no panic, no hang).
func TestAttack27RedisDown(t *testing.T) {
	rdb := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:1"})
	defer rdb.Close()
	s := redis.New(rdb, "x/")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	if err := s.Put(ctx, "k", []byte("v"), 0); err == nil {
		t.Error("Put succeeded")
	}
	if _, ok, err := s.Get(ctx, "k"); err == nil || ok {
		t.Error("Get succeeded")
	}
	if ok, err := s.CompareAndSwap(ctx, "k", nil, []byte("v"), 0); err == nil || ok {
		t.Error("CompareAndSwap succeeded")
	}
	if _, err := s.List(ctx, "k"); err == nil {
		t.Error("List succeeded")
	}
	if err := s.Delete(ctx, "k"); err == nil {
		t.Error("Delete succeeded")
	}
	if d := time.Since(start); d > 10*time.Second { // go-redis retries a dial 5 times: about 1.7 s an operation
		t.Errorf("took %v", d)
	}
}
