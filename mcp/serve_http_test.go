package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/mcp/internal/testserver"
)

func TestIsLoopbackAddr(t *testing.T) {
	tests := []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:8080", true},
		{"127.3.4.5:0", true},
		{"[::1]:8080", true},
		{"localhost:8080", true},
		{"LocalHost:0", true},
		{"[::ffff:127.0.0.1]:80", true},
		{":8080", false},
		{"0.0.0.0:8080", false},
		{"[::]:8080", false},
		{"192.168.1.10:8080", false},
		{"10.0.0.1:0", false},
		{"example.com:8080", false},
		{"localhost.example.com:80", false},
		{"127.0.0.1", false}, // no port: net.Listen would refuse it too
		{"", false},
	}
	for _, tc := range tests {
		if got := IsLoopbackAddr(tc.addr); got != tc.want {
			t.Errorf("IsLoopbackAddr(%q) = %v, want %v", tc.addr, got, tc.want)
		}
	}
}

func tcpAddr(s string) net.Addr {
	return net.TCPAddrFromAddrPort(netip.MustParseAddrPort(s))
}

func TestHostAllowed(t *testing.T) {
	c, err := newHTTPConfig(&ServerOptions{AllowedHosts: []string{"mcp.example.com", "Proxy.Example:8443", "203.0.113.7", "[2001:db8::1]:80"}})
	if err != nil {
		t.Fatal(err)
	}
	lan := tcpAddr("192.168.1.10:8080")
	lo := tcpAddr("127.0.0.1:8080")
	tests := []struct {
		host  string
		local net.Addr
		want  bool
	}{
		// Loopback connection: loopback names and IPs, as the SDK allows.
		{"127.0.0.1:8080", lo, true},
		{"localhost:8080", lo, true},
		{"localhost", lo, true},
		{"[::1]:8080", lo, true},
		{"evil.example:8080", lo, false}, // DNS rebinding to 127.0.0.1
		{"localhost.evil.example", lo, false},
		// A connection through a LAN address: that address, or the allow-list.
		{"192.168.1.10:8080", lan, true},
		{"192.168.1.10", lan, true},
		{"evil.example:8080", lan, false}, // DNS rebinding to the LAN address
		{"192.168.1.11:8080", lan, false},
		{"localhost:8080", lan, false},
		{"127.0.0.1:8080", lan, false},
		{"mcp.example.com", lan, true},
		{"MCP.example.com.:9000", lan, true},
		{"proxy.example:8443", lan, true},
		{"proxy.example:8444", lan, false},
		{"proxy.example", lan, false},
		{"203.0.113.7:1", lan, true},
		{"[2001:db8::1]:80", lan, true},
		{"[2001:db8::1]:81", lan, false},
		// Malformed Host headers.
		{"", lo, false},
		{"127.0.0.1:", lo, false},
		{"127.0.0.1:99999", lo, false},
		{"::1", lo, false},
		{"[::1", lo, false},
		{"a b", lan, false},
		{"evil.example/x", lan, false},
		// Unknown connection: loopback names and the allow-list only.
		{"localhost:1", nil, true},
		{"192.168.1.10:8080", nil, false},
		{"mcp.example.com", nil, true},
	}
	for _, tc := range tests {
		if got := c.hostAllowed(tc.host, tc.local); got != tc.want {
			t.Errorf("hostAllowed(%q, %v) = %v, want %v", tc.host, tc.local, got, tc.want)
		}
	}
}

