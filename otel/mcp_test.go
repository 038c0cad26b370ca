package otel_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	"github.com/toolnexus/toolnexus/mcp"
	toolotel "github.com/toolnexus/toolnexus/otel"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

func TestMCPServerMiddlewareContinuesTheClientsTrace(t *testing.T) {
	r := newRig(t, nil, nil)
	srv := mcp.NewServer(r.reg, nil)
	t.Cleanup(func() { _ = srv.Close() })
	srv.SDKServer().AddReceivingMiddleware(toolotel.MCPServerMiddleware(r.reg, &toolotel.Options{
		TracerProvider: r.tp, MeterProvider: r.mp, RecordResults: true}))

	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	st, ct := mcpsdk.NewInMemoryTransports()
	go func() { _ = srv.Run(ctx, st) }()
	cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })

	const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "get_weather",
		Meta:      mcpsdk.Meta{"traceparent": traceparent, "tracestate": "vendor=1"},
		Arguments: map[string]any{"city": "Paris"}})
	require.NoError(t, err)
	require.False(t, res.IsError)

	srvSpan := r.span(t, "tools/call get_weather")
	assert.Equal(t, trace.SpanKindServer, srvSpan.SpanKind())
	assert.Equal(t, "4bf92f3577b34da6a3ce929d0e0e4736", srvSpan.SpanContext().TraceID().String())
	assert.Equal(t, "00f067aa0ba902b7", srvSpan.Parent().SpanID().String())
	assert.True(t, srvSpan.Parent().IsRemote())
	assert.Equal(t, map[string]any{
		"mcp.method.name":       "tools/call",
		"mcp.protocol.version":  srvAttr(srvSpan, "mcp.protocol.version"),
		"gen_ai.tool.name":      "get_weather",
		"gen_ai.operation.name": "execute_tool",
	}, attrs(srvSpan))
	assert.NotEmpty(t, srvAttr(srvSpan, "mcp.protocol.version"), "the negotiated revision")
	s := r.span(t, "execute_tool get_weather")
	assert.Equal(t, srvSpan.SpanContext().SpanID(), s.Parent().SpanID(), "execute_tool nests under the SERVER span")
	assert.Equal(t, "vendor=1", s.SpanContext().TraceState().String())
	assert.Equal(t, map[string]any{
		"gen_ai.operation.name":   "execute_tool",
		"gen_ai.tool.name":        "get_weather",
		"gen_ai.tool.type":        "function",
		"gen_ai.tool.call.result": `{"temp":18}`,
	}, attrs(s))
	assert.Equal(t, s.SpanContext().SpanID(), r.span(t, "lookup").Parent().SpanID(), "the handler's spans nest under execute_tool")

	r.spans.Reset()
	res, err = cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "get_weather",
		Meta:      mcpsdk.Meta{"traceparent": "00-zz-not-a-traceparent"},
		Arguments: map[string]any{"city": "Paris", "unit": "kelvin"}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	srvSpan = r.span(t, "tools/call get_weather")
	assert.False(t, srvSpan.Parent().IsValid(), "a malformed traceparent starts a new trace")
	assert.Equal(t, "tool_error", attrs(srvSpan)["error.type"])
	assert.Equal(t, codes.Error, srvSpan.Status().Code)
	s = r.span(t, "execute_tool get_weather")
	assert.Equal(t, "tool_error", attrs(s)["error.type"])
	assert.Equal(t, codes.Error, s.Status().Code)
	assert.NotContains(t, attrs(s), "gen_ai.tool.call.result")

	r.spans.Reset()
	_, err = cs.ListTools(ctx, nil)
	require.NoError(t, err)
	list := r.span(t, "tools/list")
	assert.Equal(t, trace.SpanKindServer, list.SpanKind())
	assert.Equal(t, "tools/list", attrs(list)["mcp.method.name"])
	assert.Len(t, r.spans.GetSpans(), 1, "no execute_tool span for other methods")

	calls, _ := r.points(t)
	assert.Equal(t, map[string]int64{"get_weather/native/false": 1, "get_weather/native/true": 1}, calls)
	assert.Equal(t, map[string]uint64{"tools/call/": 1, "tools/call/tool_error": 1, "tools/list/": 1, "server/discover/": 1},
		r.operations(t), "mcp.server.operation.duration by method and error.type")
}

func srvAttr(s sdktrace.ReadOnlySpan, key string) any { return attrs(s)[key] }

