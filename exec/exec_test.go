package exec_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

// gate is a tool handler that counts calls in flight and blocks each call
// until released (or ctx is done), so tests can observe concurrency.
type gate struct {
	inFlight, max atomic.Int64
	started       chan string
	release       chan struct{}
}

func newGate() *gate {
	return &gate{started: make(chan string, 100), release: make(chan struct{})}
}

func (g *gate) tool(name string) toolnexus.Tool {
	return toolnexus.Tool{Name: name, Handler: toolnexus.HandlerFunc(
		func(ctx context.Context, args json.RawMessage) (string, error) {
			n := g.inFlight.Add(1)
			defer g.inFlight.Add(-1)
			for {
				m := g.max.Load()
				if n <= m || g.max.CompareAndSwap(m, n) {
					break
				}
			}
			var a struct {
				N int `json:"n"`
			}
			_ = json.Unmarshal(args, &a)
			g.started <- fmt.Sprint(a.N)
			select {
			case <-g.release:
			case <-ctx.Done():
				return "", ctx.Err()
			}
			return fmt.Sprintf("done %d", a.N), nil
		})}
}

func numberedCalls(name string, n int) []exec.Call {
	calls := make([]exec.Call, n)
	for i := range calls {
		calls[i] = exec.Call{ID: fmt.Sprintf("c%d", i), Name: name, Arguments: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))}
	}
	return calls
}

// waitStarted waits until k calls have started, or fails.
func waitStarted(t *testing.T, g *gate, k int) {
	t.Helper()
	for i := 0; i < k; i++ {
		select {
		case <-g.started:
		case <-time.After(30 * time.Second):
			t.Fatalf("only %d of %d calls started", i, k)
		}
	}
}

func TestRunAllConcurrencyLimit(t *testing.T) {
	for _, tc := range []struct {
		conc, calls, want int
	}{
		{conc: 1, calls: 6, want: 1},
		{conc: 3, calls: 8, want: 3},
		{conc: 0, calls: 8, want: exec.DefaultConcurrency},
		{conc: -1, calls: 8, want: 8},
		{conc: 16, calls: 5, want: 5},
	} {
		t.Run(fmt.Sprintf("conc=%d,calls=%d", tc.conc, tc.calls), func(t *testing.T) {
			g := newGate()
			reg := toolnexus.NewRegistry()
			if err := reg.Add(g.tool("wait")); err != nil {
				t.Fatal(err)
			}
			e := exec.New(reg, &exec.Options{Concurrency: tc.conc})
			done := make(chan []exec.Result)
			go func() {
				res, err := e.RunAll(context.Background(), numberedCalls("wait", tc.calls))
				if err != nil {
					t.Error(err)
				}
				done <- res
			}()
			waitStarted(t, g, tc.want)
			// No call beyond the limit may start while all are held.
			select {
			case s := <-g.started:
				t.Fatalf("call %s started beyond the limit of %d", s, tc.want)
			case <-time.After(30 * time.Millisecond):
			}
			close(g.release)
			res := <-done
			if got := g.max.Load(); got != int64(tc.want) {
				t.Errorf("max in flight = %d, want %d", got, tc.want)
			}
			if len(res) != tc.calls {
				t.Fatalf("got %d results for %d calls", len(res), tc.calls)
			}
			for i, r := range res {
				if r.ID != fmt.Sprintf("c%d", i) || r.Output != fmt.Sprintf("done %d", i) || r.IsError {
					t.Errorf("result %d = %+v", i, r)
				}
			}
		})
	}
}

