package mcp_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/mcp"
)

// A loaded tool that must be called as a task is called through the task
// methods, and its result reaches Execute as any other; a call whose
// context ends first cancels its task on the server.
func TestLoadCallsTaskRequiredTools(t *testing.T) {
	stopped := make(chan struct{}, 1)
	served := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.Register(served, "long_job", "Works a while.", func(ctx context.Context, a struct {
		N    int  `json:"n"`
		Hang bool `json:"hang,omitempty"`
	}) (string, error) {
		if a.Hang {
			<-ctx.Done()
			stopped <- struct{}{}
			return "", ctx.Err()
		}
		time.Sleep(50 * time.Millisecond)
		return "worked", nil
	}))
	srv := mcp.NewServer(served, &mcp.ServerOptions{Tasks: &mcp.TaskOptions{Required: []string{"long_job"}}})
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	dial := func(string) mcpsdk.Transport {
		ct, st := mcpsdk.NewInMemoryTransports()
		go srv.Run(context.Background(), st)
		return ct
	}
	for _, over := range []string{"a connection of its own", "streamable HTTP"} {
		t.Run(over, func(t *testing.T) {
			cfg := &mcp.Config{Servers: map[string]mcp.ServerConfig{"s": {Name: "s", Transport: mcp.TransportStdio, Command: []string{"unused"}}}}
			opts := &mcp.LoadOptions{Dial: dial}
			if over == "streamable HTTP" {
				cfg.Servers["s"] = mcp.ServerConfig{Name: "s", Transport: mcp.TransportHTTP, URL: hs.URL}
				opts = nil
			}
			loadAndCallTask(t, cfg, opts, stopped)
		})
	}
}

func loadAndCallTask(t *testing.T, cfg *mcp.Config, opts *mcp.LoadOptions, stopped <-chan struct{}) {
	servers := mcp.Load(t.Context(), cfg, opts)
	defer servers.Close()
	require.NoError(t, servers.Err())
	reg := toolnexus.NewRegistry()
	require.NoError(t, reg.Add(servers.Tools()...))

	res := reg.Execute(t.Context(), "s_long_job", json.RawMessage(`{"n":1}`))
	require.False(t, res.IsError, res.Output)
	require.Equal(t, "worked", res.Output)

	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	res = reg.Execute(ctx, "s_long_job", json.RawMessage(`{"n":2,"hang":true}`))
	require.True(t, res.IsError)
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("the task kept running after the caller's context ended")
	}
}
