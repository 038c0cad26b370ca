package langchaintool_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/tools"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	"github.com/toolnexus/toolnexus/frameworks/langchaintool"
	"github.com/toolnexus/toolnexus/render"
)

// reply is a ContentResponse whose one choice asks for calls, each an
// id, a name and the arguments text.
func reply(calls ...[3]string) *llms.ContentResponse {
	choice := &llms.ContentChoice{}
	for _, c := range calls {
		choice.ToolCalls = append(choice.ToolCalls, llms.ToolCall{ID: c[0], Type: "function",
			FunctionCall: &llms.FunctionCall{Name: c[1], Arguments: c[2]}})
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{choice}}
}

// responses are the (id, name, content) of tool-response messages, checking
// their shape.
func responses(t *testing.T, msgs []llms.MessageContent) [][3]string {
	t.Helper()
	out := make([][3]string, len(msgs))
	for i, m := range msgs {
		if m.Role != llms.ChatMessageTypeTool || len(m.Parts) != 1 {
			t.Fatalf("message %d: role %s with %d parts, want one tool part", i, m.Role, len(m.Parts))
		}
		p, ok := m.Parts[0].(llms.ToolCallResponse)
		if !ok {
			t.Fatalf("message %d: part %T, want llms.ToolCallResponse", i, m.Parts[0])
		}
		out[i] = [3]string{p.ToolCallID, p.Name, p.Content}
	}
	return out
}

func equal(t *testing.T, got, want [][3]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d messages %q, want %d %q", len(got), got, len(want), want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("message %d = %q, want %q", i, got[i], want[i])
		}
	}
}

// addRaw adds a raw tool with an empty schema whose handler is fn.
func addRaw(t *testing.T, reg *toolnexus.Registry, tool toolnexus.Tool, fn func(context.Context, json.RawMessage) (string, error)) {
	t.Helper()
	tool.Handler = toolnexus.HandlerFunc(fn)
	if err := reg.Add(tool); err != nil {
		t.Fatal(err)
	}
}

// TestExecuteOneBadCallCostsItself: a panic, a handler error, bad
// arguments, an unknown tool and a call without a function each answer with
// the registry's message, in call order, and the good calls beside them run.
func TestExecuteOneBadCallCostsItself(t *testing.T) {
	reg := weatherRegistry(t)
	addRaw(t, reg, toolnexus.Tool{Name: "boom"}, func(context.Context, json.RawMessage) (string, error) { panic("boom") })
	addRaw(t, reg, toolnexus.Tool{Name: "fail"}, func(context.Context, json.RawMessage) (string, error) { return "", errors.New("disk full") })
	resp := reply(
		[3]string{"c1", "boom", `{}`},
		[3]string{"c2", "fail", `{}`},
		[3]string{"c3", "get_weather", `{"city":"Paris","unit":"kelvin"}`},
		[3]string{"c4", "get_wether", `{}`},
		[3]string{"c5", "get_weather", `{"city":"Oslo"}`},
	)
	resp.Choices[0].ToolCalls = append(resp.Choices[0].ToolCalls,
		llms.ToolCall{ID: "c6", Type: "function"},
		// as llms/googleai and llms/anthropic set them: no type, and no id (googleai)
		llms.ToolCall{FunctionCall: &llms.FunctionCall{Name: "get_weather", Arguments: `{"city":"Rome"}`}})
	msgs, err := langchaintool.Execute(context.Background(), reg, resp, nil)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, responses(t, msgs), [][3]string{
		{"c1", "boom", `error: tool "boom" failed: internal error`},
		{"c2", "fail", `error: disk full`},
		{"c3", "get_weather", "error: " + badUnit},
		{"c4", "get_wether", `error: unknown tool "get_wether"; available tools: boom, fail, get_weather`},
		{"c5", "get_weather", "18°C, light rain in Oslo"},
		{"c6", "", `error: unknown tool ""; available tools: boom, fail, get_weather`},
		{"", "get_weather", "18°C, light rain in Rome"},
	})
}

func TestExecuteNothingToRun(t *testing.T) {
	reg := weatherRegistry(t)
	for _, resp := range []*llms.ContentResponse{nil, {}, {Choices: []*llms.ContentChoice{nil}}, {Choices: []*llms.ContentChoice{{Content: "done"}}}} {
		msgs, err := langchaintool.Execute(context.Background(), reg, resp, nil)
		if msgs != nil || err != nil {
			t.Errorf("Execute(%+v) = %v, %v; want nil, nil", resp, msgs, err)
		}
	}
}

