package mcp_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/oauthtest"
	"github.com/toolnexus/toolnexus/mcp"
)

// freePort is a loopback port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// The first load authorizes through the browser step (which here follows
// the redirect as a browser would) and keeps the token; a second load with
// the same Dir needs no browser; the token file is the person's alone.
func TestLocalOAuth(t *testing.T) {
	o := oauthtest.NewServer(t)
	dir := t.TempDir()
	var opened atomic.Int32
	browser := func(ctx context.Context, u string) error {
		opened.Add(1)
		go func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
		return nil
	}
	local := &mcp.LocalOAuth{Dir: dir, Port: freePort(t), Open: browser, Timeout: 10 * time.Second}
	cfg := &mcp.Config{Servers: map[string]mcp.ServerConfig{"r": {Name: "r", Transport: mcp.TransportHTTP, URL: o.URL}}}
	load := func() {
		t.Helper()
		servers := mcp.Load(t.Context(), cfg, &mcp.LoadOptions{OAuth: local.Handler})
		defer servers.Close()
		require.NoError(t, servers.Err())
		reg := toolnexus.NewRegistry()
		require.NoError(t, reg.Add(servers.Tools()...))
		res := reg.Execute(t.Context(), "r_whoami", json.RawMessage(`{}`))
		require.False(t, res.IsError, res.Output)
		require.Equal(t, "authorized", res.Output)
	}
	load()
	require.EqualValues(t, 1, opened.Load())
	require.EqualValues(t, 1, o.Issued.Load())
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	require.NoError(t, err)
	require.Len(t, files, 1)
	fi, err := os.Stat(files[0])
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	load()
	require.EqualValues(t, 1, opened.Load(), "the kept token is used: no browser")
	require.EqualValues(t, 1, o.Issued.Load())

	// Without a way to show the page, the server fails with a reason.
	bare := &mcp.LocalOAuth{Dir: t.TempDir(), Port: freePort(t)}
	servers := mcp.Load(t.Context(), cfg, &mcp.LoadOptions{OAuth: bare.Handler})
	defer servers.Close()
	require.ErrorContains(t, servers.Err(), "LocalOAuth.Open is nil")
}
