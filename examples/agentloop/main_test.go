package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/exec"
)

var update = flag.Bool("update", false, "rewrite testdata/<provider>/turn<N>.request.golden.json")

// runScripted runs one provider's loop against its scripted server and
// returns the final answer and the request bodies the SDK sent.
func runScripted(t *testing.T, name string) (string, [][]byte) {
	t.Helper()
	var p provider
	for _, q := range providers {
		if q.name == name {
			p = q
		}
	}
	reg, err := newRegistry()
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewScript(p.name, p.path, p.check)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	answer, err := p.run(context.Background(), s.Server.URL, exec.New(reg, nil), reg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	const want = "Paris: 22C and sunny. Tokyo: the weather tool only accepts celsius or fahrenheit, so I could not get it in kelvin."
	if answer != want {
		t.Errorf("final answer = %q, want %q", answer, want)
	}
	reqs := s.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (tool turn, answer turn)", len(reqs))
	}
	return answer, reqs
}

// compareGolden compares body byte for byte with
// testdata/<provider>/turn<N>.request.golden.json.
func compareGolden(t *testing.T, provider string, turn int, body []byte) {
	t.Helper()
	if !json.Valid(body) {
		t.Fatalf("turn %d request is not JSON: %s", turn, body)
	}
	path := filepath.Join("testdata", provider, "turn"+string(rune('0'+turn))+".request.golden.json")
	if *update {
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run: go test -run %s -update)", err, t.Name())
	}
	if !bytes.Equal(body, want) {
		t.Errorf("turn %d request body differs from %s\n got: %s\nwant: %s\nto accept: go test -run %s -update",
			turn, path, body, want, t.Name())
	}
}

const badUnit = `invalid arguments for "get_weather": "unit" must be one of [celsius fahrenheit]`

