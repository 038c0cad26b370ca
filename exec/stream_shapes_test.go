package exec_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/exec"
)

// sseOf is an SSE body with one event per data.
func sseOf(events ...string) *strings.Reader {
	return strings.NewReader("data: " + strings.Join(events, "\n\ndata: ") + "\n\n")
}

// TestStreamAmbiguousNames: with no id and no index, a second tool name
// while a call's arguments are not complete cannot be placed; neither
// call runs and both answers say why.
func TestStreamAmbiguousNames(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	msgs, err := e.OpenAIChatStream(context.Background(), sseOf(
		`{"choices":[{"delta":{"tool_calls":[{"function":{"name":"get_weather","arguments":"{\"city\":"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"function":{"name":"echo","arguments":"\"Oslo\"}"}}]}}]}`,
		`{"choices":[{"delta":{},"finish_reason":"tool_calls"}]}`))
	want := `error: the tool call could not be read: the stream sent the tool name "echo" while the arguments of a call of "get_weather" were not complete, with no id or index to tell the calls apart`
	if err != nil || len(msgs) != 2 || msgs[0].Content != want || msgs[1].Content != want {
		t.Errorf("%+v, %v", msgs, err)
	}
}

// TestResponsesStreamContradiction: a done item whose arguments differ
// from those the call started with makes its answer say so; the same
// arguments in another form do not.
func TestResponsesStreamContradiction(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	body := func(done string) *strings.Reader {
		return sseOf(
			`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","call_id":"c","name":"echo","arguments":""}}`,
			`{"type":"response.function_call_arguments.delta","output_index":0,"delta":"{\"n\":1}"}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","call_id":"c","name":"echo","arguments":`+done+`}}`,
			`{"type":"response.completed","response":{"output":[]}}`)
	}
	outs, err := e.ResponsesStream(context.Background(), body(`"{ \"n\": 1 }"`))
	if err != nil || len(outs) != 1 || outs[0].Output != `{"n":1}` {
		t.Errorf("same arguments: %+v, %v", outs, err)
	}
	outs, err = e.ResponsesStream(context.Background(), body(`"{\"n\":2}"`))
	if err != nil || len(outs) != 1 || !strings.HasPrefix(outs[0].Output,
		`error: the stream contradicted itself: tool "echo" ran with the arguments it had when they were complete, and the stream then sent the arguments {"n":2} for the same call`) {
		t.Errorf("other arguments: %+v, %v", outs, err)
	}
}

// TestStreamManyEmptyCalls: calls that hold no data still count against
// MaxStreamBytes, so a stream of endless new indices is bounded.
func TestStreamManyEmptyCalls(t *testing.T) {
	e := exec.New(testRegistry(t), &exec.Options{MaxStreamBytes: 1 << 16})
	var events []string
	for i := 0; i < 1000; i++ {
		events = append(events, fmt.Sprintf(`{"choices":[{"delta":{"tool_calls":[{"index":%d}]}}]}`, i*1000003))
	}
	msgs, err := e.OpenAIChatStream(context.Background(), sseOf(events...))
	if !errors.Is(err, exec.ErrStreamIncomplete) || !strings.Contains(err.Error(), "larger than the limit of 65536 bytes") || len(msgs) > 1<<16/512+1 {
		t.Errorf("%d messages, %v", len(msgs), err)
	}
}

// TestTruncatedLogged: a call cut at the output limit runs no tool and
// is logged with error_kind "truncated".
func TestTruncatedLogged(t *testing.T) {
	var logs bytes.Buffer
	e := exec.New(testRegistry(t), &exec.Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	msg, err := e.AnthropicJSON(context.Background(), []byte(`{"content":[{"type":"tool_use","id":"t1","name":"echo","input":{"a":1}},`+
		`{"type":"tool_use","id":"t2","name":"echo","input":{"a":2}}],"stop_reason":"max_tokens"}`))
	if err != nil || len(msg.Content) != 2 || msg.Content[0].Content != `{"a":1}` || !msg.Content[1].IsError ||
		!strings.Contains(logs.String(), `"error_kind":"truncated"`) {
		t.Errorf("%+v, %v\n%s", msg, err, logs.String())
	}
}

// TestGeminiPartialArgsEdges: pieces a feed cannot put together, a call
// cut short by the next one, and a whole reply holding pieces, never run.
func TestGeminiPartialArgsEdges(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	chunk := func(fc string, finish bool) string {
		s := `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":` + fc + `}]}`
		if finish {
			s += `,"finishReason":"STOP"`
		}
		return s + `}]}`
	}
	for _, c := range []struct {
		name   string
		events []string
		want   string
	}{
		{"an index past the array's end", []string{
			chunk(`{"name":"echo","willContinue":true}`, false),
			chunk(`{"partialArgs":[{"jsonPath":"$.a[1]","stringValue":"x"}]}`, true)},
			`partialArgs: \"$.a[1]\" skips into an array`},
		{"a path that is not one", []string{
			chunk(`{"name":"echo","willContinue":true}`, false),
			chunk(`{"partialArgs":[{"jsonPath":"a.b","boolValue":true}]}`, true)},
			`partialArgs: cannot follow the JSON path \"a.b\"`},
		{"the next call before the last piece", []string{
			chunk(`{"name":"echo","willContinue":true}`, false),
			chunk(`{"partialArgs":[{"jsonPath":"$.a","stringValue":"x"}],"willContinue":true}`, false),
			chunk(`{"name":"echo","args":{"b":1}}`, true)},
			`another call began before the last piece of this call's streamed arguments (willContinue)`},
	} {
		out, err := e.GeminiStream(context.Background(), sseOf(c.events...))
		if got := mustJSON(t, out); err != nil || !strings.Contains(got, c.want) || strings.Contains(got, `"output"`) && c.name != "the next call before the last piece" {
			t.Errorf("%s: %s, %v", c.name, got, err)
		}
	}
	out, err := e.GeminiJSON(context.Background(), []byte(`{"role":"model","parts":[{"functionCall":{"name":"echo","willContinue":true}}]}`))
	if got := mustJSON(t, out); err != nil || !strings.Contains(got, "read the stream with GeminiStream or a GeminiFeed") {
		t.Errorf("whole reply with pieces: %s, %v", got, err)
	}
}

// TestGeminiPartialArgsDeepPath: a piece whose path is deeper than
// MaxReplyDepth is refused, not built (it would nest a million levels).
func TestGeminiPartialArgsDeepPath(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	path := "$" + strings.Repeat(".a", 1_000_000)
	out, err := e.GeminiStream(context.Background(), sseOf(
		`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"echo","willContinue":true}}]}}]}`,
		`{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[{"jsonPath":"`+path+`","boolValue":true}]}}]},"finishReason":"STOP"}]}`))
	if got := mustJSON(t, out); err != nil || !strings.Contains(got, "partialArgs: cannot follow the JSON path") || len(got) > 1000 {
		t.Errorf("%.300s (%d bytes), %v", got, len(got), err)
	}
}
