package exec_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/exec"
)

// FuzzReply feeds arbitrary bytes as a provider reply to all four *JSON
// functions. None may panic; when the bytes parse, every call gets exactly
// one answer, in order, with valid UTF-8 content, and the answer marshals.
func FuzzReply(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "replies", "*", "*.json"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		``, `null`, `[]`, `{}`, `[null]`, `{"tool_calls":null}`, `{"choices":[]}`, `{"candidates":[]}`,
		`[{"type":"function_call","call_id":"c","name":"echo","arguments":"\"{\\\"a\\\":1}\""}]`,
		`[{"type":"tool_use","id":"t","name":"echo","input":"{"}]`,
		`[{"functionCall":{"name":"echo","args":[]}}]`,
		`[{"id":"c","type":"function","function":{"name":"echo","arguments":"\u0000{"}}]`,
		`[{"id":"ok","type":"function","function":{"name":"echo","arguments":"{}"}},{"id":"bad","function":{"name":"echo","arguments":{"a":1}}},{"id":3,"function":{"name":"echo","arguments":5}},7,null]`,
		`[{"type":"function_call","call_id":2,"name":"echo","arguments":{"a":1}},{"type":9},5]`,
		`[{"type":"tool_use","id":"t","name":5,"input":{}},{"type":"text","text":1},"x"]`,
		`[{"functionCall":{"id":5,"name":"echo"}},{"functionCall":"echo"},{"text":[],"functionCall":{"name":"echo"}},1]`,
	} {
		f.Add([]byte(s))
	}
	e := exec.New(testRegistry(f), &exec.Options{Concurrency: 3})
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, raw []byte) {
		if calls, err := exec.ParseOpenAIChat(raw); err == nil {
			msgs, err := e.OpenAIChatJSON(ctx, raw)
			if err != nil || len(msgs) != len(calls) {
				t.Fatalf("chat: %d calls, %d messages, err %v", len(calls), len(msgs), err)
			}
			for i, m := range msgs {
				if m.ToolCallID != calls[i].ID || m.Role != "tool" || !utf8.ValidString(m.Content) {
					t.Fatalf("chat message %d = %+v for call %+v", i, m, calls[i])
				}
			}
			mustMarshal(t, msgs)
		} else if _, err2 := e.OpenAIChatJSON(ctx, raw); err2 == nil {
			t.Fatalf("chat: Parse failed (%v) but OpenAIChatJSON did not", err)
		}

		if items, err := exec.ParseResponses(raw); err == nil {
			out, err := e.ResponsesJSON(ctx, raw)
			j := 0
			for _, it := range items {
				if it.Type != "function_call" {
					continue
				}
				if err != nil || j >= len(out) || out[j].CallID != it.CallID || !utf8.ValidString(out[j].Output) {
					t.Fatalf("responses: item %+v answered by %+v (err %v)", it, out, err)
				}
				j++
			}
			if j != len(out) {
				t.Fatalf("responses: %d calls, %d outputs", j, len(out))
			}
			mustMarshal(t, out)
		}

		if blocks, err := exec.ParseAnthropic(raw); err == nil {
			msg, err := e.AnthropicJSON(ctx, raw)
			j := 0
			for _, b := range blocks {
				if b.Type != "tool_use" {
					continue
				}
				if err != nil || j >= len(msg.Content) || msg.Content[j].ToolUseID != b.ID || !utf8.ValidString(msg.Content[j].Content) {
					t.Fatalf("anthropic: block %+v answered by %+v (err %v)", b, msg, err)
				}
				j++
			}
			if j != len(msg.Content) || msg.Role != "user" {
				t.Fatalf("anthropic: %d calls, message %+v", j, msg)
			}
			mustMarshal(t, msg)
		}

		if parts, err := exec.ParseGemini(raw); err == nil {
			c, err := e.GeminiJSON(ctx, raw)
			j := 0
			for _, p := range parts {
				if p.FunctionCall == nil {
					continue
				}
				if err != nil || j >= len(c.Parts) {
					t.Fatalf("gemini: call %+v unanswered (err %v)", p.FunctionCall, err)
				}
				fr := c.Parts[j].FunctionResponse
				if fr == nil || fr.ID != p.FunctionCall.ID || fr.Name != p.FunctionCall.Name || len(fr.Response) != 1 {
					t.Fatalf("gemini: call %+v answered by %+v", p.FunctionCall, fr)
				}
				for _, v := range fr.Response {
					if s, ok := v.(string); !ok || !utf8.ValidString(s) {
						t.Fatalf("gemini: response %#v", fr.Response)
					}
				}
				j++
			}
			if j != len(c.Parts) {
				t.Fatalf("gemini: %d calls, %d parts", j, len(c.Parts))
			}
			mustMarshal(t, c)
		}
	})
}

func mustMarshal(t *testing.T, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil || !json.Valid(b) {
		t.Fatalf("marshal %T: %v", v, err)
	}
}