func TestOriginAllowed(t *testing.T) {
	c, err := newHTTPConfig(&ServerOptions{AllowedOrigins: []string{"https://App.Example.com:443", "http://[::1]:3000", "vscode-webview://abc"}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		origin, host string
		want         bool
	}{
		{"http://127.0.0.1:8080", "127.0.0.1:8080", true}, // own origin
		{"http://localhost:8080", "localhost:8080", true},
		{"http://LOCALHOST:8080", "localhost:8080", true},
		{"https://mcp.example.com", "mcp.example.com:443", true},
		{"http://mcp.example.com", "mcp.example.com", true},
		{"http://localhost:8081", "localhost:8080", false},
		{"http://localhost", "localhost:8080", false},
		{"https://evil.example", "127.0.0.1:8080", false},
		{"null", "127.0.0.1:8080", false},
		{"", "127.0.0.1:8080", false},
		{"http://127.0.0.1:8080/", "127.0.0.1:8080", false}, // not an origin
		{"http://user@127.0.0.1:8080", "127.0.0.1:8080", false},
		{"https://app.example.com", "127.0.0.1:8080", true}, // allow-list
		{"https://app.example.com:444", "127.0.0.1:8080", false},
		{"http://app.example.com", "127.0.0.1:8080", false},
		{"http://[::1]:3000", "127.0.0.1:8080", true},
		{"vscode-webview://abc", "127.0.0.1:8080", true},
	}
	for _, tc := range tests {
		if got := c.originAllowed(tc.origin, tc.host); got != tc.want {
			t.Errorf("originAllowed(%q, %q) = %v, want %v", tc.origin, tc.host, got, tc.want)
		}
	}
}

func TestServerOptionsValidate(t *testing.T) {
	tests := []struct {
		opts ServerOptions
		want string // "" = valid
	}{
		{ServerOptions{}, ""},
		{ServerOptions{AllowedOrigins: []string{"https://a.example", "http://b:1"}, AllowedHosts: []string{"a", "b:1", "::1", "[::1]:2"}, BearerToken: "s3cr3t-token"}, ""},
		{ServerOptions{AllowedOrigins: []string{"https://a.example", "example.com"}}, `mcp: ServerOptions.AllowedOrigins[1] "example.com": want scheme://host[:port]`},
		{ServerOptions{AllowedOrigins: []string{"https://a.example/path"}}, `mcp: ServerOptions.AllowedOrigins[0] "https://a.example/path": want scheme://host[:port]`},
		{ServerOptions{AllowedOrigins: []string{"*"}}, `mcp: ServerOptions.AllowedOrigins[0] "*": want scheme://host[:port]`},
		{ServerOptions{AllowedHosts: []string{"http://a"}}, `mcp: ServerOptions.AllowedHosts[0] "http://a": want a host name or IP with an optional :port`},
		{ServerOptions{AllowedHosts: []string{"a:"}}, `mcp: ServerOptions.AllowedHosts[0] "a:": want a host name or IP with an optional :port`},
		{ServerOptions{BearerToken: "two words"}, `mcp: ServerOptions.BearerToken: contains a space or control character`},
		{ServerOptions{BearerToken: "tab\there"}, `mcp: ServerOptions.BearerToken: contains a space or control character`},
	}
	for _, tc := range tests {
		err := tc.opts.Validate()
		if got := fmt.Sprint(err); tc.want == "" && err != nil || tc.want != "" && got != tc.want {
			t.Errorf("Validate(%+v) = %v, want %q", tc.opts, err, tc.want)
		}
	}
	defer func() {
		if v := recover(); v == nil || !strings.Contains(fmt.Sprint(v), "AllowedOrigins[0]") {
			t.Errorf("Handler with an invalid origin: panic %v, want the Validate error", v)
		}
	}()
	NewServer(nil, &ServerOptions{AllowedOrigins: []string{"x"}}).Handler()
}

// The defaults apply when the options say nothing.
func TestHTTPConfigDefaults(t *testing.T) {
	c, err := newHTTPConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := httpConfig{origins: map[string]bool{}, sessionTimeout: 30 * time.Minute, maxSessions: 1000, maxStreams: 100,
		maxBody: 4 << 20, readTimeout: 30 * time.Second, headerTimeout: 10 * time.Second, idleTimeout: 2 * time.Minute, maxConns: 512}
	if fmt.Sprint(*c) != fmt.Sprint(want) {
		t.Errorf("defaults = %+v\nwant %+v", *c, want)
	}
	c, _ = newHTTPConfig(&ServerOptions{SessionTimeout: -1, MaxSessions: -1, MaxStreams: -1, MaxRequestBytes: -1, ReadTimeout: -1, ReadHeaderTimeout: -1, IdleTimeout: -1, MaxConnections: -1})
	if want := (httpConfig{origins: map[string]bool{}}); fmt.Sprint(*c) != fmt.Sprint(want) {
		t.Errorf("negative limits = %+v, want none", *c)
	}
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// rawPost sends one MCP POST; hdr adds or overrides headers ("Host" sets
// the Host header). It returns the status, the body and the session id.
func rawPost(t *testing.T, endpoint string, hdr map[string]string, body string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", endpoint, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header.Get("Mcp-Session-Id")
}

// initSession opens a session with a raw initialize and initialized.
func initSession(t *testing.T, endpoint string, hdr map[string]string) string {
	t.Helper()
	code, body, id := rawPost(t, endpoint, hdr, initBody)
	if code != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d %q (session %q)", code, body, id)
	}
	h := map[string]string{"Mcp-Session-Id": id}
	for k, v := range hdr {
		h[k] = v
	}
	if code, body, _ := rawPost(t, endpoint, h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); code != http.StatusAccepted {
		t.Fatalf("initialized: %d %q", code, body)
	}
	return id
}

func listRaw(t *testing.T, endpoint, session string, hdr map[string]string) (int, string) {
	t.Helper()
	h := map[string]string{"Mcp-Session-Id": session}
	for k, v := range hdr {
		h[k] = v
	}
	code, body, _ := rawPost(t, endpoint, h, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	return code, body
}

func newHTTPTestServer(t *testing.T, reg *toolnexus.Registry, opts *ServerOptions) *httptest.Server {
	t.Helper()
	srv := NewServer(reg, opts)
	t.Cleanup(func() { srv.Close() })
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return hs
}

// bearerTransport adds an Authorization header to every request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func TestHandlerToken(t *testing.T) {
	const token = "correct-horse-battery-staple"
	reg := newTestRegistry(t)
	hs := newHTTPTestServer(t, reg, &ServerOptions{BearerToken: token})
	for _, auth := range []string{"", "Bearer wrong", "Bearer " + token + "x", "Basic " + token, token} {
		hdr := map[string]string{}
		if auth != "" {
			hdr["Authorization"] = auth
		}
		if code, body, id := rawPost(t, hs.URL, hdr, initBody); code != http.StatusUnauthorized || id != "" {
			t.Errorf("Authorization %q: %d %q (session %q), want 401", auth, code, body, id)
		}
	}
	// The 401 names the scheme; a served reply does not.
	req, _ := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(initBody))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Values("WWW-Authenticate"); resp.StatusCode != 401 || len(got) != 1 || got[0] != `Bearer realm="toolnexus"` {
		t.Errorf("401 WWW-Authenticate = %q, want [Bearer realm=\"toolnexus\"]", got)
	}
	if !resp.Close {
		t.Error("401 keeps the connection open; a refused peer should not hold one")
	}
	req, _ = http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(initBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	if resp, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Values("WWW-Authenticate"); resp.StatusCode != 200 || len(got) != 0 || resp.Close {
		t.Errorf("served reply: status %d, WWW-Authenticate %q, close %v; want 200, none, kept alive", resp.StatusCode, got, resp.Close)
	}

	ok := map[string]string{"Authorization": "Bearer " + token}
	id := initSession(t, hs.URL, ok)
	if code, body := listRaw(t, hs.URL, id, ok); code != http.StatusOK || !strings.Contains(body, `"get_weather"`) {
		t.Errorf("tools/list with the token: %d %q", code, body)
	}
	// The session id alone is not enough.
	if code, _ := listRaw(t, hs.URL, id, nil); code != http.StatusUnauthorized {
		t.Errorf("tools/list with the session but no token: %d, want 401", code)
	}

	// And the SDK client, given the header, runs a whole session.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs := connectClient(t, ctx, &mcpsdk.StreamableClientTransport{Endpoint: hs.URL, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: bearerTransport{token}}}, nil, nil)
	checkServedSession(t, ctx, cs, nil, reg)
}

func TestHandlerOriginAndHost(t *testing.T) {
	// The defaults (nil options) already check Origin and Host.
	hs := newHTTPTestServer(t, newTestRegistry(t), nil)
	u, _ := url.Parse(hs.URL)
	tests := []struct {
		name string
		hdr  map[string]string
		want int
	}{
		{"no Origin", nil, http.StatusOK},
		{"own origin", map[string]string{"Origin": "http://" + u.Host}, http.StatusOK},
		{"foreign origin", map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		{"null origin", map[string]string{"Origin": "null"}, http.StatusForbidden},
		{"other port", map[string]string{"Origin": "http://127.0.0.1:1"}, http.StatusForbidden},
		{"rebinding", map[string]string{"Host": "evil.example:" + u.Port(), "Origin": "http://evil.example:" + u.Port()}, http.StatusForbidden},
		{"rebinding, no Origin", map[string]string{"Host": "evil.example:" + u.Port()}, http.StatusForbidden},
		{"localhost", map[string]string{"Host": "localhost:" + u.Port()}, http.StatusOK},
	}
	for _, tc := range tests {
		code, body, _ := rawPost(t, hs.URL, tc.hdr, initBody)
		if code != tc.want {
			t.Errorf("%s: %d %q, want %d", tc.name, code, body, tc.want)
		}
	}
	code, body, _ := rawPost(t, hs.URL, map[string]string{"Origin": "https://evil.example"}, initBody)
	if want := "Forbidden: Origin \"https://evil.example\" is not allowed (allow it with ServerOptions.AllowedOrigins, or --allow-origin)\n"; code != 403 || body != want {
		t.Errorf("foreign origin body = %q, want %q", body, want)
	}

	// A refused peer keeps no connection.
	for _, hdr := range [][2]string{{"Origin", "https://evil.example"}, {"Host", "evil.example"}} {
		req, _ := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(initBody))
		if hdr[0] == "Host" {
			req.Host = hdr[1]
		} else {
			req.Header.Set(hdr[0], hdr[1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden || !resp.Close {
			t.Errorf("%s %s: status %d, close %v; want 403 and the connection closed", hdr[0], hdr[1], resp.StatusCode, resp.Close)
		}
	}

	// Allow-lists open exactly what they name.
	hs = newHTTPTestServer(t, newTestRegistry(t), &ServerOptions{AllowedOrigins: []string{"https://app.example"}, AllowedHosts: []string{"mcp.example"}})
	for _, tc := range []struct {
		hdr  map[string]string
		want int
	}{
		{map[string]string{"Origin": "https://app.example"}, http.StatusOK},
		{map[string]string{"Origin": "https://app2.example"}, http.StatusForbidden},
		{map[string]string{"Host": "mcp.example"}, http.StatusOK},
		{map[string]string{"Host": "mcp.example", "Origin": "http://mcp.example"}, http.StatusOK},
		{map[string]string{"Host": "mcp2.example"}, http.StatusForbidden},
	} {
		if code, body, _ := rawPost(t, hs.URL, tc.hdr, initBody); code != tc.want {
			t.Errorf("with allow-lists, %v: %d %q, want %d", tc.hdr, code, body, tc.want)
		}
	}
}

// Through a LAN address, a rebinding Host is refused before anything else
// runs; the address itself passes. (Tests bind loopback only, so the
// connection's local address is set by hand.)
func TestHandlerHostOnLANAddress(t *testing.T) {
	h := NewServer(newTestRegistry(t), nil).Handler()
	lan := tcpAddr("192.168.1.10:8080")
	for _, tc := range []struct {
		host, origin string
		want         int
	}{
		{"evil.example:8080", "http://evil.example:8080", http.StatusForbidden},
		{"evil.example:8080", "", http.StatusForbidden},
		{"localhost:8080", "", http.StatusForbidden},
		{"192.168.1.10:8080", "", http.StatusOK},
		{"192.168.1.10:8080", "http://192.168.1.10:8080", http.StatusOK},
		{"192.168.1.10:8080", "http://evil.example:8080", http.StatusForbidden},
	} {
		req := httptest.NewRequest(http.MethodPost, "http://"+tc.host+"/", strings.NewReader(initBody))
		req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, lan))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tc.want {
			t.Errorf("Host %q Origin %q on a LAN connection: %d %q, want %d", tc.host, tc.origin, rec.Code, rec.Body, tc.want)
		}
	}
}

// TestHandlerSessionTimeout: requests keep a session alive past the
// timeout, idleness ends it. Nothing here depends on how fast the machine
// is: a request counts as proof only when it was done less than the
// timeout after the previous one was sent (so the session cannot have been
// idle that long), and the end of an idle session is waited for.
func TestHandlerSessionTimeout(t *testing.T) {
	const timeout = 2 * time.Second
	hs := newHTTPTestServer(t, newTestRegistry(t), &ServerOptions{SessionTimeout: timeout})
	id := initSession(t, hs.URL, nil)
	sent := time.Now()
	alive := time.Duration(0) // how long requests have kept the session open
	for alive < timeout+timeout/2 {
		time.Sleep(100 * time.Millisecond)
		prev := sent
		sent = time.Now()
		code, body := listRaw(t, hs.URL, id, nil)
		if code != http.StatusOK && time.Since(prev) >= timeout {
			t.Skipf("the machine is too slow to tell: %v between requests, timeout %v", time.Since(prev), timeout)
		}
		if code != http.StatusOK {
			t.Fatalf("tools/list on a busy session (after %v): %d %q", alive, code, body)
		}
		alive += sent.Sub(prev)
	}
	// Idleness ends it. A request that still finds the session open starts
	// a new idle period, so each try waits longer than the timeout.
	for deadline := time.Now().Add(time.Minute); ; {
		time.Sleep(timeout + timeout/2)
		code, body := listRaw(t, hs.URL, id, nil)
		if code == http.StatusNotFound {
			break
		}
		if code != http.StatusOK || time.Now().After(deadline) {
			t.Fatalf("tools/list after the idle timeout: %d %q, want 404", code, body)
		}
	}
}

func TestHandlerMaxSessions(t *testing.T) {
	hs := newHTTPTestServer(t, newTestRegistry(t), &ServerOptions{MaxSessions: 2})
	a := initSession(t, hs.URL, nil)
	initSession(t, hs.URL, nil)
	code, body, id := rawPost(t, hs.URL, nil, initBody)
	if want := "Service Unavailable: 2 sessions already open (ServerOptions.MaxSessions, --max-sessions)\n"; code != http.StatusServiceUnavailable || body != want || id != "" {
		t.Errorf("third session: %d %q (session %q), want 503 %q", code, body, id, want)
	}
	// Existing sessions still work.
	if code, _ := listRaw(t, hs.URL, a, nil); code != http.StatusOK {
		t.Errorf("tools/list on an open session at the limit: %d", code)
	}
	// A failed initialize does not keep a slot.
	if code, _, _ := rawPost(t, hs.URL, nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":5}`); code == http.StatusOK {
		t.Errorf("bad initialize accepted")
	}
	// Closing one frees its slot.
	req, _ := http.NewRequest(http.MethodDelete, hs.URL, nil)
	req.Header.Set("Mcp-Session-Id", a)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %v %v", resp, err)
	}
	resp.Body.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		code, _, id := rawPost(t, hs.URL, nil, initBody)
		if code == http.StatusOK && id != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no new session after closing one: last status %d", code)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Idle sessions that time out give their slot back too.
func TestHandlerMaxSessionsTimeout(t *testing.T) {
	hs := newHTTPTestServer(t, newTestRegistry(t), &ServerOptions{MaxSessions: 1, SessionTimeout: 200 * time.Millisecond})
	initSession(t, hs.URL, nil)
	if code, _, _ := rawPost(t, hs.URL, nil, initBody); code != http.StatusServiceUnavailable {
		t.Fatalf("second session: %d, want 503", code)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		code, _, id := rawPost(t, hs.URL, nil, initBody)
		if code == http.StatusOK && id != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no new session 10s after the idle one timed out (200ms): last status %d", code)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestHandlerMaxRequestBytes(t *testing.T) {
	hs := newHTTPTestServer(t, newTestRegistry(t), &ServerOptions{MaxRequestBytes: 1000})
	id := initSession(t, hs.URL, nil)
	big := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"` + strings.Repeat("x", 1000) + `"}}}`
	code, body, _ := rawPost(t, hs.URL, map[string]string{"Mcp-Session-Id": id}, big)
	if want := "Request Entity Too Large: request body exceeds 1000 bytes (ServerOptions.MaxRequestBytes, --max-body)\n"; code != http.StatusRequestEntityTooLarge || body != want {
		t.Errorf("large body: %d %q, want 413 %q", code, body, want)
	}
	if code, _ := listRaw(t, hs.URL, id, nil); code != http.StatusOK {
		t.Errorf("small body after a large one: %d", code)
	}
}

// A body that trickles in is cut off after ReadTimeout.
func TestHandlerSlowBody(t *testing.T) {
	hs := newHTTPTestServer(t, newTestRegistry(t), &ServerOptions{ReadTimeout: 200 * time.Millisecond})
	conn, err := net.Dial("tcp", hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s",
		hs.Listener.Addr(), len(initBody), initBody[:20])
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no response to a stalled body: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	if want := "Request Timeout: request body not received within 200ms (ServerOptions.ReadTimeout, --read-timeout)\n"; resp.StatusCode != http.StatusRequestTimeout || string(b) != want {
		t.Errorf("stalled body: %d %q, want 408 %q", resp.StatusCode, b, want)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("stalled body answered after %v", d)
	}
}

// blockingRegistry has a tool "wait" that returns when release is closed
// (or its ctx ends), after signalling on started.
func blockingRegistry(t *testing.T, started chan<- struct{}, release <-chan struct{}) *toolnexus.Registry {
	t.Helper()
	reg := toolnexus.NewRegistry()
	if err := toolnexus.Register(reg, "wait", "Wait", func(ctx context.Context, _ struct{}) (string, error) {
		started <- struct{}{}
		select {
		case <-release:
			return "released", nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}); err != nil {
		t.Fatal(err)
	}
	return reg
}

// The read deadline is lifted once the body is in: a reply that takes
// longer than ReadTimeout still arrives. (With the 2026-07-28 protocol the
// SDK ends a call when its HTTP request's context ends, which an expired
// read deadline would do.)
func TestHandlerReadTimeoutSparesLongReplies(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	started, release := make(chan struct{}, 1), make(chan struct{})
	hs := newHTTPTestServer(t, blockingRegistry(t, started, release), &ServerOptions{Stateless: true, ReadTimeout: 100 * time.Millisecond})
	cs := connectClient(t, ctx, &mcpsdk.StreamableClientTransport{Endpoint: hs.URL, MaxRetries: -1}, nil, nil)
	go func() {
		<-started
		time.Sleep(500 * time.Millisecond)
		close(release)
	}()
	if text, isErr := callText(t, ctx, cs, "wait", `{}`); isErr || text != "released" {
		t.Errorf("slow tool call = %q, isError %v; want released", text, isErr)
	}
}

func TestHandlerMaxStreams(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	hs := newHTTPTestServer(t, blockingRegistry(t, started, release), &ServerOptions{MaxStreams: 1})
	id := initSession(t, hs.URL, nil)
	done := make(chan int, 1)
	go func() {
		code, _, _ := rawPost(t, hs.URL, map[string]string{"Mcp-Session-Id": id}, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wait","arguments":{}}}`)
		done <- code
	}()
	<-started
	code, body := listRaw(t, hs.URL, id, nil)
	if want := "Service Unavailable: 1 requests already in progress (ServerOptions.MaxStreams, --max-streams)\n"; code != http.StatusServiceUnavailable || body != want {
		t.Errorf("second concurrent request: %d %q, want 503 %q", code, body, want)
	}
	close(release)
	if code := <-done; code != http.StatusOK {
		t.Errorf("the blocked call: %d", code)
	}
	if code, body := listRaw(t, hs.URL, id, nil); code != http.StatusOK {
		t.Errorf("after the stream closed: %d %q", code, body)
	}
}

