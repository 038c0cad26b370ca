package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
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
	// notifications) and a warning "toolnexus/mcp: tool not served" (with
	// attributes "tool" and "reason") for each tool the server skips (see
	// [Server.Skipped]). nil means no logging.
	Logger *slog.Logger
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

	logger *slog.Logger // nil: none

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
	s := &Server{reg: reg, logger: o.Logger, installed: map[string]toolnexus.Tool{}, skipped: map[string]skippedTool{}}
	s.srv = mcpsdk.NewServer(&mcpsdk.Implementation{Name: o.Name, Version: o.Version}, &mcpsdk.ServerOptions{
		Instructions: o.Instructions,
		Logger:       o.Logger,
		// Advertise tools (with list_changed) even while the registry is
		// empty, and logging, and nothing else.
		Capabilities: &mcpsdk.ServerCapabilities{Tools: &mcpsdk.ToolCapabilities{ListChanged: true},
			Logging: &mcpsdk.LoggingCapabilities{}}, // handlers' toolnexus.Log lines
	})
	s.cancel = reg.OnChange(s.sync)
	s.sync()
	return s
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
				s.logger.Warn("toolnexus/mcp: tool not served", "tool", t.Name, "reason", err.Error())
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
		var args json.RawMessage
		if req.Params != nil {
			args = req.Params.Arguments
		}
		res := s.reg.Execute(toolnexus.WithEvents(ctx, sessionEvents(ctx, req, name)), name, args)
		return callResult(res), nil
	}
}

// Run serves one MCP session on transport t until the client disconnects
// or ctx is done. Use [mcpsdk.StdioTransport] (or [Server.ServeStdio]) for
// a process launched by an MCP client.
func (s *Server) Run(ctx context.Context, t mcpsdk.Transport) error {
	return s.srv.Run(ctx, t)
}

// ServeStdio serves one MCP session over the process's standard input and
// output (newline-delimited JSON-RPC) until stdin is closed or ctx is done.
// Nothing else may write to os.Stdout meanwhile.
func (s *Server) ServeStdio(ctx context.Context) error {
	err := s.srv.Run(ctx, &mcpsdk.StdioTransport{})
	if err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, mcpsdk.ErrConnectionClosed)) {
		return nil
	}
	return err
}

// Handler returns an http.Handler that serves the MCP streamable HTTP
// transport (spec 2025-06-18 "Streamable HTTP": POST for requests, GET for
// the server-to-client event stream, DELETE to end a session). Mount it at
// the endpoint path clients are given, e.g. http.Handle("/mcp", h).
func (s *Server) Handler() http.Handler {
	return mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return s.srv }, nil)
}

// ListenAndServe serves the streamable HTTP transport on addr (host:port;
// ":0" picks a free port) at every path, until ctx is done; it then shuts
// the HTTP server down, waiting at most 5 seconds for open requests. If
// ready is non-nil it is called with the bound address once the listener is
// open. It returns nil after a shutdown caused by ctx.
func (s *Server) ListenAndServe(ctx context.Context, addr string, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("toolnexus/mcp: listen on %q: %w", addr, err)
	}
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
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
		return nil
	}
}