// TestToolsFailures: through a tools.Tool, every failure is the
// observation text and Call's error is nil, so agents.Executor goes on.
func TestToolsFailures(t *testing.T) {
	reg := weatherRegistry(t)
	addRaw(t, reg, toolnexus.Tool{Name: "boom"}, func(context.Context, json.RawMessage) (string, error) { panic("boom") })
	addRaw(t, reg, toolnexus.Tool{Name: "fail"}, func(context.Context, json.RawMessage) (string, error) { return "", errors.New("disk full") })
	addRaw(t, reg, toolnexus.Tool{Name: "slow", Timeout: 20 * time.Millisecond}, func(ctx context.Context, _ json.RawMessage) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	})
	byName := map[string]tools.Tool{}
	for _, tl := range langchaintool.Tools(reg, nil) {
		byName[tl.Name()] = tl
	}
	for _, c := range []struct{ tool, input, want string }{
		{"boom", `{}`, `error: tool "boom" failed: internal error`},
		{"fail", ``, `error: disk full`},
		{"slow", `{}`, `error: tool "slow" timed out after 20ms`},
		{"get_weather", `{"city":"Paris","unit":"kelvin"}`, "error: " + badUnit},
		{"get_weather", `city=Paris`, `error: invalid arguments for "get_weather": arguments are not valid JSON (send one JSON object)`},
		{"get_weather", "{\"city\":\"Paris\"}\n", "18°C, light rain in Paris"},
	} {
		got, err := byName[c.tool].Call(context.Background(), c.input)
		if got != c.want || err != nil {
			t.Errorf("%s.Call(%q) = %q, %v; want %q, nil", c.tool, c.input, got, err, c.want)
		}
	}
}

