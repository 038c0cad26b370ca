package exec_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

// TestAfterCannotChangeIDOrName: an After hook that rewrites res.ID and
// res.Name changes neither the Result nor the id/name each provider's
// answer carries; its other changes stay.
func TestAfterCannotChangeIDOrName(t *testing.T) {
	e := exec.New(testRegistry(t), &exec.Options{
		After: func(ctx context.Context, c exec.Call, r *exec.Result) {
			r.ID, r.Name = "zzz", "other"
			r.Output = "after:" + r.Output
		},
	})
	ctx := context.Background()

	res, err := e.RunAll(ctx, []exec.Call{{ID: "c1", Name: "echo", Arguments: json.RawMessage(`{"a":1}`)}})
	if err != nil || res[0].ID != "c1" || res[0].Name != "echo" || res[0].Output != `after:{"a":1}` {
		t.Errorf("RunAll = %+v, %v", res, err)
	}
	if r := e.Run(ctx, exec.Call{ID: "c2", Name: "echo"}); r.ID != "c2" || r.Name != "echo" {
		t.Errorf("Run = %+v", r)
	}

	chat, err := e.OpenAIChatJSON(ctx, []byte(`[{"id":"call_1","type":"function","function":{"name":"echo","arguments":"{}"}}]`))
	if got := mustJSON(t, chat); err != nil || got != `[{"role":"tool","tool_call_id":"call_1","content":"after:{}"}]` {
		t.Errorf("chat = %s, %v", got, err)
	}
	resp, err := e.ResponsesJSON(ctx, []byte(`[{"type":"function_call","call_id":"call_2","name":"echo","arguments":"{}"}]`))
	if got := mustJSON(t, resp); err != nil || got != `[{"type":"function_call_output","call_id":"call_2","output":"after:{}"}]` {
		t.Errorf("responses = %s, %v", got, err)
	}
	ant, err := e.AnthropicJSON(ctx, []byte(`[{"type":"tool_use","id":"toolu_3","name":"echo","input":{}}]`))
	if got := mustJSON(t, ant); err != nil || got != `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_3","content":"after:{}"}]}` {
		t.Errorf("anthropic = %s, %v", got, err)
	}
	gem, err := e.GeminiJSON(ctx, []byte(`[{"functionCall":{"id":"fc_4","name":"echo","args":{}}}]`))
	if got := mustJSON(t, gem); err != nil || got != `{"role":"user","parts":[{"functionResponse":{"id":"fc_4","name":"echo","response":{"output":"after:{}"}}}]}` {
		t.Errorf("gemini = %s, %v", got, err)
	}
}

// goexitRegistry is testRegistry plus exit_handler, whose handler calls
// runtime.Goexit (as t.FailNow would on a goroutine that is not the
// test's).
func goexitRegistry(t *testing.T) *toolnexus.Registry {
	reg := testRegistry(t)
	if err := reg.Add(toolnexus.Tool{Name: "exit_handler", Handler: toolnexus.HandlerFunc(
		func(ctx context.Context, args json.RawMessage) (string, error) {
			runtime.Goexit()
			return "unreachable", nil
		})}); err != nil {
		t.Fatal(err)
	}
	return reg
}

// goexitHooks call runtime.Goexit in Before for tool exit_before and in
// After for tool exit_after (both then route to echo).
func goexitHooks(o *exec.Options) *exec.Options {
	o.Before = func(ctx context.Context, c *exec.Call) *toolnexus.Result {
		switch c.Name {
		case "exit_before":
			runtime.Goexit()
		case "exit_after":
			c.Name = "echo"
		}
		return nil
	}
	o.After = func(ctx context.Context, c exec.Call, r *exec.Result) {
		if r.Name == "exit_after" {
			runtime.Goexit()
		}
	}
	return o
}

// runOffTest runs f on its own goroutine and fails the test if it does
// not return within 10 s (so a Goexit that ends the goroutine running
// RunAll is reported rather than ending the test goroutine).
func runOffTest(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second): // a hang detector: generous for a loaded machine
		t.Fatal("RunAll did not return")
	}
}

