package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnexus/toolnexus"
)

// State is the state of one configured server after [Load].
type State string

// The states a server can be in.
const (
	StateConnected State = "connected" // started, initialized and its tools listed
	StateFailed    State = "failed"    // could not start, initialize or list (or listed over a cap), or its connection was lost later, or re-listing failed; see ServerStatus.Reason
	StateDisabled  State = "disabled"  // "disabled": true or "enabled": false in the config
	StateClosed    State = "closed"    // was connected; Close has been called
)

// Limits on what one server may send while its tools are listed, and on
// what one call of its tools returns. Each is the default of the
// LoadOptions field of the same name.
const (
	// DefaultMaxTools is the most tools one server may list: 1000. A
	// server that lists more fails, and none of its tools is used.
	DefaultMaxTools = 1000

	// DefaultMaxListPages is the most pages one tools/list listing may
	// take: 100. A server that needs more fails.
	DefaultMaxListPages = 100

	// DefaultMaxEventSize is the most bytes of one server-sent event, and
	// of one HTTP response body that is not an event stream, from a remote
	// server: 16 MiB (the go-sdk's DefaultMaxEventSize). Local servers'
	// messages have the go-sdk's stdio line limit, also 16 MiB.
	DefaultMaxEventSize = 16 << 20

	// DefaultMaxOutputBytes caps the Output of one call of an MCP tool:
	// 32 KiB, the cap of the built-in tools (builtin.DefaultMaxOutputBytes).
	DefaultMaxOutputBytes = 32 << 10
)

// ServerStatus reports one configured server.
type ServerStatus struct {
	// Name is the server's name in the config.
	Name string `json:"name"`
	// State is connected, failed, disabled or (after Close) closed.
	State State `json:"state"`
	// Transport is TransportStdio, TransportHTTP or TransportSSE.
	Transport string `json:"transport"`
	// Reason says why the server failed: the error and, for a local
	// process, the last lines it wrote to stderr ("; stderr: " then up to
	// five lines joined by " | "). A server whose connection was lost after
	// it connected has "connection closed", then ": exit status N" (or the
	// transport's error) when known, then its stderr. A server over a cap
	// has "list tools: more than 1000 tools (LoadOptions.MaxTools)" or
	// "list tools: more than 100 pages (LoadOptions.MaxListPages)". Never
	// contains header or environment values from the config, but the
	// stderr part is whatever the server printed, unfiltered: a server that
	// prints a secret puts it here. "" unless State is failed.
	Reason string `json:"reason,omitempty"`
	// Tools are the registry names of the server's tools, sorted. They
	// change when the server re-lists its tools (tools/list_changed) and
	// are empty once it failed.
	Tools []string `json:"tools,omitempty"`
	// Skipped lists tools the server offered that are not used, each as
	// "name: reason": a tool the registry refuses (the registry's error,
	// for example an input schema that is not an object, has a key twice
	// or is nested too deep), a tool listed twice, or a tool the SDK
	// client dropped while listing because of invalid x-mcp-header
	// annotations ("name: dropped by the MCP SDK client: ...").
	Skipped []string `json:"skipped,omitempty"`
	// Notes lists changes made to tools that are used, each as
	// "name: note"; today only "description cut from N to 1024
	// characters" (toolnexus.MaxDescriptionLength).
	Notes []string `json:"notes,omitempty"`
	// Unchecked lists tools whose arguments are not fully checked locally
	// before the call goes to the server (toolnexus.CheckArguments), each
	// as "name: what is not checked". The server still checks them.
	Unchecked []string `json:"unchecked,omitempty"`
	// ServerInfo is the name and version the server reported, "name version".
	ServerInfo string `json:"server_info,omitempty"`
}