// TestRunAllOrder: calls finishing in reverse order still come back in call
// order.
func TestRunAllOrder(t *testing.T) {
	reg := toolnexus.NewRegistry()
	err := reg.Add(toolnexus.Tool{Name: "sleep", Handler: toolnexus.HandlerFunc(
		func(ctx context.Context, args json.RawMessage) (string, error) {
			var a struct{ N int }
			_ = json.Unmarshal(args, &a)
			time.Sleep(time.Duration(8-a.N) * 3 * time.Millisecond)
			return fmt.Sprint(a.N), nil
		})})
	if err != nil {
		t.Fatal(err)
	}
	res, err := exec.New(reg, &exec.Options{Concurrency: -1}).RunAll(context.Background(), numberedCalls("sleep", 8))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res {
		got = append(got, r.ID+"="+r.Output)
	}
	want := "c0=0 c1=1 c2=2 c3=3 c4=4 c5=5 c6=6 c7=7"
	if strings.Join(got, " ") != want {
		t.Errorf("got %s, want %s", strings.Join(got, " "), want)
	}
}

func TestRunEveryFailure(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		call    exec.Call
		output  string
		isError bool
		is      error
	}{
		{"ok", exec.Call{ID: "1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)},
			"22C in Paris", false, nil},
		{"nil args mean {}", exec.Call{ID: "2", Name: "echo"}, "{}", false, nil},
		{"null args mean {}", exec.Call{ID: "2", Name: "echo", Arguments: json.RawMessage(" null ")}, "{}", false, nil},
		{"unknown tool", exec.Call{ID: "3", Name: "nope"},
			`unknown tool "nope"; available tools: bad_utf8, boom, echo, fail, get_weather`, true, toolnexus.ErrUnknownTool},
		{"truncated", exec.Call{ID: "4", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Pa`)},
			`invalid arguments for "get_weather": arguments are not valid JSON: unexpected end of input (truncated?)`, true, toolnexus.ErrInvalidArguments},
		{"string holding an object is unwrapped once", exec.Call{ID: "5", Name: "get_weather", Arguments: json.RawMessage(`"{\"city\":\"Rome\"}"`)},
			"22C in Rome", false, nil},
		{"string holding an object, padded", exec.Call{ID: "5b", Name: "echo", Arguments: json.RawMessage(` " {\"a\":1} " `)},
			`{"a":1}`, false, nil},
		{"string holding a string holding an object is an error", exec.Call{ID: "6", Name: "get_weather", Arguments: json.RawMessage(`"\"{\\\"city\\\":\\\"Rome\\\"}\""`)},
			`invalid arguments for "get_weather": arguments must be a JSON object, got a string`, true, toolnexus.ErrInvalidArguments},
		{"string holding text is an error", exec.Call{ID: "7", Name: "echo", Arguments: json.RawMessage(`"Paris"`)},
			`invalid arguments for "echo": arguments must be a JSON object, got a string`, true, toolnexus.ErrInvalidArguments},
		{"handler error", exec.Call{ID: "8", Name: "fail"}, "city not found", true, nil},
		{"panic", exec.Call{ID: "9", Name: "boom"}, `tool "boom" failed: internal error`, true, nil},
		{"invalid UTF-8 output", exec.Call{ID: "10", Name: "bad_utf8"}, "ok \uFFFD done", false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.Run(ctx, tc.call)
			if r.Output != tc.output || r.IsError != tc.isError {
				t.Errorf("Run = (%q, IsError %v), want (%q, %v)", r.Output, r.IsError, tc.output, tc.isError)
			}
			if r.ID != tc.call.ID || r.Name != tc.call.Name {
				t.Errorf("Run id/name = %q/%q, want %q/%q", r.ID, r.Name, tc.call.ID, tc.call.Name)
			}
			if tc.is != nil && !errors.Is(r.Err, tc.is) {
				t.Errorf("Err = %v, want errors.Is %v", r.Err, tc.is)
			}
			if !tc.isError && r.Err != nil {
				t.Errorf("Err = %v on success", r.Err)
			}
			if r.Duration <= 0 {
				t.Errorf("Duration = %v", r.Duration)
			}
		})
	}
	var pe *toolnexus.PanicError
	if r := e.Run(ctx, exec.Call{Name: "boom"}); !errors.As(r.Err, &pe) || pe.Value != "kaboom" {
		t.Errorf("panic Err = %#v, want *PanicError kaboom", r.Err)
	}
}

// TestDuplicateCallsIndependent: two calls to the same tool in one batch
// keep their own ids, arguments and results, and one failing does not touch
// the other.
func TestDuplicateCallsIndependent(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	msgs, err := e.OpenAIChat(context.Background(), []exec.OpenAIToolCall{
		{ID: "a", Type: "function", Function: exec.OpenAIFunctionCall{Name: "get_weather", Arguments: `{"city":"Oslo"}`}},
		{ID: "b", Type: "function", Function: exec.OpenAIFunctionCall{Name: "get_weather", Arguments: `{"city":"Oslo","unit":"x"}`}},
		{ID: "c", Type: "function", Function: exec.OpenAIFunctionCall{Name: "get_weather", Arguments: `{"city":"Lima","unit":"fahrenheit"}`}},
		{ID: "a", Type: "function", Function: exec.OpenAIFunctionCall{Name: "get_weather", Arguments: `{"city":"Kyiv"}`}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"role":"tool","tool_call_id":"a","content":"22C in Oslo"},` +
		`{"role":"tool","tool_call_id":"b","content":"error: invalid arguments for \"get_weather\": \"unit\" must be one of [celsius fahrenheit]"},` +
		`{"role":"tool","tool_call_id":"c","content":"72F in Lima"},` +
		`{"role":"tool","tool_call_id":"a","content":"22C in Kyiv"}]`
	if got := mustJSON(t, msgs); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestTimeout(t *testing.T) {
	reg := toolnexus.NewRegistry()
	block := make(chan struct{})
	defer close(block)
	err := reg.Add(toolnexus.Tool{Name: "stuck", Handler: toolnexus.HandlerFunc(
		func(ctx context.Context, args json.RawMessage) (string, error) {
			<-block // ignores ctx on purpose
			return "late", nil
		})})
	if err != nil {
		t.Fatal(err)
	}
	e := exec.New(reg, &exec.Options{Timeout: 20 * time.Millisecond})
	start := time.Now()
	res, err := e.RunAll(context.Background(), []exec.Call{{ID: "1", Name: "stuck"}, {ID: "2", Name: "stuck"}})
	if err != nil {
		t.Fatalf("RunAll error = %v; a per-call timeout is not the caller's cancellation", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("RunAll took %v with a 20ms timeout", d)
	}
	for _, r := range res {
		if r.Output != `tool "stuck" timed out after 20ms` || !r.IsError || !errors.Is(r.Err, context.DeadlineExceeded) {
			t.Errorf("result = %q %v %v", r.Output, r.IsError, r.Err)
		}
	}
}

// TestCancel: cancelling ctx while calls run answers the running ones with
// a cancellation result and the rest with ErrNotStarted, promptly, in
// order, and RunAll reports context.Canceled.
func TestCancel(t *testing.T) {
	g := newGate()
	reg := toolnexus.NewRegistry()
	if err := reg.Add(g.tool("wait")); err != nil {
		t.Fatal(err)
	}
	e := exec.New(reg, &exec.Options{Concurrency: 2})
	ctx, cancel := context.WithCancel(context.Background())
	type out struct {
		res []exec.Result
		err error
	}
	done := make(chan out)
	go func() {
		res, err := e.RunAll(ctx, numberedCalls("wait", 6))
		done <- out{res, err}
	}()
	waitStarted(t, g, 2)
	cancel()
	var o out
	select {
	case o = <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("RunAll did not return promptly after cancel")
	}
	if !errors.Is(o.err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", o.err)
	}
	if len(o.res) != 6 {
		t.Fatalf("%d results for 6 calls", len(o.res))
	}
	for i, r := range o.res {
		if r.ID != fmt.Sprintf("c%d", i) || !r.IsError || !errors.Is(r.Err, context.Canceled) {
			t.Errorf("result %d = %+v", i, r)
		}
		if i < 2 {
			if r.Output != `tool "wait" was cancelled before it finished` {
				t.Errorf("running call %d: %q", i, r.Output)
			}
		} else if r.Output != `tool "wait" was not run: the request was cancelled before it started` || !errors.Is(r.Err, exec.ErrNotStarted) {
			t.Errorf("pending call %d: %q %v", i, r.Output, r.Err)
		}
	}
	// Already cancelled: nothing runs, every provider still answers all.
	msg, err := e.Anthropic(ctx, []exec.AnthropicContentBlock{{Type: "tool_use", ID: "t1", Name: "wait"}, {Type: "tool_use", ID: "t2", Name: "nope"}})
	if !errors.Is(err, context.Canceled) || len(msg.Content) != 2 || !msg.Content[1].IsError ||
		msg.Content[1].Content != `tool "nope" was not run: the request was cancelled before it started` {
		t.Errorf("Anthropic after cancel = %+v, %v", msg, err)
	}
	dctx, dcancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer dcancel()
	if r := e.Run(dctx, exec.Call{Name: "wait"}); r.Output != `tool "wait" was not run: the request's deadline passed before it started` ||
		!errors.Is(r.Err, context.DeadlineExceeded) {
		t.Errorf("Run past deadline = %q %v", r.Output, r.Err)
	}
}

func TestHooks(t *testing.T) {
	var ran atomic.Int64
	reg := testRegistry(t)
	if err := reg.Add(toolnexus.Tool{Name: "delete_all", Handler: toolnexus.HandlerFunc(
		func(ctx context.Context, args json.RawMessage) (string, error) {
			ran.Add(1)
			return "deleted", nil
		})}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var afterSaw []string
	e := exec.New(reg, &exec.Options{
		Before: func(ctx context.Context, c *exec.Call) *toolnexus.Result {
			switch c.Name {
			case "delete_all": // approval gate: refuse
				return &toolnexus.Result{Output: "the user declined this call", IsError: true}
			case "get_weather": // rewrite arguments
				c.Arguments = json.RawMessage(`{"city":"Paris","unit":"fahrenheit"}`)
			case "alias": // route to another tool
				c.Name = "echo"
			case "hook_panic":
				panic("before broke")
			}
			return nil
		},
		After: func(ctx context.Context, c exec.Call, r *exec.Result) {
			mu.Lock()
			afterSaw = append(afterSaw, c.Name+":"+string(c.Arguments))
			mu.Unlock()
			r.Output = strings.ReplaceAll(r.Output, "Paris", "[city]")
			if c.Name == "fail" {
				panic("after broke")
			}
		},
	})
	res, err := e.RunAll(context.Background(), []exec.Call{
		{ID: "1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)},
		{ID: "2", Name: "delete_all"},
		{ID: "3", Name: "alias", Arguments: json.RawMessage(`{"x":1}`)},
		{ID: "4", Name: "hook_panic"},
		{ID: "5", Name: "fail"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name, out string
		isErr     bool
	}{
		{"get_weather", "72F in [city]", false},
		{"delete_all", "the user declined this call", true},
		{"alias", `{"x":1}`, false},
		{"hook_panic", `tool "hook_panic" failed: internal error`, true},
		{"fail", `tool "fail" failed: internal error`, true},
	}
	for i, w := range want {
		if res[i].Name != w.name || res[i].Output != w.out || res[i].IsError != w.isErr {
			t.Errorf("result %d = %q %q %v, want %q %q %v", i, res[i].Name, res[i].Output, res[i].IsError, w.name, w.out, w.isErr)
		}
	}
	if ran.Load() != 0 {
		t.Errorf("delete_all ran %d times despite Before answering", ran.Load())
	}
	var hp *exec.HookPanicError
	if !errors.As(res[3].Err, &hp) || hp.Hook != "Before" || hp.Value != "before broke" || len(hp.Stack) == 0 {
		t.Errorf("Before panic Err = %#v", res[3].Err)
	}
	if !errors.As(res[4].Err, &hp) || hp.Hook != "After" {
		t.Errorf("After panic Err = %#v", res[4].Err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(strings.Join(afterSaw, " "), `echo:{"x":1}`) ||
		!strings.Contains(strings.Join(afterSaw, " "), `get_weather:{"city":"Paris","unit":"fahrenheit"}`) {
		t.Errorf("After saw %v, want the rewritten calls", afterSaw)
	}
}

func TestLogging(t *testing.T) {
	const secret = "sk-SECRET-123"
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == "duration" {
				return slog.Attr{} // drop unstable values
			}
			return a
		},
	}))
	calls := []exec.Call{
		{ID: "c1", Name: "echo", Arguments: json.RawMessage(`{"token":"` + secret + `"}`)},
		{ID: "c2", Name: "get_weather", Arguments: json.RawMessage(`{"city":"` + secret + `","unit":"x"}`)},
		{ID: "c3", Name: "nope"},
		{ID: "c4", Name: "boom"},
		{ID: "c5", Name: "fail"},
	}
	e := exec.New(testRegistry(t), &exec.Options{Logger: logger, Concurrency: 1})
	if _, err := e.RunAll(context.Background(), calls); err != nil {
		t.Fatal(err)
	}
	want := `{"level":"INFO","msg":"tool call","tool":"echo","call_id":"c1","is_error":false}
{"level":"WARN","msg":"tool call","tool":"get_weather","call_id":"c2","is_error":true,"error_kind":"invalid_arguments"}
{"level":"WARN","msg":"tool call","tool":"nope","call_id":"c3","is_error":true,"error_kind":"unknown_tool"}
{"level":"WARN","msg":"tool call","tool":"boom","call_id":"c4","is_error":true,"error_kind":"panic"}
{"level":"WARN","msg":"tool call","tool":"fail","call_id":"c5","is_error":true,"error_kind":"tool_error"}
`
	if buf.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", buf.String(), want)
	}
	if strings.Contains(buf.String(), secret) {
		t.Error("secret argument leaked into the log")
	}

	// Opt-in: arguments and output are logged.
	buf.Reset()
	e = exec.New(testRegistry(t), &exec.Options{Logger: logger, LogArguments: true, LogOutput: true})
	e.Run(context.Background(), calls[0])
	if got, want := buf.String(), `{"level":"INFO","msg":"tool call","tool":"echo","call_id":"c1","is_error":false,"arguments":"{\"token\":\"sk-SECRET-123\"}","output":"{\"token\":\"sk-SECRET-123\"}"}`+"\n"; got != want {
		t.Errorf("opt-in log:\n%s\nwant:\n%s", got, want)
	}

	// A duration is logged and measures the call.
	buf.Reset()
	logger = slog.New(slog.NewJSONHandler(&buf, nil))
	exec.New(testRegistry(t), &exec.Options{Logger: logger}).Run(context.Background(), calls[0])
	var rec map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
		t.Fatal(err)
	}
	if d, ok := rec["duration"].(float64); !ok || d <= 0 {
		t.Errorf("duration = %v", rec["duration"])
	}
}

// TestInvalidUTF8EveryProvider: a tool returning invalid bytes gives valid
// UTF-8 in every provider message, as Go strings and as JSON.
func TestInvalidUTF8EveryProvider(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	ctx := context.Background()
	chat, _ := e.OpenAIChat(ctx, []exec.OpenAIToolCall{{ID: "1", Type: "function", Function: exec.OpenAIFunctionCall{Name: "bad_utf8"}}})
	resp, _ := e.Responses(ctx, []exec.ResponsesItem{{Type: "function_call", CallID: "1", Name: "bad_utf8"}})
	ant, _ := e.Anthropic(ctx, []exec.AnthropicContentBlock{{Type: "tool_use", ID: "1", Name: "bad_utf8"}})
	gem, _ := e.Gemini(ctx, []exec.GeminiPart{{FunctionCall: &exec.GeminiFunctionCall{ID: "1", Name: "bad_utf8"}}})
	for name, s := range map[string]string{
		"chat":      chat[0].Content,
		"responses": resp[0].Output,
		"anthropic": ant.Content[0].Content,
		"gemini":    gem.Parts[0].FunctionResponse.Response["output"].(string),
	} {
		if s != "ok \uFFFD done" || !utf8.ValidString(s) {
			t.Errorf("%s: %q", name, s)
		}
	}
	// Invalid bytes in the model's tool name are not echoed raw either.
	r := e.Run(ctx, exec.Call{Name: "ba\xffd"})
	if !utf8.ValidString(r.Output) || !r.IsError {
		t.Errorf("unknown invalid name: %q", r.Output)
	}
}

// TestChatForms: the assistant message, its bare tool_calls array and a
// whole chat completion give the same messages.
func TestChatForms(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	tc := `[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]`
	want := `[{"role":"tool","tool_call_id":"call_1","content":"22C in Paris"}]`
	for _, raw := range []string{
		`{"role":"assistant","content":null,"tool_calls":` + tc + `}`,
		tc,
		`{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","tool_calls":` + tc + `}}]}`,
	} {
		msgs, err := e.OpenAIChatJSON(context.Background(), []byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		if got := mustJSON(t, msgs); got != want {
			t.Errorf("%s\n got %s", raw, got)
		}
	}
}

// TestGeminiForms: content, parts array and generateContent response, and
// positions for calls without ids.
func TestGeminiForms(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	parts := `[{"functionCall":{"name":"get_weather","args":{"city":"Oslo"}}},{"functionCall":{"name":"get_weather","args":{"city":"Rome"}}}]`
	want := `{"role":"user","parts":[{"functionResponse":{"name":"get_weather","response":{"output":"22C in Oslo"}}},{"functionResponse":{"name":"get_weather","response":{"output":"22C in Rome"}}}]}`
	for _, raw := range []string{
		`{"role":"model","parts":` + parts + `}`,
		parts,
		`{"candidates":[{"content":{"role":"model","parts":` + parts + `}}]}`,
	} {
		c, err := e.GeminiJSON(context.Background(), []byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		if got := mustJSON(t, c); got != want {
			t.Errorf("%s\n got %s", raw, got)
		}
	}
}

func TestMalformedReplies(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	ctx := context.Background()
	for _, tc := range []struct {
		raw, chat, responses, anthropic, gemini string
	}{
		{``,
			"exec: OpenAI reply: want a JSON object or array, got no data",
			"exec: Responses reply: want a JSON object or array, got no data",
			"exec: Anthropic reply: want a JSON object or array, got no data",
			"exec: Gemini reply: want a JSON object or array, got no data"},
		{`"hello"`,
			"exec: OpenAI reply: want a JSON object or array, got a string",
			"exec: Responses reply: want a JSON object or array, got a string",
			"exec: Anthropic reply: want a JSON object or array, got a string",
			"exec: Gemini reply: want a JSON object or array, got a string"},
		{`{"tool_calls":[{"id":"x"`,
			"exec: OpenAI assistant message: unexpected end of JSON input",
			"exec: Responses response: unexpected end of JSON input",
			"exec: Anthropic message: unexpected end of JSON input",
			"exec: Gemini content: unexpected end of JSON input"},
	} {
		_, err1 := e.OpenAIChatJSON(ctx, []byte(tc.raw))
		_, err2 := e.ResponsesJSON(ctx, []byte(tc.raw))
		_, err3 := e.AnthropicJSON(ctx, []byte(tc.raw))
		_, err4 := e.GeminiJSON(ctx, []byte(tc.raw))
		for i, pair := range [][2]any{{err1, tc.chat}, {err2, tc.responses}, {err3, tc.anthropic}, {err4, tc.gemini}} {
			err, _ := pair[0].(error)
			if err == nil || err.Error() != pair[1] {
				t.Errorf("%q provider %d: err = %v, want %s", tc.raw, i, err, pair[1])
			}
		}
	}
}

func TestNilRegistryAndZeroOptions(t *testing.T) {
	r := exec.New(nil, nil).Run(context.Background(), exec.Call{ID: "x", Name: "get_weather"})
	if r.Output != `unknown tool "get_weather"; available tools: none` || !r.IsError {
		t.Errorf("nil registry: %q", r.Output)
	}
	res, err := exec.New(nil, nil).RunAll(context.Background(), nil)
	if err != nil || len(res) != 0 {
		t.Errorf("RunAll(nil) = %v, %v", res, err)
	}
}

// TestCallerDeadline: the caller's deadline (not the executor's Timeout)
// cuts a batch short; the running call says so, the rest were not started.
func TestCallerDeadline(t *testing.T) {
	g := newGate()
	reg := toolnexus.NewRegistry()
	if err := reg.Add(g.tool("wait")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	res, err := exec.New(reg, &exec.Options{Concurrency: 1, Timeout: time.Hour}).RunAll(ctx, numberedCalls("wait", 3))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	want := []string{
		`tool "wait" did not finish before the deadline`,
		`tool "wait" was not run: the request's deadline passed before it started`,
		`tool "wait" was not run: the request's deadline passed before it started`,
	}
	for i, r := range res {
		if r.Output != want[i] || !r.IsError || !errors.Is(r.Err, context.DeadlineExceeded) {
			t.Errorf("result %d = %q %v", i, r.Output, r.Err)
		}
	}
}

// TestChatContentArray: an assistant message whose content is an array of
// parts (some OpenAI-compatible servers) still has its tool calls run.
func TestChatContentArray(t *testing.T) {
	raw := `{"role":"assistant","content":[{"type":"text","text":"Checking."}],"tool_calls":[{"id":"c1","type":"function","function":{"name":"echo","arguments":"{\"a\":1}"}}]}`
	msgs, err := exec.New(testRegistry(t), nil).OpenAIChatJSON(context.Background(), []byte(raw))
	if err != nil || mustJSON(t, msgs) != `[{"role":"tool","tool_call_id":"c1","content":"{\"a\":1}"}]` {
		t.Errorf("got %v, %v", msgs, err)
	}
}

// TestErrorKind: each failure names its kind; a success has none.
func TestErrorKind(t *testing.T) {
	for want, res := range map[string]toolnexus.Result{
		"":                  {Output: "ok"},
		"tool_error":        {IsError: true},
		"not_started":       {IsError: true, Err: fmt.Errorf("%w: %w", exec.ErrNotStarted, context.Canceled)},
		"malformed_call":    {IsError: true, Err: exec.ErrMalformedCall},
		"truncated":         {IsError: true, Err: fmt.Errorf("tool %q: %w", "x", exec.ErrTruncated)},
		"goexit":            {IsError: true, Err: exec.ErrGoexit},
		"unknown_tool":      {IsError: true, Err: toolnexus.ErrUnknownTool},
		"invalid_arguments": {IsError: true, Err: &toolnexus.ArgumentError{Tool: "t", Rule: "required"}},
		"panic":             {IsError: true, Err: &exec.HookPanicError{Hook: "Before"}},
		"timeout":           {IsError: true, Err: context.DeadlineExceeded},
		"cancelled":         {IsError: true, Err: context.Canceled},
	} {
		assert.Equal(t, want, exec.ErrorKind(res), "%v", res.Err)
	}
}
