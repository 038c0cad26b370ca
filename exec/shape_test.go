package exec_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/exec"
)

// parsers are the four Parse functions by testdata/replies directory.
var parsers = map[string]func([]byte) (int, error){
	"openai_chat": func(b []byte) (int, error) { v, err := exec.ParseOpenAIChat(b); return len(v), err },
	"openai_responses": func(b []byte) (int, error) {
		v, err := exec.ParseResponses(b)
		return len(v), err
	},
	"anthropic": func(b []byte) (int, error) { v, err := exec.ParseAnthropic(b); return len(v), err },
	"gemini":    func(b []byte) (int, error) { v, err := exec.ParseGemini(b); return len(v), err },
}

// BenchmarkParseReplies parses each provider's mixed reply (tool calls)
// and text-only reply (none) with its own Parse function.
func BenchmarkParseReplies(b *testing.B) {
	for _, p := range []string{"openai_chat", "openai_responses", "anthropic", "gemini"} {
		for _, f := range []string{"mixed", "text_only"} {
			raw, err := os.ReadFile(filepath.Join("testdata", "replies", p, f+".json"))
			if err != nil {
				b.Fatal(err)
			}
			parse := parsers[p]
			b.Run(p+"/"+f, func(b *testing.B) {
				b.ReportAllocs()
				start := cpuTime()
				for b.Loop() {
					if _, err := parse(raw); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, start)
			})
		}
	}
}

// providerDirs are the testdata/replies directories in replyErrors order,
// with the name and method each provider's shape error gives.
var providerDirs = [4]struct{ dir, name, method string }{
	{"openai_chat", "an OpenAI Chat Completions reply", "OpenAIChatJSON or ParseOpenAIChat"},
	{"openai_responses", "an OpenAI Responses reply", "ResponsesJSON or ParseResponses"},
	{"anthropic", "an Anthropic Messages reply", "AnthropicJSON or ParseAnthropic"},
	{"gemini", "a Gemini generateContent reply", "GeminiJSON or ParseGemini"},
}

// TestWrongProviderReply: each provider's replies (whole message or
// response, text only, bare array of calls) passed to another provider's
// method give an error naming the provider they look like and the method
// to use, and run no tool; passed to their own method, no error.
func TestWrongProviderReply(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	for p, from := range providerDirs {
		for _, f := range []string{"mixed", "text_only", "long_id"} {
			raw, err := os.ReadFile(filepath.Join("testdata", "replies", from.dir, f+".json"))
			if err != nil {
				t.Fatal(err)
			}
			for q, err := range replyErrors(e, raw) {
				if q == p {
					if err != nil {
						t.Errorf("%s/%s to its own method: %v", from.dir, f, err)
					}
					continue
				}
				want := replyPrefixes[q] + "it looks like " + from.name + " ("
				if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "); read it with "+from.method) {
					t.Errorf("%s/%s to the %s method: err = %v", from.dir, f, providerDirs[q].dir, err)
				}
			}
		}
	}
	for _, tc := range []struct{ raw, want string }{
		{`{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"echo","input":{}}]}`,
			`exec: OpenAI reply: it looks like an Anthropic Messages reply (it has "type":"message"); read it with AnthropicJSON or ParseAnthropic`},
		{`{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"echo","input":{}}]}`,
			`exec: Responses reply: it looks like an Anthropic Messages reply (it has a "tool_use" content block); read it with AnthropicJSON or ParseAnthropic`},
		{`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"echo","arguments":"{}"}}]}`,
			`exec: Anthropic reply: it looks like an OpenAI Chat Completions reply (it has "tool_calls"); read it with OpenAIChatJSON or ParseOpenAIChat`},
		{`{"role":"assistant","content":"Let me check.","refusal":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"echo","arguments":"{}"}}]}`,
			`exec: Anthropic reply: it looks like an OpenAI Chat Completions reply (it has "tool_calls"); read it with OpenAIChatJSON or ParseOpenAIChat`},
		{`{"object":"chat.completion","choices":[]}`,
			`exec: Gemini reply: it looks like an OpenAI Chat Completions reply (it has "object":"chat.completion"); read it with OpenAIChatJSON or ParseOpenAIChat`},
		{`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"echo","args":{}}}]}}]}`,
			`exec: Responses reply: it looks like a Gemini generateContent reply (it has "candidates"); read it with GeminiJSON or ParseGemini`},
		{`{"role":"model","parts":[{"text":"hi"}]}`,
			`exec: Anthropic reply: it looks like a Gemini generateContent reply (it has "parts"); read it with GeminiJSON or ParseGemini`},
		{`[{"functionCall":{"name":"echo","args":{}}}]`,
			`exec: OpenAI reply: it looks like a Gemini generateContent reply (it has a "functionCall" part); read it with GeminiJSON or ParseGemini`},
		{`{"object":"response","output":[{"type":"function_call","call_id":"c1","name":"echo","arguments":"{}"}]}`,
			`exec: Gemini reply: it looks like an OpenAI Responses reply (it has "object":"response"); read it with ResponsesJSON or ParseResponses`},
		{`[{"type":"function_call","call_id":"c1","name":"echo","arguments":"{}"}]`,
			`exec: Anthropic reply: it looks like an OpenAI Responses reply (it has a "function_call" item); read it with ResponsesJSON or ParseResponses`},
		{`{"role":"assistant","content":[{"type":"text","text":"a \\\" \"type\":\"text\" \\"},{"type":"tool_use","id":"t","name":"echo","input":{}}]}`,
			`exec: Gemini reply: it looks like an Anthropic Messages reply (it has a "tool_use" content block); read it with AnthropicJSON or ParseAnthropic`},
		{`[{"id":"c1","type":"function","function":{"name":"echo","arguments":"{}"}}]`,
			`exec: Gemini reply: it looks like an OpenAI Chat Completions reply (it has a tool call of type "function"); read it with OpenAIChatJSON or ParseOpenAIChat`},
	} {
		i := strings.Index(tc.want, " reply: ")
		q := map[string]int{"exec: OpenAI": 0, "exec: Responses": 1, "exec: Anthropic": 2, "exec: Gemini": 3}[tc.want[:i]]
		if err := replyErrors(e, []byte(tc.raw))[q]; err == nil || err.Error() != tc.want {
			t.Errorf("%s\nerr  = %v\nwant %s", tc.raw, err, tc.want)
		}
	}
}

