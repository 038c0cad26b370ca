// Package otel adds OpenTelemetry traces and metrics to toolnexus tool
// calls. It is a module of its own (github.com/toolnexus/toolnexus/otel) so
// that the core module does not depend on OpenTelemetry; import it under a
// name of your choice, for example toolotel, since it shares its name with
// go.opentelemetry.io/otel.
//
// [NewExecutor] builds an [exec.Executor] that runs each call inside one
// span named "execute_tool {tool name}" (OpenTelemetry GenAI semantic
// conventions, semconv v1.41.0) and records two metrics. The span is the
// parent of anything the tool's handler traces, since the handler runs with
// the span's context. An [exec.Options] Before hook runs inside the span too.
//
// For MCP, following OpenTelemetry's MCP conventions, [MCPServerMiddleware]
// gives each served request a SERVER span (and tools/call the
// execute_tool span and metrics under it), continuing the trace context
// the client put in params._meta, and [MCPClientMiddleware] gives each
// request of a go-sdk client a CLIENT span whose context it puts there
// (for tools loaded with github.com/toolnexus/toolnexus/mcp, through
// LoadOptions.ClientMiddleware).
//
// Span attributes, always: gen_ai.operation.name ("execute_tool"),
// gen_ai.tool.name, gen_ai.tool.type ("extension" for tools whose Source is
// "mcp", "function" otherwise), gen_ai.tool.call.id (when the call has an
// id) and, on failure, error.type (see [ErrorType]) with span status Error,
// whose description is the error type only: a tool's output may carry
// secrets and is never put on a span unless asked for. Only when opted in
// ([Options.RecordArguments], [Options.RecordResults]):
// gen_ai.tool.call.arguments (the arguments as received) and
// gen_ai.tool.call.result (the Output; a JSON string unless it is JSON), cut to
// [Options.MaxAttributeBytes].
//
// Metrics (the original toolnexus's toolnexus_tool_calls_total and its
// duration histogram):
//
//   - toolnexus.tool.calls, an Int64Counter, unit "{call}", one per call
//   - toolnexus.tool.duration, a Float64Histogram, unit "s", the time from
//     the start of the span to its end
//
// both with the attributes tool (the tool name; "_OTHER" for a name the
// registry does not know, so a model cannot grow the number of series),
// source (the tool's Source; "" for unknown tools) and is_error (bool).
package otel

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	global "go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope name of the tracer and meter.
const ScopeName = "github.com/toolnexus/toolnexus/otel"

// DefaultMaxAttributeBytes is the default of [Options.MaxAttributeBytes].
const DefaultMaxAttributeBytes = 4096

// Metric names; see the package doc for their units and attributes.
const (
	MetricCalls    = "toolnexus.tool.calls"
	MetricDuration = "toolnexus.tool.duration"
)

// Options configure the instrumentation. A nil *Options means the defaults:
// the global tracer and meter providers, no arguments and no results on
// spans.
type Options struct {
	// TracerProvider makes the tracer; nil means otel.GetTracerProvider().
	TracerProvider trace.TracerProvider

	// MeterProvider makes the meter; nil means otel.GetMeterProvider().
	MeterProvider metric.MeterProvider

	// RecordArguments puts the call's arguments on the span as
	// gen_ai.tool.call.arguments. Off by default: arguments may carry
	// secrets.
	RecordArguments bool

	// RecordResults puts the result's Output on the span as
	// gen_ai.tool.call.result (successful calls only, as the convention
	// says). Off by default: outputs may carry secrets.
	RecordResults bool

	// MaxAttributeBytes caps each recorded argument or result attribute,
	// in bytes; a longer value is cut at a UTF-8 boundary and ends with
	// "…". Zero means DefaultMaxAttributeBytes (4096); negative means no
	// cap.
	MaxAttributeBytes int
}

// spanStartOptions start every execute_tool span; finish names it after
// the tool once the tool is known.
var spanStartOptions = []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindInternal),
	trace.WithAttributes(semconv.GenAIOperationNameExecuteTool)}

