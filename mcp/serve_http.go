package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sync/semaphore"
)

// Defaults of the HTTP limits in [ServerOptions], used when a field is zero.
const (
	// DefaultSessionTimeout is the default ServerOptions.SessionTimeout.
	DefaultSessionTimeout = 30 * time.Minute
	// DefaultMaxSessions is the default ServerOptions.MaxSessions.
	DefaultMaxSessions = 1000
	// DefaultMaxStreams is the default ServerOptions.MaxStreams.
	DefaultMaxStreams = 100
	// DefaultMaxSessionCalls is the default ServerOptions.MaxSessionCalls.
	DefaultMaxSessionCalls = 16
	// DefaultMaxRequestBytes is the default ServerOptions.MaxRequestBytes
	// (4 MiB, the SDK's own default).
	DefaultMaxRequestBytes = 4 << 20
	// DefaultReadTimeout is the default ServerOptions.ReadTimeout.
	DefaultReadTimeout = 30 * time.Second
	// DefaultReadHeaderTimeout is the default ServerOptions.ReadHeaderTimeout.
	DefaultReadHeaderTimeout = 10 * time.Second
	// DefaultMaxConnections is the default ServerOptions.MaxConnections.
	DefaultMaxConnections = 512
	// DefaultIdleTimeout is the default ServerOptions.IdleTimeout.
	DefaultIdleTimeout = 2 * time.Minute
)

// ErrTokenRequired is returned (wrapped) by [Server.ListenAndServe] for an
// address that is not loopback (see [IsLoopbackAddr]) when
// ServerOptions.BearerToken is empty: anyone who can reach such an address
// could otherwise call every served tool.
var ErrTokenRequired = errors.New("a bearer token is required to listen on an address that is not loopback")

// IsLoopbackAddr reports whether addr, a host:port as given to
// [Server.ListenAndServe], can only be reached from this machine: its host
// is "localhost" or a loopback IP (127.0.0.0/8, ::1). An empty host (":8080"),
// an unspecified address (0.0.0.0, [::]), any other IP and any other host
// name are not loopback; so is an addr without a port.
func IsLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// Validate reports the first invalid HTTP option, naming the field and the
// rule, for example `ServerOptions.AllowedOrigins[0] "example.com": want
// scheme://host[:port]`. [Server.Handler] panics and [Server.ListenAndServe]
// returns this error; call Validate first to report it your own way.
//
//   - AllowedOrigins entries are origins, scheme://host[:port], without a
//     path, query or user information.
//   - AllowedHosts entries are a host name or IP, with an optional :port
//     (an IPv6 address with a port in brackets: [::1]:8080).
//   - BearerToken may not contain spaces or control characters (it must fit
//     in an "Authorization: Bearer <token>" header).
func (o *ServerOptions) Validate() error {
	_, err := newHTTPConfig(o)
	return err
}

// httpConfig is ServerOptions resolved for serving HTTP: defaults applied,
// allow-lists parsed. A zero limit means none.
type httpConfig struct {
	token          *[sha256.Size]byte // nil: no token required
	origins        map[string]bool    // normalized scheme://host[:port]
	hosts          []hostPort         // normalized, port "" = any
	stateless      bool
	tasks          bool // read tools/call's task members (ServerOptions.Tasks)
	trustProxy     bool
	sessionTimeout time.Duration
	maxSessions    int
	maxStreams     int
	maxBody        int64
	readTimeout    time.Duration
	headerTimeout  time.Duration
	idleTimeout    time.Duration
	maxConns       int
}

// hostPort is a normalized host (lowercase name, or canonical IP) and port.
type hostPort struct{ host, port string }

