package anthropicrunner_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	anthropic "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/interop/anthropicrunner"
)

// model is a loopback stand-in for the Messages API: it records each
// request body and answers with the next scripted reply.
type model struct {
	srv     *httptest.Server
	mu      sync.Mutex
	replies []string
	bodies  [][]byte
}

func newModel(t *testing.T, replies ...string) *model {
	t.Helper()
	m := &model{replies: replies}
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		m.mu.Lock()
		defer m.mu.Unlock()
		m.bodies = append(m.bodies, b)
		if len(m.replies) == 0 {
			http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"script ended"}}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, m.replies[0])
		m.replies = m.replies[1:]
	}))
	t.Cleanup(m.srv.Close)
	return m
}

// request returns request i as decoded JSON.
func (m *model) request(t *testing.T, i int) map[string]json.RawMessage {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if i >= len(m.bodies) {
		t.Fatalf("server got %d requests, want more than %d", len(m.bodies), i)
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(m.bodies[i], &body); err != nil {
		t.Fatalf("request %d: %v\n%s", i, err, m.bodies[i])
	}
	return body
}

func (m *model) client(t *testing.T) anthropic.Client {
	for _, k := range []string{"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_AUTH_TOKEN"} {
		t.Setenv(k, "")
	}
	return anthropic.NewClient(option.WithoutEnvironmentDefaults(), option.WithBaseURL(m.srv.URL),
		option.WithAPIKey("test"), option.WithMaxRetries(0))
}

// toolUse is a scripted reply calling tool with input.
func toolUse(id, tool, input string) string {
	return `{"id":"msg_` + id + `","type":"message","role":"assistant","model":"claude-test",` +
		`"content":[{"type":"tool_use","id":"` + id + `","name":"` + tool + `","input":` + input + `}],` +
		`"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`
}

// endTurn is a scripted final reply.
func endTurn(text string) string {
	return `{"id":"msg_end","type":"message","role":"assistant","model":"claude-test",` +
		`"content":[{"type":"text","text":"` + text + `"}],` +
		`"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`
}

type WeatherArgs struct {
	City string `json:"city" jsonschema:"description=City name" validate:"required"`
	Unit string `json:"unit,omitempty" validate:"omitempty,oneof=celsius fahrenheit"`
}

func weatherRegistry(t testing.TB) *toolnexus.Registry {
	reg := toolnexus.NewRegistry()
	if err := toolnexus.Register(reg, "get_weather", "Current weather for a city.",
		func(ctx context.Context, a WeatherArgs) (string, error) { return "18°C in " + a.City, nil }); err != nil {
		t.Fatal(err)
	}
	return reg
}

func params(prompt string) anthropic.BetaToolRunnerParams {
	return anthropic.BetaToolRunnerParams{BetaMessageNewParams: anthropic.BetaMessageNewParams{
		Model: "claude-test", MaxTokens: 256,
		Messages: []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock(prompt))},
	}}
}

// toolResult returns the only tool_result block of the last message of
// the runner's transcript.
func toolResult(t *testing.T, msgs []anthropic.BetaMessageParam, i int) *anthropic.BetaToolResultBlockParam {
	t.Helper()
	if i >= len(msgs) {
		t.Fatalf("transcript has %d messages, want more than %d", len(msgs), i)
	}
	m := msgs[i].OfUser
	if m == nil || len(m.Content) != 1 || m.Content[0].OfToolResult == nil {
		data, _ := json.Marshal(msgs[i])
		t.Fatalf("message %d is not one tool_result: %s", i, data)
	}
	return m.Content[0].OfToolResult
}

func resultText(t *testing.T, r *anthropic.BetaToolResultBlockParam) string {
	t.Helper()
	if len(r.Content) != 1 || r.Content[0].OfText == nil {
		data, _ := json.Marshal(r)
		t.Fatalf("tool_result is not one text block: %s", data)
	}
	return r.Content[0].OfText.Text
}

// TestRunnerLoop: in the runner's own loop, a bad call reaches the model
// as a tool_result with is_error and the registry's message, the retry
// runs, and the final answer arrives.
func TestRunnerLoop(t *testing.T) {
	reg := weatherRegistry(t)
	const bad = `{"city":"Paris","unit":"kelvin"}`
	want := reg.Execute(context.Background(), "get_weather", json.RawMessage(bad)).Output
	if want != `invalid arguments for "get_weather": "unit" must be one of [celsius fahrenheit]` {
		t.Fatalf("registry message changed: %q", want)
	}
	m := newModel(t, toolUse("toolu_1", "get_weather", bad), toolUse("toolu_2", "get_weather", `{"city":"Paris"}`), endTurn("It is 18°C in Paris."))
	tools, err := anthropicrunner.Tools(reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := m.client(t)
	runner := client.Beta.Messages.NewToolRunner(tools, params("Weather in Paris, in kelvin?"))
	final, err := runner.RunToCompletion(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(final.Content) != 1 || final.Content[0].Text != "It is 18°C in Paris." {
		t.Fatalf("final message: %+v", final.Content)
	}
	msgs := runner.Messages() // user, assistant, tool_result, assistant, tool_result, assistant
	if len(msgs) != 6 {
		t.Fatalf("transcript has %d messages, want 6", len(msgs))
	}
	first := toolResult(t, msgs, 2)
	if first.ToolUseID != "toolu_1" || !first.IsError.Value || resultText(t, first) != "Error: "+want {
		t.Errorf("bad call's tool_result: id %q is_error %v text %q", first.ToolUseID, first.IsError, resultText(t, first))
	}
	second := toolResult(t, msgs, 4)
	if second.ToolUseID != "toolu_2" || second.IsError.Value || resultText(t, second) != "18°C in Paris" {
		t.Errorf("good call's tool_result: id %q is_error %v text %q", second.ToolUseID, second.IsError, resultText(t, second))
	}
	// What went on the wire: the second request carries the bad call's
	// tool_result as the runner sent it.
	var sent []struct {
		Role    string `json:"role"`
		Content []struct {
			Type      string `json:"type"`
			ToolUseID string `json:"tool_use_id"`
			IsError   bool   `json:"is_error"`
			Content   []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"content"`
	}
	if err := json.Unmarshal(m.request(t, 1)["messages"], &sent); err != nil {
		t.Fatal(err)
	}
	last := sent[len(sent)-1]
	if last.Role != "user" || len(last.Content) != 1 || last.Content[0].Type != "tool_result" ||
		!last.Content[0].IsError || len(last.Content[0].Content) != 1 || last.Content[0].Content[0].Text != "Error: "+want {
		t.Errorf("second request's last message: %s", m.request(t, 1)["messages"])
	}
}