// LoadOptions configure [Load]. The zero value (or nil) is ready to use.
type LoadOptions struct {
	// Stderr, if non-nil, receives everything local server processes write
	// to their stderr. Either way the last 4 KiB of each are kept for
	// ServerStatus.Reason (unfiltered: what a server prints is shown).
	Stderr io.Writer

	// Logger receives the SDK client's log records; nil means none.
	Logger *slog.Logger

	// HTTPClient is used for remote servers; its Transport (nil means
	// http.DefaultTransport) carries the configured headers. nil means a
	// client with no overall timeout (requests are bounded by the server's
	// Timeout instead).
	HTTPClient *http.Client

	// LookupEnv resolves ${VAR} in header and env values, and the
	// variables of the default environment of local servers (see
	// InheritEnv); nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)

	// InheritEnv gives every local server the whole environment of this
	// process (plus its config's "env"), as ServerConfig.InheritEnv does
	// for one server. Without it a local server gets only the variables
	// named by DefaultEnvNames that are set, plus its "env": API keys and
	// other secrets in this process's environment stay here.
	InheritEnv bool

	// TerminateDelay is how long Close waits for a local server to exit
	// after its stdin is closed before it sends SIGTERM, and again before
	// SIGKILL; zero means 2 seconds.
	TerminateDelay time.Duration

	// MaxTools is the most tools one server may list; zero means
	// DefaultMaxTools (1000). A server that lists more is failed and none
	// of its tools is used.
	MaxTools int

	// MaxListPages is the most pages (tools/list calls) one listing may
	// take; zero means DefaultMaxListPages (100). A server that needs more
	// is failed and none of its tools is used.
	MaxListPages int

	// MaxEventSize is the most bytes of one server-sent event, and of one
	// HTTP response body that is not an event stream, from a remote
	// server; zero means DefaultMaxEventSize (16 MiB). A larger one ends
	// the connection (the call or the listing fails).
	MaxEventSize int

	// MaxOutputBytes caps the Output of one call of an MCP tool, in bytes;
	// zero means DefaultMaxOutputBytes (32 KiB). A longer Output keeps its
	// head and tail with a line between them that says how many bytes
	// were cut: "[... N bytes truncated ...]".
	MaxOutputBytes int

	// Answer, if non-nil, lets servers ask the person: our client then
	// advertises elicitation (form and URL modes), and each
	// elicitation/create request is handed to Answer as a pending request
	// of kind toolnexus.PendingKindForm (Data {"schema":…}, the requested
	// schema) or toolnexus.PendingKindURL (Data {"url":…}), with Prompt
	// the server's message and server the server's config name. An OK
	// Answer accepts (a form's content is the Answer's Data, a JSON
	// object); a not OK Answer declines; an error cancels. nil: no
	// elicitation is advertised and servers cannot ask.
	Answer func(ctx context.Context, server string, p toolnexus.PendingRequest) (toolnexus.Answer, error)

	// ClientMiddleware wraps every request the clients Load makes send to
	// their servers (the handshake, tools/list, tools/call, ...), added with
	// the SDK's Client.AddSendingMiddleware before connecting; the first
	// is the outermost. For tracing, github.com/toolnexus/toolnexus/otel's
	// MCPClientMiddleware puts the caller's trace context in each
	// tools/call's _meta. A middleware sees the request's params and may
	// change them; an error it returns fails that request (in the
	// handshake or tools/list, the server). nil means none.
	ClientMiddleware []mcpsdk.Middleware

	// dial, if non-nil, gives the transport of a server by name instead of
	// its config (tests: in-memory servers).
	dial func(name string) mcpsdk.Transport
}

// Servers is the result of [Load]: the tools of every server that
// connected, a status for every configured server, and the live
// connections. Close it to stop every server process.
//
// The tools change after Load when a server's connection ends (its tools
// go) and when a server sends notifications/tools/list_changed (its tools
// are listed again); [Servers.OnChange] tells when.
//
// A Servers is safe for concurrent use; its tools may be executed from
// many goroutines at once.
type Servers struct {
	opts LoadOptions // with defaults filled in

	mu       sync.Mutex
	conns    []*conn // sorted by server name
	tools    []toolnexus.Tool
	closed   bool
	subs     map[int]func()
	nextSub  int
	closeFn  sync.Once
	watchers sync.WaitGroup // per connected server: its watch and relist loops
}

type conn struct {
	cfg    ServerConfig
	opts   *LoadOptions
	status ServerStatus // guarded by Servers.mu once Load has returned

	// listed is the server's latest complete listing, skipped what the SDK
	// client dropped from it; both guarded by Servers.mu after Load.
	listed  []listedTool
	skipped []string

	relist chan struct{} // a tools/list_changed arrived (capacity 1)
	done   chan struct{} // closed when the session has ended

	mu      sync.Mutex
	session *mcpsdk.ClientSession // nil once closed
	pid     int                   // of the local process once started; 0 before
	detach  context.CancelFunc    // ends the SSE transport's event stream
	stderr  *tailBuffer
	store   schemaStore
	drops   *dropRecorder
}

// listedTool is one tool of a listing with its raw input schema.
type listedTool struct {
	tool   *mcpsdk.Tool
	schema json.RawMessage // as the server sent it, compacted; nil if not captured
	built  *builtTool      // the last conversion (set under Servers.mu), reused while the name stays
}

// builtTool is the outcome of conn.tool for one registry name.
type builtTool struct {
	name      string
	tool      toolnexus.Tool
	note      string
	unchecked string // what CheckArguments does not check locally ("" for all)
	err       error
}

