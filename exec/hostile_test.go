package exec_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

// TestDeepArgumentsAnyDepth: arguments nested a million levels (2 MB)
// cost only their own call, on every provider; the other calls run.
func TestDeepArgumentsAnyDepth(t *testing.T) {
	n := 1_000_000
	deep := strings.Repeat("[", n) + strings.Repeat("]", n)
	e := exec.New(testRegistry(t), nil)
	ctx := context.Background()
	ok := `{"city":"Paris"}`

	chat, err := e.OpenAIChatJSON(ctx, []byte(`[{"id":"a","function":{"name":"echo","arguments":{"x":`+deep+`}}},`+
		`{"id":"b","function":{"name":"get_weather","arguments":`+quote(ok)+`}}]`))
	want := `[{"role":"tool","tool_call_id":"a","content":"error: the tool call could not be read: \"function.arguments\" is nested more than 10000 levels deep"},` +
		`{"role":"tool","tool_call_id":"b","content":"22C in Paris"}]`
	if got := mustJSON(t, chat); err != nil || got != want {
		t.Errorf("chat = %s, %v\nwant %s", got, err, want)
	}
	resp, err := e.ResponsesJSON(ctx, []byte(`[{"type":"function_call","call_id":"a","name":"echo","arguments":{"x":`+deep+`}},`+
		`{"type":"function_call","call_id":"b","name":"get_weather","arguments":`+quote(ok)+`}]`))
	want = `[{"type":"function_call_output","call_id":"a","output":"error: the tool call could not be read: \"arguments\" is nested more than 10000 levels deep"},` +
		`{"type":"function_call_output","call_id":"b","output":"22C in Paris"}]`
	if got := mustJSON(t, resp); err != nil || got != want {
		t.Errorf("responses = %s, %v\nwant %s", got, err, want)
	}
	ant, err := e.AnthropicJSON(ctx, []byte(`[{"type":"tool_use","id":"a","name":"echo","input":{"x":`+deep+`}},`+
		`{"type":"tool_use","id":"b","name":"get_weather","input":`+ok+`}]`))
	want = `{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"the tool call could not be read: \"input\" is nested more than 10000 levels deep","is_error":true},` +
		`{"type":"tool_result","tool_use_id":"b","content":"22C in Paris"}]}`
	if got := mustJSON(t, ant); err != nil || got != want {
		t.Errorf("anthropic = %s, %v\nwant %s", got, err, want)
	}
	gem, err := e.GeminiJSON(ctx, []byte(`[{"functionCall":{"id":"a","name":"echo","args":{"x":`+deep+`}}},`+
		`{"functionCall":{"id":"b","name":"get_weather","args":`+ok+`}}]`))
	want = `{"role":"user","parts":[{"functionResponse":{"id":"a","name":"echo","response":{"error":"the tool call could not be read: \"functionCall.args\" is nested more than 10000 levels deep"}}},` +
		`{"functionResponse":{"id":"b","name":"get_weather","response":{"output":"22C in Paris"}}}]}`
	if got := mustJSON(t, gem); err != nil || got != want {
		t.Errorf("gemini = %s, %v\nwant %s", got, err, want)
	}

	// A reply that is invalid JSON as well as too deep is still refused whole.
	if _, err := exec.ParseAnthropic([]byte(`[{"type":"tool_use","input":` + deep + `}`)); err == nil {
		t.Error("ParseAnthropic accepted invalid JSON")
	}
}

