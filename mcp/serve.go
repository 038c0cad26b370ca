package mcp

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnexus/toolnexus"
)

// ServerOptions configure a [Server]. The zero value (or nil) is ready to use.
type ServerOptions struct {
	// Name is the implementation name the server reports in the MCP
	// initialize handshake (serverInfo.name); "" means "toolnexus".
	Name string

	// Version is the implementation version reported in serverInfo.version;
	// "" means "dev".
	Version string

	// Instructions, when not "", are sent to clients in the initialize
	// result (InitializeResult.instructions).
	Instructions string

	// Logger receives the SDK's log records (invalid messages, dropped
	// notifications) and a warning "mcp: tool not served" (with
	// attributes "tool" and "reason") for each tool the server skips (see
	// [Server.Skipped]). nil means no logging.
	Logger *slog.Logger

	// RequireApprover keeps approvals on the server. By default a call of
	// a tool with NeedsApproval that the registry's approver
	// (toolnexus.Options.Approver) leaves undecided, or that has none, is
	// put to the calling client by elicitation: the client, and whoever
	// answers it, decides. With RequireApprover it is not: such a call gets
	// the error result `tool "name" needs approval, and this server takes
	// it only from its own approver (ServerOptions.RequireApprover), which
	// did not decide`, and its handler does not run. Questions and forms
	// are still asked of the client.
	RequireApprover bool

	// ToolFilter, when not nil, decides for each request which registry
	// tools the client sees and may call: a tool it refuses is absent from
	// that tools/list answer, and a call of it is answered as a call of an
	// unknown tool is (JSON-RPC error -32602 `unknown tool "name"`) without
	// running. r is the HTTP request the MCP request came in (its header,
	// its URL with a query such as ?toolsets=, its context), nil over
	// stdio and other transports. It must be safe for concurrent use and
	// quick: it runs for every tool of every tools/list.
	ToolFilter func(r *http.Request, t toolnexus.Tool) bool

	// StateKey seals the requestState of the input-required results a
	// client of the 2026-07-28 revision gets when a tool asks it something
	// mid-call (a form, a sampling request: see PendingKindSampling): the
	// state carries the answers of earlier rounds and comes back with the
	// retried call, which is refused when it does not verify. Use 32 random
	// bytes. Nil or empty means the key kept in Store when Store is set
	// (the first replica makes it, the others read it), else a random key
	// of this Server, so only the process that issued a state accepts it.
	StateKey []byte

	// Tasks, when not nil, lets clients call the tools as tasks (see
	// [TaskOptions]). nil means no tasks: a tools/call's "task" member is
	// ignored and the call answered as any other, as the revision allows.
	Tasks *TaskOptions

	// Store keeps what replicas share (see [toolnexus.Store]): the tasks
	// and their results (ServerOptions.Tasks), the claims that make the
	// answers of a round of input run a tool once, and, when StateKey is
	// unset, the key that seals requestState, made by the first replica
	// and read by the others. Give every replica the same store (for
	// example github.com/toolnexus/toolnexus/store/redis) and any replica
	// serves a task, a retried call or a tasks/result another began. nil
	// means a store in this process's memory.
	Store toolnexus.Store

	// SDK, when not nil, holds the go-sdk server options the server is
	// made with, for what package mcp does not set itself: completions
	// (CompletionHandler), resource subscriptions (SubscribeHandler and
	// UnsubscribeHandler), KeepAlive, PageSize, SetCacheable,
	// SupportedProtocolVersions, InitializedHandler and the rest. Add
	// prompts, resources and resource templates to [Server.SDKServer]. The
	// fields above win where both say something: Instructions and Logger
	// when set, and the capabilities always advertise tools (with
	// listChanged) and logging on top of SDK.Capabilities.
	SDK *mcpsdk.ServerOptions

	// DrainTimeout limits how long [Server.ServeIO] and [Server.ServeStdio]
	// wait, once their input has ended, for the replies to the calls already
	// read. Zero means [DefaultDrainTimeout] (30 seconds); a negative value
	// means no limit.
	DrainTimeout time.Duration

	// The fields below apply to HTTP serving ([Server.Handler] and
	// [Server.ListenAndServe]); [ServerOptions.Validate] checks them. For
	// every limit, zero means its default and a negative value means no
	// limit.

	// BearerToken, when not "", is required on every HTTP request as
	// "Authorization: Bearer <token>"; a request without it, or with another
	// token, gets 401 Unauthorized. The comparison takes the same time
	// whatever the token sent. ListenAndServe refuses an address that is
	// not loopback while BearerToken is "" ([ErrTokenRequired]). Without a
	// token, every user of this machine can call a loopback server, and so
	// can anyone whose requests a proxy on this machine forwards to it.
	BearerToken string

	// TrustProxyHeaders lets a server without a BearerToken answer
	// requests that carry a header a reverse proxy adds (Forwarded,
	// X-Forwarded-For, X-Forwarded-Host, X-Forwarded-Proto, X-Real-IP,
	// Via). By default such a request gets 403 Forbidden: a proxy that
	// forwards to a tokenless loopback server would hand its tools to
	// whoever reaches the proxy. Ignored when BearerToken is set.
	TrustProxyHeaders bool

	// AllowedOrigins lists the origins (scheme://host[:port], e.g.
	// "https://app.example.com") whose browser pages may call the server,
	// besides the server's own origin (any origin whose host and port are
	// those of the request's Host header). A request with any other Origin header gets
	// 403 Forbidden; a request without Origin (not from a browser page)
	// passes.
	AllowedOrigins []string

	// AllowedHosts lists the Host header values (a name or IP, with an
	// optional port; without one any port matches) the server answers to,
	// besides the IP the client connected to and, on a loopback connection,
	// "localhost" and loopback IPs. A request with any other Host gets 403
	// Forbidden, so a DNS rebinding page cannot reach the server through a
	// name of its own. Add the names clients use: a DNS name of this host,
	// an address forwarded to it, the Host a reverse proxy sends.
	// ListenAndServe adds the host of its address when it is a name.
	AllowedHosts []string

	// Stateless serves every HTTP request on its own, with no session (the
	// SDK's StreamableHTTPOptions.Stateless): any number of replicas can
	// run behind a load balancer. It offers the newest protocol the SDK
	// supports (2026-07-28, where a client needs no session) and answers
	// older clients too. GET and DELETE get 405 Method Not Allowed.
	Stateless bool

	// SessionTimeout closes a session that received no request for this
	// long; its client must initialize again. Zero means
	// [DefaultSessionTimeout] (30 minutes). Not used when Stateless.
	SessionTimeout time.Duration

	// MaxSessions limits the sessions open at once; a request that would
	// open one more gets 503 Service Unavailable with Retry-After. Zero
	// means [DefaultMaxSessions] (1000). Not used when Stateless.
	MaxSessions int

	// MaxStreams limits the POST requests being served at once, a reply
	// streamed as server-sent events counting for as long as it stays open
	// and a JSON-RPC batch counting once per message; one more gets 503
	// Service Unavailable with Retry-After, and a batch of more messages
	// than MaxStreams gets 413. GET event streams do not count (the SDK
	// serves one per session, so MaxSessions bounds them). Zero means
	// [DefaultMaxStreams] (100).
	MaxStreams int

	// MaxSessionCalls limits the tools/call requests of one session that
	// run at once, on every transport (over HTTP in stateless mode, of one
	// HTTP request); more wait until one ends or their request is
	// cancelled. Zero means [DefaultMaxSessionCalls] (16).
	MaxSessionCalls int

	// MaxRequestBytes limits the size of a request body, in bytes; a
	// larger one gets 413 Request Entity Too Large. Zero means
	// [DefaultMaxRequestBytes] (4 MiB).
	MaxRequestBytes int64

	// ReadTimeout limits the time to receive a request's body, counted from
	// when its headers have been read; a slower body gets 408 Request
	// Timeout and the connection is closed. A reply that takes longer, or
	// an event stream, is not cut. Applies in any http.Server, not only in
	// ListenAndServe. Zero means [DefaultReadTimeout] (30 seconds).
	ReadTimeout time.Duration

	// ReadHeaderTimeout limits the time to receive a request's headers
	// (http.Server.ReadHeaderTimeout); the connection is closed after it.
	// Used by ListenAndServe only. Zero means [DefaultReadHeaderTimeout]
	// (10 seconds).
	ReadHeaderTimeout time.Duration

	// MaxConnections limits the TCP connections ListenAndServe holds open
	// at once, so idle connections cannot use up the process's file
	// descriptors. At the limit, a new connection closes the oldest open
	// one that has not yet carried a request past the Host, Origin and
	// token checks, so peers without the token, or that send their headers
	// slowly, cannot lock authorised clients out; when every open
	// connection has, the new one waits, unread, until one closes. Used by
	// ListenAndServe only. Zero means [DefaultMaxConnections] (512).
	MaxConnections int

	// IdleTimeout closes a keep-alive connection that waits this long for
	// its next request (http.Server.IdleTimeout). Used by ListenAndServe
	// only. Zero means [DefaultIdleTimeout] (2 minutes).
	IdleTimeout time.Duration
}

