package anthropicrunner_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	anthropic "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/toolnexus/toolnexus/interop/anthropicrunner"
)

// sse is a streamed Messages reply: one content block, then stopReason.
func sse(block, delta, stopReason string) string {
	events := [][2]string{
		{"message_start", `{"type":"message_start","message":{"id":"msg_s","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}`},
		{"content_block_start", `{"type":"content_block_start","index":0,"content_block":` + block + `}`},
		{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":` + delta + `}`},
		{"content_block_stop", `{"type":"content_block_stop","index":0}`},
		{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"` + stopReason + `","stop_sequence":null},"usage":{"output_tokens":1}}`},
		{"message_stop", `{"type":"message_stop"}`},
	}
	var b strings.Builder
	for _, e := range events {
		b.WriteString("event: " + e[0] + "\ndata: " + e[1] + "\n\n")
	}
	return b.String()
}

func streamedToolUse(id, input string) string {
	partial, _ := json.Marshal(input)
	return sse(`{"type":"tool_use","id":"`+id+`","name":"get_weather","input":{}}`,
		`{"type":"input_json_delta","partial_json":`+string(partial)+`}`, "tool_use")
}

// TestStreamingRunnerLoop: the same tools in the streaming runner's loop.
func TestStreamingRunnerLoop(t *testing.T) {
	reg := weatherRegistry(t)
	replies := []string{
		streamedToolUse("toolu_1", `{"city":"Paris","unit":"kelvin"}`),
		streamedToolUse("toolu_2", `{"city":"Paris"}`),
		sse(`{"type":"text","text":""}`, `{"type":"text_delta","text":"It is 18°C in Paris."}`, "end_turn"),
	}
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		defer mu.Unlock()
		if len(replies) == 0 {
			http.Error(w, "script ended", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, replies[0])
		replies = replies[1:]
	}))
	defer srv.Close()
	for _, k := range []string{"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_AUTH_TOKEN"} {
		t.Setenv(k, "")
	}
	client := anthropic.NewClient(option.WithoutEnvironmentDefaults(), option.WithBaseURL(srv.URL),
		option.WithAPIKey("test"), option.WithMaxRetries(0))
	tools, err := anthropicrunner.Tools(reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	runner := client.Beta.Messages.NewToolRunnerStreaming(tools, params("Weather in Paris, in kelvin?"))
	for events, err := range runner.AllStreaming(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		for _, err := range events {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := runner.Err(); err != nil {
		t.Fatal(err)
	}
	msgs := runner.Messages()
	if len(msgs) != 6 {
		t.Fatalf("transcript has %d messages, want 6", len(msgs))
	}
	want := `Error: invalid arguments for "get_weather": "unit" must be one of [celsius fahrenheit]`
	if r := toolResult(t, msgs, 2); !r.IsError.Value || resultText(t, r) != want {
		t.Errorf("bad call: is_error %v text %q", r.IsError, resultText(t, r))
	}
	if r := toolResult(t, msgs, 4); r.IsError.Value || resultText(t, r) != "18°C in Paris" {
		t.Errorf("retry: is_error %v text %q", r.IsError, resultText(t, r))
	}
	if last := runner.LastMessage(); last == nil || len(last.Content) != 1 || last.Content[0].Text != "It is 18°C in Paris." {
		t.Errorf("final message: %+v", last)
	}
}
