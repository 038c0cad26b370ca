package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK client decodes a tool's inputSchema into map[string]any, which
// loses the key order (re-encoding sorts keys, and property order is what a
// model sees first). To pass schemas through byte for byte, the raw
// tools/list results are captured on their way into the SDK: on stdio by
// wrapping the Connection (jsonrpc.Response.Result is still raw JSON), on
// HTTP by reading the response bodies of tools/list POSTs as they stream.
// Nothing here writes or rewrites JSON-RPC; the SDK still does all of it.

// schemaStore keeps the raw inputSchema of every tool seen in a tools/list
// result, by the server's tool name.
type schemaStore struct {
	mu      sync.Mutex
	limit   int  // most tools recorded between resets; 0 means no limit
	over    bool // a result went over limit since the last reset
	raw     map[string]json.RawMessage
	tasks   map[string]bool // tools whose execution.taskSupport is "required"
	listed  []string        // every tool name seen, in order
	pending map[string]bool // HTTP: JSON text of the ids of tools/list calls in flight
}

// expect notes the id of a tools/list call sent over HTTP.
func (s *schemaStore) expect(id json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending == nil {
		s.pending = map[string]bool{}
	}
	s.pending[string(bytes.TrimSpace(id))] = true
}

// names returns the name of every tool seen in a tools/list result, in
// order (a name listed twice appears twice).
func (s *schemaStore) names() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.listed)
}

// reset forgets the tools seen so far (before a new listing); tools/list
// calls in flight stay expected.
func (s *schemaStore) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.raw, s.tasks, s.listed, s.over = nil, nil, nil, false
}

// taskRequired reports whether the tool name was listed with
// execution.taskSupport "required".
func (s *schemaStore) taskRequired(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tasks[name]
}

func (s *schemaStore) get(name string) (json.RawMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.raw[name]
	return r, ok
}

// errOverCap is returned by addResult once more than limit tools were
// seen since the last reset.
var errOverCap = errors.New("over the cap on tools")

// addResult records the schemas of a raw ListToolsResult. It decodes the
// tools one by one and stops with errOverCap at the first tool over the
// limit, so a page of a million tools costs only the first limit+1.
func (s *schemaStore) addResult(result json.RawMessage) error {
	dec := json.NewDecoder(bytes.NewReader(result))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		if key != "tools" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
			continue
		}
		if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
			return nil
		}
		for dec.More() {
			var t struct {
				Name        string          `json:"name"`
				InputSchema json.RawMessage `json:"inputSchema"`
				Execution   struct {
					TaskSupport string `json:"taskSupport"`
				} `json:"execution"`
			}
			if dec.Decode(&t) != nil {
				return nil
			}
			if err := s.add(t.Name, t.InputSchema, t.Execution.TaskSupport == "required"); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return nil
		}
	}
	return nil
}

func (s *schemaStore) add(name string, schema json.RawMessage, taskRequired bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limit > 0 && len(s.listed) >= s.limit {
		s.over = true
		return errOverCap
	}
	if s.raw == nil {
		s.raw = map[string]json.RawMessage{}
	}
	s.listed = append(s.listed, name)
	if taskRequired {
		if s.tasks == nil {
			s.tasks = map[string]bool{}
		}
		s.tasks[name] = true
	}
	if len(schema) > 0 {
		var buf bytes.Buffer
		if json.Compact(&buf, schema) == nil {
			s.raw[name] = buf.Bytes()
		}
	}
	return nil
}

// overCap reports whether a result since the last reset went over limit.
func (s *schemaStore) overCap() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.over
}

// addMessage records the schemas of a raw JSON-RPC message if it is the
// successful response to a tools/list call noted by expect; the error is
// addResult's.
func (s *schemaStore) addMessage(data []byte) error {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(data, &msg) != nil || len(msg.ID) == 0 {
		return nil
	}
	id := string(bytes.TrimSpace(msg.ID))
	s.mu.Lock()
	mine := s.pending[id]
	delete(s.pending, id)
	s.mu.Unlock()
	if mine && len(msg.Result) > 0 {
		return s.addResult(msg.Result)
	}
	return nil
}

// captureTransport wraps a client Transport whose Connection has no
// client-specific hooks (stdio and the in-memory transport).
type captureTransport struct {
	inner   mcpsdk.Transport
	store   *schemaStore
	started func() // if non-nil, called after inner.Connect succeeded
}

func (t *captureTransport) Connect(ctx context.Context) (mcpsdk.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	if t.started != nil {
		t.started()
	}
	return &captureConn{Connection: c, store: t.store, pending: map[jsonrpc.ID]bool{}}, nil
}

type captureConn struct {
	mcpsdk.Connection
	store   *schemaStore
	mu      sync.Mutex
	pending map[jsonrpc.ID]bool // ids of tools/list calls in flight
}

func (c *captureConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "tools/list" && req.IsCall() {
		c.mu.Lock()
		c.pending[req.ID] = true
		c.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

func (c *captureConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		mine := c.pending[resp.ID]
		delete(c.pending, resp.ID)
		c.mu.Unlock()
		if mine && resp.Error == nil && c.store.addResult(resp.Result) != nil {
			// Over the cap: the SDK gets an error instead of a page it
			// would decode whole.
			msg = &jsonrpc.Response{ID: resp.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: errOverCap.Error()}}
		}
	}
	return msg, err
}