// instruments is what one NewExecutor shares between its calls.
type instruments struct {
	reg      *toolnexus.Registry
	tracer   trace.Tracer
	calls    metric.Int64Counter
	duration metric.Float64Histogram
	// opDuration and clientDuration are mcp.server.operation.duration and
	// mcp.client.operation.duration, for the MCP middleware.
	opDuration     mcpconv.ServerOperationDuration
	clientDuration mcpconv.ClientOperationDuration
	opts           Options
	sets           sync.Map // setKey -> metric.MeasurementOption
	nsets          atomic.Int64
}

func newInstruments(reg *toolnexus.Registry, o *Options) *instruments {
	in := &instruments{reg: reg}
	if o != nil {
		in.opts = *o
	}
	tp, mp := in.opts.TracerProvider, in.opts.MeterProvider
	if tp == nil {
		tp = global.GetTracerProvider()
	}
	if mp == nil {
		mp = global.GetMeterProvider()
	}
	if in.opts.MaxAttributeBytes == 0 {
		in.opts.MaxAttributeBytes = DefaultMaxAttributeBytes
	}
	in.tracer = tp.Tracer(ScopeName)
	meter := mp.Meter(ScopeName)
	// The API returns a working no-op instrument along with any error
	// (an invalid name or unit, which ours are not); errors go to the
	// global handler as the API asks.
	var err error
	in.calls, err = meter.Int64Counter(MetricCalls, metric.WithUnit("{call}"),
		metric.WithDescription("Tool calls by tool, source and outcome."))
	if err != nil {
		global.Handle(err)
	}
	in.duration, err = meter.Float64Histogram(MetricDuration, metric.WithUnit("s"),
		metric.WithDescription("Duration of tool calls."))
	if err != nil {
		global.Handle(err)
	}
	if in.opDuration, err = mcpconv.NewServerOperationDuration(meter); err != nil {
		global.Handle(err)
	}
	if in.clientDuration, err = mcpconv.NewClientOperationDuration(meter); err != nil {
		global.Handle(err)
	}
	return in
}

// NewExecutor returns exec.New(reg, o), where o is a copy of opts (nil
// means the defaults) whose Before hook runs each call inside an
// "execute_tool {tool name}" span and records the metrics: the span starts,
// opts.Before (if any) runs with the span's context, then, unless it
// answered, reg.Execute runs the tool with that context; the span ends
// with the result. The executor's other behaviour (concurrency, timeouts,
// After, Logger) is opts's. Calls that never start (a cancelled batch) and
// malformed provider calls get no span: no hook sees them.
func NewExecutor(reg *toolnexus.Registry, opts *exec.Options, o *Options) *exec.Executor {
	if reg == nil {
		reg = toolnexus.NewRegistry()
	}
	var eo exec.Options
	if opts != nil {
		eo = *opts
	}
	in := newInstruments(reg, o)
	next := eo.Before
	eo.Before = func(ctx context.Context, call *exec.Call) *toolnexus.Result {
		res := in.run(ctx, call, next)
		return &res
	}
	return exec.New(reg, &eo)
}

// run executes one call inside its span. A panic in next is recorded and
// passed on, so the executor turns it into its usual error result.
func (in *instruments) run(ctx context.Context, call *exec.Call,
	next func(context.Context, *exec.Call) *toolnexus.Result) (res toolnexus.Result) {
	start := time.Now()
	ctx, span := in.tracer.Start(ctx, "execute_tool", spanStartOptions...)
	defer span.End()
	finished := false
	defer func() {
		if !finished { // next panicked or called runtime.Goexit
			in.finish(ctx, span, call.Name, call.ID, call.Arguments, toolnexus.Result{IsError: true}, "panic", start)
		}
	}()
	var answer *toolnexus.Result
	if next != nil {
		answer = next(ctx, call)
	}
	if answer != nil {
		res = *answer
	} else {
		res = in.reg.Execute(ctx, call.Name, call.Arguments)
	}
	finished = true
	in.finish(ctx, span, call.Name, call.ID, call.Arguments, res, ErrorType(res), start)
	return res
}

