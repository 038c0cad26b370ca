package otel

import (
	"context"
	"strings"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"
	"go.opentelemetry.io/otel/trace"
)

// maxMetaValueBytes bounds each trace-context value read from a peer's
// _meta; a longer value is ignored (a W3C traceparent is 55 bytes, a
// tracestate at most 32 members of a few hundred bytes).
const maxMetaValueBytes = 1024

// MCPServerMiddleware returns go-sdk middleware for an MCP server that
// serves reg's tools (a [github.com/toolnexus/toolnexus/mcp.Server] made
// from reg), following OpenTelemetry's MCP semantic conventions
// (https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/, semconv
// v1.41.0 mcpconv):
//
//   - Each request (not notifications) runs inside a SERVER span named
//     "{mcp.method.name} {target}" ("tools/call get_weather",
//     "initialize") with the attributes mcp.method.name, mcp.session.id
//     (when the transport has sessions), mcp.protocol.version (the
//     negotiated revision), gen_ai.tool.name and gen_ai.operation.name
//     "execute_tool" for tools/call, and error.type when it fails: the
//     JSON-RPC error's text for a protocol error, "tool_error" for a tool
//     result with isError. Its duration is recorded in the histogram
//     mcp.server.operation.duration (seconds) with the same attributes.
//   - A tools/call also runs an "execute_tool {tool name}" INTERNAL span
//     under it, with the attributes and metrics of [NewExecutor].
//   - The SERVER span's parent is the trace context the client put in the
//     request's params._meta ("traceparent" and "tracestate", as W3C
//     Trace Context defines them; values that are not strings, longer than
//     1024 bytes or malformed are ignored and the span starts a new trace).
//
// Install it with
//
//	srv.SDKServer().AddReceivingMiddleware(toolotel.MCPServerMiddleware(reg, nil))
//
// The go-sdk does not show middleware the JSON-RPC request id, so
// jsonrpc.request.id is not set, and MCP calls have no tool-call id, so
// gen_ai.tool.call.id is not either. For execute_tool, error.type is
// "unknown_tool" for a name reg does not have, "tool_error" for any other
// error result, and "_OTHER" when the request fails with a protocol error
// instead of a result. With [Options.RecordResults] the result attribute
// is the text of the result's text contents.
func MCPServerMiddleware(reg *toolnexus.Registry, o *Options) mcpsdk.Middleware {
	if reg == nil {
		reg = toolnexus.NewRegistry()
	}
	in := newInstruments(reg, o)
	var prop propagation.TextMapPropagator = propagation.TraceContext{}
	return func(next mcpsdk.MethodHandler) mcpsdk.MethodHandler {
		return func(ctx context.Context, method string, req mcpsdk.Request) (mcpsdk.Result, error) {
			if strings.HasPrefix(method, "notifications/") || req == nil || req.GetParams() == nil {
				return next(ctx, method, req)
			}
			params := req.GetParams()
			ctx = prop.Extract(ctx, metaCarrier(params.GetMeta()))
			attrs := []attribute.KeyValue{semconv.McpMethodNameKey.String(method)}
			if sess := req.GetSession(); sess != nil && sess.ID() != "" {
				attrs = append(attrs, semconv.McpSessionID(sess.ID()))
			}
			if v := protocolVersion(req); v != "" {
				attrs = append(attrs, semconv.McpProtocolVersion(v))
			}
			name := method
			p, isCall := params.(*mcpsdk.CallToolParamsRaw)
			if isCall && method == "tools/call" && p != nil {
				name += " " + p.Name
				attrs = append(attrs, semconv.GenAIToolName(p.Name), semconv.GenAIOperationNameExecuteTool)
			}
			start := time.Now()
			ctx, span := in.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
			defer span.End()
			var out mcpsdk.Result
			var err error
			if name != method {
				out, err = in.serve(ctx, p, func(ctx context.Context) (mcpsdk.Result, error) { return next(ctx, method, req) })
			} else {
				out, err = next(ctx, method, req)
			}
			errType := ""
			if err != nil {
				errType = cut(err.Error(), 256)
			} else if r, ok := out.(*mcpsdk.CallToolResult); ok && r != nil && r.IsError {
				errType = "tool_error"
			}
			if errType != "" {
				attrs = append(attrs, semconv.ErrorTypeKey.String(errType))
				span.SetAttributes(semconv.ErrorTypeKey.String(errType))
				span.SetStatus(codes.Error, errType)
			}
			in.opDuration.Record(ctx, time.Since(start).Seconds(), mcpconv.MethodNameAttr(method), attrs...)
			return out, err
		}
	}
}

// protocolVersion is the MCP revision of req's session: the one its
// initialize request asked for (the server answers with it when it
// supports it), or that of the initialize request itself.
func protocolVersion(req mcpsdk.Request) string {
	if p, ok := req.GetParams().(*mcpsdk.InitializeParams); ok && p != nil {
		return p.ProtocolVersion
	}
	if ss, ok := req.GetSession().(*mcpsdk.ServerSession); ok && ss != nil {
		if ip := ss.InitializeParams(); ip != nil {
			return ip.ProtocolVersion
		}
	}
	return ""
}

