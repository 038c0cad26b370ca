package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeServer is an MCP server in process that answers JSON-RPC by hand, so
// that it can misbehave in ways an SDK server cannot (duplicate keys in a
// schema, endless pages, a page that fails). It is an mcpsdk.Transport for
// one connection.
type fakeServer struct {
	// list answers tools/list for a cursor ("" for the first page): the
	// result's JSON, or a non-empty errMsg for a JSON-RPC error.
	list func(cursor string) (result, errMsg string)
	// call answers tools/call: the result's JSON. nil means {"content":[]}.
	call func(name string) string

	lists atomic.Int64 // tools/list calls answered

	mu   sync.Mutex
	conn *fakeConn
}

// toolsJSON returns a tools/list result of tools named prefix0..prefixN-1
// with an empty object schema, and nextCursor if non-empty.
func toolsJSON(prefix string, n int, nextCursor string) string {
	var b strings.Builder
	b.WriteString(`{"tools":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"%s%d","inputSchema":{"type":"object"}}`, prefix, i)
	}
	b.WriteString(`]`)
	if nextCursor != "" {
		fmt.Fprintf(&b, `,"nextCursor":%q`, nextCursor)
	}
	b.WriteString(`}`)
	return b.String()
}

func (f *fakeServer) Connect(context.Context) (mcpsdk.Connection, error) {
	c := &fakeConn{srv: f, out: make(chan []byte, 64), closed: make(chan struct{})}
	f.mu.Lock()
	f.conn = c
	f.mu.Unlock()
	return c, nil
}

// notify sends a notification (no params) to the client.
func (f *fakeServer) notify(method string) {
	f.mu.Lock()
	c := f.conn
	f.mu.Unlock()
	c.send(`{"jsonrpc":"2.0","method":"` + method + `"}`)
}

// hangUp closes the connection from the server's side.
func (f *fakeServer) hangUp() {
	f.mu.Lock()
	c := f.conn
	f.mu.Unlock()
	c.Close()
}

type fakeConn struct {
	srv    *fakeServer
	out    chan []byte
	closed chan struct{}
	once   sync.Once
}

func (c *fakeConn) send(msg string) {
	select {
	case c.out <- []byte(msg):
	case <-c.closed:
	}
}

func (c *fakeConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case b := <-c.out:
		return jsonrpc.DecodeMessage(b)
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *fakeConn) Write(_ context.Context, msg jsonrpc.Message) error {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.IsCall() {
		return nil
	}
	id, _ := json.Marshal(req.ID.Raw())
	var params struct {
		ProtocolVersion string `json:"protocolVersion"`
		Cursor          string `json:"cursor"`
		Name            string `json:"name"`
	}
	_ = json.Unmarshal(req.Params, &params)
	result, errMsg := "{}", ""
	switch req.Method {
	case "initialize":
		v, _ := json.Marshal(params.ProtocolVersion)
		result = `{"protocolVersion":` + string(v) + `,"capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"fake","version":"0"}}`
	case "tools/list":
		c.srv.lists.Add(1)
		result, errMsg = c.srv.list(params.Cursor)
	case "tools/call":
		result = `{"content":[]}`
		if c.srv.call != nil {
			result = c.srv.call(params.Name)
		}
	}
	if errMsg != "" {
		m, _ := json.Marshal(errMsg)
		c.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"error":{"code":-32603,"message":` + string(m) + `}}`)
	} else {
		c.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":` + result + `}`)
	}
	return nil
}

func (c *fakeConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

func (c *fakeConn) SessionID() string { return "" }

// loadFake loads one server named name spoken to through t (with options
// o, nil for the defaults).
func loadFake(ctx context.Context, name string, t mcpsdk.Transport, o *LoadOptions) *Servers {
	var opts LoadOptions
	if o != nil {
		opts = *o
	}
	opts.Dial = func(string) mcpsdk.Transport { return t }
	cfg := &Config{Servers: map[string]ServerConfig{name: {Transport: TransportStdio, Command: []string{"unused"}}}}
	return Load(ctx, cfg, &opts)
}