// Server serves the tools of a [toolnexus.Registry] over MCP, using the
// official Go SDK (github.com/modelcontextprotocol/go-sdk/mcp):
//
//   - tools/list returns every registry tool, sorted by name, with its name,
//     title, description, annotations, input schema and, when the tool has
//     one, output schema (outputSchema). The schema bytes are passed
//     through unchanged (a nil input schema is sent as {"type":"object"}).
//   - tools/call runs [toolnexus.Registry.Execute] and returns the Result:
//     its content parts as MCP text, image, audio, resource_link and
//     resource content (a plain result is one text block holding its
//     Output), its Structured value as structuredContent beside a text
//     block holding the same JSON, and isError set when the Result is an
//     error. While the tool runs, its [toolnexus.ReportProgress] calls
//     become notifications/progress to the calling client (when the
//     request carried a progressToken) and its [toolnexus.Log] lines become
//     notifications/message (logger: the tool name; sent at or above the
//     level the client set with logging/setLevel, none before it did). Invalid arguments, handler errors, panics and timeouts are
//     therefore tool results the model can read, never protocol errors.
//     Calling a tool the server does not list is a JSON-RPC error
//     (-32602, "unknown tool"), as the MCP specification requires.
//   - Tools added to or removed from the registry after the server was made
//     appear in (or vanish from) later tools/list answers, and connected
//     clients receive notifications/tools/list_changed.
//   - A registry tool the SDK refuses to serve (for example a schema with
//     an invalid "x-mcp-header" annotation, or one nested deeper than the
//     SDK's 1000 levels) is skipped: it is not listed, calling it is the
//     unknown-tool error, and [Server.Skipped] says why. The SDK's panic
//     never reaches the caller of NewServer or of Registry.Add.
//
// A Server may serve any number of sessions at once (one per stdio
// connection, many over HTTP). It is safe for concurrent use. Call Close to
// stop following the registry.
type Server struct {
	reg *toolnexus.Registry
	srv *mcpsdk.Server

	logger   *slog.Logger // nil: none
	opts     ServerOptions
	stateKey []byte          // seals requestState (ServerOptions.StateKey)
	store    toolnexus.Store // ServerOptions.Store, or one in memory

	calls callSlots    // MaxSessionCalls
	refs  *requestRefs // the HTTP requests open, for ToolFilter and Stateless; nil without either
	tasks *taskStore   // nil without ServerOptions.Tasks

	mu        sync.Mutex
	installed map[string]toolnexus.Tool // name -> tool as last given to srv
	skipped   map[string]skippedTool    // name -> registry tool the SDK refused
	closed    bool
	cancel    func()
}

