package langchaintool_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"
	"github.com/toolnexus/toolnexus"
)

// WeatherArgs are the arguments of the get_weather tool the tests register.
type WeatherArgs struct {
	City string `json:"city" jsonschema:"description=City name" validate:"required"`
	Unit string `json:"unit,omitempty" validate:"omitempty,oneof=celsius fahrenheit"`
}

func weather(_ context.Context, a WeatherArgs) (string, error) {
	return "18°C, light rain in " + a.City, nil
}

// badUnit is the registry's message for get_weather called with unit "kelvin".
const badUnit = `invalid arguments for "get_weather": "unit" must be one of [celsius fahrenheit]`

func weatherRegistry(t testing.TB) *toolnexus.Registry {
	t.Helper()
	reg := toolnexus.NewRegistry()
	if err := toolnexus.Register(reg, "get_weather", "Current weather for a city.", weather); err != nil {
		t.Fatal(err)
	}
	return reg
}

// request is the part of a Chat Completions request body the tests read.
type request struct {
	Messages []message `json:"messages"`
	Tools    []struct {
		Type     string `json:"type"`
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
}

type message struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// text is the message's content as a string ("" when it is not one).
func (m message) text() string {
	var s string
	_ = json.Unmarshal(m.Content, &s)
	return s
}

// chatServer is a loopback stand-in for the Chat Completions endpoint.
// Each request is answered by the next turn of the script, given the
// decoded request; the raw bodies are kept as the transcript.
type chatServer struct {
	t      *testing.T
	script []func(req request) string // each returns an assistant message's JSON

	mu     sync.Mutex
	bodies [][]byte
}

func (s *chatServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil || r.URL.Path != "/chat/completions" {
		s.t.Errorf("request %s: %v", r.URL.Path, err)
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	turn := len(s.bodies) - 1
	s.mu.Unlock()
	if turn >= len(s.script) {
		s.t.Errorf("request %d: the script has %d turns", turn+1, len(s.script))
		http.Error(w, "no more turns", http.StatusInternalServerError)
		return
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		s.t.Errorf("request %d: %v", turn+1, err)
	}
	finish := "stop"
	msg := s.script[turn](req)
	if containsToolCalls(msg) {
		finish = "tool_calls"
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o",`+
		`"choices":[{"index":0,"message":`+msg+`,"finish_reason":"`+finish+`"}],`+
		`"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
}

func containsToolCalls(msg string) bool {
	var m message
	return json.Unmarshal([]byte(msg), &m) == nil && len(m.ToolCalls) > 0
}

// requests returns the decoded request bodies received so far.
func (s *chatServer) requests() []request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]request, len(s.bodies))
	for i, b := range s.bodies {
		if err := json.Unmarshal(b, &out[i]); err != nil {
			s.t.Fatal(err)
		}
	}
	return out
}

// newModel starts the server and returns langchaingo's OpenAI client
// pointed at it.
func newModel(t *testing.T, script ...func(req request) string) (*openai.LLM, *chatServer) {
	t.Helper()
	s := &chatServer{t: t, script: script}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	llm, err := openai.New(openai.WithToken("test-key"), openai.WithBaseURL(srv.URL), openai.WithModel("gpt-4o"))
	if err != nil {
		t.Fatal(err)
	}
	return llm, s
}

// toolCall is an assistant message with one function tool call.
func toolCall(id, name, arguments string) string {
	b, _ := json.Marshal(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{
		map[string]any{"id": id, "type": "function", "function": map[string]string{"name": name, "arguments": arguments}},
	}})
	return string(b)
}

// answer is an assistant message with text content.
func answer(text string) string {
	b, _ := json.Marshal(map[string]string{"role": "assistant", "content": text})
	return string(b)
}

// lastMessage is the last message of req ({} when there is none).
func lastMessage(req request) message {
	if len(req.Messages) == 0 {
		return message{}
	}
	return req.Messages[len(req.Messages)-1]
}

// assistantMessage is the llms.MessageContent that echoes choice's tool
// calls, to append before their tool responses.
func assistantMessage(choice *llms.ContentChoice) llms.MessageContent {
	parts := make([]llms.ContentPart, len(choice.ToolCalls))
	for i, tc := range choice.ToolCalls {
		parts[i] = tc
	}
	return llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: parts}
}
