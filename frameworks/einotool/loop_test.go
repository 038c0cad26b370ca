package einotool_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/flow/agent/react"
	"github.com/cloudwego/eino/schema"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/frameworks/einotool"
)

type WeatherArgs struct {
	City string `json:"city" jsonschema:"description=City name" validate:"required"`
	Unit string `json:"unit,omitempty" validate:"omitempty,oneof=celsius fahrenheit"`
}

func weather(_ context.Context, a WeatherArgs) (string, error) {
	return "18°C in " + a.City + ", light rain", nil
}

const badWeather = `invalid arguments for "get_weather": "unit" must be one of [celsius fahrenheit]`

func weatherRegistry(t testing.TB) *toolnexus.Registry {
	t.Helper()
	reg := toolnexus.NewRegistry()
	if err := toolnexus.Register(reg, "get_weather", "Current weather for a city.", weather); err != nil {
		t.Fatal(err)
	}
	return reg
}

func registryTools(t testing.TB, reg *toolnexus.Registry, opts *einotool.Options) []tool.BaseTool {
	t.Helper()
	tools, err := einotool.Tools(reg, opts)
	if err != nil {
		t.Fatal(err)
	}
	return tools
}

// retryScript is a bad call, a good retry and the final answer.
func retryScript() *scripted {
	return &scripted{replies: []*schema.Message{
		callTool("call_1", "get_weather", `{"city":"Paris","unit":"kelvin"}`),
		callTool("call_2", "get_weather", `{"city":"Paris","unit":"celsius"}`),
		schema.AssistantMessage("It is 18°C in Paris.", nil),
	}}
}

// chatAgent is an adk.ChatModelAgent over m with tools, run by a Runner
// that keeps checkpoints in store.
func chatAgent(t *testing.T, m *scripted, tools []tool.BaseTool, store adk.CheckPointStore) *adk.Runner {
	t.Helper()
	ctx := context.Background()
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name:        "assistant",
		Description: "answers weather questions",
		Model:       m,
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: tools}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent, CheckPointStore: store})
}

// drain reads an agent run's events: the messages in order, and the
// interrupt, if the run was interrupted. An event error fails the test.
func drain(t *testing.T, it *adk.AsyncIterator[*adk.AgentEvent]) (msgs []*schema.Message, interrupt *adk.InterruptInfo) {
	t.Helper()
	for {
		ev, ok := it.Next()
		if !ok {
			return msgs, interrupt
		}
		if ev.Err != nil {
			t.Fatalf("agent event error: %v", ev.Err)
		}
		if ev.Output != nil && ev.Output.MessageOutput != nil {
			msgs = append(msgs, ev.Output.MessageOutput.Message)
		}
		if ev.Action != nil && ev.Action.Interrupted != nil {
			interrupt = ev.Action.Interrupted
		}
	}
}

type turn struct {
	role    schema.RoleType
	content string
	call    string // the arguments of the assistant's tool call
}

func transcript(msgs []*schema.Message) []turn {
	out := make([]turn, len(msgs))
	for i, m := range msgs {
		out[i] = turn{role: m.Role, content: m.Content}
		if len(m.ToolCalls) == 1 {
			out[i].call = m.ToolCalls[0].Function.Arguments
		}
	}
	return out
}