// skippedTool is a registry tool that srv.AddTool refused, and why.
type skippedTool struct {
	tool   toolnexus.Tool
	reason string
}

// NewServer returns a Server for reg. opts may be nil. The server reads
// reg's tools now and again after every change (through
// [toolnexus.Registry.OnChange]) until Close is called.
func NewServer(reg *toolnexus.Registry, opts *ServerOptions) *Server {
	if reg == nil {
		reg = toolnexus.NewRegistry()
	}
	var o ServerOptions
	if opts != nil {
		o = *opts
	}
	if o.Name == "" {
		o.Name = "toolnexus"
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	o.AllowedOrigins = slices.Clone(o.AllowedOrigins)
	o.AllowedHosts = slices.Clone(o.AllowedHosts)
	s := &Server{reg: reg, logger: o.Logger, opts: o, installed: map[string]toolnexus.Tool{}, skipped: map[string]skippedTool{},
		calls: callSlots{max: limit(o.MaxSessionCalls, DefaultMaxSessionCalls), open: map[*mcpsdk.ServerSession]*sessionCalls{}}}
	s.store = o.Store
	if s.store == nil {
		s.store = toolnexus.NewMemoryStore()
	}
	s.stateKey = slices.Clone(o.StateKey)
	if len(s.stateKey) == 0 { // an empty key would let anyone forge a state
		s.stateKey = sharedStateKey(s.store, o.Store != nil, o.Logger)
	}
	var so mcpsdk.ServerOptions
	if o.SDK != nil {
		so = *o.SDK
	}
	if o.Instructions != "" {
		so.Instructions = o.Instructions
	}
	if o.Logger != nil {
		so.Logger = o.Logger
	}
	// Advertise tools (with list_changed) even while the registry is
	// empty, and logging (handlers' toolnexus.Log lines); the SDK adds
	// prompts, resources and completions as they are set up.
	caps := mcpsdk.ServerCapabilities{}
	if so.Capabilities != nil {
		caps = *so.Capabilities
	}
	caps.Tools = &mcpsdk.ToolCapabilities{ListChanged: true}
	caps.Logging = &mcpsdk.LoggingCapabilities{}
	so.Capabilities = &caps
	s.srv = mcpsdk.NewServer(&mcpsdk.Implementation{Name: o.Name, Version: o.Version}, &so)
	s.srv.AddReceivingMiddleware(revisionMiddleware)
	if o.Tasks != nil {
		s.tasks = newTaskStore(o.Tasks, o.Stateless, s.store)
		s.tasks.addTaskMethods(s.srv)
		s.srv.AddReceivingMiddleware(s.tasks.callMiddleware)
	}
	if o.ToolFilter != nil || o.Stateless {
		s.refs = &requestRefs{}
	}
	if o.ToolFilter != nil {
		s.srv.AddReceivingMiddleware(s.filterMiddleware)
	}
	if s.tasks != nil {
		s.srv.AddReceivingMiddleware(s.tasks.shapeMiddleware)
	}
	s.cancel = reg.OnChange(s.sync)
	s.sync()
	return s
}

// stateKeyName is the store key of the key that seals requestState.
const stateKeyName = "toolnexus/state-key"

// sharedStateKey is the key that seals requestState: with a store given
// (shared), the one the first replica put there; else a random key of
// this process. A store that fails gives a random key, logged: states
// then verify only on this replica.
func sharedStateKey(store toolnexus.Store, shared bool, logger *slog.Logger) []byte {
	key := make([]byte, 32)
	_, _ = rand.Read(key) // never fails (crypto/rand)
	if !shared {
		return key
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	_, err := store.CompareAndSwap(ctx, stateKeyName, nil, key, 0)
	if err == nil {
		var got []byte
		var ok bool
		if got, ok, err = store.Get(ctx, stateKeyName); err == nil && ok && len(got) >= 32 {
			return got
		}
	}
	if logger != nil {
		logger.Warn("mcp: the store gave no requestState key; this replica uses its own", "err", err)
	}
	return key
}

// Skipped reports the registry tools the server does not serve because the
// SDK refused them, sorted by name, each as "name: reason" (for example
// `t: invalid parameter header annotations: property "a": x-mcp-header can
// only be applied to primitive types (integer, string, boolean), got
// "object"`). It is empty when every registry tool is served; a skipped
// tool that is removed from the registry leaves the list. Close freezes it.
func (s *Server) Skipped() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.skipped))
	for name, sk := range s.skipped {
		out = append(out, name+": "+sk.reason)
	}
	sort.Strings(out)
	return out
}

