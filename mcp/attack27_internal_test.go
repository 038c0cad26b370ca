package mcp

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
)

// hookStore is a memory store whose methods call the hooks set.
type hookStore struct {
	toolnexus.Store
	put    func(ctx context.Context, key string) error
	del    func(ctx context.Context, key string) error
	swap   func(ctx context.Context, key string) error
	inflow atomic.Int32
}

func (s *hookStore) Put(ctx context.Context, key string, v []byte, ttl time.Duration) error {
	if s.put != nil {
		if err := s.put(ctx, key); err != nil {
			return err
		}
	}
	return s.Store.Put(ctx, key, v, ttl)
}

func (s *hookStore) Delete(ctx context.Context, key string) error {
	s.inflow.Add(1)
	defer s.inflow.Add(-1)
	if s.del != nil {
		if err := s.del(ctx, key); err != nil {
			return err
		}
	}
	return s.Store.Delete(ctx, key)
}

func (s *hookStore) CompareAndSwap(ctx context.Context, key string, old, v []byte, ttl time.Duration) (bool, error) {
	if s.swap != nil {
		if err := s.swap(ctx, key); err != nil {
			return false, err
		}
	}
	return s.Store.CompareAndSwap(ctx, key, old, v, ttl)
}

func textResult(s string) *mcpsdk.CallToolResult {
	return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: s}}}
}

// A session that ends while its tools/call as a task is being stored
// (a slow store) leaves no task behind: not a record resurrected after
// drop deleted it, not a run; and start and drop do not race on the
// task's timer (go test -race).
func TestAttack27StartWhileSessionEnds(t *testing.T) {
	hs := &hookStore{Store: toolnexus.NewMemoryStore()}
	hs.put = func(ctx context.Context, key string) error {
		if strings.HasPrefix(key, "toolnexus/task/") {
			time.Sleep(200 * time.Millisecond) // a slow store; no synchronization
		}
		return nil
	}
	ts := newTaskStore(&TaskOptions{}, false, hs)
	ss := new(mcpsdk.ServerSession)
	ts.owners[ss] = "session/x"
	var ran atomic.Bool
	done := make(chan error, 1)
	go func() {
		_, err := ts.start(t.Context(), "session/x", map[string]any{}, func(ctx context.Context) (mcpsdk.Result, error) {
			ran.Store(true)
			return textResult("ran"), nil
		})
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	ts.drop(ss)
	<-done
	time.Sleep(100 * time.Millisecond)
	keys, err := hs.List(t.Context(), taskPrefix("session/x"))
	require.NoError(t, err)
	require.Empty(t, keys, "a task record outlived its session")
	require.False(t, ran.Load(), "the tool of a session that ended ran")
}

// The lease's last delete is bounded like every other store operation: a
// store that hangs does not keep the task's goroutine for ever.
func TestAttack27LeaseDeleteBounded(t *testing.T) {
	hs := &hookStore{Store: toolnexus.NewMemoryStore()}
	hs.del = func(ctx context.Context, key string) error {
		<-ctx.Done() // a store that hangs until the caller gives up
		return ctx.Err()
	}
	ts := newTaskStore(&TaskOptions{}, false, hs)
	w, err := ts.start(t.Context(), "o", map[string]any{}, func(ctx context.Context) (mcpsdk.Result, error) {
		return textResult("ok"), nil
	})
	require.NoError(t, err)
	rec, err := ts.waitTerminal(t.Context(), "o", &taskIDParams{TaskID: w.TaskID})
	require.NoError(t, err)
	require.Equal(t, "completed", rec.Status)
	require.Eventually(t, func() bool { return hs.inflow.Load() == 0 }, storeTimeout+2*time.Second, 50*time.Millisecond,
		"the lease's delete still hangs: its goroutine leaks")
}

// One failed write of a task's end (a store blip) does not lose the
// tool's result, nor report that the replica stopped.
func TestAttack27FinishStoreBlip(t *testing.T) {
	hs := &hookStore{Store: toolnexus.NewMemoryStore()}
	var fail atomic.Int32
	hs.swap = func(ctx context.Context, key string) error {
		if fail.Add(-1) >= 0 {
			return errors.New("connection reset")
		}
		return nil
	}
	ts := newTaskStore(&TaskOptions{}, false, hs)
	w, err := ts.start(t.Context(), "o", map[string]any{}, func(ctx context.Context) (mcpsdk.Result, error) {
		fail.Store(1) // the write of this result fails once
		return textResult("the result"), nil
	})
	require.NoError(t, err)
	rec, err := ts.waitTerminal(t.Context(), "o", &taskIDParams{TaskID: w.TaskID})
	require.NoError(t, err)
	require.Equal(t, "completed", rec.Status, rec.Message)
	require.Contains(t, string(rec.Result), "the result")
}

// A task that runs on this replica is not failed for a lost lease by
// this replica's tasks/get: the lease key can vanish while the run goes
// on (a renewal that failed on a slow store, an eviction), and this
// replica knows the run is alive.
func TestAttack27NoFalseFailoverHere(t *testing.T) {
	store := toolnexus.NewMemoryStore()
	ts := newTaskStore(&TaskOptions{}, false, store)
	release := make(chan struct{})
	var cancelled atomic.Bool
	w, err := ts.start(t.Context(), "o", map[string]any{}, func(ctx context.Context) (mcpsdk.Result, error) {
		select {
		case <-release:
			return textResult("done"), nil
		case <-ctx.Done():
			cancelled.Store(true)
			return nil, ctx.Err()
		}
	})
	require.NoError(t, err)
	require.NoError(t, store.Delete(t.Context(), leaseKey(w.TaskID))) // the lease is lost, the run goes on
	rec, err := ts.get(t.Context(), "o", &taskIDParams{TaskID: w.TaskID})
	require.NoError(t, err)
	require.Equal(t, "working", rec.Status, rec.Message)
	close(release)
	rec, err = ts.waitTerminal(t.Context(), "o", &taskIDParams{TaskID: w.TaskID})
	require.NoError(t, err)
	require.Equal(t, "completed", rec.Status, rec.Message)
	require.False(t, cancelled.Load())
}