// limit returns def for zero, none (0) for a negative v, else v.
func limit[T int | int64 | time.Duration](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

func newHTTPConfig(o *ServerOptions) (*httpConfig, error) {
	if o == nil {
		o = &ServerOptions{}
	}
	c := &httpConfig{
		origins:        map[string]bool{},
		stateless:      o.Stateless,
		tasks:          o.Tasks != nil,
		trustProxy:     o.TrustProxyHeaders,
		sessionTimeout: limit(o.SessionTimeout, DefaultSessionTimeout),
		maxSessions:    limit(o.MaxSessions, DefaultMaxSessions),
		maxStreams:     limit(o.MaxStreams, DefaultMaxStreams),
		maxBody:        limit(o.MaxRequestBytes, DefaultMaxRequestBytes),
		readTimeout:    limit(o.ReadTimeout, DefaultReadTimeout),
		headerTimeout:  limit(o.ReadHeaderTimeout, DefaultReadHeaderTimeout),
		idleTimeout:    limit(o.IdleTimeout, DefaultIdleTimeout),
		maxConns:       limit(o.MaxConnections, DefaultMaxConnections),
	}
	for i, s := range o.AllowedOrigins {
		norm, ok := normalizeOrigin(s)
		if !ok {
			return nil, fmt.Errorf("mcp: ServerOptions.AllowedOrigins[%d] %q: want scheme://host[:port]", i, s)
		}
		c.origins[norm] = true
	}
	for i, s := range o.AllowedHosts {
		hp, ok := parseHost(s, true)
		if !ok {
			return nil, fmt.Errorf("mcp: ServerOptions.AllowedHosts[%d] %q: want a host name or IP with an optional :port", i, s)
		}
		c.hosts = append(c.hosts, hp)
	}
	if o.BearerToken != "" {
		if strings.IndexFunc(o.BearerToken, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
			return nil, errors.New("mcp: ServerOptions.BearerToken: contains a space or control character")
		}
		sum := sha256.Sum256([]byte(o.BearerToken))
		c.token = &sum
	}
	return c, nil
}

// parseHost parses a Host header value, or (with bareIPv6) an AllowedHosts
// entry, which may also be an IPv6 address without brackets. The host is
// lowercased without a trailing dot; an IP is in canonical form (IPv4-mapped
// IPv6 unmapped, no zone).
func parseHost(s string, bareIPv6 bool) (hostPort, bool) {
	var host, port string
	switch {
	case strings.HasPrefix(s, "["):
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return hostPort{}, false
		}
		host, port = s[1:end], s[end+1:]
		if port != "" {
			if port[0] != ':' {
				return hostPort{}, false
			}
			port = port[1:]
			if port == "" {
				return hostPort{}, false
			}
		}
		ip, err := netip.ParseAddr(host)
		if err != nil || !ip.Is6() {
			return hostPort{}, false
		}
	case strings.Count(s, ":") > 1:
		if !bareIPv6 {
			return hostPort{}, false
		}
		host = s
		if ip, err := netip.ParseAddr(host); err != nil || !ip.Is6() {
			return hostPort{}, false
		}
	default:
		var hasPort bool
		host, port, hasPort = strings.Cut(s, ":")
		if hasPort && port == "" {
			return hostPort{}, false
		}
	}
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 0 || n > 65535 || port[0] == '+' || port[0] == '-' {
			return hostPort{}, false
		}
		port = strconv.Itoa(n)
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return hostPort{ip.WithZone("").Unmap().String(), port}, true
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "" || len(host) > 253 {
		return hostPort{}, false
	}
	for i := 0; i < len(host); i++ {
		c := host[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_') {
			return hostPort{}, false
		}
	}
	return hostPort{host, port}, true
}

// splitOrigin parses an Origin (scheme://host[:port]) into its lowercase
// scheme and normalized host, dropping the scheme's default port.
func splitOrigin(s string) (scheme string, hp hostPort, ok bool) {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || scheme == "" || rest == "" || strings.ContainsAny(rest, "/?#@\\") {
		return "", hostPort{}, false
	}
	for i := 0; i < len(scheme); i++ {
		c := scheme[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return "", hostPort{}, false
		}
	}
	scheme = strings.ToLower(scheme)
	hp, ok = parseHost(rest, false)
	if !ok {
		return "", hostPort{}, false
	}
	if hp.port == defaultPort(scheme) {
		hp.port = ""
	}
	return scheme, hp, true
}

