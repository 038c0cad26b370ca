package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
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
	raw     map[string]json.RawMessage
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

func (s *schemaStore) get(name string) (json.RawMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.raw[name]
	return r, ok
}

// addResult records the schemas of a raw ListToolsResult.
func (s *schemaStore) addResult(result json.RawMessage) {
	var res struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if json.Unmarshal(result, &res) != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.raw == nil {
		s.raw = map[string]json.RawMessage{}
	}
	for _, t := range res.Tools {
		s.listed = append(s.listed, t.Name)
		if len(t.InputSchema) > 0 {
			var buf bytes.Buffer
			if json.Compact(&buf, t.InputSchema) == nil {
				s.raw[t.Name] = buf.Bytes()
			}
		}
	}
}

// addMessage records the schemas of a raw JSON-RPC message if it is the
// successful response to a tools/list call noted by expect.
func (s *schemaStore) addMessage(data []byte) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(data, &msg) != nil || len(msg.ID) == 0 {
		return
	}
	id := string(bytes.TrimSpace(msg.ID))
	s.mu.Lock()
	mine := s.pending[id]
	delete(s.pending, id)
	s.mu.Unlock()
	if mine && len(msg.Result) > 0 {
		s.addResult(msg.Result)
	}
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
		if mine && resp.Error == nil {
			c.store.addResult(resp.Result)
		}
	}
	return msg, err
}

// headerTransport adds configured headers to every request and captures
// the raw results of tools/list calls: from the response to the POST on
// streamable HTTP, from the GET event stream on the older SSE transport.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string // expanded values: secrets
	store   *schemaStore
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range t.headers {
			req.Header.Set(k, v)
		}
	}
	listing := false
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
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	sse := strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
	if listing || (req.Method == http.MethodGet && sse) {
		resp.Body = &captureBody{ReadCloser: resp.Body, sse: sse, store: t.store}
	}
	return resp, nil
}

// captureBody passes a response body through unchanged and records every
// complete JSON-RPC message in it before the reader gets its last byte, so
// the schemas are stored before the SDK can return from ListTools.
type captureBody struct {
	io.ReadCloser
	sse   bool
	store *schemaStore
	buf   []byte
}

const maxCapture = 64 << 20

func (b *captureBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if len(b.buf)+n <= maxCapture {
		b.buf = append(b.buf, p[:n]...)
	}
	if b.sse {
		b.events()
	} else if err == io.EOF {
		b.store.addMessage(b.buf)
		b.buf = nil
	}
	return n, err
}

// events consumes the complete SSE events in buf (each ends with a blank
// line) and records the data of each.
func (b *captureBody) events() {
	for {
		buf := bytes.ReplaceAll(b.buf, []byte("\r\n"), []byte("\n"))
		i := bytes.Index(buf, []byte("\n\n"))
		if i < 0 {
			b.buf = buf
			return
		}
		var data bytes.Buffer
		sc := bufio.NewScanner(bytes.NewReader(buf[:i]))
		sc.Buffer(nil, maxCapture)
		for sc.Scan() {
			if rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("data:")); ok {
				data.Write(bytes.TrimPrefix(rest, []byte(" ")))
				data.WriteByte('\n')
			}
		}
		if data.Len() > 0 {
			b.store.addMessage(data.Bytes())
		}
		b.buf = buf[i+2:]
	}
}
