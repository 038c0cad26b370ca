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
	StateFailed    State = "failed"    // could not start, initialize or list, or its connection was lost later (process exited); see ServerStatus.Reason
	StateDisabled  State = "disabled"  // "disabled": true or "enabled": false in the config
	StateClosed    State = "closed"    // was connected; Close has been called
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
	// transport's error) when known, then its stderr. Never contains header
	// or environment values from the config, but the stderr part is
	// whatever the server printed, unfiltered: a server that prints a
	// secret puts it here. "" unless State is failed.
	Reason string `json:"reason,omitempty"`
	// Tools are the registry names of the server's tools, sorted.
	Tools []string `json:"tools,omitempty"`
	// Skipped lists tools the server offered that could not be used, each
	// as "name: reason" (for example an input schema that is not an object,
	// or a tool the SDK client dropped while listing because of invalid
	// x-mcp-header annotations: "name: dropped by the MCP SDK client: ...").
	Skipped []string `json:"skipped,omitempty"`
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

	// LookupEnv resolves ${VAR} in header and env values; nil means
	// os.LookupEnv.
	LookupEnv func(string) (string, bool)

	// TerminateDelay is how long Close waits for a local server to exit
	// after its stdin is closed before it sends SIGTERM, and again before
	// SIGKILL; zero means 2 seconds.
	TerminateDelay time.Duration
}

// Servers is the result of [Load]: the tools of every server that
// connected, a status for every configured server, and the live
// connections. Close it to stop every server process.
//
// A Servers is safe for concurrent use; its tools may be executed from
// many goroutines at once.
type Servers struct {
	mu       sync.Mutex
	conns    []*conn // sorted by server name
	tools    []toolnexus.Tool
	closed   bool
	closeFn  sync.Once
	watchers sync.WaitGroup // one per connected server, until its connection ends
}

type conn struct {
	cfg    ServerConfig
	status ServerStatus

	mu      sync.Mutex
	session *mcpsdk.ClientSession // nil once closed
	pid     int                   // of the local process once started; 0 before
	detach  context.CancelFunc    // ends the SSE transport's event stream
	stderr  *tailBuffer
	store   schemaStore
	listed  []*mcpsdk.Tool
}

// Load starts (or connects to) every enabled server in cfg at the same
// time, lists their tools and returns them as registry tools. A server
// that fails to start, to initialize or to list its tools within its
// Timeout is isolated: it is reported as failed in Status and the others
// still load. Load itself never fails; [Servers.Err] joins the failures.
//
// Each server tool becomes a [toolnexus.Tool]:
//
//   - Name: "server_tool", made a valid unique name by [ToolNames].
//   - Title, Description and Annotations come from the server. A
//     description longer than toolnexus.MaxDescriptionLength is cut to fit
//     (ending in "…").
//   - InputSchema: the server's inputSchema bytes, unchanged except for
//     whitespace (compacted).
//   - Source: "mcp"; Timeout: the server's Timeout.
//   - OutputSchema: the server's outputSchema, re-encoded (keys sorted),
//     or nil when it declares none.
//   - Handler: calls the tool on the server (tools/call). A result with
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
//
// A server that connected but whose connection ends before Close (its
// process exited, the remote end closed the session) becomes failed in
// Status, with Reason "connection closed: exit status N; stderr: ...".
//
// ctx bounds the whole load; cancelling it later does not affect the
// connections. cfg may be nil (no servers).
func Load(ctx context.Context, cfg *Config, opts *LoadOptions) *Servers {
	var o LoadOptions
	if opts != nil {
		o = *opts
	}
	if o.LookupEnv == nil {
		o.LookupEnv = os.LookupEnv
	}
	if o.TerminateDelay <= 0 {
		o.TerminateDelay = 2 * time.Second
	}
	s := &Servers{}
	var wg sync.WaitGroup
	for _, name := range cfg.Names() {
		sc := cfg.Servers[name]
		sc.Name = name
		c := &conn{cfg: sc, status: ServerStatus{Name: name, Transport: sc.Transport}}
		s.conns = append(s.conns, c)
		if sc.Disabled {
			c.status.State = StateDisabled
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.connect(ctx, &o); err != nil {
				c.status.State = StateFailed
				c.status.Reason = c.reason(err)
				c.close()
				return
			}
			c.status.State = StateConnected
		}()
	}
	wg.Wait()
	s.tools = s.buildTools()
	for _, c := range s.conns {
		if session := c.liveSession(); session != nil && c.status.State == StateConnected {
			s.watchers.Add(1)
			go s.watch(c, session)
		}
	}
	return s
}