// Load starts (or connects to) every enabled server in cfg at the same
// time, lists their tools and returns them as registry tools. A server
// that fails to start, to initialize or to list its tools within its
// Timeout, or that lists more than MaxTools tools or MaxListPages pages,
// is isolated: it is reported as failed in Status, none of its tools is
// used, and the others still load. Load itself never fails;
// [Servers.Err] joins the failures.
//
// Each server tool becomes a [toolnexus.Tool]:
//
//   - Name: "server_tool", made a valid unique name by [ToolNames].
//   - Title, Description and Annotations come from the server. A
//     description longer than toolnexus.MaxDescriptionLength is cut to fit
//     (ending in "…"), with a note in ServerStatus.Notes.
//   - InputSchema: the server's inputSchema bytes, unchanged except for
//     whitespace (compacted).
//   - Source: "mcp"; Timeout: the server's Timeout.
//   - OutputSchema: the server's outputSchema, re-encoded (keys sorted),
//     or nil when it declares none.
//   - Handler: checks the arguments locally against InputSchema with
//     toolnexus.CheckArguments (every problem in one error result, no
//     round trip; what cannot be checked locally is listed in
//     ServerStatus.Unchecked), then calls the tool on the server
//     (tools/call). A result with
//     isError becomes an error Result whose Output is its content as text
//     joined by "\n" (non-text blocks as their [toolnexus.Part.Summary],
//     e.g. "[image: image/png, 1234 bytes]"). Otherwise Output is the
//     text blocks joined by "\n"; when the result has an image, audio,
//     resource_link or resource block, Content holds every block as a
//     [toolnexus.Part] in order (text included), so providers that take
//     images get the image; structuredContent is kept as Structured
//     (re-encoded JSON), and as Output too when there is no text block.
//     A protocol error (unknown tool,
//     server gone, a result that does not decode) is an error Result too;
//     its Output is short and names no Go types (the server's own error
//     message, `MCP server "x": connection closed`, `MCP server "x" sent
//     an invalid tools/call result`), and Err keeps the Go error.
//     Metadata has "mcp_server" and "mcp_tool" (the names the server uses).
//     Control characters other than "\n" and "\t" (ANSI escapes included)
//     in Output are shown escaped, as "\x1b", "\r" or "\u009b" ("\r\n"
//     becomes "\n"), and the Output is capped at MaxOutputBytes with a
//     note saying how many bytes were cut.
//
// A tool the registry would refuse (Registry.Add fails for it alone: an
// invalid schema, a duplicate key, too deep) is left out and listed in
// ServerStatus.Skipped with the registry's error; the server's other
// tools are used.
//
// After Load, a server that sends notifications/tools/list_changed is
// listed again and its tools replaced (a listing that fails or goes over
// a cap makes the server failed); a server whose connection ends before
// Close (its process exited, the remote end closed the session) becomes
// failed in Status, with Reason "connection closed: exit status N;
// stderr: ...", and its tools go. Either way [Servers.OnChange] functions
// are called.
//
// Local servers get a small default environment (see
// ServerConfig.InheritEnv). ctx bounds the whole load; cancelling it later
// does not affect the connections. cfg may be nil (no servers).
func Load(ctx context.Context, cfg *Config, opts *LoadOptions) *Servers {
	s := &Servers{}
	if opts != nil {
		s.opts = *opts
	}
	o := &s.opts
	if o.LookupEnv == nil {
		o.LookupEnv = os.LookupEnv
	}
	if o.TerminateDelay <= 0 {
		o.TerminateDelay = 2 * time.Second
	}
	if o.MaxTools <= 0 {
		o.MaxTools = DefaultMaxTools
	}
	if o.MaxListPages <= 0 {
		o.MaxListPages = DefaultMaxListPages
	}
	if o.MaxEventSize <= 0 {
		o.MaxEventSize = DefaultMaxEventSize
	}
	if o.MaxOutputBytes <= 0 {
		o.MaxOutputBytes = DefaultMaxOutputBytes
	}
	var wg sync.WaitGroup
	for _, name := range cfg.Names() {
		sc := cfg.Servers[name]
		sc.Name = name
		c := &conn{cfg: sc, opts: o, status: ServerStatus{Name: name, Transport: sc.Transport},
			relist: make(chan struct{}, 1), done: make(chan struct{})}
		c.store.limit = o.MaxTools
		s.conns = append(s.conns, c)
		if sc.Disabled {
			c.status.State = StateDisabled
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.connect(ctx); err != nil {
				c.status.State = StateFailed
				c.status.Reason = c.reason(err)
				c.listed, c.skipped = nil, nil
				c.close()
				return
			}
			c.status.State = StateConnected
		}()
	}
	wg.Wait()
	s.mu.Lock()
	s.rebuildLocked()
	for _, c := range s.conns {
		if session := c.liveSession(); session != nil && c.status.State == StateConnected {
			s.watchers.Add(2)
			go s.watch(c, session)
			go s.relistLoop(c, session)
		}
	}
	s.mu.Unlock()
	return s
}

// watch waits for the connection of c to end. If that happens before
// Close (the process crashed or exited, the remote end closed the
// session), c becomes failed with the reason, its tools go, and what is
// left of it is cleaned up.
func (s *Servers) watch(c *conn, session *mcpsdk.ClientSession) {
	defer s.watchers.Done()
	err := session.Wait()
	close(c.done)
	msg := "connection closed"
	if err != nil && !errors.Is(err, mcpsdk.ErrConnectionClosed) {
		msg += ": " + err.Error()
	}
	s.fail(c, errors.New(msg))
}

