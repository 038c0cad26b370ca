package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"sync"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// conn is one configured server: its config, its status, its latest
// listing and, once connected, its session and (for a local server) its
// process.
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

func (c *conn) connect(ctx context.Context) error {
	o := c.opts
	ctx, cancel := context.WithTimeout(ctx, c.cfg.timeout())
	defer cancel()
	var transport mcpsdk.Transport
	switch {
	case o.Dial != nil:
		transport = &captureTransport{inner: o.Dial(c.cfg.Name), store: &c.store}
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
			st := &mcpsdk.StreamableClientTransport{Endpoint: c.cfg.URL, HTTPClient: &hc, MaxRetries: o.MaxRetries,
				MaxEventSize: o.MaxEventSize}
			if o.OAuth != nil {
				st.OAuthHandler = o.OAuth(c.cfg)
			}
			transport = st
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
	addTaskCalls(client)
	if _, http := transport.(*mcpsdk.StreamableClientTransport); !http {
		// Over streamable HTTP, headerTransport moves the task members.
		transport = taskClientTransport{transport}
	}
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
	out := make([]listedTool, 0, len(tools))
	skipped := c.dropped(tools)
	for _, t := range tools {
		if !c.cfg.offers(t.Name) {
			continue
		}
		if why := notForModels(t); why != "" && !c.opts.AppOnlyTools {
			skipped = append(skipped, cleanOutput(t.Name, maxLabel)+": "+why)
			continue
		}
		schema, _ := c.store.get(t.Name)
		out = append(out, listedTool{tool: t, schema: schema, task: c.store.taskRequired(t.Name)})
	}
	return out, skipped, nil
}

// notForModels says why a listed tool is not offered to a model, or "":
// its _meta.ui.visibility (MCP Apps, SEP-1865) does not hold "model", so
// the server meant it for its app's UI only.
func notForModels(t *mcpsdk.Tool) string {
	ui, _ := t.Meta["ui"].(map[string]any)
	if vis, ok := ui["visibility"].([]any); ok && !slices.Contains(vis, any("model")) {
		return "for the MCP Apps UI only (_meta.ui.visibility has no \"model\")"
	}
	return ""
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

func (c *conn) liveSession() *mcpsdk.ClientSession {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.session
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