// TestApprovals: exec.Options.Approver decides with the call id (Execute)
// or none (Tools); without an approver the call is a pending request whose
// text is the tool result, and the tool does not run.
func TestApprovals(t *testing.T) {
	type RemoveArgs struct {
		Path string `json:"path" validate:"required"`
	}
	var mu sync.Mutex
	var removed []string
	reg := toolnexus.NewRegistry()
	tool, err := toolnexus.NewTool("remove_file", "Removes a file.", func(_ context.Context, a RemoveArgs) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		removed = append(removed, a.Path)
		return "removed " + a.Path, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tool.NeedsApproval = true
	if err := reg.Add(tool); err != nil {
		t.Fatal(err)
	}
	var asked []toolnexus.ApprovalRequest
	approver := func(_ context.Context, req toolnexus.ApprovalRequest) toolnexus.Approval {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, req)
		if strings.Contains(string(req.Arguments), "keep") {
			return toolnexus.Approval{Decision: toolnexus.Deny, Reason: "that file stays"}
		}
		return toolnexus.Approval{Decision: toolnexus.Approve}
	}
	ctx := context.Background()

	msgs, err := langchaintool.Execute(ctx, reg, reply(
		[3]string{"call_a", "remove_file", `{"path":"tmp.txt"}`},
		[3]string{"call_b", "remove_file", `{"path":"keep.txt"}`},
	), &exec.Options{Approver: approver, Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	equal(t, responses(t, msgs), [][3]string{
		{"call_a", "remove_file", "removed tmp.txt"},
		{"call_b", "remove_file", `error: tool "remove_file" was denied: that file stays`},
	})
	if len(asked) != 2 || asked[0].CallID != "call_a" || asked[1].CallID != "call_b" || string(asked[0].Arguments) != `{"path":"tmp.txt"}` {
		t.Errorf("approver asked %+v", asked)
	}

	agentTool := langchaintool.Tools(reg, &exec.Options{Approver: approver})[0]
	if got, _ := agentTool.Call(ctx, `{"path":"log.txt"}`); got != "removed log.txt" {
		t.Errorf("approved agent call = %q", got)
	}
	if last := asked[len(asked)-1]; last.CallID != "" || last.Tool != "remove_file" {
		t.Errorf("agent call's approval request %+v, want CallID \"\"", last)
	}

	// No approver: pending, and the host finds the request in an After hook.
	var pending []*toolnexus.PendingRequest
	after := func(_ context.Context, _ exec.Call, res *exec.Result) {
		if p, ok := toolnexus.PendingFrom(res.Result); ok {
			pending = append(pending, p)
		}
	}
	msgs, err = langchaintool.Execute(ctx, reg, reply([3]string{"call_c", "remove_file", `{"path":"a.txt"}`}), &exec.Options{After: after})
	if err != nil {
		t.Fatal(err)
	}
	equal(t, responses(t, msgs), [][3]string{{"call_c", "remove_file", `waiting for a person to approve the call of "remove_file"`}})
	if got, _ := langchaintool.Tools(reg, nil)[0].Call(ctx, `{"path":"b.txt"}`); got != `waiting for a person to approve the call of "remove_file"` {
		t.Errorf("unapproved agent call = %q", got)
	}
	if len(pending) != 1 || pending[0].Kind != toolnexus.PendingKindApproval {
		t.Errorf("pending requests %+v, want one approval", pending)
	}
	if strings.Join(removed, ",") != "tmp.txt,log.txt" {
		t.Errorf("removed %q, want tmp.txt,log.txt", removed)
	}
}

// TestRichResultsAsText: content parts and structured results reach
// langchaingo as toolnexus.Result.Text; the registry's output cap applies.
func TestRichResultsAsText(t *testing.T) {
	reg := toolnexus.NewRegistryWith(&toolnexus.Options{MaxOutputBytes: 64})
	type None struct{}
	if err := toolnexus.RegisterResult(reg, "chart", "Draws a chart.", func(context.Context, None) toolnexus.Result {
		return toolnexus.ContentResult(toolnexus.TextPart("the chart:"), toolnexus.ImagePart("image/png", make([]byte, 10)))
	}); err != nil {
		t.Fatal(err)
	}
	type Point struct {
		X int `json:"x"`
		Y int `json:"y"`
	}
	if err := toolnexus.RegisterOutput(reg, "point", "A point.", func(context.Context, None) (Point, error) { return Point{1, 2}, nil }); err != nil {
		t.Fatal(err)
	}
	addRaw(t, reg, toolnexus.Tool{Name: "long"}, func(context.Context, json.RawMessage) (string, error) { return strings.Repeat("a", 200), nil })
	msgs, err := langchaintool.Execute(context.Background(), reg, reply(
		[3]string{"1", "chart", `{}`}, [3]string{"2", "point", `{}`}, [3]string{"3", "long", `{}`}), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := responses(t, msgs)
	if want := "the chart:\n[image: image/png, 10 bytes]"; got[0][2] != want {
		t.Errorf("chart = %q, want %q", got[0][2], want)
	}
	if want := `{"x":1,"y":2}`; got[1][2] != want {
		t.Errorf("point = %q, want %q", got[1][2], want)
	}
	if c := got[2][2]; len(c) > 64 || !strings.Contains(c, "bytes truncated") {
		t.Errorf("long = %q (%d bytes), want at most 64 bytes with the truncation note", c, len(c))
	}
}

// TestFreeformTool: a freeform tool takes the agent's text as its input.
func TestFreeformTool(t *testing.T) {
	reg := toolnexus.NewRegistry()
	tool, err := toolnexus.NewFreeform("run_sql", "Runs one SQL query.",
		toolnexus.Format{Type: "grammar", Syntax: "regex", Definition: `SELECT \d+`},
		func(_ context.Context, input string) (string, error) { return "ran " + input, nil })
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Add(tool); err != nil {
		t.Fatal(err)
	}
	agentTool := langchaintool.Tools(reg, nil)[0]
	if want := "Runs one SQL query.\nInput: raw text. It must match this regex grammar:\nSELECT \\d+"; agentTool.Description() != want {
		t.Errorf("description %q, want %q", agentTool.Description(), want)
	}
	if got, err := agentTool.Call(context.Background(), `SELECT "1"`); got != `ran SELECT "1"` || err != nil {
		t.Errorf("Call = %q, %v", got, err)
	}
	// Through Definitions and Execute, it is a function with its {"input"} schema.
	def := langchaintool.Definitions(reg)[0].Function
	if string(def.Parameters.(json.RawMessage)) != string(tool.InputSchema) {
		t.Errorf("parameters %s, want %s", def.Parameters, tool.InputSchema)
	}
	msgs, _ := langchaintool.Execute(context.Background(), reg, reply([3]string{"1", "run_sql", `{"input":"SELECT 2"}`}), nil)
	equal(t, responses(t, msgs), [][3]string{{"1", "run_sql", "ran SELECT 2"}})
}

// TestDefinitionsSchemaBytes: a tool without a schema is sent
// {"type":"object"}; encoding/json escapes <, > and & in the schema it
// sends (the same JSON value, other bytes).
func TestDefinitionsSchemaBytes(t *testing.T) {
	reg := toolnexus.NewRegistry()
	const schema = `{"type":"object","properties":{"q":{"type":"string","description":"a <b> & c"}}}`
	noop := func(context.Context, json.RawMessage) (string, error) { return "", nil }
	addRaw(t, reg, toolnexus.Tool{Name: "bare", Description: "No arguments."}, noop)
	addRaw(t, reg, toolnexus.Tool{Name: "html", Description: "d", InputSchema: json.RawMessage(schema)}, noop)
	llm, srv := newModel(t, func(request) string { return answer("ok") })
	if _, err := llm.GenerateContent(context.Background(),
		[]llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hi")},
		llms.WithTools(langchaintool.Definitions(reg))); err != nil {
		t.Fatal(err)
	}
	sent := srv.requests()[0].Tools
	if len(sent) != 2 {
		t.Fatalf("%d tools sent", len(sent))
	}
	if got := string(sent[0].Function.Parameters); got != `{"type":"object"}` {
		t.Errorf("bare parameters %s", got)
	}
	if got, want := string(sent[1].Function.Parameters), `{"type":"object","properties":{"q":{"type":"string","description":"a \u003cb\u003e \u0026 c"}}}`; got != want {
		t.Errorf("html parameters\n%s\nwant\n%s", got, want)
	}
	var a, b any
	_ = json.Unmarshal(sent[1].Function.Parameters, &a)
	_ = json.Unmarshal([]byte(schema), &b)
	if ja, _ := json.Marshal(a); string(ja) != string(mustMarshal(b)) {
		t.Errorf("html parameters are another JSON value: %s", ja)
	}
}

func mustMarshal(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// upper is a langchaingo tool as its users write one.
type upper struct{}

func (upper) Name() string        { return "upper" }
func (upper) Description() string { return "Upper-cases the input." }
func (upper) Call(_ context.Context, input string) (string, error) {
	if input == "" {
		return "", errors.New("nothing to upper-case")
	}
	return strings.ToUpper(input), nil
}

// TestFromTools: langchaingo tools (its own Calculator and a hand-written
// one) in a registry: checked by the registry, rendered for OpenAI.
func TestFromTools(t *testing.T) {
	list, err := langchaintool.FromTools(tools.Calculator{}, upper{})
	if err != nil {
		t.Fatal(err)
	}
	reg := toolnexus.NewRegistry()
	if err := reg.Add(list...); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		tool, args, want string
		isError          bool
	}{
		{"calculator", `{"input":"2+3*4"}`, "14", false},
		{"calculator", `{"expr":"2+3*4"}`, `invalid arguments for "calculator": unknown property "expr"; allowed: input; "input" is required`, true},
		{"calculator", `{"input":7}`, `invalid arguments for "calculator": "input" must be a string, got a number`, true},
		{"upper", `{"input":"paris"}`, "PARIS", false},
		{"upper", `{"input":""}`, "nothing to upper-case", true},
	} {
		res := reg.Execute(ctx, c.tool, json.RawMessage(c.args))
		if res.Output != c.want || res.IsError != c.isError {
			t.Errorf("%s %s = %q (error %v), want %q (error %v)", c.tool, c.args, res.Output, res.IsError, c.want, c.isError)
		}
	}
	if tl, _ := reg.Get("upper"); tl.Source != "langchaingo" {
		t.Errorf("Source %q", tl.Source)
	}
	tl, _ := reg.Get("upper")
	got, err := json.Marshal(render.OpenAI([]toolnexus.Tool{tl}))
	if err != nil {
		t.Fatal(err)
	}
	const want = `[{"type":"function","function":{"name":"upper","description":"Upper-cases the input.","parameters":{"type":"object","properties":{"input":{"type":"string","description":"The tool's input text."}},"required":["input"],"additionalProperties":false}}}]`
	if string(got) != want {
		t.Errorf("render.OpenAI\n%s\nwant\n%s", got, want)
	}
	if _, err := langchaintool.FromTools(longDescription{}); err == nil {
		t.Error("FromTools took a description over 1024 characters")
	}
}

type longDescription struct{ upper }

func (longDescription) Description() string {
	return strings.Repeat("x", toolnexus.MaxDescriptionLength+1)
}

// TestExecuteContextDone: when ctx is done the messages are still complete
// (each call answered), and the error says the batch was cut short.
func TestExecuteContextDone(t *testing.T) {
	reg := weatherRegistry(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	msgs, err := langchaintool.Execute(ctx, reg, reply([3]string{"c1", "get_weather", `{"city":"Paris"}`}), nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	got := responses(t, msgs)
	if len(got) != 1 || got[0][0] != "c1" || !strings.HasPrefix(got[0][2], "error: ") {
		t.Errorf("messages %q, want one error answer for c1", got)
	}
}