func defaultPort(scheme string) string {
	switch scheme {
	case "http", "ws":
		return "80"
	case "https", "wss":
		return "443"
	}
	return ""
}

// normalizeOrigin returns the canonical form of an origin, as used in the
// allow-list: lowercase, default port dropped, IPv6 in brackets.
func normalizeOrigin(s string) (string, bool) {
	scheme, hp, ok := splitOrigin(s)
	if !ok {
		return "", false
	}
	host := hp.host
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if hp.port != "" {
		host += ":" + hp.port
	}
	return scheme + "://" + host, true
}

// originAllowed reports whether a request with this Origin header may
// proceed: the origin is on the allow-list, or it is the server's own origin
// (its host and port are those of the request's Host header; the Host
// header itself is checked by hostAllowed).
func (c *httpConfig) originAllowed(origin, host string) bool {
	if norm, ok := normalizeOrigin(origin); ok && c.origins[norm] {
		return true
	}
	scheme, o, ok := splitOrigin(origin)
	if !ok {
		return false
	}
	h, ok := parseHost(host, false)
	if !ok {
		return false
	}
	if h.port == defaultPort(scheme) {
		h.port = ""
	}
	return o == h
}

// hostAllowed reports whether a request with this Host header, arriving on
// a connection to local (nil when unknown), may proceed. Allowed are the
// AllowedHosts entries, the IP the client connected to, and, on a loopback
// connection (or an unknown one), "localhost" and loopback IPs. Any other
// name is what a DNS rebinding attack sends, and is refused.
func (c *httpConfig) hostAllowed(host string, local net.Addr) bool {
	h, ok := parseHost(host, false)
	if !ok {
		return false
	}
	for _, a := range c.hosts {
		if a.host == h.host && (a.port == "" || a.port == h.port) {
			return true
		}
	}
	var localIP netip.Addr
	if ta, ok := local.(*net.TCPAddr); ok {
		localIP = ta.AddrPort().Addr().WithZone("").Unmap()
	}
	loopbackConn := !localIP.IsValid() || localIP.IsLoopback()
	if ip, err := netip.ParseAddr(h.host); err == nil {
		return ip == localIP || ip.IsLoopback() && loopbackConn
	}
	return h.host == "localhost" && loopbackConn
}