// headerTransport adds configured headers to every request, caps the
// bodies of responses that are not event streams at maxBody bytes (the
// SDK reads them whole; event streams are capped per event by the SDK's
// MaxEventSize) and captures the raw results of tools/list calls: from
// the response to the POST on streamable HTTP, from the GET event stream
// on the older SSE transport.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string // expanded values: secrets
	store   *schemaStore
	maxBody int
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range t.headers {
			req.Header.Set(k, v)
		}
	}
	listing := false
	var taskID json.RawMessage // of a tools/call made as a task (see taskRequest)
	if req.Method == http.MethodPost && req.Body != nil && req.GetBody != nil {
		if body, err := req.GetBody(); err == nil {
			var call struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			data, _ := io.ReadAll(io.LimitReader(body, 1<<20))
			body.Close()
			if json.Unmarshal(data, &call) == nil && call.Method == "tools/list" && len(call.ID) > 0 {
				listing = true
				t.store.expect(call.ID)
			}
			if out, id, ok := taskRequest(data); ok {
				taskID = id
				req = req.Clone(req.Context())
				req.Body, req.ContentLength = io.NopCloser(bytes.NewReader(out)), int64(len(out))
				req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(out)), nil }
			}
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	sse := strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
	if !sse {
		resp.Body = &limitBody{ReadCloser: resp.Body, left: int64(t.maxBody), max: t.maxBody}
	}
	if listing || (req.Method == http.MethodGet && sse) {
		resp.Body = &captureBody{ReadCloser: resp.Body, sse: sse, store: t.store, max: t.maxBody}
	}
	if taskID != nil {
		resp.Body = newTaskBody(resp.Body, sse, taskID)
	}
	return resp, nil
}

// limitBody fails a read once more than max bytes came.
type limitBody struct {
	io.ReadCloser
	left int64
	max  int
}

func (b *limitBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, fmt.Errorf("response body is larger than %d bytes (LoadOptions.MaxEventSize)", b.max)
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return 0, fmt.Errorf("response body is larger than %d bytes (LoadOptions.MaxEventSize)", b.max)
	}
	return n, err
}

// captureBody passes a response body through unchanged and records every
// complete JSON-RPC message in it before the reader gets its last byte, so
// the schemas are stored before the SDK can return from ListTools. It
// looks at each byte once (time linear in the body) and keeps at most max
// bytes of one message; a longer one is not recorded (the SDK refuses it
// too).
type captureBody struct {
	io.ReadCloser
	sse   bool
	store *schemaStore
	max   int
	buf   []byte // JSON body so far, or the data of the current event
	over  bool   // buf went past max: the message is not recorded
	sc    sseScanner
}

func (b *captureBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if b.sse {
		if b.sc.scan(p[:n], b.max, b.store.addMessage) != nil {
			return 0, errOverCap // ends the stream before the SDK decodes the page
		}
		return n, err
	}
	if !b.over {
		if len(b.buf)+n > b.max {
			b.over, b.buf = true, nil
		} else {
			b.buf = append(b.buf, p[:n]...)
		}
	}
	if err == io.EOF {
		var capErr error
		if !b.over {
			capErr = b.store.addMessage(b.buf)
		}
		b.buf = nil
		if capErr != nil {
			return 0, capErr
		}
	}
	return n, err
}

// sseScanner splits a server-sent event stream, fed in pieces of any size,
// into the data of its events (the "data:" lines of one event joined by
// "\n", as the SSE specification says). Lines end in "\n", "\r" or "\r\n";
// an empty line ends an event. Each byte is looked at once.
type sseScanner struct {
	line     []byte // the current line, up to max+6 bytes ("data: " + data)
	long     bool   // the current line is over that: it is dropped
	longData bool   // ... and it is a data line
	data     []byte // the data of the current event
	hasData  bool
	over     bool // data went past max: the event is dropped
	cr       bool // the last byte was "\r" (a "\n" right after it is part of it)
}

// scan feeds p; emit gets the data of every event completed in it. The
// first error of emit stops the scan and is returned.
func (s *sseScanner) scan(p []byte, max int, emit func([]byte) error) error {
	for len(p) > 0 {
		if s.cr {
			s.cr = false
			if p[0] == '\n' {
				p = p[1:]
				continue
			}
		}
		i := bytes.IndexAny(p, "\r\n")
		if i < 0 {
			s.add(p, max)
			return nil
		}
		s.add(p[:i], max)
		s.cr = p[i] == '\r'
		p = p[i+1:]
		if err := s.endLine(max, emit); err != nil {
			return err
		}
	}
	return nil
}

func (s *sseScanner) add(p []byte, max int) {
	if s.long {
		return
	}
	if len(s.line)+len(p) > max+len("data: ") {
		head := s.line
		if len(head) < len("data:") {
			head = append(head, p[:min(len(p), len("data:")-len(head))]...)
		}
		s.long, s.longData, s.line = true, bytes.HasPrefix(head, []byte("data:")), s.line[:0]
		return
	}
	s.line = append(s.line, p...)
}

func (s *sseScanner) endLine(max int, emit func([]byte) error) error {
	line, long, longData := s.line, s.long, s.longData
	s.line, s.long, s.longData = s.line[:0], false, false
	switch {
	case long:
		if longData {
			s.over, s.hasData = true, true // a data line too long to keep
		}
	case len(line) == 0:
		var err error
		if s.hasData && !s.over {
			err = emit(bytes.TrimSuffix(s.data, []byte("\n")))
		}
		s.data, s.hasData, s.over = s.data[:0], false, false
		return err
	case hasDataField(line):
		v := bytes.TrimPrefix(line[len("data"):], []byte(":"))
		v = bytes.TrimPrefix(v, []byte(" "))
		if len(s.data)+len(v)+1 > max+1 {
			s.over = true
		} else if !s.over {
			s.data = append(append(s.data, v...), '\n')
		}
		s.hasData = true
	}
	return nil
}

// hasDataField reports whether an SSE line is a "data" field ("data" alone
// or followed by ":").
func hasDataField(line []byte) bool {
	return bytes.Equal(line, []byte("data")) || bytes.HasPrefix(line, []byte("data:"))
}