// TestGoexit: runtime.Goexit in Before, in After or in the handler (with
// and without a context the registry watches) costs only that call:
// every call gets exactly one result with its own id, RunAll returns, and
// the calls after it still run. Every Concurrency but 1 is checked (1
// runs on the caller's goroutine, documented).
func TestGoexit(t *testing.T) {
	names := []string{"echo", "exit_before", "echo", "exit_handler", "exit_after", "echo", "exit_handler", "echo", "exit_before", "echo"}
	calls := make([]exec.Call, len(names))
	for i, n := range names {
		calls[i] = exec.Call{ID: fmt.Sprintf("id%d", i), Name: n, Arguments: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i))}
	}
	cancelled, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, conc := range []int{0, 2, 3, 8, -1} {
		for ctxName, ctx := range map[string]context.Context{"background": context.Background(), "cancellable": cancelled} {
			t.Run(fmt.Sprintf("conc%d/%s", conc, ctxName), func(t *testing.T) {
				e := exec.New(goexitRegistry(t), goexitHooks(&exec.Options{Concurrency: conc}))
				var res []exec.Result
				var err error
				runOffTest(t, func() { res, err = e.RunAll(ctx, calls) })
				if err != nil || len(res) != len(calls) {
					t.Fatalf("RunAll: %d results, %v", len(res), err)
				}
				for i, r := range res {
					if r.ID != calls[i].ID || r.Name != names[i] {
						t.Errorf("result %d: id %q name %q, want %q %q", i, r.ID, r.Name, calls[i].ID, names[i])
					}
					switch names[i] {
					case "echo":
						if r.IsError || r.Output != fmt.Sprintf(`{"i":%d}`, i) {
							t.Errorf("result %d = %q %v", i, r.Output, r.IsError)
						}
					default:
						// The model's name, also for exit_after, which
						// Before routed to echo.
						want := fmt.Sprintf("tool %q failed: internal error", names[i])
						if !r.IsError || r.Output != want {
							t.Errorf("result %d = %q %v, want %q", i, r.Output, r.IsError, want)
						}
						// A handler Goexit under a context the registry
						// watches is caught by the registry itself.
						if names[i] != "exit_handler" || ctxName == "background" {
							if !errors.Is(r.Err, exec.ErrGoexit) {
								t.Errorf("result %d: Err = %v, want ErrGoexit", i, r.Err)
							}
						}
					}
				}
			})
		}
	}

	// A batch of one call with the default concurrency does not run on the
	// caller's goroutine either.
	e := exec.New(goexitRegistry(t), goexitHooks(&exec.Options{}))
	var msgs []exec.OpenAIToolMessage
	var err error
	runOffTest(t, func() {
		msgs, err = e.OpenAIChatJSON(context.Background(), []byte(`[{"id":"only","type":"function","function":{"name":"exit_before","arguments":"{}"}}]`))
	})
	if got := mustJSON(t, msgs); err != nil || got != `[{"role":"tool","tool_call_id":"only","content":"error: tool \"exit_before\" failed: internal error"}]` {
		t.Errorf("chat = %s, %v", got, err)
	}
}

// TestGoexitConcurrency1: with Concurrency 1 the calls run on the caller's
// goroutine, so a Goexit ends it and RunAll does not return (documented);
// the calls before it did run.
func TestGoexitConcurrency1(t *testing.T) {
	var ran []string
	e := exec.New(testRegistry(t), &exec.Options{Concurrency: 1,
		Before: func(ctx context.Context, c *exec.Call) *toolnexus.Result {
			if c.Name == "exit_before" {
				runtime.Goexit()
			}
			return nil
		},
		After: func(ctx context.Context, c exec.Call, r *exec.Result) { ran = append(ran, r.ID) },
	})
	returned := make(chan bool, 2)
	go func() {
		defer func() { returned <- false }()
		e.RunAll(context.Background(), []exec.Call{{ID: "a", Name: "echo"}, {ID: "b", Name: "exit_before"}, {ID: "c", Name: "echo"}})
		returned <- true
	}()
	if <-returned {
		t.Fatal("RunAll returned after a Goexit on the caller's goroutine")
	}
	if len(ran) != 1 || ran[0] != "a" {
		t.Errorf("calls finished before the Goexit: %v", ran)
	}
}