// finish sets the span's name and attributes and records the metrics for
// the call of tool name (with id and args, as the tool got them).
func (in *instruments) finish(ctx context.Context, span trace.Span, name, id string, args json.RawMessage,
	res toolnexus.Result, errType string, start time.Time) {
	tool, ok := in.reg.Get(name)
	source := tool.Source
	typ := "function"
	if source == "mcp" {
		typ = "extension"
	}
	metricTool := name
	if !ok {
		name, metricTool = cut(name, 64), "_OTHER" // a model's invented name: bounded
	}
	if res.IsError {
		span.SetStatus(codes.Error, errType)
	}
	if span.IsRecording() {
		if ok {
			span.SetName("execute_tool " + name)
		}
		attrs := make([]attribute.KeyValue, 0, 6)
		attrs = append(attrs, semconv.GenAIToolName(name), semconv.GenAIToolTypeKey.String(typ))
		if id != "" {
			attrs = append(attrs, semconv.GenAIToolCallID(cut(id, 256)))
		}
		if in.opts.RecordArguments {
			attrs = append(attrs, semconv.GenAIToolCallArgumentsKey.String(in.cap(string(args))))
		}
		if res.IsError {
			attrs = append(attrs, semconv.ErrorTypeKey.String(errType))
		} else if in.opts.RecordResults {
			attrs = append(attrs, semconv.GenAIToolCallResultKey.String(in.cap(resultJSON(res.Output))))
		}
		span.SetAttributes(attrs...)
	}
	set := in.metricAttrs(metricTool, source, res.IsError)
	in.calls.Add(ctx, 1, set)
	in.duration.Record(ctx, time.Since(start).Seconds(), set)
}

// maxCachedSets bounds the cache of metric attribute sets; past it, sets
// are built per call.
const maxCachedSets = 4096

type setKey struct {
	tool, source string
	isError      bool
}

// metricAttrs returns the measurement option for one tool, source and
// outcome, built once per combination (up to maxCachedSets).
func (in *instruments) metricAttrs(tool, source string, isError bool) metric.MeasurementOption {
	k := setKey{tool, source, isError}
	if v, ok := in.sets.Load(k); ok {
		return v.(metric.MeasurementOption)
	}
	opt := metric.WithAttributeSet(attribute.NewSet(
		attribute.String("tool", tool),
		attribute.String("source", source),
		attribute.Bool("is_error", isError)))
	if in.nsets.Load() < maxCachedSets {
		if _, loaded := in.sets.LoadOrStore(k, opt); !loaded {
			in.nsets.Add(1)
		}
	}
	return opt
}

// resultJSON is the Output as JSON text: itself when it is JSON already,
// else a JSON string.
func resultJSON(s string) string {
	if json.Valid([]byte(s)) {
		return s
	}
	b, _ := json.Marshal(s)
	return string(b)
}

func (in *instruments) cap(s string) string {
	if in.opts.MaxAttributeBytes < 0 {
		return s
	}
	return cut(s, in.opts.MaxAttributeBytes)
}

// cut returns s when it is valid UTF-8 of at most n bytes; otherwise s with
// each invalid byte replaced by U+FFFD, cut at a rune boundary so that the
// result, with "…" (3 bytes) appended when anything was left out, has at
// most max(n, 3) bytes. It reads at most n bytes' worth of s.
func cut(s string, n int) string {
	if len(s) <= n && utf8.ValidString(s) {
		return s
	}
	if out, all := validPrefix(s, n); all {
		return out
	}
	out, _ := validPrefix(s, max(n-len("…"), 0))
	return out + "…"
}

// validPrefix returns the longest prefix of s, invalid bytes replaced by
// U+FFFD, that fits in limit bytes, and whether it holds all of s.
func validPrefix(s string, limit int) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		piece := s[i : i+size]
		if r == utf8.RuneError && size == 1 {
			piece = "\uFFFD"
		}
		if b.Len()+len(piece) > limit {
			return b.String(), false
		}
		b.WriteString(piece)
		i += size
	}
	return b.String(), true
}

// ErrorType is the error.type attribute of a result: [exec.ErrorKind]
// ("unknown_tool", "invalid_arguments", "panic", "timeout", "cancelled",
// "tool_error", and for exec's own failures "not_started",
// "malformed_call", "goexit"); "" for a successful result.
func ErrorType(r toolnexus.Result) string { return exec.ErrorKind(r) }