// fail makes the connected server c failed with err, drops its tools,
// closes what is left of it and tells the OnChange functions. It does
// nothing after Close or when c is no longer connected.
func (s *Servers) fail(c *conn, err error) {
	s.mu.Lock()
	if s.closed || c.status.State != StateConnected {
		s.mu.Unlock()
		return
	}
	c.status.State = StateFailed
	c.status.Reason = c.reason(err)
	c.listed, c.skipped = nil, nil
	s.rebuildLocked()
	s.mu.Unlock()
	c.close() // reaps the process and kills children it left behind
	s.notify()
}

// relistLoop lists the tools of c again after every
// notifications/tools/list_changed (several that arrive during one
// listing, or within relistInterval after it, cause one more), until the
// session ends.
func (s *Servers) relistLoop(c *conn, session *mcpsdk.ClientSession) {
	defer s.watchers.Done()
	for {
		select {
		case <-c.done:
			return
		case <-c.relist:
		}
		ctx, cancel := context.WithTimeout(context.Background(), c.cfg.timeout())
		go func() { // a session that ends cancels the listing
			select {
			case <-c.done:
				cancel()
			case <-ctx.Done():
			}
		}()
		listed, skipped, err := c.list(ctx, session)
		cancel()
		if err != nil {
			s.fail(c, fmt.Errorf("re-listing tools after tools/list_changed: %w", err))
			return
		}
		s.mu.Lock()
		if s.closed || c.status.State != StateConnected {
			s.mu.Unlock()
			return
		}
		c.listed, c.skipped = listed, skipped
		s.rebuildLocked()
		s.mu.Unlock()
		s.notify()
		// A server that sends tools/list_changed without pause gets at
		// most one listing per relistInterval.
		select {
		case <-c.done:
			return
		case <-time.After(relistInterval):
		}
	}
}

// relistInterval is the shortest time between two listings of one server
// after tools/list_changed.
const relistInterval = 100 * time.Millisecond

// OnChange registers fn to be called after the tools of a server changed
// after Load returned: its connection ended or failed (its tools went) or
// it re-listed them after notifications/tools/list_changed. fn runs in a
// goroutine of the Servers with no lock held, so it may call Tools and
// Status; calls may overlap when two servers change at once, and each
// sees the state at least as new as the change it reports. The returned
// function unregisters fn.
func (s *Servers) OnChange(fn func()) (cancel func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.subs == nil {
		s.subs = map[int]func(){}
	}
	id := s.nextSub
	s.nextSub++
	s.subs[id] = fn
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.subs, id)
	}
}