// listen runs ListenAndServe on 127.0.0.1:0 and returns its address.
func listen(t *testing.T, opts *ServerOptions) string {
	t.Helper()
	srv := NewServer(newTestRegistry(t), opts)
	ctx, cancel := context.WithCancel(context.Background())
	addrc, errc := make(chan string, 1), make(chan error, 1)
	go func() { errc <- srv.ListenAndServe(ctx, "127.0.0.1:0", func(a net.Addr) { addrc <- a.String() }) }()
	t.Cleanup(func() {
		cancel()
		<-errc
		srv.Close()
	})
	select {
	case a := <-addrc:
		return a
	case err := <-errc:
		t.Fatalf("ListenAndServe: %v", err)
	}
	return ""
}

// closedWithin reports whether the server closes conn within d.
func closedWithin(conn net.Conn, d time.Duration) bool {
	conn.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, conn)
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

func TestListenAndServeHeaderTimeout(t *testing.T) {
	addr := listen(t, &ServerOptions{ReadHeaderTimeout: 200 * time.Millisecond})
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\n", addr) // and never the blank line
	if !closedWithin(conn, 3*time.Second) {
		t.Error("connection with unfinished headers still open after 3s (ReadHeaderTimeout 200ms)")
	}
}

func TestListenAndServeIdleTimeout(t *testing.T) {
	addr := listen(t, &ServerOptions{IdleTimeout: 200 * time.Millisecond})
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET / HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n", addr)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusBadRequest || resp.Close {
		t.Fatalf("GET without a session: %d (close %v), want a kept-alive 400", resp.StatusCode, resp.Close)
	}
	if !closedWithin(conn, 3*time.Second) {
		t.Error("idle keep-alive connection still open after 3s (IdleTimeout 200ms)")
	}
}

