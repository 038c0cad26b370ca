package langchaintool_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/schema"
	"github.com/toolnexus/toolnexus/frameworks/langchaintool"
)

// TestGenerateContentLoop runs langchaingo's OpenAI client against a
// scripted server: a bad call, the registry's message in the tool message,
// a good retry, the final answer. The server's transcript shows each step.
func TestGenerateContentLoop(t *testing.T) {
	ctx := context.Background()
	reg := weatherRegistry(t)
	llm, srv := newModel(t,
		func(request) string { return toolCall("call_1", "get_weather", `{"city":"Paris","unit":"kelvin"}`) },
		func(req request) string {
			if m := lastMessage(req); m.Role != "tool" || m.text() != "error: "+badUnit {
				t.Errorf("turn 2: the last message is %s %q, want the tool message with the registry's message", m.Role, m.text())
				return answer("the tool message did not arrive")
			}
			return toolCall("call_2", "get_weather", `{"city":"Paris","unit":"celsius"}`)
		},
		func(req request) string { return answer("It is 18°C in Paris: " + lastMessage(req).text()) },
	)

	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "What is the weather in Paris?")}
	defs := langchaintool.Definitions(reg)
	var final string
	for turn := 0; turn < 5 && final == ""; turn++ {
		resp, err := llm.GenerateContent(ctx, msgs, llms.WithTools(defs))
		if err != nil {
			t.Fatal(err)
		}
		choice := resp.Choices[0]
		if len(choice.ToolCalls) == 0 {
			final = choice.Content
			break
		}
		results, err := langchaintool.Execute(ctx, reg, resp, nil)
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, assistantMessage(choice))
		msgs = append(msgs, results...)
	}
	if want := "It is 18°C in Paris: 18°C, light rain in Paris"; final != want {
		t.Fatalf("final answer %q, want %q", final, want)
	}

	reqs := srv.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	// The transcript the server received last: user, the bad call, its
	// error, the good call, its result.
	got := reqs[2].Messages
	want := []struct{ role, callID, content string }{
		{"user", "", ""},
		{"assistant", "", ""},
		{"tool", "call_1", "error: " + badUnit},
		{"assistant", "", ""},
		{"tool", "call_2", "18°C, light rain in Paris"},
	}
	if len(got) != len(want) {
		t.Fatalf("last request has %d messages, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].Role != w.role || got[i].ToolCallID != w.callID || (w.role == "tool" && got[i].text() != w.content) {
			t.Errorf("message %d = %s %q %q, want %s %q %q", i, got[i].Role, got[i].ToolCallID, got[i].text(), w.role, w.callID, w.content)
		}
	}
	if calls := got[1].ToolCalls; len(calls) != 1 || calls[0].ID != "call_1" || calls[0].Function.Arguments != `{"city":"Paris","unit":"kelvin"}` {
		t.Errorf("assistant message 1 tool calls = %+v", calls)
	}
}

// TestDefinitionsExactSchema checks the request body langchaingo's OpenAI
// client sends: each tool's parameters are the registry's schema bytes.
func TestDefinitionsExactSchema(t *testing.T) {
	reg := weatherRegistry(t)
	llm, srv := newModel(t, func(request) string { return answer("ok") })
	if _, err := llm.GenerateContent(context.Background(),
		[]llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hi")},
		llms.WithTools(langchaintool.Definitions(reg))); err != nil {
		t.Fatal(err)
	}
	tool, _ := reg.Get("get_weather")
	tools := srv.requests()[0].Tools
	if len(tools) != 1 {
		t.Fatalf("%d tools sent, want 1", len(tools))
	}
	got := tools[0]
	if got.Type != "function" || got.Function.Name != "get_weather" || got.Function.Description != "Current weather for a city." {
		t.Errorf("tool = %s %q %q", got.Type, got.Function.Name, got.Function.Description)
	}
	if string(got.Function.Parameters) != string(tool.InputSchema) {
		t.Errorf("parameters sent\n%s\nwant the registry's schema\n%s", got.Function.Parameters, tool.InputSchema)
	}
	const want = `{"type":"object","properties":{"city":{"type":"string","description":"City name","minLength":1},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city"],"additionalProperties":false}`
	if string(got.Function.Parameters) != want {
		t.Errorf("parameters sent\n%s\nwant\n%s", got.Function.Parameters, want)
	}
}

// TestOpenAIFunctionsAgentLoop runs agents.NewOpenAIFunctionsAgent with
// Tools(reg) under agents.NewExecutor against the scripted server: the bad
// call's observation is the registry's message, the retry succeeds, and the
// executor's intermediate steps are the transcript.
func TestOpenAIFunctionsAgentLoop(t *testing.T) {
	ctx := context.Background()
	reg := weatherRegistry(t)
	arg1 := func(args string) string {
		b, _ := json.Marshal(map[string]string{"__arg1": args})
		return string(b)
	}
	llm, srv := newModel(t,
		func(req request) string {
			return toolCall("call_1", "get_weather", arg1(`{"city":"Paris","unit":"kelvin"}`))
		},
		func(req request) string {
			if m := lastMessage(req); m.Role != "tool" || m.ToolCallID != "call_1" || m.text() != "error: "+badUnit {
				t.Errorf("turn 2: the last message is %s %q %q, want the tool message with the registry's message", m.Role, m.ToolCallID, m.text())
				return answer("the tool message did not arrive")
			}
			return toolCall("call_2", "get_weather", arg1(`{"city":"Paris"}`))
		},
		func(req request) string { return answer("Paris: " + lastMessage(req).text()) },
	)

	agent := agents.NewOpenAIFunctionsAgent(llm, langchaintool.Tools(reg, nil))
	executor := agents.NewExecutor(agent, agents.WithMaxIterations(5), agents.WithReturnIntermediateSteps())
	out, err := chains.Call(ctx, executor, map[string]any{"input": "What is the weather in Paris?"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out["output"], "Paris: 18°C, light rain in Paris"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	steps, _ := out["intermediateSteps"].([]schema.AgentStep)
	if len(steps) != 2 {
		t.Fatalf("%d intermediate steps, want 2: %+v", len(steps), out)
	}
	wantSteps := []struct{ id, input, observation string }{
		{"call_1", `{"city":"Paris","unit":"kelvin"}`, "error: " + badUnit},
		{"call_2", `{"city":"Paris"}`, "18°C, light rain in Paris"},
	}
	for i, w := range wantSteps {
		s := steps[i]
		if s.Action.Tool != "get_weather" || s.Action.ToolID != w.id || s.Action.ToolInput != w.input || s.Observation != w.observation {
			t.Errorf("step %d = %s %s %q -> %q, want get_weather %s %q -> %q",
				i, s.Action.Tool, s.Action.ToolID, s.Action.ToolInput, s.Observation, w.id, w.input, w.observation)
		}
	}

	// What the model was shown: the agent's own one-string parameter, and
	// the registry's schema in the description Tools wrote.
	tool, _ := reg.Get("get_weather")
	sent := srv.requests()[0].Tools
	if len(sent) != 1 {
		t.Fatalf("%d tools sent, want 1", len(sent))
	}
	wantDesc := "Current weather for a city.\nInput: one JSON object matching this JSON Schema: " + string(tool.InputSchema)
	if sent[0].Function.Description != wantDesc {
		t.Errorf("description sent\n%s\nwant\n%s", sent[0].Function.Description, wantDesc)
	}
	if !strings.Contains(string(sent[0].Function.Parameters), `"__arg1"`) {
		t.Errorf("parameters sent %s, want the agent's __arg1 parameter", sent[0].Function.Parameters)
	}
}