// watch waits for the connection of c to end. If that happens before
// Close (the process crashed or exited, the remote end closed the
// session), c becomes failed with the reason, and what is left of it is
// cleaned up; its tools then answer "connection closed".
func (s *Servers) watch(c *conn, session *mcpsdk.ClientSession) {
	defer s.watchers.Done()
	err := session.Wait()
	s.mu.Lock()
	if s.closed || c.status.State != StateConnected {
		s.mu.Unlock()
		return
	}
	msg := "connection closed"
	if err != nil && !errors.Is(err, mcpsdk.ErrConnectionClosed) {
		msg += ": " + err.Error()
	}
	c.status.State = StateFailed
	c.status.Reason = c.reason(errors.New(msg))
	s.mu.Unlock()
	c.close() // reaps the process and kills children it left behind
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

func (c *conn) connect(ctx context.Context, o *LoadOptions) error {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.timeout())
	defer cancel()
	var transport mcpsdk.Transport
	switch c.cfg.Transport {
	case TransportStdio:
		env := os.Environ()
		keys := make([]string, 0, len(c.cfg.Env))
		for k := range c.cfg.Env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			v, err := expandEnv(c.cfg.Env[k], o.LookupEnv)
			if err != nil {
				return fmt.Errorf("env %s: %v", k, err)
			}
			env = append(env, k+"="+v)
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
	case TransportHTTP, TransportSSE:
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
		hc.Transport = &headerTransport{base: base, headers: headers, store: &c.store}
		if c.cfg.Transport == TransportSSE {
			// The SSE transport keeps its event stream on the context given
			// to Connect, so it must outlive this function's timeout; kill
			// (on timeout) and close end it.
			life, cancel := context.WithCancel(context.WithoutCancel(ctx))
			c.mu.Lock()
			c.detach = cancel
			c.mu.Unlock()
			transport = &lifeTransport{inner: &mcpsdk.SSEClientTransport{Endpoint: c.cfg.URL, HTTPClient: &hc}, ctx: life}
		} else {
			transport = &mcpsdk.StreamableClientTransport{Endpoint: c.cfg.URL, HTTPClient: &hc, MaxRetries: -1}
		}
	default:
		return fmt.Errorf("unknown transport %q", c.cfg.Transport)
	}
	return c.handshake(ctx, transport, o.Logger)
}

// handshake connects on transport and lists the tools.
func (c *conn) handshake(ctx context.Context, transport mcpsdk.Transport, logger *slog.Logger) error {
	drops := &dropRecorder{state: &dropState{reasons: map[string]string{}}}
	if logger != nil {
		drops.next = logger.Handler()
	}
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "toolnexus", Version: "dev"}, &mcpsdk.ClientOptions{
		Logger:       slog.New(drops),
		Capabilities: &mcpsdk.ClientCapabilities{}, // no roots, sampling or elicitation
	})
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
		c.status.ServerInfo = strings.TrimSpace(ir.ServerInfo.Name + " " + ir.ServerInfo.Version)
	}
	for t, err := range r.s.Tools(ctx, nil) {
		if err != nil {
			if ctx.Err() != nil {
				err = ctx.Err()
			}
			return fmt.Errorf("list tools: %w", err)
		}
		c.listed = append(c.listed, t)
	}
	c.status.Skipped = append(c.status.Skipped, c.dropped(drops)...)
	return nil
}