func TestListenAndServeRefusesOpenAddressWithoutToken(t *testing.T) {
	srv := NewServer(newTestRegistry(t), nil)
	defer srv.Close()
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:0", "example.com:0"} {
		called := false
		err := srv.ListenAndServe(context.Background(), addr, func(net.Addr) { called = true })
		want := fmt.Sprintf("mcp: listen on %q: a bearer token is required to listen on an address that is not loopback", addr)
		if !errors.Is(err, ErrTokenRequired) || err.Error() != want || called {
			t.Errorf("ListenAndServe(%q) = %v (listening: %v), want %q", addr, err, called, want)
		}
	}
	bad := NewServer(newTestRegistry(t), &ServerOptions{AllowedHosts: []string{"a/b"}})
	defer bad.Close()
	if err := bad.ListenAndServe(context.Background(), "127.0.0.1:0", nil); err == nil || !strings.Contains(err.Error(), "AllowedHosts[0]") {
		t.Errorf("ListenAndServe with invalid options = %v", err)
	}
}

// Stateless servers run as replicas: two of them behind a round-robin
// proxy serve one client, each request going to the next replica.
func TestStatelessReplicas(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	reg := newTestRegistry(t)
	var hits [2]atomic.Int64
	var backends [2]*url.URL
	for i := range backends {
		srv := NewServer(reg, &ServerOptions{Stateless: true})
		t.Cleanup(func() { srv.Close() })
		h := srv.Handler()
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits[i].Add(1)
			h.ServeHTTP(w, r)
		}))
		t.Cleanup(hs.Close)
		backends[i], _ = url.Parse(hs.URL)
	}
	var next atomic.Int64
	proxy := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(backends[next.Add(1)%2])
	}})
	t.Cleanup(proxy.Close)

	cs := connectClient(t, ctx, &mcpsdk.StreamableClientTransport{Endpoint: proxy.URL, MaxRetries: -1}, nil, nil)
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Errorf("negotiated protocol %q, want 2026-07-28", v)
	}
	checkServedSession(t, ctx, cs, nil, reg)
	if a, b := hits[0].Load(), hits[1].Load(); a < 4 || b < 4 {
		t.Errorf("requests per replica = %d, %d; want both used", a, b)
	}

	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		req, _ := http.NewRequest(method, proxy.URL, nil)
		req.Header.Set("Accept", "text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("stateless %s: %d, want 405", method, resp.StatusCode)
		}
	}

	// An older client, which initializes first, works the same way.
	c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "old", Version: "1"}, nil)
	old, err := c.Connect(ctx, &mcpsdk.StreamableClientTransport{Endpoint: proxy.URL, MaxRetries: -1}, &mcpsdk.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if v := old.InitializeResult().ProtocolVersion; v != "2025-06-18" {
		t.Errorf("old client negotiated %q", v)
	}
	if text, isErr := callText(t, ctx, old, "get_weather", `{"city":"Kyiv"}`); isErr || text != "22 degrees celsius in Kyiv" {
		t.Errorf("old client call = %q, %v", text, isErr)
	}
}

