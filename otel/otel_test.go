package otel_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	toolotel "github.com/toolnexus/toolnexus/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

type weatherArgs struct {
	City string `json:"city" validate:"required"`
	Unit string `json:"unit,omitempty" validate:"omitempty,oneof=celsius fahrenheit"`
}

// rig is one registry with an instrumented executor and in-memory
// exporters.
type rig struct {
	spans  *tracetest.InMemoryExporter
	reader *sdkmetric.ManualReader
	tp     *sdktrace.TracerProvider
	mp     *sdkmetric.MeterProvider
	ex     *exec.Executor
	reg    *toolnexus.Registry
}

func newRig(t *testing.T, opts *exec.Options, o *toolotel.Options) *rig {
	t.Helper()
	r := &rig{spans: tracetest.NewInMemoryExporter(), reader: sdkmetric.NewManualReader(), reg: toolnexus.NewRegistry()}
	r.tp = sdktrace.NewTracerProvider(sdktrace.WithSyncer(r.spans))
	r.mp = sdkmetric.NewMeterProvider(sdkmetric.WithReader(r.reader))
	t.Cleanup(func() { _ = r.tp.Shutdown(context.Background()); _ = r.mp.Shutdown(context.Background()) })
	require.NoError(t, toolnexus.Register(r.reg, "get_weather", "Weather.",
		func(ctx context.Context, a weatherArgs) (string, error) {
			if a.City == "Atlantis" {
				return "", errors.New("no such city")
			}
			_, child := r.tp.Tracer("handler").Start(ctx, "lookup")
			child.End()
			return `{"temp":18}`, nil
		}))
	require.NoError(t, r.reg.Add(toolnexus.Tool{Name: "remote_echo", Source: "mcp",
		Handler: toolnexus.HandlerFunc(func(ctx context.Context, args json.RawMessage) (string, error) {
			return "echo", nil
		})}))
	require.NoError(t, r.reg.Add(toolnexus.Tool{Name: "slow", Timeout: 20 * time.Millisecond,
		Handler: toolnexus.HandlerFunc(func(ctx context.Context, args json.RawMessage) (string, error) {
			<-ctx.Done()
			return "", ctx.Err()
		})}))
	if o == nil {
		o = &toolotel.Options{}
	}
	o.TracerProvider, o.MeterProvider = r.tp, r.mp
	r.ex = toolotel.NewExecutor(r.reg, opts, o)
	return r
}

func (r *rig) span(t *testing.T, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	var found []tracetest.SpanStub
	for _, s := range r.spans.GetSpans() {
		if s.Name == name {
			found = append(found, s)
		}
	}
	require.Len(t, found, 1, "spans named %q", name)
	return found[0].Snapshot()
}

// spanOfKind is the one span of that name and kind.
func (r *rig) spanOfKind(t *testing.T, name string, kind trace.SpanKind) sdktrace.ReadOnlySpan {
	t.Helper()
	var found []tracetest.SpanStub
	for _, s := range r.spans.GetSpans() {
		if s.Name == name && s.SpanKind == kind {
			found = append(found, s)
		}
	}
	require.Len(t, found, 1, "spans named %q of kind %s", name, kind)
	return found[0].Snapshot()
}

func attrs(s sdktrace.ReadOnlySpan) map[string]any {
	m := map[string]any{}
	for _, kv := range s.Attributes() {
		m[string(kv.Key)] = kv.Value.AsInterface()
	}
	return m
}