// dropped returns "name: reason" for every tool the server listed that
// the SDK client left out of the result (it excludes tools whose
// x-mcp-header annotations it rejects, logging why).
func (c *conn) dropped(drops *dropRecorder) []string {
	kept := map[string]bool{}
	for _, t := range c.listed {
		kept[t.Name] = true
	}
	reasons := drops.state.take()
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
		out = append(out, name+": dropped by the MCP SDK client: "+reason)
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
			msg += "; stderr: " + strings.Join(lines, " | ")
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

func (s *Servers) buildTools() []toolnexus.Tool {
	var refs []ToolRef
	for _, c := range s.conns {
		for _, t := range c.listed {
			refs = append(refs, ToolRef{Server: c.cfg.Name, Tool: t.Name})
		}
	}
	names := ToolNames(refs)
	var out []toolnexus.Tool
	for _, c := range s.conns {
		seen := map[string]bool{}
		for _, t := range c.listed {
			if seen[t.Name] {
				c.status.Skipped = append(c.status.Skipped, t.Name+": listed twice by the server")
				continue
			}
			seen[t.Name] = true
			tool, err := c.tool(t, names[ToolRef{Server: c.cfg.Name, Tool: t.Name}])
			if err != nil {
				c.status.Skipped = append(c.status.Skipped, t.Name+": "+err.Error())
				continue
			}
			out = append(out, tool)
			c.status.Tools = append(c.status.Tools, tool.Name)
		}
		sort.Strings(c.status.Tools)
	}
	slices.SortFunc(out, func(a, b toolnexus.Tool) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func (c *conn) tool(t *mcpsdk.Tool, name string) (toolnexus.Tool, error) {
	schema, ok := c.store.get(t.Name)
	if !ok {
		var err error
		if schema, err = json.Marshal(t.InputSchema); err != nil {
			return toolnexus.Tool{}, fmt.Errorf("input schema: %v", err)
		}
	}
	var root struct {
		Type any `json:"type"`
	}
	if err := json.Unmarshal(schema, &root); err != nil {
		return toolnexus.Tool{}, errors.New("input schema is not a JSON object")
	}
	if root.Type != "object" {
		return toolnexus.Tool{}, fmt.Errorf(`input schema root has "type" %v, want "object"`, root.Type)
	}
	desc := t.Description
	if utf8.RuneCountInString(desc) > toolnexus.MaxDescriptionLength {
		r := []rune(desc)
		desc = string(r[:toolnexus.MaxDescriptionLength-1]) + "…"
	}
	out := toolnexus.Tool{
		Name:        name,
		Title:       t.Title,
		Description: desc,
		InputSchema: schema,
		Source:      "mcp",
		Timeout:     c.cfg.timeout(),
		Handler:     &toolHandler{conn: c, tool: t.Name},
	}
	if t.OutputSchema != nil {
		b, err := json.Marshal(t.OutputSchema)
		if err != nil {
			return toolnexus.Tool{}, fmt.Errorf("output schema: %v", err)
		}
		out.OutputSchema = b
	}
	if a := t.Annotations; a != nil {
		out.Annotations = &toolnexus.Annotations{
			Title:           a.Title,
			ReadOnlyHint:    a.ReadOnlyHint,
			DestructiveHint: a.DestructiveHint,
			IdempotentHint:  a.IdempotentHint,
			OpenWorldHint:   a.OpenWorldHint,
		}
	}
	if err := toolnexus.CheckName(out.Name); err != nil {
		return toolnexus.Tool{}, err
	}
	return out, nil
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

type toolHandler struct {
	conn *conn
	tool string
}

// Call implements toolnexus.Handler.
func (h *toolHandler) Call(ctx context.Context, args json.RawMessage) toolnexus.Result {
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

// Tools returns the tools of every connected server, sorted by name. The
// slice is the caller's.
func (s *Servers) Tools() []toolnexus.Tool { return slices.Clone(s.tools) }

// Status reports every configured server, sorted by name.
func (s *Servers) Status() []ServerStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ServerStatus, len(s.conns))
	for i, c := range s.conns {
		st := c.status
		st.Tools = slices.Clone(st.Tools)
		st.Skipped = slices.Clone(st.Skipped)
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
		conns := slices.Clone(s.conns)
		s.closed = true
		s.mu.Unlock()
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, c := range conns {
			if c.status.State != StateConnected {
				continue
			}
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

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