func (in *instruments) serve(ctx context.Context, p *mcpsdk.CallToolParamsRaw,
	next func(context.Context) (mcpsdk.Result, error)) (mcpsdk.Result, error) {
	start := time.Now()
	ctx, span := in.tracer.Start(ctx, "execute_tool", spanStartOptions...)
	defer span.End()
	finished := false
	defer func() {
		if !finished { // next panicked: record it and let the SDK handle the panic
			in.finish(ctx, span, p.Name, "", p.Arguments, toolnexus.Result{IsError: true}, "panic", start)
		}
	}()
	out, err := next(ctx)
	finished = true
	var res toolnexus.Result
	errType := ""
	switch r, _ := out.(*mcpsdk.CallToolResult); {
	case err != nil || r == nil:
		res.IsError, errType = true, "_OTHER"
	case r.IsError:
		res.IsError, errType = true, "tool_error"
		if _, known := in.reg.Get(p.Name); !known {
			errType = "unknown_tool"
		}
	default:
		var b strings.Builder
		for _, c := range r.Content {
			if t, ok := c.(*mcpsdk.TextContent); ok {
				b.WriteString(t.Text)
			}
		}
		res.Output = b.String()
	}
	in.finish(ctx, span, p.Name, "", p.Arguments, res, errType, start)
	return out, err
}

// MCPClientMiddleware returns go-sdk sending middleware for an MCP client,
// following OpenTelemetry's MCP conventions for clients: each request (not
// notifications) runs inside a CLIENT span named "{mcp.method.name}
// {target}" ("tools/call get_weather") with mcp.method.name,
// mcp.session.id (when the transport has sessions), mcp.protocol.version
// (once negotiated), gen_ai.tool.name and gen_ai.operation.name
// "execute_tool" for tools/call, and error.type when the request fails
// (the JSON-RPC error's text, or "tool_error" for a result with isError);
// its duration goes to the histogram mcp.client.operation.duration
// (seconds). The request carries the CLIENT span's trace context in
// params._meta as "traceparent" and "tracestate" (W3C Trace Context), so a
// server using [MCPServerMiddleware] continues the trace; keys already in
// _meta are kept (the params' Meta is replaced by a copy with the two
// keys added). o gives the providers as for [NewExecutor]; nil means the
// global ones. For the clients github.com/toolnexus/toolnexus/mcp's Load
// makes, put it in LoadOptions.ClientMiddleware:
//
//	servers := mcp.Load(ctx, cfg, &mcp.LoadOptions{
//		ClientMiddleware: []mcpsdk.Middleware{toolotel.MCPClientMiddleware(nil)}})
//
// and the loaded tools, run by an executor from [NewExecutor], nest the
// CLIENT span under their execute_tool span. On a client of your own:
//
//	client.AddSendingMiddleware(toolotel.MCPClientMiddleware(nil))
func MCPClientMiddleware(o *Options) mcpsdk.Middleware {
	in := newInstruments(toolnexus.NewRegistry(), o)
	prop := propagation.TraceContext{}
	return func(next mcpsdk.MethodHandler) mcpsdk.MethodHandler {
		return func(ctx context.Context, method string, req mcpsdk.Request) (mcpsdk.Result, error) {
			if strings.HasPrefix(method, "notifications/") || req == nil || req.GetParams() == nil {
				return next(ctx, method, req)
			}
			attrs := []attribute.KeyValue{semconv.McpMethodNameKey.String(method)}
			cs, _ := req.GetSession().(*mcpsdk.ClientSession)
			if cs != nil && cs.ID() != "" {
				attrs = append(attrs, semconv.McpSessionID(cs.ID()))
			}
			if cs != nil && cs.InitializeResult() != nil {
				attrs = append(attrs, semconv.McpProtocolVersion(cs.InitializeResult().ProtocolVersion))
			}
			name := method
			p, _ := req.GetParams().(*mcpsdk.CallToolParams)
			if method == "tools/call" && p != nil {
				name += " " + p.Name
				attrs = append(attrs, semconv.GenAIToolName(p.Name), semconv.GenAIOperationNameExecuteTool)
			}
			start := time.Now()
			ctx, span := in.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
			defer span.End()
			if p != nil {
				carrier := propagation.MapCarrier{}
				prop.Inject(ctx, carrier)
				if len(carrier) > 0 {
					meta := make(map[string]any, len(p.Meta)+len(carrier))
					for k, v := range p.Meta {
						meta[k] = v
					}
					for k, v := range carrier {
						meta[k] = v
					}
					p.SetMeta(meta)
				}
			}
			out, err := next(ctx, method, req)
			errType := ""
			if err != nil {
				errType = cut(err.Error(), 256)
			} else if r, ok := out.(*mcpsdk.CallToolResult); ok && r != nil && r.IsError {
				errType = "tool_error"
			}
			if errType != "" {
				attrs = append(attrs, semconv.ErrorTypeKey.String(errType))
				span.SetAttributes(semconv.ErrorTypeKey.String(errType))
				span.SetStatus(codes.Error, errType)
			}
			in.clientDuration.Record(ctx, time.Since(start).Seconds(), mcpconv.MethodNameAttr(method), attrs...)
			return out, err
		}
	}
}

// metaCarrier is a read-only TextMapCarrier over an MCP _meta object.
type metaCarrier map[string]any

func (m metaCarrier) Get(key string) string {
	s, _ := m[key].(string)
	if len(s) > maxMetaValueBytes {
		return ""
	}
	return s
}

func (m metaCarrier) Set(string, string) {}

func (m metaCarrier) Keys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}