// TestNoCallsInOwnShape: a reply in the method's own shape with no tool
// calls, or with nothing that names a provider, is an empty result and no
// error; so is a reply that names its own provider and another.
func TestNoCallsInOwnShape(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	ctx := context.Background()
	for _, raw := range []string{`{}`, `[]`, `{"role":"assistant"}`, `[{"type":"text","text":"hi"}]`, `[{}]`} {
		for q, err := range replyErrors(e, []byte(raw)) {
			if err != nil {
				t.Errorf("%s to the %s method: %v", raw, providerDirs[q].dir, err)
			}
		}
	}
	// Keys and values inside strings are not signs.
	quoted := `{"role":"assistant","content":"say \"type\":\"message\", \"candidates\" and \\\"output\\\""}`
	for q, err := range replyErrors(e, []byte(quoted)) {
		if q == 2 {
			if err == nil || strings.Contains(err.Error(), "looks like") {
				t.Errorf("%s to the anthropic method: %v", quoted, err) // content must be an array
			}
		} else if err != nil {
			t.Errorf("%s to the %s method: %v", quoted, providerDirs[q].dir, err)
		}
	}
	chat := []string{`{"role":"assistant","content":"hi","refusal":null}`,
		`{"object":"chat.completion","choices":[{"message":{"role":"assistant","content":"hi"}}]}`,
		`{"role":"assistant","content":[{"type":"text","text":"hi"}],"tool_calls":[]}`,
		`{"choices":[],"output":[],"type":"message","candidates":[]}`}
	for _, raw := range chat {
		if msgs, err := e.OpenAIChatJSON(ctx, []byte(raw)); err != nil || msgs == nil || len(msgs) != 0 {
			t.Errorf("chat %s: %v, %v", raw, msgs, err)
		}
	}
	responses := []string{`{"object":"response","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hi"}]}]}`,
		`[{"type":"reasoning","summary":[]},{"type":"message","content":[]}]`, `{"output":[]}`}
	for _, raw := range responses {
		if out, err := e.ResponsesJSON(ctx, []byte(raw)); err != nil || out == nil || len(out) != 0 {
			t.Errorf("responses %s: %v, %v", raw, out, err)
		}
	}
	anthropic := []string{`{"type":"message","role":"assistant","content":[{"type":"text","text":"hi"}]}`,
		`[{"type":"thinking","thinking":"hm"},{"type":"text","text":"hi"}]`}
	for _, raw := range anthropic {
		if msg, err := e.AnthropicJSON(ctx, []byte(raw)); err != nil || msg.Role != "user" || len(msg.Content) != 0 {
			t.Errorf("anthropic %s: %+v, %v", raw, msg, err)
		}
	}
	gemini := []string{`{"candidates":[{"content":{"role":"model","parts":[{"text":"hi"}]}}]}`,
		`{"role":"model","parts":[{"text":"hi","thought":true}]}`, `[{"text":"hi"}]`, `{"candidates":[]}`}
	for _, raw := range gemini {
		if c, err := e.GeminiJSON(ctx, []byte(raw)); err != nil || c.Role != "user" || len(c.Parts) != 0 {
			t.Errorf("gemini %s: %+v, %v", raw, c, err)
		}
	}
}
