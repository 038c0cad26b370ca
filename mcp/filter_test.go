package mcp

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

type setHeader struct{ key, value string }

func (h setHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.key, h.value)
	return http.DefaultTransport.RoundTrip(r)
}

// adminFilter shows admin_* tools only to HTTP requests with X-Role: admin
// (never over stdio, where r is nil).
func adminFilter(r *http.Request, t toolnexus.Tool) bool {
	return !strings.HasPrefix(t.Name, "admin_") || r != nil && r.Header.Get("X-Role") == "admin"
}

func filterRegistry(t *testing.T, resets *atomic.Int32) *toolnexus.Registry {
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.Register(reg, "weather_now", "Weather.", func(context.Context, struct{}) (string, error) { return "sunny", nil }))
	require.NoError(t, toolnexus.Register(reg, "admin_reset", "Reset.", func(context.Context, struct{}) (string, error) {
		resets.Add(1)
		return "reset", nil
	}))
	return reg
}

// TestToolFilterHTTP: over HTTP each request is filtered by its own
// headers: a client without the role neither sees nor may call the admin
// tool (answered as an unknown tool, the handler never runs); one with it
// does both.
func TestToolFilterHTTP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var resets atomic.Int32
	hs := newHTTPTestServer(t, filterRegistry(t, &resets), &ServerOptions{ToolFilter: adminFilter})

	user := connectClient(t, ctx, &mcpsdk.StreamableClientTransport{Endpoint: hs.URL, MaxRetries: -1}, nil, nil)
	assert.Equal(t, []string{"weather_now"}, toolNames(t, ctx, user))
	_, err := user.CallTool(ctx, &mcpsdk.CallToolParams{Name: "admin_reset"})
	require.ErrorContains(t, err, `unknown tool "admin_reset"`)
	assert.Equal(t, int32(0), resets.Load())

	admin := connectClient(t, ctx, &mcpsdk.StreamableClientTransport{Endpoint: hs.URL, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: setHeader{"X-Role", "admin"}}}, nil, nil)
	assert.Equal(t, []string{"admin_reset", "weather_now"}, toolNames(t, ctx, admin))
	res, err := admin.CallTool(ctx, &mcpsdk.CallToolParams{Name: "admin_reset"})
	require.NoError(t, err)
	assert.False(t, res.IsError)
	assert.Equal(t, int32(1), resets.Load())

	// The request reference the server sets cannot be forged by a client.
	forger := connectClient(t, ctx, &mcpsdk.StreamableClientTransport{Endpoint: hs.URL, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: setHeader{requestRefHeader, "guess"}}}, nil, nil)
	assert.Equal(t, []string{"weather_now"}, toolNames(t, ctx, forger))
}

// TestToolFilterStdio: without HTTP the filter gets a nil request.
func TestToolFilterStdio(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var resets atomic.Int32
	srv := NewServer(filterRegistry(t, &resets), &ServerOptions{ToolFilter: adminFilter})
	t.Cleanup(func() { srv.Close() })
	st, ct := mcpsdk.NewInMemoryTransports()
	go func() { _ = srv.Run(ctx, st) }()
	cs := connectClient(t, ctx, ct, nil, nil)
	assert.Equal(t, []string{"weather_now"}, toolNames(t, ctx, cs))
	_, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "admin_reset"})
	require.ErrorContains(t, err, `unknown tool "admin_reset"`)
	assert.Equal(t, int32(0), resets.Load())
}

// TestMaxConcurrentAcrossExecAndMCP: a tool's Tool.MaxConcurrent holds
// across every caller of the registry at once: an executor running a
// model's calls and MCP clients calling it over HTTP.
func TestMaxConcurrentAcrossExecAndMCP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var running, most atomic.Int32
	reg := toolnexus.NewRegistry()
	tool, err := toolnexus.NewTool("db", "One connection.", func(context.Context, struct{}) (string, error) {
		n := running.Add(1)
		defer running.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(5 * time.Millisecond)
		return "done", nil
	})
	require.NoError(t, err)
	tool.MaxConcurrent = 2
	require.NoError(t, reg.Add(tool))
	hs := newHTTPTestServer(t, reg, nil)
	ex := exec.New(reg, nil)
	var wg sync.WaitGroup
	for i := range 4 {
		cs := connectClient(t, ctx, &mcpsdk.StreamableClientTransport{Endpoint: hs.URL, MaxRetries: -1}, nil, nil)
		wg.Go(func() {
			for range 5 {
				text, isErr := callText(t, ctx, cs, "db", `{}`)
				assert.False(t, isErr, text)
			}
		})
		wg.Go(func() {
			for j := range 5 {
				r := ex.Run(ctx, exec.Call{ID: fmt.Sprintf("call_%d_%d", i, j), Name: "db", Arguments: []byte(`{}`)})
				assert.Equal(t, "done", r.Output)
			}
		})
	}
	wg.Wait()
	assert.Equal(t, int32(2), most.Load(), "never more than MaxConcurrent at once, and the limit was reached")
}