// points returns the calls counter by "tool/source/is_error" and the
// histogram counts by the same key.
func (r *rig) points(t *testing.T) (calls map[string]int64, durations map[string]uint64) {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, r.reader.Collect(context.Background(), &rm))
	calls, durations = map[string]int64{}, map[string]uint64{}
	key := func(s attribute.Set) string {
		tool, _ := s.Value("tool")
		src, _ := s.Value("source")
		isErr, _ := s.Value("is_error")
		return tool.AsString() + "/" + src.AsString() + "/" + isErr.Emit()
	}
	for _, sm := range rm.ScopeMetrics {
		require.Equal(t, toolotel.ScopeName, sm.Scope.Name)
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				require.Equal(t, toolotel.MetricCalls, m.Name)
				require.Equal(t, "{call}", m.Unit)
				require.True(t, d.IsMonotonic)
				for _, p := range d.DataPoints {
					calls[key(p.Attributes)] = p.Value
				}
			case metricdata.Histogram[float64]:
				if strings.HasPrefix(m.Name, "mcp.") {
					continue // read by histogramCounts
				}
				require.Equal(t, toolotel.MetricDuration, m.Name)
				require.Equal(t, "s", m.Unit)
				for _, p := range d.DataPoints {
					durations[key(p.Attributes)] = p.Count
					require.Greater(t, p.Sum, 0.0)
				}
			default:
				t.Fatalf("unexpected metric %s %T", m.Name, m.Data)
			}
		}
	}
	return calls, durations
}

// operations counts the points of mcp.server.operation.duration by
// "method/error.type"; clientOperations those of
// mcp.client.operation.duration.
func (r *rig) operations(t *testing.T) map[string]uint64 {
	t.Helper()
	return r.histogramCounts(t, "mcp.server.operation.duration")
}

func (r *rig) clientOperations(t *testing.T) map[string]uint64 {
	t.Helper()
	return r.histogramCounts(t, "mcp.client.operation.duration")
}

func (r *rig) histogramCounts(t *testing.T, name string) map[string]uint64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, r.reader.Collect(context.Background(), &rm))
	out := map[string]uint64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if d, ok := m.Data.(metricdata.Histogram[float64]); ok && m.Name == name {
				require.Equal(t, "s", m.Unit)
				for _, p := range d.DataPoints {
					method, _ := p.Attributes.Value("mcp.method.name")
					errType, _ := p.Attributes.Value("error.type")
					out[method.AsString()+"/"+errType.AsString()] += p.Count
				}
			}
		}
	}
	return out
}

func TestSuccessSpanAndMetrics(t *testing.T) {
	r := newRig(t, nil, nil)
	ctx, parent := r.tp.Tracer("test").Start(context.Background(), "agent turn")
	res := r.ex.Run(ctx, exec.Call{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)})
	parent.End()
	require.False(t, res.IsError, res.Output)
	assert.Equal(t, `{"temp":18}`, res.Output)

	s := r.span(t, "execute_tool get_weather")
	assert.Equal(t, map[string]any{
		"gen_ai.operation.name": "execute_tool",
		"gen_ai.tool.name":      "get_weather",
		"gen_ai.tool.type":      "function",
		"gen_ai.tool.call.id":   "call_1",
	}, attrs(s))
	assert.Equal(t, codes.Unset, s.Status().Code)
	assert.Equal(t, trace.SpanKindInternal, s.SpanKind())
	assert.Equal(t, toolotel.ScopeName, s.InstrumentationScope().Name)
	assert.Equal(t, "agent turn", r.span(t, "agent turn").Name())
	assert.Equal(t, r.span(t, "agent turn").SpanContext().SpanID(), s.Parent().SpanID(), "child of the caller's span")
	assert.Equal(t, s.SpanContext().SpanID(), r.span(t, "lookup").Parent().SpanID(), "the handler's spans nest under execute_tool")

	calls, durations := r.points(t)
	assert.Equal(t, map[string]int64{"get_weather/native/false": 1}, calls)
	assert.Equal(t, map[string]uint64{"get_weather/native/false": 1}, durations)
}