// handler wraps the SDK's streamable HTTP handler for srv with the checks
// and limits of c, in this order: Host, Origin, bearer token, proxy
// headers (tokenless only), concurrent requests and request body (see
// admit), new sessions. closeSessions closes the sessions it opened that
// are still open.
func (c *httpConfig) handler(srv *mcpsdk.Server, logger *slog.Logger) (h http.Handler, closeSessions func()) {
	sdkMax := c.maxBody
	if sdkMax == 0 {
		sdkMax = -1 // no limit
	}
	sdk := mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return srv }, &mcpsdk.StreamableHTTPOptions{
		Stateless:      c.stateless,
		SessionTimeout: c.sessionTimeout,
		// Our Host check covers the SDK's and adds AllowedHosts.
		DisableLocalhostProtection:   true,
		MaxRequestBodyBytes:          sdkMax,
		PropagateRequestCancellation: true,
		Logger:                       logger,
	})
	var next http.Handler = sdk
	closeSessions = func() {}
	if !c.stateless {
		ss := &sessions{next: next, srv: srv, max: c.maxSessions, open: map[*mcpsdk.ServerSession]bool{}}
		next, closeSessions = ss, ss.closeAll
	}
	next = c.admit(next, srv)
	if c.token != nil {
		want := c.token
		verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
			got := sha256.Sum256([]byte(token))
			if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
				return nil, auth.ErrInvalidToken
			}
			return &auth.TokenInfo{}, nil
		}
		inner := next
		authed := auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(
			http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Del("WWW-Authenticate")
				w.Header().Del("Connection")
				inner.ServeHTTP(w, r)
			}))
		// RFC 6750 section 3: a 401 names the scheme.
		next = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="toolnexus"`)
			w.Header().Set("Connection", "close") // refused peers keep no connection
			authed.ServeHTTP(w, r)
		})
	}
	inner := next
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
		refuse := func(format string, args ...any) {
			w.Header().Set("Connection", "close")
			http.Error(w, fmt.Sprintf(format, args...), http.StatusForbidden)
		}
		if !c.hostAllowed(r.Host, local) {
			refuse("Forbidden: Host %q is not allowed (allow it with ServerOptions.AllowedHosts, or --allow-host)", r.Host)
			return
		}
		if origins := r.Header.Values("Origin"); len(origins) > 0 {
			if len(origins) > 1 || !c.originAllowed(origins[0], r.Host) {
				refuse("Forbidden: Origin %q is not allowed (allow it with ServerOptions.AllowedOrigins, or --allow-origin)", strings.Join(origins, ", "))
				return
			}
		}
		if c.token == nil && !c.trustProxy {
			for _, k := range proxyHeaders {
				if _, ok := r.Header[k]; ok {
					refuse("Forbidden: a request forwarded by a proxy (%s header) needs a bearer token (ServerOptions.BearerToken; or ServerOptions.TrustProxyHeaders)", k)
					return
				}
			}
		}
		inner.ServeHTTP(w, r)
	}), closeSessions
}

// proxyHeaders are the headers, in canonical form, that reverse proxies
// and CDNs add to a request they forward. A proxy that adds none (nginx's
// plain proxy_pass does not) is not detected.
var proxyHeaders = []string{"Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto", "X-Forwarded-Server",
	"X-Real-Ip", "X-Client-Ip", "True-Client-Ip", "Cf-Connecting-Ip", "Via"}

// connKey is the request context key of the *limitedConn a request came
// on (ListenAndServe with MaxConnections only).
type connKey struct{}

// admit applies the limits of c that come after authentication, and marks
// the request's connection as authorised (see connLimit). A POST takes one
// of c.maxStreams slots for as long as it is served, a reply streamed as
// server-sent events included, and more than that answers 503; its body is
// then read whole, cut off at c.maxBody bytes (413) and after
// c.readTimeout (408; where the ResponseWriter cannot set a read deadline,
// as in httptest.ResponseRecorder, only the size is limited). A JSON-RPC
// batch of n messages takes n slots (more than c.maxStreams: 413), and is
// refused (400) unless it belongs to a session of protocol revision
// 2025-03-26, the only one with batches (stateless: unless its
// MCP-Protocol-Version header is absent or 2025-03-26). GET and DELETE take
// no slot: the SDK serves one GET stream per session, which MaxSessions
// bounds.
func (c *httpConfig) admit(next http.Handler, srv *mcpsdk.Server) http.Handler {
	max := int64(c.maxStreams)
	if max == 0 {
		max = math.MaxInt64
	}
	sem := semaphore.NewWeighted(max)
	busy := func(w http.ResponseWriter) {
		w.Header().Set("Retry-After", "1")
		http.Error(w, fmt.Sprintf("Service Unavailable: %d requests already in progress (ServerOptions.MaxStreams, --max-streams)", c.maxStreams), http.StatusServiceUnavailable)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if lc, ok := r.Context().Value(connKey{}).(*limitedConn); ok {
			lc.authed.Store(true)
		}
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		if !sem.TryAcquire(1) {
			busy(w)
			return
		}
		slots := int64(1)
		defer func() { sem.Release(slots) }()
		data, ok := c.readBody(w, r)
		if !ok {
			return
		}
		n, err := batchLen(data)
		if err != nil {
			http.Error(w, "Bad Request: "+err.Error(), http.StatusBadRequest)
			return
		}
		if n > 0 {
			if msg := batchRefusal(srv, r, c.stateless); msg != "" {
				http.Error(w, "Bad Request: "+msg, http.StatusBadRequest)
				return
			}
			if c.maxStreams > 0 && n > c.maxStreams {
				http.Error(w, fmt.Sprintf("Request Entity Too Large: a batch of %d messages; at most %d (ServerOptions.MaxStreams, --max-streams)", n, c.maxStreams), http.StatusRequestEntityTooLarge)
				return
			}
			if !sem.TryAcquire(int64(n - 1)) {
				busy(w)
				return
			}
			slots = int64(n)
		}
		if c.tasks && n == 0 {
			data = liftTask(data)
			r.ContentLength = int64(len(data))
		}
		r.Body = &readOnce{data}
		next.ServeHTTP(w, r)
	})
}

// batchLen is the number of messages of the JSON-RPC batch data holds, 0
// when it holds one message. A body with more than whitespace after its
// first JSON value, or a batch that is not valid JSON, is an error: the
// SDK reads the first value and ignores the rest, so such a body would
// otherwise reach it as a batch that no check here counted.
func batchLen(data []byte) (int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var first json.RawMessage
	if err := dec.Decode(&first); err != nil {
		if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '[' {
			return 0, errors.New("the batch is not valid JSON")
		}
		return 0, nil // one malformed message: the SDK answers it
	}
	if _, err := dec.Token(); err != io.EOF {
		return 0, errors.New("the body holds more than one JSON value")
	}
	if first[0] != '[' {
		return 0, nil
	}
	var msgs []json.RawMessage
	if err := json.Unmarshal(first, &msgs); err != nil {
		return 0, errors.New("the batch is not valid JSON")
	}
	return len(msgs), nil
}

// batchRefusal says why a batch may not be served in r's session, "" when
// it may.
func batchRefusal(srv *mcpsdk.Server, r *http.Request, stateless bool) string {
	const batching = "2025-03-26"
	hdr := r.Header.Get("Mcp-Protocol-Version")
	if hdr != "" && hdr != batching {
		return "JSON-RPC batches exist only in protocol revision " + batching + ", not in " + hdr
	}
	if stateless {
		return ""
	}
	id := r.Header.Get(sessionIDHeader)
	for ss := range srv.Sessions() {
		if id != "" && ss.ID() == id {
			if ip := ss.InitializeParams(); ip == nil || ip.ProtocolVersion != batching {
				return "JSON-RPC batches exist only in protocol revision " + batching + "; this session did not negotiate it"
			}
			return ""
		}
	}
	return "a JSON-RPC batch needs an initialized session of protocol revision " + batching
}

// readBody reads the whole request body, within c.maxBody and
// c.readTimeout; on failure it answers the request and returns false.
func (c *httpConfig) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, true
	}
	rc := http.NewResponseController(w)
	if c.readTimeout > 0 {
		// net/http lifts the deadline once the body has been read.
		_ = rc.SetReadDeadline(time.Now().Add(c.readTimeout))
	}
	var body io.Reader = r.Body
	if c.maxBody > 0 {
		body = http.MaxBytesReader(w, r.Body, c.maxBody)
	}
	data, err := io.ReadAll(body)
	if err == nil {
		return data, true
	}
	// Do not let net/http wait for the rest of the body.
	w.Header().Set("Connection", "close")
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		http.Error(w, fmt.Sprintf("Request Entity Too Large: request body exceeds %d bytes (ServerOptions.MaxRequestBytes, --max-body)", mbe.Limit), http.StatusRequestEntityTooLarge)
	case errors.Is(err, os.ErrDeadlineExceeded):
		http.Error(w, fmt.Sprintf("Request Timeout: request body not received within %s (ServerOptions.ReadTimeout, --read-timeout)", c.readTimeout), http.StatusRequestTimeout)
	default:
		http.Error(w, "Bad Request: reading the request body: "+err.Error(), http.StatusBadRequest)
	}
	return nil, false
}

// connLimit is a listener that holds at most max connections open. At the
// limit, a new connection closes the oldest one that has not yet carried
// an authorised request (one that passed the Host, Origin and token
// checks; see admit), so peers that open connections and send nothing, or
// send their headers slowly, cannot lock authorised clients out. When
// every open connection is authorised, the new one waits, unread, until
// one closes.
type connLimit struct {
	net.Listener
	max int

	mu     sync.Mutex
	wake   *sync.Cond
	open   []*limitedConn // in the order accepted
	closed bool
}

type limitedConn struct {
	net.Conn
	l      *connLimit
	authed atomic.Bool
}

func newConnLimit(ln net.Listener, max int) *connLimit {
	l := &connLimit{Listener: ln, max: max}
	l.wake = sync.NewCond(&l.mu)
	return l
}

func (l *connLimit) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.open) >= l.max && !l.closed {
		i := slices.IndexFunc(l.open, func(o *limitedConn) bool { return !o.authed.Load() })
		if i < 0 {
			l.wake.Wait()
			continue
		}
		old := l.open[i]
		l.open = slices.Delete(l.open, i, i+1)
		old.Conn.Close()
	}
	if l.closed {
		c.Close()
		return nil, net.ErrClosed
	}
	lc := &limitedConn{Conn: c, l: l}
	l.open = append(l.open, lc)
	return lc, nil
}

func (l *connLimit) Close() error {
	l.mu.Lock()
	l.closed = true
	l.wake.Broadcast()
	l.mu.Unlock()
	return l.Listener.Close()
}

func (c *limitedConn) Close() error {
	c.l.mu.Lock()
	if i := slices.Index(c.l.open, c); i >= 0 {
		c.l.open = slices.Delete(c.l.open, i, i+1)
		c.l.wake.Broadcast()
	}
	c.l.mu.Unlock()
	return c.Conn.Close()
}

// readOnce is a request body read into memory. It lets go of the bytes
// once they have been read, so the SDK's copy is the only one kept while a
// call runs.
type readOnce struct{ b []byte }

func (r *readOnce) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		r.b = nil
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

func (r *readOnce) Close() error {
	r.b = nil
	return nil
}

// sessions follows the sessions a handler opens (stateful mode). With max
// > 0 it answers 503 to a request that would open a new session (a POST
// without Mcp-Session-Id) while max sessions are open: a slot is taken
// before the SDK creates the session and given back when the session ends
// (closed by the client, by the idle timeout, by closeAll, or refused).
type sessions struct {
	next http.Handler
	srv  *mcpsdk.Server
	max  int // 0: no limit

	mu    sync.Mutex
	slots int
	open  map[*mcpsdk.ServerSession]bool
}

const sessionIDHeader = "Mcp-Session-Id"

func (l *sessions) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Header.Get(sessionIDHeader) != "" {
		l.next.ServeHTTP(w, r)
		return
	}
	l.mu.Lock()
	if l.max > 0 && l.slots >= l.max {
		l.mu.Unlock()
		w.Header().Set("Retry-After", "1")
		http.Error(w, fmt.Sprintf("Service Unavailable: %d sessions already open (ServerOptions.MaxSessions, --max-sessions)", l.max), http.StatusServiceUnavailable)
		return
	}
	l.slots++
	l.mu.Unlock()
	l.next.ServeHTTP(w, r)
	// The SDK sets the header before the reply; a session that failed to
	// initialize is already closed and gone from Sessions.
	if id := w.Header().Get(sessionIDHeader); id != "" {
		for ss := range l.srv.Sessions() {
			if ss.ID() == id {
				l.mu.Lock()
				l.open[ss] = true
				l.mu.Unlock()
				go func() {
					_ = ss.Wait()
					l.mu.Lock()
					delete(l.open, ss)
					l.slots--
					l.mu.Unlock()
				}()
				return
			}
		}
	}
	l.mu.Lock()
	l.slots--
	l.mu.Unlock()
}

// closeAll closes every session still open.
func (l *sessions) closeAll() {
	l.mu.Lock()
	open := make([]*mcpsdk.ServerSession, 0, len(l.open))
	for ss := range l.open {
		open = append(open, ss)
	}
	l.mu.Unlock()
	for _, ss := range open {
		_ = ss.Close()
	}
}
