// Package storetest is the conformance suite of [toolnexus.Store]: any
// implementation, toolnexus's or a third party's, runs it from a test:
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) toolnexus.Store { return mystore.New(t) })
//	}
//
// Each subtest gets a store from newStore; the keys it writes start with a
// prefix of its own, so stores that share a server (one Redis database)
// may be handed out again. It checks values, TTLs (with waits of about a
// second), compare-and-swap under 8 concurrent writers, listing by prefix
// and the context.
package storetest

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus"
)

// Run runs the suite against the stores newStore makes.
func Run(t *testing.T, newStore func(t *testing.T) toolnexus.Store) {
	ctx := context.Background()
	prefix := func() string { return "storetest/" + rand.Text()[:10] + "/" }

	t.Run("PutGetDelete", func(t *testing.T) {
		s, p := newStore(t), prefix()
		if _, ok, err := s.Get(ctx, p+"a"); err != nil || ok {
			t.Fatalf("Get of a missing key = ok %v, err %v; want false, nil", ok, err)
		}
		for _, v := range [][]byte{[]byte("one"), {}, {0, 0xff, '\n'}, bytes.Repeat([]byte("x"), 1<<20)} {
			if err := s.Put(ctx, p+"a", v, 0); err != nil {
				t.Fatal(err)
			}
			got, ok, err := s.Get(ctx, p+"a")
			if err != nil || !ok || !bytes.Equal(got, v) {
				t.Fatalf("Get after Put(%d bytes) = %d bytes, %v, %v", len(v), len(got), ok, err)
			}
		}
		if err := s.Delete(ctx, p+"a"); err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := s.Get(ctx, p+"a"); ok {
			t.Fatal("Get after Delete found the key")
		}
		if err := s.Delete(ctx, p+"never"); err != nil {
			t.Fatalf("Delete of a missing key = %v", err)
		}
	})

	t.Run("ValuesAreCopies", func(t *testing.T) {
		s, p := newStore(t), prefix()
		v := []byte("abc")
		if err := s.Put(ctx, p+"a", v, 0); err != nil {
			t.Fatal(err)
		}
		v[0] = 'X'
		got, _, _ := s.Get(ctx, p+"a")
		if string(got) != "abc" {
			t.Fatalf("the store kept the caller's slice: %q", got)
		}
		got[0] = 'Y'
		if again, _, _ := s.Get(ctx, p+"a"); string(again) != "abc" {
			t.Fatalf("Get handed out the stored slice: %q", again)
		}
	})

	t.Run("TTL", func(t *testing.T) {
		s, p := newStore(t), prefix()
		if err := s.Put(ctx, p+"short", []byte("v"), 500*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if err := s.Put(ctx, p+"long", []byte("v"), time.Hour); err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := s.Get(ctx, p+"short"); !ok {
			t.Fatal("a value is gone before its TTL")
		}
		time.Sleep(1200 * time.Millisecond)
		if _, ok, _ := s.Get(ctx, p+"short"); ok {
			t.Fatal("a value outlived its TTL")
		}
		if keys, _ := s.List(ctx, p); !slices.Equal(keys, []string{p + "long"}) {
			t.Fatalf("List after expiry = %v, want only %slong", keys, p)
		}
		// An expired key counts as absent for CompareAndSwap.
		if ok, err := s.CompareAndSwap(ctx, p+"short", nil, []byte("new"), 0); err != nil || !ok {
			t.Fatalf("CompareAndSwap(nil) on an expired key = %v, %v; want true", ok, err)
		}
	})

	t.Run("CompareAndSwap", func(t *testing.T) {
		s, p := newStore(t), prefix()
		k := p + "c"
		if ok, err := s.CompareAndSwap(ctx, k, []byte("x"), []byte("y"), 0); err != nil || ok {
			t.Fatalf("swap of a missing key from a value = %v, %v; want false", ok, err)
		}
		if ok, err := s.CompareAndSwap(ctx, k, nil, []byte("v1"), 0); err != nil || !ok {
			t.Fatalf("claim of a missing key = %v, %v; want true", ok, err)
		}
		if ok, _ := s.CompareAndSwap(ctx, k, nil, []byte("v2"), 0); ok {
			t.Fatal("claim of a held key succeeded")
		}
		if ok, _ := s.CompareAndSwap(ctx, k, []byte("v0"), []byte("v2"), 0); ok {
			t.Fatal("swap from the wrong value succeeded")
		}
		if ok, err := s.CompareAndSwap(ctx, k, []byte("v1"), []byte("v2"), time.Hour); err != nil || !ok {
			t.Fatalf("swap from the right value = %v, %v", ok, err)
		}
		if got, _, _ := s.Get(ctx, k); string(got) != "v2" {
			t.Fatalf("after the swap: %q", got)
		}
		// Eight writers claim one key, then race to move it on: exactly one
		// wins each step.
		for step := range 3 {
			key := fmt.Sprintf("%srace%d", p, step)
			var wins atomic.Int32
			var wg sync.WaitGroup
			for w := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if ok, err := s.CompareAndSwap(ctx, key, nil, []byte(fmt.Sprint(w)), 0); err == nil && ok {
						wins.Add(1)
					}
				}()
			}
			wg.Wait()
			if wins.Load() != 1 {
				t.Fatalf("%d of 8 writers claimed one key", wins.Load())
			}
			cur, _, _ := s.Get(ctx, key)
			wins.Store(0)
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if ok, err := s.CompareAndSwap(ctx, key, cur, []byte("next"), 0); err == nil && ok {
						wins.Add(1)
					}
				}()
			}
			wg.Wait()
			if wins.Load() != 1 {
				t.Fatalf("%d of 8 writers swapped from one value", wins.Load())
			}
		}
	})

	t.Run("List", func(t *testing.T) {
		s, p := newStore(t), prefix()
		want := []string{p + "a/1", p + "a/2", p + "a/3"}
		for _, k := range append(slices.Clone(want), p+"b/1", p+"ab") {
			if err := s.Put(ctx, k, []byte("v"), 0); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.List(ctx, p+"a/")
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("List(%sa/) = %v, %v; want %v", p, got, err, want)
		}
		if got, _ := s.List(ctx, p+"none/"); len(got) != 0 {
			t.Fatalf("List of an empty prefix = %v", got)
		}
		// Prefixes are literal: no pattern characters.
		if err := s.Put(ctx, p+"x*[?]/1", []byte("v"), 0); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.List(ctx, p+"x*[?]/"); !slices.Equal(got, []string{p + "x*[?]/1"}) {
			t.Fatalf("List of a prefix with pattern characters = %v", got)
		}
	})

	t.Run("Context", func(t *testing.T) {
		s, p := newStore(t), prefix()
		done, cancel := context.WithCancel(ctx)
		cancel()
		if err := s.Put(done, p+"a", []byte("v"), 0); err == nil {
			t.Error("Put with a done context succeeded")
		}
		if _, _, err := s.Get(done, p+"a"); err == nil {
			t.Error("Get with a done context succeeded")
		}
		if _, err := s.CompareAndSwap(done, p+"a", nil, []byte("v"), 0); err == nil {
			t.Error("CompareAndSwap with a done context succeeded")
		}
	})
}
