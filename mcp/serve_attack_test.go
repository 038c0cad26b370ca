package mcp

import (
	"context"
	"fmt"
	"net"
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
)

// Peers that hold every connection slot with unfinished headers do not
// lock an authorised client out: its connection closes the oldest of
// theirs (MaxConnections).
func TestListenAndServeSlowHeadersDoNotLockOut(t *testing.T) {
	const token, max = "s3cret", 4
	addr := listen(t, &ServerOptions{BearerToken: token, MaxConnections: max, ReadHeaderTimeout: -1})
	slow := make([]net.Conn, max)
	for i := range slow {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		defer c.Close()
		fmt.Fprintf(c, "POST / HTTP/1.1\r\nHo") // and never the rest
		slow[i] = c
	}
	req, err := http.NewRequest(http.MethodPost, "http://"+addr+"/", strings.NewReader(initBody))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	client := &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{}}
	resp, err := client.Do(req)
	require.NoError(t, err, "authorised request while %d connections send headers slowly", max)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	closed := 0
	for _, c := range slow {
		if closedWithin(c, 200*time.Millisecond) {
			closed++
		}
	}
	assert.Equal(t, 1, closed, "slow connections closed to make room")
}

// countingRegistry has a tool "count" that counts its calls.
func countingRegistry(t *testing.T, calls *atomic.Int32) *toolnexus.Registry {
	t.Helper()
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.Register(reg, "count", "Count", func(context.Context, struct{}) (string, error) {
		calls.Add(1)
		return "ok", nil
	}))
	return reg
}