func FuzzOriginHost(f *testing.F) {
	for _, s := range [][2]string{
		{"http://127.0.0.1:8080", "127.0.0.1:8080"}, {"https://App.Example:443", "app.example"},
		{"http://[::1]:3000", "[::1]:3000"}, {"null", ""}, {"vscode-webview://x", "localhost"},
		{"http://a:08080", "a:8080"}, {"http://[::ffff:127.0.0.1]", "[::ffff:7f00:1]:80"}, {"x://[fe80::1%25lo]", "[fe80::1%lo]"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, origin, host string) {
		none, _ := newHTTPConfig(nil)
		if norm, ok := normalizeOrigin(origin); ok {
			if again, ok := normalizeOrigin(norm); !ok || again != norm {
				t.Fatalf("normalizeOrigin(%q) = %q, then %q %v", origin, norm, again, ok)
			}
			c, err := newHTTPConfig(&ServerOptions{AllowedOrigins: []string{origin}})
			if err != nil || !c.originAllowed(origin, host) || !c.originAllowed(norm, host) {
				t.Fatalf("allow-listed origin %q (%q) refused: %v", origin, norm, err)
			}
		} else if none.originAllowed(origin, host) {
			t.Fatalf("originAllowed(%q, %q) for an origin that does not parse", origin, host)
		}
		hp, ok := parseHost(host, false)
		if !ok {
			if none.hostAllowed(host, nil) || none.originAllowed(origin, host) {
				t.Fatalf("unparsable Host %q allowed", host)
			}
			return
		}
		// An own origin is only ever allowed for the Host it names.
		if none.originAllowed(origin, host) {
			_, o, _ := splitOrigin(origin)
			if o.host != hp.host {
				t.Fatalf("originAllowed(%q, %q): hosts differ", origin, host)
			}
		}
		// A Host on the allow-list is allowed on any connection.
		c, err := newHTTPConfig(&ServerOptions{AllowedHosts: []string{host}})
		if err != nil || !c.hostAllowed(host, tcpAddr("192.0.2.1:1")) {
			t.Fatalf("allow-listed Host %q refused: %v", host, err)
		}
		// Without the allow-list, a name other than localhost never is.
		if none.hostAllowed(host, tcpAddr("192.0.2.1:1")) && hp.host != "192.0.2.1" {
			t.Fatalf("hostAllowed(%q) on a non-loopback connection", host)
		}
	})
}

