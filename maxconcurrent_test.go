package toolnexus_test

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
)

// slowTool runs at most limit calls at once; each call blocks until release
// is closed and records the most calls it saw running together.
func slowTool(limit int, release chan struct{}, running, most *atomic.Int32) toolnexus.Tool {
	return toolnexus.Tool{
		Name: "db", MaxConcurrent: limit,
		Handler: toolnexus.HandlerFunc(func(ctx context.Context, _ json.RawMessage) (string, error) {
			n := running.Add(1)
			defer running.Add(-1)
			for {
				m := most.Load()
				if n <= m || most.CompareAndSwap(m, n) {
					break
				}
			}
			<-release
			return "done", nil
		}),
	}
}

// TestMaxConcurrent: at most MaxConcurrent calls of a tool run at once,
// however many callers there are; the others wait and then run.
func TestMaxConcurrent(t *testing.T) {
	var running, most atomic.Int32
	release := make(chan struct{})
	reg := toolnexus.NewRegistry()
	require.NoError(t, reg.Add(slowTool(2, release, &running, &most)))
	var wg sync.WaitGroup
	results := make([]toolnexus.Result, 8)
	for i := range results {
		wg.Go(func() { results[i] = reg.Execute(context.Background(), "db", nil) })
	}
	require.Eventually(t, func() bool { return running.Load() == 2 }, 5*time.Second, time.Millisecond)
	time.Sleep(20 * time.Millisecond) // room for a third call to start, were the limit not held
	assert.Equal(t, int32(2), running.Load())
	close(release)
	wg.Wait()
	assert.Equal(t, int32(2), most.Load())
	for _, r := range results {
		assert.Equal(t, "done", r.Output)
	}
}

// TestMaxConcurrentWaitEnds: a call waiting for a place ends with an error
// result when its timeout or context ends, and its handler never starts.
func TestMaxConcurrentWaitEnds(t *testing.T) {
	var running, most atomic.Int32
	release := make(chan struct{})
	defer close(release)
	reg := toolnexus.NewRegistry()
	tool := slowTool(1, release, &running, &most)
	tool.Timeout = 50 * time.Millisecond
	require.NoError(t, reg.Add(tool))
	first := make(chan toolnexus.Result, 1)
	go func() { first <- reg.Execute(context.Background(), "db", nil) }()
	require.Eventually(t, func() bool { return running.Load() == 1 }, 5*time.Second, time.Millisecond)

	// The first call's own timeout ends it while its handler still runs: it
	// keeps its place until the handler returns.
	assert.Equal(t, `tool "db" timed out after 50ms`, (<-first).Output)
	r := reg.Execute(context.Background(), "db", nil)
	assert.True(t, r.IsError)
	assert.Equal(t, `tool "db" timed out after 50ms waiting to start: it runs at most 1 calls at once and all were busy; try again later`, r.Output)
	assert.ErrorIs(t, r.Err, context.DeadlineExceeded)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = reg.Execute(ctx, "db", nil)
	assert.Equal(t, `tool "db" was cancelled before it started`, r.Output)
	ctx, cancel = context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	tool.Name, tool.Timeout = "db2", -1
	require.NoError(t, reg.Add(tool))
	go reg.Execute(context.Background(), "db2", nil)
	require.Eventually(t, func() bool { return running.Load() == 2 }, 5*time.Second, time.Millisecond)
	r = reg.Execute(ctx, "db2", nil)
	assert.Equal(t, `tool "db2" did not run: the deadline passed while it waited to start: it runs at most 1 calls at once and all were busy; try again later`, r.Output)
	assert.Equal(t, int32(2), most.Load(), "no handler started beyond the limits")
}

func TestMaxConcurrentNegativeRefused(t *testing.T) {
	err := toolnexus.NewRegistry().Add(toolnexus.Tool{Name: "x", MaxConcurrent: -1,
		Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "", nil })})
	require.EqualError(t, err, `toolnexus: tool "x": MaxConcurrent is -1; give a positive limit, or 0 for none`)
}