// SDKServer returns the underlying SDK server, for callers that want to add
// prompts or resources or run it on a transport of their own.
func (s *Server) SDKServer() *mcpsdk.Server { return s.srv }

// Close stops following the registry: later changes are no longer
// reflected. Sessions already connected keep working with the tool set of
// that moment. Close is idempotent and always returns nil.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		s.cancel()
	}
	return nil
}

// sync makes the SDK server's tool set equal to the registry's. It runs
// from Registry.OnChange with the registry's write lock held, so it only
// reads the registry's lock-free snapshot.
func (s *Server) sync() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	tools := s.reg.Tools()
	want := make(map[string]bool, len(tools))
	var removed []string
	for _, t := range tools {
		want[t.Name] = true
	}
	for name := range s.installed {
		if !want[name] {
			removed = append(removed, name)
			delete(s.installed, name)
		}
	}
	for name := range s.skipped {
		if !want[name] {
			delete(s.skipped, name)
		}
	}
	if len(removed) > 0 {
		s.srv.RemoveTools(removed...)
	}
	for _, t := range tools {
		if old, ok := s.installed[t.Name]; ok && sameAdvertised(old, t) {
			continue
		}
		if old, ok := s.skipped[t.Name]; ok && sameAdvertised(old.tool, t) {
			continue
		}
		if err := s.addTool(t); err != nil {
			// Keep the server equal to the registry minus what it skips: an
			// older version of this tool must not stay listed.
			if _, ok := s.installed[t.Name]; ok {
				delete(s.installed, t.Name)
				s.srv.RemoveTools(t.Name)
			}
			s.skipped[t.Name] = skippedTool{tool: t, reason: err.Error()}
			if s.logger != nil {
				s.logger.Warn("mcp: tool not served", "tool", t.Name, "reason", err.Error())
			}
			continue
		}
		delete(s.skipped, t.Name)
		s.installed[t.Name] = t
	}
}