func (s *Servers) notify() {
	s.mu.Lock()
	ids := slices.Sorted(maps.Keys(s.subs))
	fns := make([]func(), len(ids))
	for i, id := range ids {
		fns[i] = s.subs[id]
	}
	s.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

// LoadFile parses the config file at path ([LoadConfig]) and calls [Load].
// Only a config that cannot be read or parsed is an error; server failures
// are in the returned Servers' Status.
func LoadFile(ctx context.Context, path string, opts *LoadOptions) (*Servers, error) {
	cfg, err := LoadConfig(path)
	if err != nil {
		return nil, err
	}
	return Load(ctx, cfg, opts), nil
}

func (c *conn) connect(ctx context.Context) error {
	o := c.opts
	ctx, cancel := context.WithTimeout(ctx, c.cfg.timeout())
	defer cancel()
	var transport mcpsdk.Transport
	switch {
	case o.dial != nil:
		transport = &captureTransport{inner: o.dial(c.cfg.Name), store: &c.store}
	case c.cfg.Transport == TransportStdio:
		env, err := serverEnv(c.cfg, o)
		if err != nil {
			return err
		}
		argv := slices.Concat(c.cfg.Command, c.cfg.Args)
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = env
		cmd.Dir = c.cfg.Dir
		c.stderr = &tailBuffer{max: 4096}
		if o.Stderr != nil {
			cmd.Stderr = io.MultiWriter(c.stderr, o.Stderr)
		} else {
			cmd.Stderr = c.stderr
		}
		setProcAttr(cmd)
		transport = &captureTransport{
			inner: &mcpsdk.CommandTransport{Command: cmd, TerminateDuration: o.TerminateDelay},
			store: &c.store,
			started: func() {
				c.mu.Lock()
				c.pid = cmd.Process.Pid
				c.mu.Unlock()
			},
		}
	case c.cfg.Transport == TransportHTTP, c.cfg.Transport == TransportSSE:
		headers := make(map[string]string, len(c.cfg.Headers))
		for k, v := range c.cfg.Headers {
			ev, err := expandEnv(v, o.LookupEnv)
			if err != nil {
				return fmt.Errorf("header %s: %v", k, err)
			}
			headers[k] = ev
		}
		var hc http.Client
		if o.HTTPClient != nil {
			hc = *o.HTTPClient
		}
		base := hc.Transport
		if base == nil {
			base = http.DefaultTransport
		}
		hc.Transport = &headerTransport{base: base, headers: headers, store: &c.store, maxBody: o.MaxEventSize}
		if c.cfg.Transport == TransportSSE {
			// The SSE transport keeps its event stream on the context given
			// to Connect, so it must outlive this function's timeout; kill
			// (on timeout) and close end it.
			life, cancel := context.WithCancel(context.WithoutCancel(ctx))
			c.mu.Lock()
			c.detach = cancel
			c.mu.Unlock()
			transport = &lifeTransport{ctx: life, inner: &mcpsdk.SSEClientTransport{
				Endpoint: c.cfg.URL, HTTPClient: &hc, MaxEventSize: o.MaxEventSize}}
		} else {
			transport = &mcpsdk.StreamableClientTransport{Endpoint: c.cfg.URL, HTTPClient: &hc, MaxRetries: -1,
				MaxEventSize: o.MaxEventSize}
		}
	default:
		return fmt.Errorf("unknown transport %q", c.cfg.Transport)
	}
	return c.handshake(ctx, transport)
}

// handshake connects on transport and lists the tools.
func (c *conn) handshake(ctx context.Context, transport mcpsdk.Transport) error {
	c.drops = &dropRecorder{state: &dropState{reasons: map[string]string{}}}
	if c.opts.Logger != nil {
		c.drops.next = c.opts.Logger.Handler()
	}
	copts := &mcpsdk.ClientOptions{
		Logger:       slog.New(c.drops),
		Capabilities: &mcpsdk.ClientCapabilities{}, // no roots or sampling; elicitation only with an answerer
		ToolListChangedHandler: func(context.Context, *mcpsdk.ToolListChangedRequest) {
			select { // the relist loop lists again; never block the session
			case c.relist <- struct{}{}:
			default:
			}
		},
	}
	if c.opts.Answer != nil {
		copts.Capabilities.Elicitation = &mcpsdk.ElicitationCapabilities{
			Form: &mcpsdk.FormElicitationCapabilities{}, URL: &mcpsdk.URLElicitationCapabilities{}}
		copts.ElicitationHandler = elicitationHandler(c.cfg.Name, c.opts.Answer)
	}
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "toolnexus", Version: "dev"}, copts)
	if len(c.opts.ClientMiddleware) > 0 {
		client.AddSendingMiddleware(c.opts.ClientMiddleware...)
	}
	type connected struct {
		s   *mcpsdk.ClientSession
		err error
	}
	// Connect watches ctx, but a stuck process write could still block; the
	// select makes the timeout hard.
	done := make(chan connected, 1)
	go func() {
		s, err := client.Connect(ctx, transport, nil)
		done <- connected{s, err}
	}()
	var r connected
	select {
	case r = <-done:
	case <-ctx.Done():
		c.kill()
		r = <-done
		if r.err == nil {
			r.s.Close()
		}
		return fmt.Errorf("initialize: %w", ctx.Err())
	}
	if r.err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("initialize: %w", ctx.Err())
		}
		return fmt.Errorf("initialize: %w", r.err)
	}
	c.mu.Lock()
	c.session = r.s
	c.mu.Unlock()
	if ir := r.s.InitializeResult(); ir != nil && ir.ServerInfo != nil {
		c.status.ServerInfo = cleanOutput(strings.TrimSpace(ir.ServerInfo.Name+" "+ir.ServerInfo.Version), maxLabel)
	}
	listed, skipped, err := c.list(ctx, r.s)
	if err != nil {
		return err
	}
	c.listed, c.skipped = listed, skipped
	return nil
}

// list lists every tool of the server, page by page, within the caps. It
// returns the tools with their raw schemas and the tools the SDK client
// dropped ("name: dropped by the MCP SDK client: reason"); on any error
// (a failed page, a cap) it returns no tools at all.
func (c *conn) list(ctx context.Context, session *mcpsdk.ClientSession) ([]listedTool, []string, error) {
	c.store.reset()
	c.drops.state.reset()
	var tools []*mcpsdk.Tool
	params := &mcpsdk.ListToolsParams{}
	for page := 1; ; page++ {
		if page > c.opts.MaxListPages {
			return nil, nil, fmt.Errorf("list tools: more than %d pages (LoadOptions.MaxListPages)", c.opts.MaxListPages)
		}
		res, err := session.ListTools(ctx, params)
		tooMany := fmt.Errorf("list tools: more than %d tools (LoadOptions.MaxTools)", c.opts.MaxTools)
		if c.store.overCap() {
			return nil, nil, tooMany
		}
		if err != nil {
			if ctx.Err() != nil {
				err = ctx.Err()
			}
			return nil, nil, fmt.Errorf("list tools: %w", err)
		}
		tools = append(tools, res.Tools...)
		if len(tools) > c.opts.MaxTools {
			return nil, nil, tooMany
		}
		if res.NextCursor == "" {
			break
		}
		params = &mcpsdk.ListToolsParams{Cursor: res.NextCursor}
	}
	out := make([]listedTool, len(tools))
	for i, t := range tools {
		schema, _ := c.store.get(t.Name)
		out[i] = listedTool{tool: t, schema: schema}
	}
	return out, c.dropped(tools), nil
}