func batchOf(n int) string {
	msgs := make([]string, n)
	for i := range msgs {
		msgs[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"count","arguments":{}}}`, i+10)
	}
	return "[" + strings.Join(msgs, ",") + "]"
}

const initBody20250326 = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// A batch is refused in a session whose protocol revision has none, with
// or without the MCP-Protocol-Version header, and before any call starts.
func TestHandlerBatchNeedsRevisionWithBatches(t *testing.T) {
	var calls atomic.Int32
	hs := newHTTPTestServer(t, countingRegistry(t, &calls), nil)
	id := initSession(t, hs.URL, nil) // 2025-06-18
	code, body, _ := rawPost(t, hs.URL, map[string]string{"Mcp-Session-Id": id}, batchOf(50))
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Equal(t, "Bad Request: JSON-RPC batches exist only in protocol revision 2025-03-26; this session did not negotiate it\n", body)
	code, _, _ = rawPost(t, hs.URL, nil, batchOf(2))
	assert.Equal(t, http.StatusBadRequest, code, "batch without a session")
	assert.Zero(t, calls.Load(), "calls started by refused batches")
}

// Bytes after a body's JSON value (which the SDK would ignore, serving the
// batch before them) do not get a batch past the checks: the body is
// refused whole.
func TestHandlerTrailingBytesAfterBatch(t *testing.T) {
	var calls atomic.Int32
	hs := newHTTPTestServer(t, countingRegistry(t, &calls), &ServerOptions{MaxStreams: 3})
	id := initSession(t, hs.URL, nil) // 2025-06-18
	for _, tail := range []string{" x", " {}", "]", "\x00", "[1]"} {
		code, body, _ := rawPost(t, hs.URL, map[string]string{"Mcp-Session-Id": id}, batchOf(50)+tail)
		assert.Equal(t, http.StatusBadRequest, code, "tail %q", tail)
		assert.Equal(t, "Bad Request: the body holds more than one JSON value\n", body, "tail %q", tail)
	}
	code, body, _ := rawPost(t, hs.URL, map[string]string{"Mcp-Session-Id": id}, `[{"jsonrpc":"2.0","id":1,"method":"tools/call"`)
	assert.Equal(t, http.StatusBadRequest, code, body)
	assert.Zero(t, calls.Load(), "calls started by refused bodies")
}

// In a 2025-03-26 session a batch takes one MaxStreams slot per message.
func TestHandlerBatchTakesStreamSlots(t *testing.T) {
	var calls atomic.Int32
	hs := newHTTPTestServer(t, countingRegistry(t, &calls), &ServerOptions{MaxStreams: 3})
	code, body, id := rawPost(t, hs.URL, nil, initBody20250326)
	require.Equal(t, http.StatusOK, code, body)
	code, body, _ = rawPost(t, hs.URL, map[string]string{"Mcp-Session-Id": id}, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	require.Equal(t, http.StatusAccepted, code, body)
	code, body, _ = rawPost(t, hs.URL, map[string]string{"Mcp-Session-Id": id}, batchOf(4))
	assert.Equal(t, http.StatusRequestEntityTooLarge, code)
	assert.Equal(t, "Request Entity Too Large: a batch of 4 messages; at most 3 (ServerOptions.MaxStreams, --max-streams)\n", body)
	assert.Zero(t, calls.Load())
	code, body, _ = rawPost(t, hs.URL, map[string]string{"Mcp-Session-Id": id}, batchOf(3))
	assert.Equal(t, http.StatusOK, code, body)
	assert.Equal(t, int32(3), calls.Load())
}

// Idle GET event streams do not take the slots calls need.
func TestHandlerIdleStreamsDoNotBlockCalls(t *testing.T) {
	const max = 2
	hs := newHTTPTestServer(t, newTestRegistry(t), &ServerOptions{MaxStreams: max})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for range max + 1 {
		id := initSession(t, hs.URL, nil)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, hs.URL, nil)
		require.NoError(t, err)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Session-Id", id)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, "GET stream")
	}
	id := initSession(t, hs.URL, nil)
	code, body := listRaw(t, hs.URL, id, nil)
	assert.Equal(t, http.StatusOK, code, body)
}

// One session runs at most MaxSessionCalls calls at once; the others wait.
func TestServeMaxSessionCalls(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var running atomic.Int32
	started, release := make(chan struct{}, 8), make(chan struct{})
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.Register(reg, "wait", "Wait", func(ctx context.Context, _ struct{}) (string, error) {
		running.Add(1)
		defer running.Add(-1)
		started <- struct{}{}
		<-release
		return "released", nil
	}))
	srv := NewServer(reg, &ServerOptions{MaxSessionCalls: 2})
	defer srv.Close()
	st, ct := mcpsdk.NewInMemoryTransports()
	go srv.Run(ctx, st)
	cs := connectClient(t, ctx, ct, nil, nil)
	var wg sync.WaitGroup
	texts := make([]string, 4)
	for i := range texts {
		wg.Go(func() { texts[i], _ = callText(t, ctx, cs, "wait", `{}`) })
	}
	<-started
	<-started
	time.Sleep(300 * time.Millisecond) // a third call would start meanwhile
	assert.Equal(t, int32(2), running.Load(), "calls running at once")
	close(release)
	wg.Wait()
	assert.Equal(t, []string{"released", "released", "released", "released"}, texts)
}

// A tokenless server refuses what a reverse proxy forwards, unless told to
// trust it; with a token the headers do not matter.
func TestHandlerProxyHeaders(t *testing.T) {
	for _, h := range []string{"Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Real-IP", "CF-Connecting-IP", "True-Client-IP", "Via"} {
		hs := newHTTPTestServer(t, newTestRegistry(t), nil)
		code, body, _ := rawPost(t, hs.URL, map[string]string{h: "203.0.113.7"}, initBody)
		assert.Equal(t, http.StatusForbidden, code, h)
		assert.Contains(t, body, "needs a bearer token", h)
	}
	hs := newHTTPTestServer(t, newTestRegistry(t), &ServerOptions{TrustProxyHeaders: true})
	code, body, _ := rawPost(t, hs.URL, map[string]string{"X-Forwarded-For": "203.0.113.7"}, initBody)
	assert.Equal(t, http.StatusOK, code, body)
	hs = newHTTPTestServer(t, newTestRegistry(t), &ServerOptions{BearerToken: "t"})
	code, body, _ = rawPost(t, hs.URL, map[string]string{"X-Forwarded-For": "203.0.113.7", "Authorization": "Bearer t"}, initBody)
	assert.Equal(t, http.StatusOK, code, body)
}
