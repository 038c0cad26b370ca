package exec_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
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
	case <-time.After(10 * time.Second):
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