// Another authorization in front of Handler, as the README shows: the
// SDK's bearer-token middleware with a verifier of one's own. The Origin
// check still applies, and a session stays with the user who opened it.
func TestHandlerBehindOAuth(t *testing.T) {
	srv := NewServer(newTestRegistry(t), nil)
	defer srv.Close()
	users := map[string]string{"token-a": "alice", "token-b": "bob"}
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		user, ok := users[token]
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: user, Scopes: []string{"tools"}, Expiration: time.Now().Add(time.Hour)}, nil
	}
	h := auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{Scopes: []string{"tools"}})(srv.Handler())
	hs := httptest.NewServer(h)
	defer hs.Close()

	if code, _, _ := rawPost(t, hs.URL, nil, initBody); code != http.StatusUnauthorized {
		t.Errorf("no token: %d, want 401", code)
	}
	alice := map[string]string{"Authorization": "Bearer token-a"}
	if code, _, _ := rawPost(t, hs.URL, map[string]string{"Authorization": "Bearer token-a", "Origin": "https://evil.example"}, initBody); code != http.StatusForbidden {
		t.Errorf("foreign Origin with a valid token: %d, want 403", code)
	}
	id := initSession(t, hs.URL, alice)
	if code, body := listRaw(t, hs.URL, id, alice); code != http.StatusOK {
		t.Errorf("alice's session, alice's token: %d %q", code, body)
	}
	if code, body := listRaw(t, hs.URL, id, map[string]string{"Authorization": "Bearer token-b"}); code != http.StatusForbidden {
		t.Errorf("alice's session, bob's token: %d %q, want 403", code, body)
	}
}