// addTool gives t to the SDK server. The SDK's Server.AddTool panics on a
// schema it will not serve (x-mcp-header annotations it rejects, nesting
// deeper than its JSON decoder allows); addTool turns that panic into an
// error, without the SDK's `AddTool "name": ` prefix. The SDK checks
// everything before it changes its tool set, so a refused tool leaves it
// as it was.
func (s *Server) addTool(t toolnexus.Tool) (err error) {
	defer func() {
		if v := recover(); v != nil {
			msg := fmt.Sprint(v)
			msg = strings.TrimPrefix(msg, fmt.Sprintf("AddTool %q: ", t.Name))
			err = errors.New(msg)
		}
	}()
	s.srv.AddTool(sdkTool(t), s.handler(t.Name))
	return nil
}

// sameAdvertised reports whether a and b look the same in tools/list.
func sameAdvertised(a, b toolnexus.Tool) bool {
	if a.Title != b.Title || a.Description != b.Description || string(a.InputSchema) != string(b.InputSchema) ||
		string(a.OutputSchema) != string(b.OutputSchema) {
		return false
	}
	switch {
	case a.Annotations == nil && b.Annotations == nil:
		return true
	case a.Annotations == nil || b.Annotations == nil:
		return false
	}
	x, y := *a.Annotations, *b.Annotations
	return x.Title == y.Title && x.ReadOnlyHint == y.ReadOnlyHint && x.IdempotentHint == y.IdempotentHint &&
		eqBoolPtr(x.DestructiveHint, y.DestructiveHint) && eqBoolPtr(x.OpenWorldHint, y.OpenWorldHint)
}

