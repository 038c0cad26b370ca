package mcp

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/mcp/internal/testserver"
)

// BenchmarkServeCall is one tools/call of a typed tool through the SDK
// client and a Server, over the in-memory transport.
func BenchmarkServeCall(b *testing.B) {
	ctx := context.Background()
	reg, err := testserver.NewRegistry()
	if err != nil {
		b.Fatal(err)
	}
	srv := NewServer(reg, nil)
	defer srv.Close()
	ct, st := mcpsdk.NewInMemoryTransports()
	if _, err := srv.SDKServer().Connect(ctx, st, nil); err != nil {
		b.Fatal(err)
	}
	cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	params := &mcpsdk.CallToolParams{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris","unit":"celsius"}`)}
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkLoadedCall is one Execute of a tool loaded from a local server
// process (stdio), through the registry.
func BenchmarkLoadedCall(b *testing.B) {
	ctx := context.Background()
	cfg, err := ParseConfig([]byte(`{"mcpServers":{"t":{"command":[` + strconv.Quote(mcptestBin) + `,"sdk"]}}}`))
	if err != nil {
		b.Fatal(err)
	}
	servers := Load(ctx, cfg, nil)
	defer servers.Close()
	reg := toolnexus.NewRegistry()
	if err := reg.Add(servers.Tools()...); err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"text":"hello"}`)
	b.ReportAllocs()
	for b.Loop() {
		if res := reg.Execute(ctx, "t_echo", args); res.IsError {
			b.Fatal(res.Output)
		}
	}
}

// BenchmarkToolNames names 1000 tools of 10 servers.
func BenchmarkToolNames(b *testing.B) {
	var refs []ToolRef
	for s := range 10 {
		for t := range 100 {
			refs = append(refs, ToolRef{Server: "server" + strconv.Itoa(s), Tool: "tool.number-" + strconv.Itoa(t)})
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		ToolNames(refs)
	}
}