// TestZeroExecutor: the zero Executor behaves like New(nil, nil).
func TestZeroExecutor(t *testing.T) {
	var e exec.Executor
	ctx := context.Background()
	r := e.Run(ctx, exec.Call{ID: "x", Name: "get_weather"})
	if r.ID != "x" || !r.IsError || r.Output != `unknown tool "get_weather"; available tools: none` || !errors.Is(r.Err, toolnexus.ErrUnknownTool) {
		t.Errorf("Run = %+v", r)
	}
	msgs, err := e.OpenAIChatJSON(ctx, []byte(`[{"id":"a","type":"function","function":{"name":"x","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"y","arguments":"{}"}}]`))
	if got := mustJSON(t, msgs); err != nil || got != `[{"role":"tool","tool_call_id":"a","content":"error: unknown tool \"x\"; available tools: none"},{"role":"tool","tool_call_id":"b","content":"error: unknown tool \"y\"; available tools: none"}]` {
		t.Errorf("chat = %s, %v", got, err)
	}
	var zp *exec.Executor = new(exec.Executor)
	res, err := zp.RunAll(ctx, []exec.Call{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}, {Name: "e"}})
	if err != nil || len(res) != 5 || res[4].Output != `unknown tool "e"; available tools: none` {
		t.Errorf("RunAll = %+v, %v", res, err)
	}
}

// TestMalformedCallIsolated: the reply from the review, one good call and
// one whose arguments are an object, plus calls with a numeric id, a
// numeric name or arguments that are a number: every call is answered, a
// wrongly typed field costs only its own call (no hook, no tool, error
// kind malformed_call, Err wrapping ErrMalformedCall), and an object as
// arguments is accepted.
func TestMalformedCallIsolated(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == "duration" {
				return slog.Attr{}
			}
			return a
		},
	}))
	var hooked atomic.Int64
	e := exec.New(testRegistry(t), &exec.Options{Logger: logger, Concurrency: 1,
		Before: func(ctx context.Context, c *exec.Call) *toolnexus.Result { hooked.Add(1); return nil },
		After:  func(ctx context.Context, c exec.Call, r *exec.Result) { hooked.Add(100) },
	})
	ctx := context.Background()
	raw := `{"role":"assistant","tool_calls":[` +
		`{"id":"ok1","type":"function","function":{"name":"echo","arguments":"{\"city\":\"a\"}"}},` +
		`{"id":"bad","type":"function","function":{"name":"echo","arguments":{"a":1}}},` +
		`{"id":"num","type":"function","function":{"name":"echo","arguments":5}},` +
		`{"id":7,"type":"function","function":{"name":"echo","arguments":"{}"}}]}`
	msgs, err := e.OpenAIChatJSON(ctx, []byte(raw))
	want := `[{"role":"tool","tool_call_id":"ok1","content":"{\"city\":\"a\"}"},` +
		`{"role":"tool","tool_call_id":"bad","content":"{\"a\":1}"},` +
		`{"role":"tool","tool_call_id":"num","content":"error: the tool call could not be read: \"function.arguments\" is a number, want a string holding a JSON object"},` +
		`{"role":"tool","tool_call_id":"7","content":"error: the tool call could not be read: \"id\" is a number, want a string"}]`
	if got := mustJSON(t, msgs); err != nil || got != want {
		t.Errorf("chat:\n%s (%v)\nwant:\n%s", got, err, want)
	}
	if n := hooked.Load(); n != 202 {
		t.Errorf("hooks ran %d (Before count + 100 x After count), want 202: only the two readable calls", n)
	}
	wantLog := `{"level":"INFO","msg":"tool call","tool":"echo","call_id":"ok1","is_error":false}
{"level":"INFO","msg":"tool call","tool":"echo","call_id":"bad","is_error":false}
{"level":"WARN","msg":"tool call","tool":"echo","call_id":"num","is_error":true,"error_kind":"malformed_call"}
{"level":"WARN","msg":"tool call","tool":"echo","call_id":"7","is_error":true,"error_kind":"malformed_call"}
`
	if buf.String() != wantLog {
		t.Errorf("log:\n%s\nwant:\n%s", buf.String(), wantLog)
	}

	// The structs fill the same way with plain json.Unmarshal.
	var calls []exec.OpenAIToolCall
	if err := json.Unmarshal([]byte(`[{"id":7,"function":{"name":"echo","arguments":{"a":1}}}]`), &calls); err != nil ||
		len(calls) != 1 || calls[0].ID != "7" || calls[0].Function.Arguments != `{"a":1}` {
		t.Errorf("json.Unmarshal = %+v, %v", calls, err)
	}

	// Anthropic numeric name, Gemini numeric id, Responses object arguments.
	ant, err := e.AnthropicJSON(ctx, []byte(`[{"type":"tool_use","id":"t1","name":5,"input":{}},{"type":"tool_use","id":"t2","name":"echo","input":{"b":2}}]`))
	if got := mustJSON(t, ant); err != nil || got != `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"the tool call could not be read: \"name\" is a number, want a string","is_error":true},{"type":"tool_result","tool_use_id":"t2","content":"{\"b\":2}"}]}` {
		t.Errorf("anthropic = %s, %v", got, err)
	}
	gem, err := e.GeminiJSON(ctx, []byte(`[{"functionCall":{"id":5,"name":"echo","args":{}}},{"functionCall":{"id":"g2","name":"echo","args":{"c":3}}}]`))
	if got := mustJSON(t, gem); err != nil || got != `{"role":"user","parts":[{"functionResponse":{"id":"5","name":"echo","response":{"error":"the tool call could not be read: \"functionCall.id\" is a number, want a string"}}},{"functionResponse":{"id":"g2","name":"echo","response":{"output":"{\"c\":3}"}}}]}` {
		t.Errorf("gemini = %s, %v", got, err)
	}
	resp, err := e.ResponsesJSON(ctx, []byte(`[{"type":"function_call","call_id":"r1","name":"echo","arguments":{"d":4}},{"type":"function_call","call_id":"r2","name":"echo","arguments":true}]`))
	if got := mustJSON(t, resp); err != nil || got != `[{"type":"function_call_output","call_id":"r1","output":"{\"d\":4}"},{"type":"function_call_output","call_id":"r2","output":"error: the tool call could not be read: \"arguments\" is a boolean, want a string holding a JSON object"}]` {
		t.Errorf("responses = %s, %v", got, err)
	}
}