func eqBoolPtr(a, b *bool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

var emptyObjectSchema = json.RawMessage(`{"type":"object"}`)

// sdkTool converts a registry tool to the SDK's wire type. The schema is a
// json.RawMessage so its bytes (and key order) reach the client unchanged.
func sdkTool(t toolnexus.Tool) *mcpsdk.Tool {
	schema := t.InputSchema
	if len(schema) == 0 {
		schema = emptyObjectSchema
	}
	out := &mcpsdk.Tool{
		Name:        t.Name,
		Title:       t.Title,
		Description: t.Description,
		InputSchema: schema,
	}
	if len(t.OutputSchema) > 0 {
		out.OutputSchema = t.OutputSchema
	}
	if a := t.Annotations; a != nil {
		out.Annotations = &mcpsdk.ToolAnnotations{
			Title:           a.Title,
			ReadOnlyHint:    a.ReadOnlyHint,
			DestructiveHint: a.DestructiveHint,
			IdempotentHint:  a.IdempotentHint,
			OpenWorldHint:   a.OpenWorldHint,
		}
	}
	return out
}

func (s *Server) handler(name string) mcpsdk.ToolHandler {
	return func(ctx context.Context, req *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
		if _, inTask := ctx.Value(inTaskKey{}).(bool); s.opts.Stateless && s.refs != nil && !inTask {
			// Every POST is a call of its own: a client that ends it has
			// given up on the call, whatever its revision (the SDK ties the
			// two for 2026-07-28 only, and an older client's
			// notifications/cancelled has no session to reach).
			if r := s.refs.request(req); r != nil {
				var cancel context.CancelFunc
				ctx, cancel = context.WithCancel(ctx)
				defer cancel()
				defer context.AfterFunc(r.Context(), cancel)()
			}
		}
		leave, err := s.calls.enter(ctx, req.Session)
		if err != nil {
			return callResult(errResult(fmt.Sprintf("tool %q did not start: %v", name, err))), nil
		}
		defer leave()
		var args json.RawMessage
		if req.Params != nil {
			args = req.Params.Arguments
		}
		run := func(ctx context.Context) toolnexus.Result {
			return s.reg.Execute(toolnexus.WithEvents(ctx, sessionEvents(ctx, req, name)), name, args)
		}
		return s.askPerson(ctx, req, name, args, run)
	}
}

// callSlots bounds the calls of one session that run at once
// (ServerOptions.MaxSessionCalls; max 0: no bound).
type callSlots struct {
	max  int
	mu   sync.Mutex
	open map[*mcpsdk.ServerSession]*sessionCalls
}

type sessionCalls struct {
	sem   chan struct{}
	users int // calls running or waiting
}

// enter waits for a free slot of ss's calls, or until ctx is done; leave
// gives it back.
func (c *callSlots) enter(ctx context.Context, ss *mcpsdk.ServerSession) (leave func(), err error) {
	if c.max == 0 || ss == nil {
		return func() {}, nil
	}
	c.mu.Lock()
	sc := c.open[ss]
	if sc == nil {
		sc = &sessionCalls{sem: make(chan struct{}, c.max)}
		c.open[ss] = sc
	}
	sc.users++
	c.mu.Unlock()
	done := func() {
		c.mu.Lock()
		if sc.users--; sc.users == 0 {
			delete(c.open, ss)
		}
		c.mu.Unlock()
	}
	select {
	case sc.sem <- struct{}{}:
		return func() { <-sc.sem; done() }, nil
	case <-ctx.Done():
		done()
		return nil, ctx.Err()
	}
}

// Run serves one MCP session on transport t until the client disconnects
// or ctx is done. For a process launched by an MCP client use
// [Server.ServeStdio] (or [Server.ServeIO]): with [mcpsdk.StdioTransport],
// the SDK drops the replies to requests still running when stdin closes.
func (s *Server) Run(ctx context.Context, t mcpsdk.Transport) error {
	return s.srv.Run(ctx, s.transport(t))
}

// transport is t, reading tools/call's task members when tasks are on.
func (s *Server) transport(t mcpsdk.Transport) mcpsdk.Transport {
	if s.tasks == nil {
		return t
	}
	return taskTransport{t}
}

// Handler returns an http.Handler that serves the MCP streamable HTTP
// transport (spec 2025-06-18 "Streamable HTTP": POST for requests, GET for
// the server-to-client event stream, DELETE to end a session; with
// ServerOptions.Stateless, POST only). Mount it at the endpoint path
// clients are given, e.g. http.Handle("/mcp", h). Each call returns a
// handler with sessions of its own.
//
// Whatever mux it is mounted in, the handler applies the HTTP fields of
// [ServerOptions], defaults included, in this order:
//
//   - Host: not allowed (see AllowedHosts) -> 403.
//   - Origin: present, and neither the server's own origin nor on
//     AllowedOrigins -> 403.
//   - BearerToken set, and the request lacks it -> 401 with
//     "WWW-Authenticate: Bearer". After a 401 or 403 the connection is
//     closed, so refused peers hold none.
//   - No BearerToken, a proxy header (see TrustProxyHeaders), and
//     TrustProxyHeaders false -> 403.
//   - A POST while MaxStreams slots are taken -> 503.
//   - Body over MaxRequestBytes -> 413; not received within ReadTimeout
//     -> 408.
//   - A JSON-RPC batch outside a session of protocol revision 2025-03-26
//     -> 400; of more than MaxStreams messages -> 413; it takes one slot
//     per message.
//   - A new session while MaxSessions are open -> 503. Sessions idle for
//     SessionTimeout are closed.
//
// To put another authorization in front (an OAuth 2.1 resource server, for
// example), wrap the handler, e.g. with the SDK's
// auth.RequireBearerToken(verifier, opts)(srv.Handler()); the SDK then ties
// each session to the TokenInfo.UserID the verifier returns.
//
// Handler panics if the options are invalid (see [ServerOptions.Validate]).
func (s *Server) Handler() http.Handler {
	c, err := newHTTPConfig(&s.opts)
	if err != nil {
		panic(err)
	}
	h, _ := c.handler(s.srv, s.opts.Logger)
	if s.refs != nil {
		h = s.refs.wrap(h)
	}
	return h
}

// ListenAndServe serves the streamable HTTP transport on addr (host:port;
// ":0" picks a free port) at every path, with the protections and limits
// of [Server.Handler], until ctx is done; it then shuts the HTTP server
// down, waiting at most 5 seconds for open requests, and closes the
// sessions it opened. If ready is non-nil it is called with the bound
// address once the listener is open. It returns nil after a shutdown
// caused by ctx.
//
// An address that is not loopback (see [IsLoopbackAddr]: ":8080",
// "0.0.0.0:8080", a LAN IP, a host name other than localhost) is refused
// with an error wrapping [ErrTokenRequired] unless ServerOptions.BearerToken
// is set. Invalid options are refused with the error of
// [ServerOptions.Validate]. When addr's host is a name, it is added to
// AllowedHosts.
func (s *Server) ListenAndServe(ctx context.Context, addr string, ready func(net.Addr)) error {
	opts := s.opts
	if host, _, err := net.SplitHostPort(addr); err == nil && host != "" {
		if _, err := netip.ParseAddr(host); err != nil {
			opts.AllowedHosts = append(slices.Clip(opts.AllowedHosts), host)
		}
	}
	c, err := newHTTPConfig(&opts)
	if err != nil {
		return err
	}
	if c.token == nil && !IsLoopbackAddr(addr) {
		return fmt.Errorf("mcp: listen on %q: %w", addr, ErrTokenRequired)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("mcp: listen on %q: %w", addr, err)
	}
	if ta, ok := ln.Addr().(*net.TCPAddr); c.token == nil && (!ok || !ta.IP.IsLoopback()) {
		// "localhost" resolved to an address that is not loopback.
		ln.Close()
		return fmt.Errorf("mcp: listen on %q (bound %s): %w", addr, ln.Addr(), ErrTokenRequired)
	}
	if c.maxConns > 0 {
		ln = newConnLimit(ln, c.maxConns)
	}
	h, closeSessions := c.handler(s.srv, s.opts.Logger)
	if s.refs != nil {
		h = s.refs.wrap(h)
	}
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: c.headerTimeout,
		IdleTimeout:       c.idleTimeout,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, connKey{}, c)
		},
	}
	if s.opts.Logger != nil {
		hs.ErrorLog = slog.NewLogLogger(s.opts.Logger.Handler(), slog.LevelWarn)
	}
	if ready != nil {
		ready(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if hs.Shutdown(sctx) != nil {
			_ = hs.Close() // event streams still open after the grace period
		}
		<-errc
		closeSessions() // nobody can reach them any more
		return nil
	}
}
