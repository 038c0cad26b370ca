package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
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

	// MaxRetries is how many times the streamable HTTP transport tries to
	// reconnect a stream the server ended or lost before its reply (it
	// resumes with Last-Event-ID and waits the server's SSE retry: delay
	// first, then backs off); zero means the SDK's default, 5; a negative
	// value means never. A call whose stream is not resumed fails.
	MaxRetries int

	// OAuth, if non-nil, gives the OAuth handler of a remote server (nil:
	// none for that server): the transport then sends its access token
	// and, on a 401 or 403, runs its authorization flow (MCP
	// authorization, https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization)
	// and retries once. [LocalOAuth.Handler] is one for programs run by
	// the person they act for (browser, loopback redirect, tokens kept on
	// disk); go-sdk's auth.NewAuthorizationCodeHandler is the general one
	// (client ID metadata documents, pre-registered clients too).
	// Streamable HTTP only.
	OAuth func(server ServerConfig) auth.OAuthHandler

	// MaxOutputBytes caps the text of one call's result of an MCP tool,
	// in bytes, by toolnexus.Result.Capped; zero means
	// toolnexus.DefaultMaxOutputBytes (32 KiB, the registry's default cap). A longer Output keeps its head and
	// tail with a line between them that says how many bytes were cut,
	// "[... N bytes truncated ...]"; the text blocks in Content share one
	// budget of this size; a longer structuredContent is dropped whole
	// with a note ending the text.
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

	// Dial, if non-nil, gives the transport of each configured server by
	// its name, instead of the command or URL of its config: a server in
	// this process (one side of mcpsdk.NewInMemoryTransports) or a
	// transport of your own. Every other part of the server's config and
	// of these options applies as for a spawned or remote server. nil
	// means each server's config says how to reach it.
	Dial func(name string) mcpsdk.Transport

	// AppOnlyTools loads the tools a server meant for its MCP Apps UI only
	// (_meta.ui.visibility without "model", SEP-1865), for a host that
	// renders those apps and calls such tools for them. false (the
	// default) leaves them out, with a line in ServerStatus.Skipped: they
	// are not for a model.
	AppOnlyTools bool
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
//     in Output and in Content's text are shown escaped, as "\x1b", "\r"
//     or "\u009b" ("\r\n" becomes "\n"), and the result is capped at
//     MaxOutputBytes by toolnexus.Result.Capped (a structuredContent over
//     the cap is dropped with a note in the text).
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
		o.MaxOutputBytes = toolnexus.DefaultMaxOutputBytes
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
// `mcp: server "name": reason`; nil when none failed.
func (s *Servers) Err() error {
	var errs []error
	for _, st := range s.Status() {
		if st.State == StateFailed {
			errs = append(errs, fmt.Errorf("mcp: server %q: %s", st.Name, st.Reason))
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
					errs = append(errs, fmt.Errorf("mcp: server %q: close: %w", c.cfg.Name, err))
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