// ListenAndServe closes the sessions it opened when it stops: nobody could
// reach them any more.
func TestListenAndServeClosesSessions(t *testing.T) {
	srv := NewServer(newTestRegistry(t), nil)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	addrc, errc := make(chan string, 1), make(chan error, 1)
	go func() { errc <- srv.ListenAndServe(ctx, "127.0.0.1:0", func(a net.Addr) { addrc <- a.String() }) }()
	addr := <-addrc
	initSession(t, "http://"+addr+"/", nil)
	initSession(t, "http://"+addr+"/", nil)
	count := func() (n int) {
		for range srv.SDKServer().Sessions() {
			n++
		}
		return n
	}
	if n := count(); n != 2 {
		t.Fatalf("%d sessions open, want 2", n)
	}
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 0 {
		t.Errorf("%d sessions still open after ListenAndServe returned", n)
	}
}

// Connections over MaxConnections wait, unanswered, until one closes.
func TestListenAndServeMaxConnections(t *testing.T) {
	addr := listen(t, &ServerOptions{MaxConnections: 1})
	first, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	// Make sure the server holds the first connection before the second.
	fmt.Fprintf(first, "GET / HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n", addr)
	r1 := bufio.NewReader(first)
	if resp, err := http.ReadResponse(r1, nil); err != nil || resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("first connection: %v %v", resp, err)
	}
	second, err := net.Dial("tcp", addr) // the kernel accepts it; the server does not
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	fmt.Fprintf(second, "GET / HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n", addr)
	second.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	r2 := bufio.NewReader(second)
	if _, err := r2.Peek(1); err == nil {
		t.Fatal("second connection answered while the first is open (MaxConnections 1)")
	}
	first.Close()
	second.SetReadDeadline(time.Now().Add(10 * time.Second))
	if resp, err := http.ReadResponse(r2, nil); err != nil || resp.StatusCode != http.StatusBadRequest {
		t.Errorf("second connection after the first closed: %v %v", resp, err)
	}
}