func TestOpenAILoop(t *testing.T) {
	_, reqs := runScripted(t, "openai")
	compareGolden(t, "openai", 1, reqs[0])
	compareGolden(t, "openai", 2, reqs[1])

	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			ToolCalls  []struct {
				ID string `json:"id"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name       string          `json:"name"`
				Parameters json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(reqs[1], &req); err != nil {
		t.Fatal(err)
	}
	m := req.Messages
	if len(m) != 4 || m[0].Role != "user" || m[1].Role != "assistant" || m[2].Role != "tool" || m[3].Role != "tool" {
		t.Fatalf("turn 2 messages: %s", reqs[1])
	}
	if len(m[1].ToolCalls) != 2 || m[1].ToolCalls[0].ID != "call_Paris01" || m[1].ToolCalls[1].ID != "call_Tokyo02" {
		t.Errorf("assistant tool_calls not echoed: %+v", m[1].ToolCalls)
	}
	if m[2].ToolCallID != "call_Paris01" || string(m[2].Content) != `"22C and sunny"` {
		t.Errorf("first tool message = %s %s", m[2].ToolCallID, m[2].Content)
	}
	if m[3].ToolCallID != "call_Tokyo02" || string(m[3].Content) != quoteJSON(exec.ErrorPrefix+badUnit) {
		t.Errorf("second tool message = %s %s", m[3].ToolCallID, m[3].Content)
	}
	if len(req.Tools) != 1 || req.Tools[0].Function.Name != "get_weather" ||
		!strings.HasPrefix(string(req.Tools[0].Function.Parameters), `{"type":"object","properties":{"city":`) {
		t.Errorf("tools not sent with the schema bytes in order: %+v", req.Tools)
	}
}

func TestResponsesLoop(t *testing.T) {
	_, reqs := runScripted(t, "openai_responses")
	compareGolden(t, "openai_responses", 1, reqs[0])
	compareGolden(t, "openai_responses", 2, reqs[1])

	var req struct {
		Input []struct {
			Type   string          `json:"type"`
			Role   string          `json:"role"`
			CallID string          `json:"call_id"`
			Output json.RawMessage `json:"output"`
		} `json:"input"`
	}
	if err := json.Unmarshal(reqs[1], &req); err != nil {
		t.Fatal(err)
	}
	in := req.Input
	if len(in) != 5 || in[0].Role != "user" || in[1].Type != "function_call" || in[2].Type != "function_call" {
		t.Fatalf("turn 2 input: %s", reqs[1])
	}
	if in[1].CallID != "call_Paris01" || in[2].CallID != "call_Tokyo02" {
		t.Errorf("function_call items not echoed: %s", reqs[1])
	}
	if in[3].Type != "function_call_output" || in[3].CallID != "call_Paris01" || string(in[3].Output) != `"22C and sunny"` {
		t.Errorf("first output = %+v %s", in[3], in[3].Output)
	}
	if in[4].Type != "function_call_output" || in[4].CallID != "call_Tokyo02" || string(in[4].Output) != quoteJSON(exec.ErrorPrefix+badUnit) {
		t.Errorf("second output = %+v %s", in[4], in[4].Output)
	}
}

func TestAnthropicLoop(t *testing.T) {
	_, reqs := runScripted(t, "anthropic")
	compareGolden(t, "anthropic", 1, reqs[0])
	compareGolden(t, "anthropic", 2, reqs[1])

	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content []struct {
				Type      string          `json:"type"`
				ID        string          `json:"id"`
				ToolUseID string          `json:"tool_use_id"`
				Content   json.RawMessage `json:"content"`
				IsError   *bool           `json:"is_error"`
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(reqs[1], &req); err != nil {
		t.Fatal(err)
	}
	m := req.Messages
	if len(m) != 3 || m[0].Role != "user" || m[1].Role != "assistant" || m[2].Role != "user" {
		t.Fatalf("turn 2 messages: %s", reqs[1])
	}
	if len(m[1].Content) != 3 || m[1].Content[1].ID != "toolu_01Paris" || m[1].Content[2].ID != "toolu_02Tokyo" {
		t.Errorf("assistant turn not echoed: %+v", m[1].Content)
	}
	res := m[2].Content
	if len(res) != 2 {
		t.Fatalf("want ONE user message with 2 tool_result blocks, got %+v", res)
	}
	// anthropic.NewToolResultBlock sends content as one text block and an
	// explicit is_error.
	if res[0].Type != "tool_result" || res[0].ToolUseID != "toolu_01Paris" ||
		string(res[0].Content) != `[{"text":"22C and sunny","type":"text"}]` || res[0].IsError == nil || *res[0].IsError {
		t.Errorf("first tool_result = %+v %s", res[0], res[0].Content)
	}
	if res[1].Type != "tool_result" || res[1].ToolUseID != "toolu_02Tokyo" ||
		string(res[1].Content) != `[{"text":`+quoteJSON(badUnit)+`,"type":"text"}]` || res[1].IsError == nil || !*res[1].IsError {
		t.Errorf("second tool_result = %+v %s", res[1], res[1].Content)
	}
}

func TestGeminiLoop(t *testing.T) {
	_, reqs := runScripted(t, "gemini")
	compareGolden(t, "gemini", 1, reqs[0])
	compareGolden(t, "gemini", 2, reqs[1])

	var req struct {
		Contents []struct {
			Role  string `json:"role"`
			Parts []struct {
				ThoughtSignature string `json:"thoughtSignature"`
				FunctionCall     *struct {
					ID string `json:"id"`
				} `json:"functionCall"`
				FunctionResponse *struct {
					ID       string                     `json:"id"`
					Name     string                     `json:"name"`
					Response map[string]json.RawMessage `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(reqs[1], &req); err != nil {
		t.Fatal(err)
	}
	c := req.Contents
	if len(c) != 3 || c[0].Role != "user" || c[1].Role != "model" || c[2].Role != "user" {
		t.Fatalf("turn 2 contents: %s", reqs[1])
	}
	if len(c[1].Parts) != 2 || c[1].Parts[0].ThoughtSignature != "c2lnbmF0dXJlLTE=" || c[1].Parts[0].FunctionCall.ID != "fc_paris" {
		t.Errorf("model turn not echoed with its thought signature: %s", reqs[1])
	}
	p := c[2].Parts
	if len(p) != 2 || p[0].FunctionResponse == nil || p[1].FunctionResponse == nil {
		t.Fatalf("want 2 functionResponse parts in one user content: %s", reqs[1])
	}
	r0, r1 := p[0].FunctionResponse, p[1].FunctionResponse
	if r0.ID != "fc_paris" || r0.Name != "get_weather" || len(r0.Response) != 1 || string(r0.Response["output"]) != `"22C and sunny"` {
		t.Errorf("first functionResponse = %+v", r0)
	}
	if r1.ID != "fc_tokyo" || r1.Name != "get_weather" || len(r1.Response) != 1 || string(r1.Response["error"]) != quoteJSON(badUnit) {
		t.Errorf("second functionResponse = %+v", r1)
	}
}

// TestChecks: the scripted servers reject a turn that leaves a tool call
// unanswered, as the real APIs do, so a loop that loses a call fails.
func TestChecks(t *testing.T) {
	read := func(p string) []byte {
		b, err := recorded.ReadFile("testdata/" + p + "/turn1.response.json")
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		name  string
		check func(body, prev []byte) error
		body  string
	}{
		{"openai", checkOpenAI, `{"messages":[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"call_Paris01","content":"x"}]}`},
		{"openai_responses", checkResponses, `{"input":[{"type":"function_call_output","call_id":"call_Tokyo02","output":"x"}]}`},
		{"anthropic", checkAnthropic, `{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_02Tokyo"},{"type":"tool_result","tool_use_id":"toolu_01Paris"}]}]}`},
		{"gemini", checkGemini, `{"contents":[{"role":"user","parts":[{"functionResponse":{"id":"fc_paris"}}]}]}`},
	} {
		if err := tc.check([]byte(tc.body), read(tc.name)); err == nil {
			t.Errorf("%s: check accepted a turn that loses a call", tc.name)
		}
	}
}

// TestSmoke runs the program as `go run .` does.
func TestSmoke(t *testing.T) {
	var out, logs bytes.Buffer
	if err := run(context.Background(), &out, &logs); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"== openai", "== openai_responses", "== anthropic", "== gemini",
		"tool call_Tokyo02 -> error: " + badUnit,
		"tool toolu_02Tokyo -> " + badUnit + " (is_error true)",
		`tool fc_tokyo -> {"error":` + quoteJSON(badUnit) + `}`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "assistant: Paris: 22C and sunny."); n != 4 {
		t.Errorf("%d final answers, want 4:\n%s", n, got)
	}
	l := logs.String()
	if strings.Count(l, `msg="tool call"`) != 8 || strings.Count(l, "error_kind=invalid_arguments") != 4 {
		t.Errorf("log:\n%s", l)
	}
	if strings.Contains(l, "city") || strings.Contains(l, "kelvin") || strings.Contains(l, "sunny") || strings.Contains(l, "celsius") {
		t.Errorf("log leaks arguments or outputs:\n%s", l)
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