// TestMalformedEnvelope: what is not the expected top-level shape still
// fails the whole batch, with no messages.
func TestMalformedEnvelope(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	ctx := context.Background()
	for _, raw := range []string{`{"tool_calls":5}`, `{"choices":[5]}`, `{"choices":[{"message":"x"}]}`, `{"role":5,"tool_calls":[]}`, `{"tool_calls":[{"id":"a"}`} {
		if msgs, err := e.OpenAIChatJSON(ctx, []byte(raw)); err == nil || msgs != nil {
			t.Errorf("chat %s: %v, %v", raw, msgs, err)
		}
	}
	for _, raw := range []string{`{"output":{}}`, `{"output":"x"}`, `[1,`} {
		if out, err := e.ResponsesJSON(ctx, []byte(raw)); err == nil || out != nil {
			t.Errorf("responses %s: %v, %v", raw, out, err)
		}
	}
	for _, raw := range []string{`{"content":5}`, `{"content":{"type":"tool_use"}}`, `nul`} {
		if msg, err := e.AnthropicJSON(ctx, []byte(raw)); err == nil || msg.Content != nil {
			t.Errorf("anthropic %s: %v, %v", raw, msg, err)
		}
	}
	for _, raw := range []string{`{"parts":5}`, `{"candidates":[{"content":5}]}`, `{"candidates":{}}`, `[}`} {
		if c, err := e.GeminiJSON(ctx, []byte(raw)); err == nil || c.Parts != nil {
			t.Errorf("gemini %s: %v, %v", raw, c, err)
		}
	}
}