func sameTurns(t *testing.T, got, want []turn) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("transcript has %d messages, want %d:\n%+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("message %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestChatModelAgentBadCallThenRetry(t *testing.T) {
	m := retryScript()
	runner := chatAgent(t, m, registryTools(t, weatherRegistry(t), nil), nil)
	msgs, interrupt := drain(t, runner.Query(context.Background(), "Weather in Paris?"))
	if interrupt != nil {
		t.Fatalf("run interrupted: %+v", interrupt)
	}
	sameTurns(t, transcript(msgs), []turn{
		{role: schema.Assistant, call: `{"city":"Paris","unit":"kelvin"}`},
		{role: schema.Tool, content: badWeather},
		{role: schema.Assistant, call: `{"city":"Paris","unit":"celsius"}`},
		{role: schema.Tool, content: "18°C in Paris, light rain"},
		{role: schema.Assistant, content: "It is 18°C in Paris."},
	})
	// The model read the registry's message as the tool result of its call.
	in := m.inputs[1]
	last := in[len(in)-1]
	if last.Role != schema.Tool || last.ToolCallID != "call_1" || last.Content != badWeather {
		t.Errorf("model's second input ends with %+v, want the tool result of call_1: %q", last, badWeather)
	}
}

func TestReactAgentBadCallThenRetry(t *testing.T) {
	ctx := context.Background()
	m := retryScript()
	agent, err := react.NewAgent(ctx, &react.AgentConfig{
		ToolCallingModel: m,
		ToolsConfig:      compose.ToolsNodeConfig{Tools: registryTools(t, weatherRegistry(t), nil)},
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err := agent.Generate(ctx, []*schema.Message{schema.UserMessage("Weather in Paris?")})
	if err != nil {
		t.Fatal(err)
	}
	if out.Content != "It is 18°C in Paris." {
		t.Errorf("final answer = %q", out.Content)
	}
	sameTurns(t, transcript(m.lastInput()), []turn{
		{role: schema.User, content: "Weather in Paris?"},
		{role: schema.Assistant, call: `{"city":"Paris","unit":"kelvin"}`},
		{role: schema.Tool, content: badWeather},
		{role: schema.Assistant, call: `{"city":"Paris","unit":"celsius"}`},
		{role: schema.Tool, content: "18°C in Paris, light rain"},
	})
}

// A panicking, failing or slow handler is a tool result the model reads;
// the run goes on, and the other call of the same turn keeps its result.
func TestFailingHandlers(t *testing.T) {
	type none struct{}
	reg := toolnexus.NewRegistryWith(&toolnexus.Options{Timeout: 20 * time.Millisecond})
	toolnexus.MustRegister(reg, "boom", "Panics.", func(context.Context, none) (string, error) { panic("kaboom") })
	toolnexus.MustRegister(reg, "fail", "Fails.", func(context.Context, none) (string, error) {
		return "", errors.New("disk full")
	})
	toolnexus.MustRegister(reg, "slow", "Sleeps.", func(ctx context.Context, _ none) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	})
	if err := toolnexus.Register(reg, "get_weather", "Current weather for a city.", weather); err != nil {
		t.Fatal(err)
	}
	m := &scripted{replies: []*schema.Message{
		schema.AssistantMessage("", []schema.ToolCall{
			{ID: "c1", Type: "function", Function: schema.FunctionCall{Name: "boom", Arguments: `{}`}},
			{ID: "c2", Type: "function", Function: schema.FunctionCall{Name: "fail", Arguments: `{}`}},
			{ID: "c3", Type: "function", Function: schema.FunctionCall{Name: "slow", Arguments: `{}`}},
			{ID: "c4", Type: "function", Function: schema.FunctionCall{Name: "get_weather", Arguments: `{"city":"Oslo"}`}},
			{ID: "c5", Type: "function", Function: schema.FunctionCall{Name: "get_weather", Arguments: `{"city":"Oslo","unit":"kelvin"}`}},
		}),
		schema.AssistantMessage("done", nil),
	}}
	msgs, _ := drain(t, chatAgent(t, m, registryTools(t, reg, nil), nil).Query(context.Background(), "go"))
	got := map[string]string{}
	for _, msg := range msgs {
		if msg.Role == schema.Tool {
			got[msg.ToolCallID] = msg.Content
		}
	}
	want := map[string]string{
		"c1": `tool "boom" failed: internal error`,
		"c2": "disk full",
		"c3": `tool "slow" timed out after 20ms`,
		"c4": "18°C in Oslo, light rain",
		"c5": badWeather,
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("tool result of %s = %q, want %q", id, got[id], w)
		}
	}
	if last := msgs[len(msgs)-1]; last.Content != "done" {
		t.Errorf("final answer = %q, want done", last.Content)
	}
}

func TestApprovalInterruptAndResume(t *testing.T) {
	for _, c := range []struct {
		name   string
		ok     bool
		result string
		runs   int
	}{
		{"approved", true, "deleted a.txt", 1},
		{"denied", false, `tool "delete_file" was denied`, 0},
	} {
		t.Run(c.name, func(t *testing.T) { approvalRun(t, c.ok, c.result, c.runs) })
	}
}

// approvalRun interrupts a run at a call that needs approval and resumes
// it with an answer whose OK is ok.
func approvalRun(t *testing.T, ok bool, result string, runs int) {
	ran := 0
	reg := toolnexus.NewRegistry()
	del, err := toolnexus.NewTool("delete_file", "Deletes a file.", func(_ context.Context, a struct {
		Path string `json:"path"`
	}) (string, error) {
		ran++
		return "deleted " + a.Path, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	del.NeedsApproval = true
	if err := reg.Add(del); err != nil {
		t.Fatal(err)
	}
	m := &scripted{replies: []*schema.Message{
		callTool("call_1", "delete_file", `{"path":"a.txt"}`),
		schema.AssistantMessage("a.txt is gone.", nil),
	}}
	ctx := context.Background()
	runner := chatAgent(t, m, registryTools(t, reg, nil), &memoryStore{})
	_, interrupt := drain(t, runner.Query(ctx, "delete a.txt", adk.WithCheckPointID("run-1")))
	if interrupt == nil {
		t.Fatal("run not interrupted")
	}
	if ran != 0 {
		t.Fatal("tool ran before its approval")
	}
	target, p, at := rootCause(interrupt)
	if p.Kind != toolnexus.PendingKindApproval || p.ID != toolnexus.ApprovalID("delete_file", []byte(`{"path":"a.txt"}`)) {
		t.Fatalf("interrupt info = %+v, want the approval request of the call", p)
	}
	if at.Type != adk.AddressSegmentTool || at.ID != "delete_file" || at.SubID != "call_1" {
		t.Errorf("interrupt address ends with %+v, want the tool call call_1 of delete_file", at)
	}
	// Resumed without an answer, the call interrupts again.
	again, err := runner.Resume(ctx, "run-1")
	if err != nil {
		t.Fatal(err)
	}
	_, interrupt = drain(t, again)
	if interrupt == nil || ran != 0 {
		t.Fatalf("resumed without an answer: interrupt %v, tool ran %d times", interrupt, ran)
	}
	target, again2, _ := rootCause(interrupt)
	if again2.ID != p.ID || string(again2.Data) != string(p.Data) {
		t.Errorf("interrupted again with %+v, want %+v", again2, p)
	}
	it, err := runner.ResumeWithParams(ctx, "run-1", &adk.ResumeParams{
		Targets: map[string]any{target: toolnexus.Answer{ID: p.ID, OK: ok}},
	})
	if err != nil {
		t.Fatal(err)
	}
	msgs, interrupt := drain(t, it)
	if interrupt != nil {
		t.Fatalf("resumed run interrupted again: %+v", interrupt)
	}
	sameTurns(t, transcript(msgs), []turn{
		{role: schema.Tool, content: result},
		{role: schema.Assistant, content: "a.txt is gone."},
	})
	if ran != runs {
		t.Errorf("tool ran %d times, want %d", ran, runs)
	}
}

func TestOptionsApprover(t *testing.T) {
	reg := toolnexus.NewRegistry()
	del, err := toolnexus.NewTool("delete_file", "Deletes a file.", func(context.Context, struct {
		Path string `json:"path"`
	}) (string, error) {
		t.Error("denied tool ran")
		return "", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	del.NeedsApproval = true
	if err := reg.Add(del); err != nil {
		t.Fatal(err)
	}
	var asked toolnexus.ApprovalRequest
	opts := &einotool.Options{Approver: func(_ context.Context, req toolnexus.ApprovalRequest) toolnexus.Approval {
		asked = req
		return toolnexus.Approval{Decision: toolnexus.Deny, Reason: "not on Fridays"}
	}}
	m := &scripted{replies: []*schema.Message{
		callTool("call_7", "delete_file", `{"path":"a.txt"}`),
		schema.AssistantMessage("I may not.", nil),
	}}
	msgs, _ := drain(t, chatAgent(t, m, registryTools(t, reg, opts), nil).Query(context.Background(), "delete a.txt"))
	sameTurns(t, transcript(msgs), []turn{
		{role: schema.Assistant, call: `{"path":"a.txt"}`},
		{role: schema.Tool, content: `tool "delete_file" was denied: not on Fridays`},
		{role: schema.Assistant, content: "I may not."},
	})
	if asked.CallID != "call_7" || asked.Tool != "delete_file" || string(asked.Arguments) != `{"path":"a.txt"}` {
		t.Errorf("approval request = %+v, want call_7's", asked)
	}
}

// rootCause is the interrupt's root cause: its ID, its info and the last
// segment of its address.
func rootCause(interrupt *adk.InterruptInfo) (id string, p toolnexus.PendingRequest, at adk.AddressSegment) {
	for _, ic := range interrupt.InterruptContexts {
		if ic.IsRootCause {
			p, _ = ic.Info.(toolnexus.PendingRequest)
			return ic.ID, p, ic.Address[len(ic.Address)-1]
		}
	}
	return "", p, at
}

// A tool's progress events reach a receiver attached to the run's context.
func TestEventsThroughTheRun(t *testing.T) {
	reg := toolnexus.NewRegistry()
	toolnexus.MustRegister(reg, "work", "Works.", func(ctx context.Context, _ struct{}) (string, error) {
		toolnexus.ReportProgress(ctx, 1, 2, "half")
		return "done", nil
	})
	var got []toolnexus.Event
	ctx := toolnexus.WithEvents(context.Background(), func(e toolnexus.Event) { got = append(got, e) })
	m := &scripted{replies: []*schema.Message{callTool("c1", "work", `{}`), schema.AssistantMessage("ok", nil)}}
	drain(t, chatAgent(t, m, registryTools(t, reg, nil), nil).Query(ctx, "work"))
	if len(got) != 1 || got[0].Kind != toolnexus.EventProgress || got[0].Progress != 1 || got[0].Total != 2 || got[0].Message != "half" {
		t.Errorf("events = %+v, want one progress event 1/2 \"half\"", got)
	}
}