// BenchmarkHTTPCall is one tools/call over streamable HTTP (loopback)
// through the SDK client: "sdk" is the SDK's handler alone, "guarded" is
// Handler with a token and every check and limit on.
func BenchmarkHTTPCall(b *testing.B) {
	reg, err := testserver.NewRegistry()
	if err != nil {
		b.Fatal(err)
	}
	const token = "bench-token-0123456789"
	for _, bc := range []struct {
		name string
		h    func(*Server) http.Handler
		rt   http.RoundTripper
	}{
		{"sdk", func(s *Server) http.Handler {
			return mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return s.SDKServer() }, nil)
		}, http.DefaultTransport},
		{"guarded", (*Server).Handler, bearerTransport{token}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := context.Background()
			srv := NewServer(reg, &ServerOptions{BearerToken: token})
			defer srv.Close()
			hs := httptest.NewServer(bc.h(srv))
			defer hs.Close()
			cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx,
				&mcpsdk.StreamableClientTransport{Endpoint: hs.URL, MaxRetries: -1, HTTPClient: &http.Client{Transport: bc.rt}}, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			params := &mcpsdk.CallToolParams{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}
			b.ReportAllocs()
			for b.Loop() {
				if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
					b.Fatal(err, res)
				}
			}
		})
	}
}

// BenchmarkRequestChecks is the Host, Origin and token checks of one
// request, without the SDK.
func BenchmarkRequestChecks(b *testing.B) {
	srv := NewServer(toolnexus.NewRegistry(), &ServerOptions{BearerToken: "bench-token-0123456789", AllowedHosts: []string{"mcp.example"}})
	defer srv.Close()
	c, _ := newHTTPConfig(&srv.opts)
	h, _ := c.handler(srv.SDKServer(), nil)
	req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8080/", nil)
	req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, tcpAddr("127.0.0.1:8080")))
	req.Header.Set("Origin", "http://127.0.0.1:8080")
	req.Header.Set("Authorization", "Bearer bench-token-0123456789")
	// No Accept header: the SDK refuses the GET at once (400), after every check.
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusBadRequest {
			b.Fatal(w.Code, w.Body)
		}
	}
}

// The buffered body lets go of its bytes once read.
func TestReadOnceReleases(t *testing.T) {
	r := &readOnce{[]byte("hello world")}
	got, err := io.ReadAll(r)
	if err != nil || string(got) != "hello world" || r.b != nil {
		t.Errorf("ReadAll = %q, %v; buffer after = %q, want released", got, err, r.b)
	}
}

// A stateless server stops a call whose client gave up on it: the
// 2026-07-28 client ends the POST, an older one (no session to send
// notifications/cancelled on) ends it too; either way the tool's context
// is done within a second, and its work does not run on.
func TestStatelessCancelStopsTheCall(t *testing.T) {
	for _, version := range []string{"", "2025-11-25", "2025-06-18"} {
		t.Run("version "+version, func(t *testing.T) {
			started, stopped := make(chan struct{}, 1), make(chan struct{}, 1)
			reg := toolnexus.NewRegistry()
			require.NoError(t, toolnexus.Register(reg, "wait", "Wait", func(ctx context.Context, _ struct{}) (string, error) {
				started <- struct{}{}
				select {
				case <-ctx.Done():
					stopped <- struct{}{}
					return "", ctx.Err()
				case <-time.After(30 * time.Second):
					return "ran to the end", nil
				}
			}))
			hs := newHTTPTestServer(t, reg, &ServerOptions{Stateless: true})
			c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "t", Version: "1"}, nil)
			var copts *mcpsdk.ClientSessionOptions
			if version != "" {
				copts = &mcpsdk.ClientSessionOptions{ProtocolVersion: version}
			}
			cs, err := c.Connect(t.Context(), &mcpsdk.StreamableClientTransport{Endpoint: hs.URL, MaxRetries: -1}, copts)
			require.NoError(t, err)
			defer cs.Close()
			ctx, cancel := context.WithCancel(t.Context())
			errc := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "wait", Arguments: map[string]any{}})
				errc <- err
			}()
			<-started
			cancel()
			require.Error(t, <-errc)
			select {
			case <-stopped:
			case <-time.After(time.Second):
				t.Fatal("the tool's context was not done a second after the client cancelled")
			}
		})
	}
}