// dropped returns "name: reason" for every tool the server listed that
// the SDK client left out of the result (it excludes tools whose
// x-mcp-header annotations it rejects, logging why).
func (c *conn) dropped(listed []*mcpsdk.Tool) []string {
	kept := map[string]bool{}
	for _, t := range listed {
		kept[t.Name] = true
	}
	reasons := c.drops.state.take()
	var out []string
	note := func(name string) {
		if kept[name] {
			return
		}
		kept[name] = true // once per name
		reason, ok := reasons[name]
		if !ok {
			reason = "left out by the MCP SDK client while listing"
		}
		out = append(out, cleanOutput(name, maxLabel)+": dropped by the MCP SDK client: "+cleanOutput(reason, maxLabel))
	}
	for _, name := range c.store.names() {
		note(name)
	}
	rest := make([]string, 0, len(reasons))
	for name := range reasons {
		rest = append(rest, name)
	}
	sort.Strings(rest)
	for _, name := range rest {
		note(name)
	}
	return out
}

// dropRecorder is the SDK client's slog.Handler. It notes the reason of
// every "excluding tool from tools/list" record (attributes "tool" and
// "error") and passes all records on to next (nil: none).
type dropRecorder struct {
	next  slog.Handler
	state *dropState
}

type dropState struct {
	mu      sync.Mutex
	reasons map[string]string // tool name -> why the client excluded it
}

func (d *dropState) reset() {
	d.mu.Lock()
	defer d.mu.Unlock()
	clear(d.reasons)
}

func (d *dropState) take() map[string]string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return maps.Clone(d.reasons)
}

func (h *dropRecorder) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelError || (h.next != nil && h.next.Enabled(ctx, l))
}

func (h *dropRecorder) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "excluding tool from tools/list" {
		var tool, reason string
		r.Attrs(func(a slog.Attr) bool {
			switch a.Key {
			case "tool":
				tool = a.Value.String()
			case "error":
				reason = a.Value.String()
			}
			return true
		})
		if tool != "" {
			h.state.mu.Lock()
			h.state.reasons[tool] = reason
			h.state.mu.Unlock()
		}
	}
	if h.next != nil && h.next.Enabled(ctx, r.Level) {
		return h.next.Handle(ctx, r)
	}
	return nil
}

func (h *dropRecorder) WithAttrs(attrs []slog.Attr) slog.Handler {
	out := *h
	if h.next != nil {
		out.next = h.next.WithAttrs(attrs)
	}
	return &out
}

func (h *dropRecorder) WithGroup(name string) slog.Handler {
	out := *h
	if h.next != nil {
		out.next = h.next.WithGroup(name)
	}
	return &out
}

// reason formats a failure with the tail of the process's stderr.
func (c *conn) reason(err error) string {
	msg := err.Error()
	if c.stderr != nil {
		if tail := strings.TrimSpace(c.stderr.String()); tail != "" {
			lines := strings.Split(tail, "\n")
			if len(lines) > 5 {
				lines = lines[len(lines)-5:]
			}
			msg += "; stderr: " + cleanOutput(strings.Join(lines, " | "), 4096)
		}
	}
	return msg
}

// kill stops the process group at once (used when a start times out; the
// SDK then reaps the process as it closes the failed connection).
func (c *conn) kill() {
	c.mu.Lock()
	pid, detach := c.pid, c.detach
	c.mu.Unlock()
	killGroup(pid)
	if detach != nil {
		detach()
	}
}

// lifeTransport connects inner with a context of its own instead of the
// caller's.
type lifeTransport struct {
	inner mcpsdk.Transport
	ctx   context.Context
}

func (t *lifeTransport) Connect(context.Context) (mcpsdk.Connection, error) {
	return t.inner.Connect(t.ctx)
}

// close ends the session (for a local process: closing its stdin, then
// SIGTERM, then SIGKILL, waiting for it to exit) and then kills whatever is
// left of its process group (children it started). A connection that
// failed was already closed by the SDK; only the group kill applies.
func (c *conn) close() error {
	var err error
	c.mu.Lock()
	session := c.session
	c.session = nil
	c.mu.Unlock()
	if session != nil {
		err = session.Close()
	}
	c.kill()
	if err != nil && isExitAfterClose(err) {
		err = nil
	}
	return err
}

// isExitAfterClose reports errors that only say the process ended because
// it was told to.
func isExitAfterClose(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee) || errors.Is(err, mcpsdk.ErrConnectionClosed) ||
		strings.Contains(err.Error(), "signal: ") || strings.Contains(err.Error(), "Wait was already called")
}

// maxLabel caps each part of a status line that comes from a server (a
// tool name, a reason), in bytes.
const maxLabel = 256