func TestMCPClientMiddlewareCarriesTheTrace(t *testing.T) {
	r := newRig(t, nil, nil)
	srv := mcp.NewServer(r.reg, nil)
	t.Cleanup(func() { _ = srv.Close() })
	srv.SDKServer().AddReceivingMiddleware(toolotel.MCPServerMiddleware(r.reg, &toolotel.Options{
		TracerProvider: r.tp, MeterProvider: r.mp}))

	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	st, ct := mcpsdk.NewInMemoryTransports()
	go func() { _ = srv.Run(ctx, st) }()
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test", Version: "1"}, nil)
	client.AddSendingMiddleware(toolotel.MCPClientMiddleware(&toolotel.Options{TracerProvider: r.tp, MeterProvider: r.mp}))
	cs, err := client.Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })

	callCtx, turn := r.tp.Tracer("test").Start(ctx, "agent turn")
	params := &mcpsdk.CallToolParams{Name: "remote_echo", Meta: mcpsdk.Meta{"progressToken": "p1"}}
	res, err := cs.CallTool(callCtx, params)
	turn.End()
	require.NoError(t, err)
	require.False(t, res.IsError)
	assert.Equal(t, "p1", params.Meta["progressToken"], "other _meta keys are kept")
	assert.Contains(t, params.Meta, "traceparent")

	caller := r.span(t, "agent turn")
	cli := r.spanOfKind(t, "tools/call remote_echo", trace.SpanKindClient)
	assert.Equal(t, caller.SpanContext().SpanID(), cli.Parent().SpanID(), "the CLIENT span is under the caller's")
	assert.Equal(t, "tools/call", attrs(cli)["mcp.method.name"])
	assert.Equal(t, "remote_echo", attrs(cli)["gen_ai.tool.name"])
	assert.NotEmpty(t, attrs(cli)["mcp.protocol.version"])
	s := r.spanOfKind(t, "tools/call remote_echo", trace.SpanKindServer)
	assert.Equal(t, caller.SpanContext().TraceID(), s.SpanContext().TraceID())
	assert.Equal(t, cli.SpanContext().SpanID(), s.Parent().SpanID())
	assert.True(t, s.Parent().IsRemote(), "the parent came over the wire")
	assert.Equal(t, "extension", attrs(r.span(t, "execute_tool remote_echo"))["gen_ai.tool.type"])
	assert.Equal(t, uint64(1), r.clientOperations(t)["tools/call/"], "mcp.client.operation.duration")

	r.spans.Reset()
	plain := &mcpsdk.CallToolParams{Name: "remote_echo"}
	_, err = cs.CallTool(ctx, plain)
	require.NoError(t, err)
	cli = r.spanOfKind(t, "tools/call remote_echo", trace.SpanKindClient)
	assert.False(t, cli.Parent().IsValid(), "no span in ctx: the CLIENT span starts the trace")
	assert.Equal(t, cli.SpanContext().SpanID(), r.spanOfKind(t, "tools/call remote_echo", trace.SpanKindServer).Parent().SpanID())
}

// Tools loaded with mcp.Load carry the trace across: the executor's
// execute_tool span for the loaded tool is the parent, over loopback HTTP,
// of the serving side's execute_tool span, through
// LoadOptions.ClientMiddleware and params._meta.
func TestLoadedToolsCarryTheTrace(t *testing.T) {
	r := newRig(t, nil, nil)
	upstream := mcp.NewServer(r.reg, nil)
	t.Cleanup(func() { _ = upstream.Close() })
	upstream.SDKServer().AddReceivingMiddleware(toolotel.MCPServerMiddleware(r.reg, &toolotel.Options{
		TracerProvider: r.tp, MeterProvider: r.mp}))
	hs := httptest.NewServer(upstream.Handler())
	t.Cleanup(hs.Close)

	cfg, err := mcp.ParseConfig([]byte(`{"mcpServers":{"up":{"url":"` + hs.URL + `"}}}`))
	require.NoError(t, err)
	servers := mcp.Load(t.Context(), cfg, &mcp.LoadOptions{
		ClientMiddleware: []mcpsdk.Middleware{toolotel.MCPClientMiddleware(&toolotel.Options{TracerProvider: r.tp, MeterProvider: r.mp})}})
	t.Cleanup(func() { _ = servers.Close() })
	require.NoError(t, servers.Err())
	local := toolnexus.NewRegistry()
	require.NoError(t, local.Add(servers.Tools()...))
	ex := toolotel.NewExecutor(local, nil, &toolotel.Options{TracerProvider: r.tp, MeterProvider: r.mp})

	res := ex.Run(t.Context(), exec.Call{ID: "call_1", Name: "up_get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)})
	require.False(t, res.IsError, res.Output)
	assert.Equal(t, `{"temp":18}`, res.Output)

	caller := r.span(t, "execute_tool up_get_weather")
	cli := r.spanOfKind(t, "tools/call get_weather", trace.SpanKindClient)
	assert.Equal(t, caller.SpanContext().SpanID(), cli.Parent().SpanID(), "the CLIENT span is under the loaded tool's span")
	served := r.spanOfKind(t, "tools/call get_weather", trace.SpanKindServer)
	assert.Equal(t, "extension", attrs(caller)["gen_ai.tool.type"])
	assert.Equal(t, "call_1", attrs(caller)["gen_ai.tool.call.id"])
	assert.Equal(t, caller.SpanContext().TraceID(), served.SpanContext().TraceID(), "one trace")
	assert.Equal(t, cli.SpanContext().SpanID(), served.Parent().SpanID(), "the CLIENT span is the served span's parent")
	assert.True(t, served.Parent().IsRemote(), "the parent came over the wire")
	assert.Equal(t, r.span(t, "execute_tool get_weather").SpanContext().SpanID(), r.span(t, "lookup").Parent().SpanID())
}