// TestLongCallID: a call whose id is over MaxCallIDBytes does not run and
// no hook sees it; its answer echoes the id unchanged (the provider pairs
// answers by id) and says why; logs carry the id cut to the limit.
func TestLongCallID(t *testing.T) {
	var ran, hooked atomic.Int32
	reg := testRegistry(t)
	if err := reg.Add(toolnexus.Tool{Name: "count", Handler: toolnexus.HandlerFunc(
		func(context.Context, json.RawMessage) (string, error) { ran.Add(1); return "ran", nil })}); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	e := exec.New(reg, &exec.Options{
		Logger: slog.New(slog.NewJSONHandler(&logs, nil)),
		Before: func(context.Context, *exec.Call) *toolnexus.Result { hooked.Add(1); return nil },
	})
	long := "call_" + strings.Repeat("é", 1<<20) // 2 MiB + 5 bytes
	atLimit := strings.Repeat("x", exec.MaxCallIDBytes)
	res, err := e.RunAll(context.Background(), []exec.Call{{ID: long, Name: "count"}, {ID: atLimit, Name: "count"}})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].ID != long || !res[0].IsError || !errors.Is(res[0].Err, exec.ErrMalformedCall) ||
		res[0].Output != "the tool call could not be read: the call id is 2097157 bytes, more than the limit of 256" {
		t.Errorf("long id: IsError %v, Err %v, Output %q, id echoed %v", res[0].IsError, res[0].Err, res[0].Output, res[0].ID == long)
	}
	if res[1].ID != atLimit || res[1].IsError || res[1].Output != "ran" {
		t.Errorf("id at the limit: %+v", res[1])
	}
	if ran.Load() != 1 || hooked.Load() != 1 {
		t.Errorf("the tool ran %d times, Before %d times; want 1 and 1", ran.Load(), hooked.Load())
	}
	var rec struct {
		CallID    string `json:"call_id"`
		ErrorKind string `json:"error_kind"`
	}
	// The two calls run concurrently, so their log lines come in either
	// order: find the malformed call's line.
	found := 0
	for _, line := range bytes.Split(bytes.TrimSpace(logs.Bytes()), []byte("\n")) {
		var r struct {
			CallID    string `json:"call_id"`
			ErrorKind string `json:"error_kind"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		if r.ErrorKind == "malformed_call" {
			rec, found = r, found+1
		}
	}
	if found != 1 {
		t.Fatalf("%d log lines with error_kind malformed_call, want 1:\n%s", found, logs.Bytes())
	}
	if want := "call_" + strings.Repeat("é", (exec.MaxCallIDBytes-5)/2) + "…"; rec.CallID != want || rec.ErrorKind != "malformed_call" {
		t.Errorf("log call_id %q (%d bytes), error_kind %q", rec.CallID, len(rec.CallID), rec.ErrorKind)
	}
}

// TestOutputCapReachesTheModel: the registry's MaxOutputBytes cut, note
// included, is what each provider's answer carries.
func TestOutputCapReachesTheModel(t *testing.T) {
	reg := toolnexus.NewRegistryWith(&toolnexus.Options{MaxOutputBytes: 64})
	if err := reg.Add(toolnexus.Tool{Name: "big", Handler: toolnexus.HandlerFunc(
		func(context.Context, json.RawMessage) (string, error) { return strings.Repeat("ab", 1000), nil })}); err != nil {
		t.Fatal(err)
	}
	msgs, err := exec.New(reg, nil).OpenAIChatJSON(context.Background(),
		[]byte(`[{"id":"c","type":"function","function":{"name":"big","arguments":"{}"}}]`))
	want := `[{"role":"tool","tool_call_id":"c","content":"abababababababa\n\n[... 1970 bytes truncated ...]\n\nbababababababab"}]`
	if got := mustJSON(t, msgs); err != nil || got != want {
		t.Errorf("got  %s, %v\nwant %s", got, err, want)
	}
}

// TestStreamDeepArguments: in a stream too, a value nested past
// MaxReplyDepth in one call's event costs only that call.
func TestStreamDeepArguments(t *testing.T) {
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	e := exec.New(testRegistry(t), nil)
	ctx := context.Background()
	sse := func(events ...string) io.Reader {
		return strings.NewReader("data: " + strings.Join(events, "\n\ndata: ") + "\n\n")
	}
	chat, err := e.OpenAIChatStream(ctx, sse(
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"echo","arguments":{"x":`+deep+`}}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"echo","arguments":"{}"}}]}}]}`,
		`[DONE]`))
	want := `[{"role":"tool","tool_call_id":"a","content":"error: the tool call could not be read: \"function.arguments\" is nested more than 10000 levels deep"},{"role":"tool","tool_call_id":"b","content":"{}"}]`
	if got := mustJSON(t, chat); err != nil || got != want {
		t.Errorf("chat = %s, %v", got, err)
	}
	resp, err := e.ResponsesStream(ctx, sse(
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","call_id":"a","name":"echo","arguments":{"x":`+deep+`}}}`,
		`{"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","call_id":"b","name":"echo","arguments":"{}"}}`,
		`{"type":"response.completed","response":{"output":[]}}`))
	want = `[{"type":"function_call_output","call_id":"a","output":"error: the tool call could not be read: \"arguments\" is nested more than 10000 levels deep"},{"type":"function_call_output","call_id":"b","output":"{}"}]`
	if got := mustJSON(t, resp); err != nil || got != want {
		t.Errorf("responses = %s, %v", got, err)
	}
	ant, err := e.AnthropicStream(ctx, sse(
		`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"a","name":"echo","input":{"x":`+deep+`}}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"b","name":"echo","input":{}}}`,
		`{"type":"content_block_stop","index":1}`, `{"type":"message_stop"}`))
	want = `{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"the tool call could not be read: \"input\" is nested more than 10000 levels deep","is_error":true},{"type":"tool_result","tool_use_id":"b","content":"{}"}]}`
	if got := mustJSON(t, ant); err != nil || got != want {
		t.Errorf("anthropic = %s, %v", got, err)
	}
	gem, err := e.GeminiStream(ctx, sse(
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"a","name":"echo","args":{"x":`+deep+`}}},{"functionCall":{"id":"b","name":"echo","args":{}}}]}}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"STOP"}]}`))
	want = `{"role":"user","parts":[{"functionResponse":{"id":"a","name":"echo","response":{"error":"the tool call could not be read: \"functionCall.args\" is nested more than 10000 levels deep"}}},{"functionResponse":{"id":"b","name":"echo","response":{"output":"{}"}}}]}`
	if got := mustJSON(t, gem); err != nil || got != want {
		t.Errorf("gemini = %s, %v", got, err)
	}
}