// rebuildLocked makes s.tools and every server's Tools, Skipped and
// Notes from the current listings; a tool whose name did not change keeps
// its conversion (and so stays an equal Tool). Names are assigned over all servers
// at once (ToolNames), so a change of one server can rename another's
// tool only when the two now collide. s.mu is held (or Load has not
// returned).
func (s *Servers) rebuildLocked() {
	var refs []ToolRef
	for _, c := range s.conns {
		for _, t := range c.listed {
			refs = append(refs, ToolRef{Server: c.cfg.Name, Tool: t.tool.Name})
		}
	}
	names := ToolNames(refs)
	var out []toolnexus.Tool
	for _, c := range s.conns {
		c.status.Tools, c.status.Notes, c.status.Unchecked = nil, nil, nil
		c.status.Skipped = slices.Clone(c.skipped)
		seen := map[string]bool{}
		for i := range c.listed {
			t := &c.listed[i]
			label := cleanOutput(t.tool.Name, maxLabel)
			if seen[t.tool.Name] {
				c.status.Skipped = append(c.status.Skipped, label+": listed twice by the server")
				continue
			}
			seen[t.tool.Name] = true
			name := names[ToolRef{Server: c.cfg.Name, Tool: t.tool.Name}]
			if t.built == nil || t.built.name != name {
				b := &builtTool{name: name}
				b.tool, b.note, b.unchecked, b.err = c.tool(*t, name)
				t.built = b
			}
			tool, note, err := t.built.tool, t.built.note, t.built.err
			if err != nil {
				c.status.Skipped = append(c.status.Skipped, label+": "+cleanOutput(strings.TrimPrefix(err.Error(), "toolnexus: "), maxLabel))
				continue
			}
			if note != "" {
				c.status.Notes = append(c.status.Notes, label+": "+note)
			}
			if u := t.built.unchecked; u != "" {
				c.status.Unchecked = append(c.status.Unchecked, label+": "+cleanOutput(u, maxLabel))
			}
			out = append(out, tool)
			c.status.Tools = append(c.status.Tools, tool.Name)
		}
		sort.Strings(c.status.Tools)
	}
	slices.SortFunc(out, func(a, b toolnexus.Tool) int { return strings.Compare(a.Name, b.Name) })
	s.tools = out
}

// tool makes the registry tool for one listed tool, and checks it the way
// Registry.Add does (the error is the registry's). note says what was
// changed to make it fit ("" for nothing).
func (c *conn) tool(lt listedTool, name string) (tool toolnexus.Tool, note, unchecked string, err error) {
	t := lt.tool
	schema := lt.schema
	if schema == nil {
		if schema, err = json.Marshal(t.InputSchema); err != nil {
			return toolnexus.Tool{}, "", "", fmt.Errorf("input schema: %v", err)
		}
	}
	desc := t.Description
	if n := utf8.RuneCountInString(desc); n > toolnexus.MaxDescriptionLength {
		r := []rune(desc)
		desc = string(r[:toolnexus.MaxDescriptionLength-1]) + "…"
		note = fmt.Sprintf("description cut from %d to %d characters", n, toolnexus.MaxDescriptionLength)
	}
	out := toolnexus.Tool{
		Name:        name,
		Title:       t.Title,
		Description: desc,
		InputSchema: schema,
		Source:      "mcp",
		Timeout:     c.cfg.timeout(),
	}
	if t.OutputSchema != nil {
		b, err := json.Marshal(t.OutputSchema)
		if err != nil {
			return toolnexus.Tool{}, "", "", fmt.Errorf("output schema: %v", err)
		}
		out.OutputSchema = b
	}
	// Arguments are checked locally against the server's schema first;
	// what the engine cannot check is reported, never a refused tool.
	out.Handler, unchecked = toolnexus.CheckArguments(name, schema, toolHandler{conn: c, tool: t.Name})
	if a := t.Annotations; a != nil {
		out.Annotations = &toolnexus.Annotations{
			Title:           a.Title,
			ReadOnlyHint:    a.ReadOnlyHint,
			DestructiveHint: a.DestructiveHint,
			IdempotentHint:  a.IdempotentHint,
			OpenWorldHint:   a.OpenWorldHint,
		}
	}
	// A registry of its own per tool: Add's checks, at constant cost.
	if err := toolnexus.NewRegistry().Add(out); err != nil {
		return toolnexus.Tool{}, "", "", err
	}
	return out, note, unchecked, nil
}

// ToolError is the Go cause (Result.Err) of an MCP tool result that had
// isError set.
type ToolError struct {
	Server, Tool string // names as the server knows them
	Message      string // the result's text parts joined by "\n"
}

// Error returns `MCP tool "tool" on server "server" failed: message`.
func (e *ToolError) Error() string {
	return fmt.Sprintf("MCP tool %q on server %q failed: %s", e.Tool, e.Server, e.Message)
}

// toolHandler calls one tool of one server. It is a comparable value, so
// two Tools made for the same server tool have equal Handlers.
type toolHandler struct {
	conn *conn
	tool string
}

// Call implements toolnexus.Handler. Output that comes from the server is
// cleaned (control characters escaped) and capped (see Load).
func (h toolHandler) Call(ctx context.Context, args json.RawMessage) toolnexus.Result {
	res := h.call(ctx, args)
	res.Output = cleanOutput(res.Output, h.conn.opts.MaxOutputBytes)
	return res
}

