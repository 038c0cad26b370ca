package mcp

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus"
)

// metaServer is an in-memory MCP server with one tool, "meta", whose text
// result is the _meta of the tools/call request it got.
func metaServer(t *testing.T) mcpsdk.Transport {
	t.Helper()
	s := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "meta", Version: "1"}, nil)
	s.AddTool(&mcpsdk.Tool{Name: "meta", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
			b, err := json.Marshal(req.Params.Meta)
			if err != nil {
				return nil, err
			}
			return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: string(b)}}}, nil
		})
	ct, st := mcpsdk.NewInMemoryTransports()
	go s.Run(t.Context(), st)
	return ct
}

// LoadOptions.ClientMiddleware wraps every request the loaded clients
// send, the first outermost: what it puts in a tools/call's _meta reaches
// the server.
func TestLoadClientMiddleware(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	record := func(label string) mcpsdk.Middleware {
		return func(next mcpsdk.MethodHandler) mcpsdk.MethodHandler {
			return func(ctx context.Context, method string, req mcpsdk.Request) (mcpsdk.Result, error) {
				mu.Lock()
				seen = append(seen, label+" "+method)
				mu.Unlock()
				if p, ok := req.GetParams().(*mcpsdk.CallToolParams); ok && label == "outer" {
					p.SetMeta(map[string]any{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"})
				}
				return next(ctx, method, req)
			}
		}
	}
	cfg := &Config{Servers: map[string]ServerConfig{"s": {Transport: TransportStdio}}}
	servers := Load(t.Context(), cfg, &LoadOptions{
		ClientMiddleware: []mcpsdk.Middleware{record("outer"), record("inner")},
		Dial:             func(string) mcpsdk.Transport { return metaServer(t) },
	})
	defer servers.Close()
	reg := toolnexus.NewRegistry()
	if err := reg.Add(servers.Tools()...); err != nil {
		t.Fatal(err)
	}
	res := reg.Execute(t.Context(), "s_meta", nil)
	if want := `{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}`; res.IsError || res.Output != want {
		t.Errorf("result %+v, want %s", res, want)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, method := range []string{"tools/list", "tools/call"} {
		i, j := slices.Index(seen, "outer "+method), slices.Index(seen, "inner "+method)
		if i < 0 || j < 0 || i > j {
			t.Errorf("middleware calls %q: want outer then inner for %s", seen, method)
		}
	}
}