func TestFailuresSetErrorType(t *testing.T) {
	r := newRig(t, nil, nil)
	results, err := r.ex.RunAll(context.Background(), []exec.Call{
		{ID: "a", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris","unit":"kelvin"}`)},
		{ID: "b", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Atlantis"}`)},
		{ID: "c", Name: "no_such_tool"},
		{ID: "d", Name: "slow"},
		{ID: "e", Name: "remote_echo"},
	})
	require.NoError(t, err)
	for i, res := range results[:4] {
		require.True(t, res.IsError, "call %d", i)
	}
	require.False(t, results[4].IsError)

	byID := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range r.spans.GetSpans().Snapshots() {
		for _, kv := range s.Attributes() {
			if kv.Key == "gen_ai.tool.call.id" {
				byID[kv.Value.AsString()] = s
			}
		}
	}
	require.Len(t, byID, 5)
	for id, want := range map[string]string{"a": "invalid_arguments", "b": "tool_error", "c": "unknown_tool", "d": "timeout"} {
		s := byID[id]
		assert.Equal(t, want, attrs(s)["error.type"], "call %s", id)
		assert.Equal(t, codes.Error, s.Status().Code, "call %s", id)
		assert.Equal(t, want, s.Status().Description, "call %s: the output is never the description", id)
	}
	assert.Equal(t, "execute_tool get_weather", byID["a"].Name())
	assert.Equal(t, "execute_tool", byID["c"].Name(), "an unknown name stays out of the span name")
	assert.Equal(t, "no_such_tool", attrs(byID["c"])["gen_ai.tool.name"])
	assert.Equal(t, "extension", attrs(byID["e"])["gen_ai.tool.type"])
	assert.Nil(t, attrs(byID["e"])["error.type"])
	assert.Equal(t, "execute_tool remote_echo", byID["e"].Name())

	calls, durations := r.points(t)
	want := map[string]int64{
		"get_weather/native/true": 2,
		"_OTHER//true":            1,
		"slow/native/true":        1,
		"remote_echo/mcp/false":   1,
	}
	assert.Equal(t, want, calls)
	assert.Equal(t, map[string]uint64{"get_weather/native/true": 2, "_OTHER//true": 1, "slow/native/true": 1,
		"remote_echo/mcp/false": 1}, durations)
}

func TestArgumentsAndResultsOnlyWhenAsked(t *testing.T) {
	r := newRig(t, nil, &toolotel.Options{RecordArguments: true, RecordResults: true, MaxAttributeBytes: 20})
	r.ex.Run(context.Background(), exec.Call{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)})
	r.ex.Run(context.Background(), exec.Call{Name: "remote_echo", Arguments: json.RawMessage(`{"text":"ééééééééééé"}`)})
	r.ex.Run(context.Background(), exec.Call{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Atlantis"}`)})

	spans := r.spans.GetSpans().Snapshots()
	require.Len(t, spans, 4) // three calls and the handler's "lookup"
	a := attrs(spans[1])
	assert.Equal(t, `{"city":"Paris"}`, a["gen_ai.tool.call.arguments"])
	assert.Equal(t, `{"temp":18}`, a["gen_ai.tool.call.result"], "a JSON output is recorded as is")
	assert.NotContains(t, a, "gen_ai.tool.call.id", "no id, no attribute")
	a = attrs(spans[2])
	assert.Equal(t, `{"text":"éééé…`, a["gen_ai.tool.call.arguments"], "cut at a rune boundary: 9+8+3 = 20 bytes")
	assert.Equal(t, `"echo"`, a["gen_ai.tool.call.result"], "a text output is recorded as a JSON string")
	a = attrs(spans[3])
	assert.Equal(t, `{"city":"Atlantis"}`, a["gen_ai.tool.call.arguments"])
	assert.NotContains(t, a, "gen_ai.tool.call.result", "no result attribute on failure")

	off := newRig(t, nil, nil)
	off.ex.Run(context.Background(), exec.Call{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)})
	a = attrs(off.span(t, "execute_tool get_weather"))
	assert.NotContains(t, a, "gen_ai.tool.call.arguments")
	assert.NotContains(t, a, "gen_ai.tool.call.result")
}

func TestUserHooksRunInsideTheSpan(t *testing.T) {
	var r *rig
	var sawSpan bool
	opts := &exec.Options{
		Before: func(ctx context.Context, call *exec.Call) *toolnexus.Result {
			sawSpan = strings.HasPrefix(spanName(ctx), "execute_tool")
			if call.Name == "remote_echo" {
				return &toolnexus.Result{Output: "denied", IsError: true}
			}
			if call.Name == "boom" {
				panic("hook bug")
			}
			return nil
		},
		After: func(ctx context.Context, call exec.Call, res *exec.Result) { res.Output += "!" },
	}
	r = newRig(t, opts, nil)
	res := r.ex.Run(context.Background(), exec.Call{ID: "x", Name: "remote_echo"})
	assert.True(t, sawSpan, "Before gets the span's context")
	assert.Equal(t, "denied!", res.Output)
	s := r.span(t, "execute_tool remote_echo")
	assert.Equal(t, "tool_error", attrs(s)["error.type"])

	res = r.ex.Run(context.Background(), exec.Call{ID: "y", Name: "boom"})
	assert.True(t, res.IsError)
	var he *exec.HookPanicError
	assert.ErrorAs(t, res.Err, &he)
	s = r.span(t, "execute_tool")
	assert.Equal(t, "panic", attrs(s)["error.type"])
	assert.Equal(t, "y", attrs(s)["gen_ai.tool.call.id"])

	calls, _ := r.points(t)
	assert.Equal(t, map[string]int64{"remote_echo/mcp/true": 1, "_OTHER//true": 1}, calls)
}

func spanName(ctx context.Context) string {
	s, ok := trace.SpanFromContext(ctx).(sdktrace.ReadOnlySpan)
	if !ok {
		return ""
	}
	return s.Name()
}

func TestErrorType(t *testing.T) {
	ae := &toolnexus.ArgumentError{Tool: "t", Rule: "required"}
	for want, res := range map[string]toolnexus.Result{
		"":                  {Output: "ok"},
		"tool_error":        {IsError: true},
		"unknown_tool":      {IsError: true, Err: toolnexus.ErrUnknownTool},
		"invalid_arguments": {IsError: true, Err: errors.Join(ae, ae)},
		"panic":             {IsError: true, Err: &toolnexus.PanicError{Tool: "t"}},
		"timeout":           {IsError: true, Err: context.DeadlineExceeded},
		"cancelled":         {IsError: true, Err: context.Canceled},
	} {
		assert.Equal(t, want, toolotel.ErrorType(res))
	}
}

func TestProviderRepliesCarryTheCallID(t *testing.T) {
	r := newRig(t, nil, nil)
	msgs, err := r.ex.OpenAIChatJSON(context.Background(), []byte(`{"role":"assistant","tool_calls":[
		{"id":"call_abc","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}},
		{"id":"call_def","type":"function","function":{"name":"remote_echo","arguments":"{}"}}]}`))
	require.NoError(t, err)
	require.Len(t, msgs, 2)
	assert.Equal(t, "call_abc", attrs(r.span(t, "execute_tool get_weather"))["gen_ai.tool.call.id"])
	assert.Equal(t, "call_def", attrs(r.span(t, "execute_tool remote_echo"))["gen_ai.tool.call.id"])
}

func TestDefaultAttributeCap(t *testing.T) {
	r := newRig(t, nil, &toolotel.Options{RecordArguments: true})
	long := `{"text":"` + strings.Repeat("a", 5000) + `"}`
	r.ex.Run(context.Background(), exec.Call{Name: "remote_echo", Arguments: json.RawMessage(long)})
	got := attrs(r.span(t, "execute_tool remote_echo"))["gen_ai.tool.call.arguments"].(string)
	assert.Equal(t, toolotel.DefaultMaxAttributeBytes, len(got))
	assert.Equal(t, long[:toolotel.DefaultMaxAttributeBytes-len("…")]+"…", got)

	r = newRig(t, nil, &toolotel.Options{RecordArguments: true, MaxAttributeBytes: -1})
	r.ex.Run(context.Background(), exec.Call{Name: "remote_echo", Arguments: json.RawMessage(long)})
	assert.Equal(t, long, attrs(r.span(t, "execute_tool remote_echo"))["gen_ai.tool.call.arguments"], "negative: no cap")
}