func (h toolHandler) call(ctx context.Context, args json.RawMessage) toolnexus.Result {
	server := h.conn.cfg.Name
	meta := map[string]any{"mcp_server": server, "mcp_tool": h.tool}
	session := h.conn.liveSession()
	if session == nil {
		err := fmt.Errorf("MCP server %q is not connected", server)
		return toolnexus.Result{Output: err.Error(), IsError: true, Err: err, Metadata: meta}
	}
	res, err := session.CallTool(ctx, &mcpsdk.CallToolParams{Name: h.tool, Arguments: args})
	if err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		out := callErrorText(server, h.tool, err)
		err = fmt.Errorf("MCP server %q: tool %q: %w", server, h.tool, err)
		return toolnexus.Result{Output: out, IsError: true, Err: err, Metadata: meta}
	}
	if res.IsError {
		text := toolnexus.ContentText(partsFromMCP(res.Content))
		if text == "" {
			text = "the tool reported an error without a message"
		}
		return toolnexus.Result{Output: text, IsError: true, Metadata: meta,
			Err: &ToolError{Server: server, Tool: h.tool, Message: text}}
	}
	out := resultFromMCP(res)
	out.Metadata = meta
	return out
}

// callErrorText is the model-facing text for a tools/call that failed
// without a result: short, and free of Go type names (the SDK's decoding
// errors name Go struct types; those stay in Result.Err).
func callErrorText(server, tool string, err error) string {
	var wire *jsonrpc.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		return fmt.Sprintf("MCP server %q: tool %q: %v", server, tool, err)
	case errors.As(err, &wire):
		return fmt.Sprintf("MCP server %q: tool %q: %s", server, tool, wire.Message)
	case errors.Is(err, mcpsdk.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Sprintf("MCP server %q: connection closed", server)
	case isDecodeError(err):
		return fmt.Sprintf("MCP server %q sent an invalid tools/call result", server)
	default:
		return fmt.Sprintf("MCP server %q: calling tool %q failed", server, tool)
	}
}

// isDecodeError reports whether err comes from decoding a result.
func isDecodeError(err error) bool {
	var (
		typeErr   *json.UnmarshalTypeError
		syntaxErr *json.SyntaxError
	)
	return errors.As(err, &typeErr) || errors.As(err, &syntaxErr) || strings.Contains(err.Error(), "json: ") ||
		strings.Contains(err.Error(), "content type")
}

func (c *conn) liveSession() *mcpsdk.ClientSession {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.session
}

// Tools returns the current tools of every connected server, sorted by
// name. The slice is the caller's. Two calls return equal Tools
// (reflect.DeepEqual) for a server tool that did not change in between.
func (s *Servers) Tools() []toolnexus.Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.tools)
}

// Status reports every configured server, sorted by name.
func (s *Servers) Status() []ServerStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ServerStatus, len(s.conns))
	for i, c := range s.conns {
		st := c.status
		st.Tools = slices.Clone(st.Tools)
		st.Skipped = slices.Clone(st.Skipped)
		st.Notes = slices.Clone(st.Notes)
		st.Unchecked = slices.Clone(st.Unchecked)
		out[i] = st
	}
	return out
}

// Err joins the failures of all failed servers, each as
// `MCP server "name": reason`; nil when none failed.
func (s *Servers) Err() error {
	var errs []error
	for _, st := range s.Status() {
		if st.State == StateFailed {
			errs = append(errs, fmt.Errorf("MCP server %q: %s", st.Name, st.Reason))
		}
	}
	return errors.Join(errs...)
}

// Close ends every session and stops every server process it started
// (closing stdin, then SIGTERM and SIGKILL for the process group after
// LoadOptions.TerminateDelay each), waiting for them to exit. Tools called
// afterwards return an error result. Close is idempotent; it returns nil
// unless ending a session failed in an unexpected way.
func (s *Servers) Close() error {
	var errs []error
	s.closeFn.Do(func() {
		s.mu.Lock()
		var conns []*conn // the connected ones
		for _, c := range s.conns {
			if c.status.State == StateConnected {
				conns = append(conns, c)
			}
		}
		s.closed = true
		s.mu.Unlock()
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, c := range conns {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := c.close(); err != nil {
					mu.Lock()
					errs = append(errs, fmt.Errorf("MCP server %q: close: %w", c.cfg.Name, err))
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		s.mu.Lock()
		for _, c := range conns {
			if c.status.State == StateConnected {
				c.status.State = StateClosed
			}
		}
		s.mu.Unlock()
		s.watchers.Wait()
	})
	return errors.Join(errs...)
}

// tailBuffer keeps the last max bytes written to it, in at most 2*max
// bytes of memory; the cost of writes is linear in the bytes written
// (the buffer is compacted to max bytes only when it reaches 2*max).
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) > t.max {
		p = p[len(p)-t.max:]
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.buf)+len(p) > 2*t.max {
		keep := t.max - len(p)
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-keep:]...)
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf[max(0, len(t.buf)-t.max):])
}
