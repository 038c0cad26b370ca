package genkittool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/frameworks/genkittool"
	"github.com/toolnexus/toolnexus/render"
)

type WeatherArgs struct {
	City string `json:"city" validate:"required"`
	Unit string `json:"unit,omitempty" validate:"omitempty,oneof=celsius fahrenheit"`
}

func weather(_ context.Context, a WeatherArgs) (string, error) {
	return "18°C, light rain in " + a.City, nil
}

func weatherRegistry(t testing.TB) *toolnexus.Registry {
	t.Helper()
	reg := toolnexus.NewRegistry()
	if err := toolnexus.Register(reg, "get_weather", "Current weather for a city.", weather); err != nil {
		t.Fatal(err)
	}
	return reg
}

// scripted is a model for genkit.DefineModel: turn i (the number of tool
// messages in the request) answers with the tool requests calls[i], and
// once the calls are used up with the text of the last tool response.
// Every request it receives is recorded.
type scripted struct {
	calls    [][]*ai.ToolRequest
	requests []*ai.ModelRequest
}

func (s *scripted) generate(_ context.Context, req *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
	s.requests = append(s.requests, req)
	turn := 0
	var last any
	for _, m := range req.Messages {
		if m.Role == ai.RoleTool {
			turn++
			last = m.Content[0].ToolResponse.Output
		}
	}
	if turn < len(s.calls) {
		msg := ai.NewMessage(ai.RoleModel, nil)
		for _, c := range s.calls[turn] {
			msg.Content = append(msg.Content, ai.NewToolRequestPart(c))
		}
		return &ai.ModelResponse{Request: req, FinishReason: ai.FinishReasonStop, Message: msg}, nil
	}
	return &ai.ModelResponse{Request: req, FinishReason: ai.FinishReasonStop,
		Message: ai.NewModelTextMessage(fmt.Sprint("done: ", last))}, nil
}

func newGenkit(t testing.TB, s *scripted) (*genkit.Genkit, ai.Model) {
	t.Helper()
	g := genkit.Init(context.Background())
	m := genkit.DefineModel(g, "test/scripted", &ai.ModelOptions{
		Supports: &ai.ModelSupports{Tools: true, Multiturn: true, ToolChoice: true},
	}, s.generate)
	return g, m
}

func call(ref, name string, input map[string]any) *ai.ToolRequest {
	return &ai.ToolRequest{Ref: ref, Name: name, Input: input}
}

// toolOutputs returns the outputs of the tool responses in a transcript, in order.
func toolOutputs(msgs []*ai.Message) []any {
	var out []any
	for _, m := range msgs {
		for _, p := range m.Content {
			if p.IsToolResponse() {
				out = append(out, p.ToolResponse.Output)
			}
		}
	}
	return out
}

func TestGenerateBadCallThenRetry(t *testing.T) {
	ctx := context.Background()
	reg := weatherRegistry(t)
	s := &scripted{calls: [][]*ai.ToolRequest{
		{call("1", "get_weather", map[string]any{"city": "Paris", "unit": "kelvin"})},
		{call("2", "get_weather", map[string]any{"city": "Paris"})},
	}}
	g, m := newGenkit(t, s)
	tools, err := genkittool.Define(g, reg)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := genkit.Generate(ctx, g, ai.WithModel(m), ai.WithPrompt("Weather in Paris?"), ai.WithTools(toolRefs(tools)...))
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if got, want := resp.Text(), "done: 18°C, light rain in Paris"; got != want {
		t.Errorf("final text = %q, want %q", got, want)
	}
	want := []any{
		`invalid arguments for "get_weather": "unit" must be one of [celsius fahrenheit]`,
		"18°C, light rain in Paris",
	}
	if got := toolOutputs(resp.History()); !reflect.DeepEqual(got, want) {
		t.Errorf("tool responses in the history = %q, want %q", got, want)
	}
	var roles []ai.Role
	for _, msg := range resp.History() {
		roles = append(roles, msg.Role)
	}
	if want := []ai.Role{ai.RoleUser, ai.RoleModel, ai.RoleTool, ai.RoleModel, ai.RoleTool, ai.RoleModel}; !reflect.DeepEqual(roles, want) {
		t.Errorf("roles = %v, want %v", roles, want)
	}
	if len(s.requests) != 3 {
		t.Fatalf("model called %d times, want 3", len(s.requests))
	}
}

func TestOneBadCallCostsOnlyItself(t *testing.T) {
	ctx := context.Background()
	reg := weatherRegistry(t)
	// Genkit runs the tool requests of one turn concurrently.
	s := &scripted{calls: [][]*ai.ToolRequest{{
		call("bad", "get_weather", map[string]any{"unit": "celsius", "days": 3}),
		call("good", "get_weather", map[string]any{"city": "Oslo"}),
		call("native", "get_time", map[string]any{}),
	}}}
	g, m := newGenkit(t, s)
	tools, err := genkittool.Define(g, reg)
	if err != nil {
		t.Fatal(err)
	}
	// get_time is a native Genkit tool beside the registry's.
	native := genkit.DefineTool(g, "get_time", "The time.", func(*ai.ToolContext, struct{}) (string, error) { return "noon", nil })
	resp, err := genkit.Generate(ctx, g, ai.WithModel(m), ai.WithPrompt("go"), ai.WithTools(append(toolRefs(tools), native)...))
	if err != nil {
		t.Fatalf("Generate aborted: %v", err)
	}
	got := map[string]any{}
	for _, msg := range resp.History() {
		for _, p := range msg.Content {
			if p.IsToolResponse() {
				got[p.ToolResponse.Ref] = p.ToolResponse.Output
			}
		}
	}
	want := map[string]any{
		"bad":    `invalid arguments for "get_weather": unknown property "days"; allowed: city, unit; "city" is required`,
		"good":   "18°C, light rain in Oslo",
		"native": "noon",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tool responses by ref = %q, want %q", got, want)
	}
}

// TestNativeToolAbortsOnBadCall shows what Define replaces: a tool made by
// genkit.DefineTool checks its input against its own schema and a bad call
// ends the whole generation with an error the model never sees.
func TestNativeToolAbortsOnBadCall(t *testing.T) {
	s := &scripted{calls: [][]*ai.ToolRequest{{call("1", "native_weather", map[string]any{"city": 7})}}}
	g, m := newGenkit(t, s)
	native := genkit.DefineTool(g, "native_weather", "Weather.", func(tc *ai.ToolContext, a WeatherArgs) (string, error) {
		return weather(tc, a)
	})
	_, err := genkit.Generate(context.Background(), g, ai.WithModel(m), ai.WithPrompt("go"), ai.WithTools(native))
	want := "tool \"native_weather\" failed: error calling tool native_weather: data did not match expected schema:\n- city: Invalid type. Expected: string, given: integer"
	if err == nil || err.Error() != want {
		t.Fatalf("Generate with a bad call of a native tool: %v\nwant error %q", err, want)
	}
}

func toolRefs(tools []ai.Tool) []ai.ToolRef {
	refs := make([]ai.ToolRef, len(tools))
	for i, t := range tools {
		refs[i] = t
	}
	return refs
}

// canonical decodes JSON keeping numbers as written, for comparing JSON
// values regardless of key order.
func canonical(t *testing.T, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
	return v
}

func TestInputSchemaReachesModel(t *testing.T) {
	ctx := context.Background()
	reg := weatherRegistry(t)
	// A raw tool whose schema has a bound no float64 holds, a pattern and a
	// nested object: every keyword and value must reach the model.
	raw := json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer","maximum":9007199254740993},` +
		`"code":{"type":"string","pattern":"^[A-Z]{3}$"},"opts":{"type":"object","properties":{"n":{"type":"number","multipleOf":0.1}},"additionalProperties":false}},` +
		`"required":["id"],"additionalProperties":false}`)
	if err := reg.Add(toolnexus.Tool{Name: "lookup", Description: "Look up an id.", InputSchema: raw,
		Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "ok", nil })}); err != nil {
		t.Fatal(err)
	}
	s := &scripted{}
	g, m := newGenkit(t, s)
	tools, err := genkittool.Define(g, reg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := genkit.Generate(ctx, g, ai.WithModel(m), ai.WithPrompt("hi"), ai.WithTools(toolRefs(tools)...)); err != nil {
		t.Fatal(err)
	}
	sent := map[string]*ai.ToolDefinition{}
	for _, d := range s.requests[0].Tools {
		sent[d.Name] = d
	}
	for _, tool := range reg.Tools() {
		d := sent[tool.Name]
		if d == nil {
			t.Fatalf("tool %q not in the model request", tool.Name)
		}
		if d.Description != tool.Description {
			t.Errorf("%s: description %q, want %q", tool.Name, d.Description, tool.Description)
		}
		got, err := json.Marshal(d.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(canonical(t, got), canonical(t, tool.InputSchema)) {
			t.Errorf("%s: input schema sent\n%s\nwant\n%s", tool.Name, got, tool.InputSchema)
		}
	}
	// The one thing a Go map cannot carry: key order. Marshalled, Genkit's
	// schema has its keys sorted.
	got, _ := json.Marshal(sent["get_weather"].InputSchema)
	if want := `{"additionalProperties":false,"properties":{"city":{"minLength":1,"type":"string"},"unit":{"enum":["celsius","fahrenheit"],"type":"string"}},"required":["city"],"type":"object"}`; string(got) != want {
		t.Errorf("get_weather schema as sent = %s, want %s", got, want)
	}
	if !strings.Contains(string(mustMarshal(t, sent["lookup"].InputSchema)), `"maximum":9007199254740993`) {
		t.Errorf("lookup schema lost the exact bound: %s", mustMarshal(t, sent["lookup"].InputSchema))
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestFailingAndPanickingHandlers(t *testing.T) {
	ctx := context.Background()
	reg := toolnexus.NewRegistryWith(&toolnexus.Options{Timeout: 50 * time.Millisecond})
	type none struct{}
	toolnexus.MustRegister(reg, "fails", "Always fails.", func(context.Context, none) (string, error) {
		return "", errors.New("disk full")
	})
	toolnexus.MustRegister(reg, "panics", "Always panics.", func(context.Context, none) (string, error) {
		panic("boom")
	})
	toolnexus.MustRegister(reg, "sleeps", "Outlives its timeout.", func(ctx context.Context, _ none) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	})
	s := &scripted{calls: [][]*ai.ToolRequest{
		{call("1", "fails", map[string]any{})},
		{call("2", "panics", map[string]any{})},
		{call("3", "sleeps", map[string]any{})},
	}}
	g, m := newGenkit(t, s)
	tools, err := genkittool.Define(g, reg)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := genkit.Generate(ctx, g, ai.WithModel(m), ai.WithPrompt("go"), ai.WithTools(toolRefs(tools)...))
	if err != nil {
		t.Fatalf("Generate aborted: %v", err)
	}
	want := []any{
		"disk full",
		`tool "panics" failed: internal error`,
		`tool "sleeps" timed out after 50ms`,
	}
	if got := toolOutputs(resp.History()); !reflect.DeepEqual(got, want) {
		t.Errorf("tool responses = %q, want %q", got, want)
	}
	if got, want := resp.Text(), `done: tool "sleeps" timed out after 50ms`; got != want {
		t.Errorf("final text = %q, want %q", got, want)
	}
}

func approvalRegistry(t *testing.T) (*toolnexus.Registry, *int) {
	t.Helper()
	reg := toolnexus.NewRegistry()
	type DeleteArgs struct {
		Path string `json:"path" validate:"required"`
	}
	runs := new(int)
	tool, err := toolnexus.NewTool("delete_file", "Delete a file.", func(_ context.Context, a DeleteArgs) (string, error) {
		*runs++
		return "deleted " + a.Path, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tool.NeedsApproval = true
	if err := reg.Add(tool); err != nil {
		t.Fatal(err)
	}
	return reg, runs
}

func TestApprovalInterruptsAndResumes(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		ok     bool
		output string
		runs   int
	}{
		{"approved", true, "deleted a.txt", 1},
		{"denied", false, `tool "delete_file" was denied`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg, runs := approvalRegistry(t)
			s := &scripted{calls: [][]*ai.ToolRequest{{call("1", "delete_file", map[string]any{"path": "a.txt"})}}}
			g, m := newGenkit(t, s)
			tools, err := genkittool.Define(g, reg)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := genkit.Generate(ctx, g, ai.WithModel(m), ai.WithPrompt("delete a.txt"), ai.WithTools(toolRefs(tools)...))
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if resp.FinishReason != ai.FinishReasonInterrupted {
				t.Fatalf("finish reason %q, want %q", resp.FinishReason, ai.FinishReasonInterrupted)
			}
			parts := resp.Interrupts()
			if len(parts) != 1 {
				t.Fatalf("%d interrupts, want 1", len(parts))
			}
			p, ok := ai.InterruptAs[toolnexus.PendingRequest](parts[0])
			if !ok {
				t.Fatalf("interrupt metadata %v is not a pending request", parts[0].Metadata)
			}
			if p.Kind != toolnexus.PendingKindApproval || p.Prompt != `Allow the tool "delete_file" to run with the arguments {"path":"a.txt"}?` {
				t.Errorf("pending request = %+v", p)
			}
			if *runs != 0 {
				t.Fatal("the tool ran before it was approved")
			}

			resumed := toolnexus.WithAnswer(ctx, toolnexus.Answer{ID: p.ID, OK: tc.ok})
			resp, err = genkit.Generate(resumed, g, ai.WithModel(m), ai.WithMessages(resp.History()...),
				ai.WithTools(toolRefs(tools)...), ai.WithToolRestarts(tools[0].Restart(parts[0], nil)))
			if err != nil {
				t.Fatalf("resumed Generate: %v", err)
			}
			if got := toolOutputs(resp.History()); !reflect.DeepEqual(got, []any{tc.output}) {
				t.Errorf("tool responses = %q, want [%q]", got, tc.output)
			}
			if got, want := resp.Text(), "done: "+tc.output; got != want {
				t.Errorf("final text = %q, want %q", got, want)
			}
			if *runs != tc.runs {
				t.Errorf("tool ran %d times, want %d", *runs, tc.runs)
			}
		})
	}
}

func TestApproverInContext(t *testing.T) {
	reg, runs := approvalRegistry(t)
	s := &scripted{calls: [][]*ai.ToolRequest{{call("1", "delete_file", map[string]any{"path": "b.txt"})}}}
	g, m := newGenkit(t, s)
	tools, err := genkittool.Define(g, reg)
	if err != nil {
		t.Fatal(err)
	}
	var asked []toolnexus.ApprovalRequest
	ctx := toolnexus.WithApprover(context.Background(), "", func(_ context.Context, req toolnexus.ApprovalRequest) toolnexus.Approval {
		asked = append(asked, req)
		return toolnexus.Approval{Decision: toolnexus.Approve}
	})
	resp, err := genkit.Generate(ctx, g, ai.WithModel(m), ai.WithPrompt("delete b.txt"), ai.WithTools(toolRefs(tools)...))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := resp.Text(), "done: deleted b.txt"; got != want {
		t.Errorf("final text = %q, want %q", got, want)
	}
	if *runs != 1 || len(asked) != 1 || string(asked[0].Arguments) != `{"path":"b.txt"}` {
		t.Errorf("runs %d, approver asked %+v", *runs, asked)
	}
}

func TestRichResults(t *testing.T) {
	ctx := context.Background()
	reg := toolnexus.NewRegistry()
	type none struct{}
	png := []byte("\x89PNG\r\n")
	if err := toolnexus.RegisterResult(reg, "chart", "Draws a chart.", func(context.Context, none) toolnexus.Result {
		return toolnexus.ContentResult(toolnexus.TextPart("the chart:"), toolnexus.ImagePart("image/png", png),
			toolnexus.ResourceLinkPart("file:///data.csv", "data.csv", "text/csv"))
	}); err != nil {
		t.Fatal(err)
	}
	type Sum struct {
		Total int `json:"total"`
	}
	if err := toolnexus.RegisterOutput(reg, "sum", "Adds.", func(context.Context, none) (Sum, error) {
		return Sum{Total: 3}, nil
	}); err != nil {
		t.Fatal(err)
	}
	g, _ := newGenkit(t, &scripted{})
	if _, err := genkittool.Define(g, reg); err != nil {
		t.Fatal(err)
	}
	// The generate loop calls RunRawMultipart with the tool request's input.
	resp, err := genkit.LookupTool(g, "chart").RunRawMultipart(ctx, map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "the chart:\n[image: image/png, 6 bytes]\n[resource link: file:///data.csv, text/csv]"; resp.Output != want {
		t.Errorf("chart output = %q, want %q", resp.Output, want)
	}
	if len(resp.Content) != 3 {
		t.Fatalf("chart content = %v", resp.Content)
	}
	if p := resp.Content[0]; !p.IsText() || p.Text != "the chart:" {
		t.Errorf("part 0 = %+v", p)
	}
	if p := resp.Content[1]; !p.IsMedia() || p.ContentType != "image/png" || p.Text != "data:image/png;base64,iVBORw0K" {
		t.Errorf("part 1 = %+v", p)
	}
	if p := resp.Content[2]; !p.IsResource() || p.Resource.Uri != "file:///data.csv" {
		t.Errorf("part 2 = %+v", p)
	}
	out, err := genkit.LookupTool(g, "sum").RunRaw(ctx, map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]any{"total": float64(3)}; !reflect.DeepEqual(out, want) {
		t.Errorf("sum output = %#v, want %#v", out, want)
	}
}

func TestToolRemovedAfterDefine(t *testing.T) {
	reg := weatherRegistry(t)
	s := &scripted{calls: [][]*ai.ToolRequest{{call("1", "get_weather", map[string]any{"city": "Rome"})}}}
	g, m := newGenkit(t, s)
	tools, err := genkittool.Define(g, reg)
	if err != nil {
		t.Fatal(err)
	}
	reg.Remove("get_weather")
	resp, err := genkit.Generate(context.Background(), g, ai.WithModel(m), ai.WithPrompt("go"), ai.WithTools(toolRefs(tools)...))
	if err != nil {
		t.Fatalf("Generate aborted: %v", err)
	}
	want := `unknown tool "get_weather"; available tools: none`
	if got := toolOutputs(resp.History()); !reflect.DeepEqual(got, []any{want}) {
		t.Errorf("tool responses = %q, want [%q]", got, want)
	}
}

func TestDefineRefusesTakenName(t *testing.T) {
	g, _ := newGenkit(t, &scripted{})
	genkit.DefineTool(g, "get_weather", "Native.", func(*ai.ToolContext, WeatherArgs) (string, error) { return "", nil })
	_, err := genkittool.Define(g, weatherRegistry(t))
	if err == nil || err.Error() != `genkittool: Define: genkit already has a tool "get_weather"` {
		t.Fatalf("Define = %v", err)
	}
}

type AddArgs struct {
	A int `json:"a" jsonschema:"description=first"`
	B int `json:"b"`
}

func TestFromTool(t *testing.T) {
	ctx := context.Background()
	g, _ := newGenkit(t, &scripted{})
	add := genkit.DefineTool(g, "add", "Adds two numbers.", func(_ *ai.ToolContext, in AddArgs) (int, error) {
		return in.A + in.B, nil
	})
	greet := genkit.DefineTool(g, "greet", "Greets.", func(_ *ai.ToolContext, in struct {
		Name string `json:"name"`
	}) (string, error) {
		if in.Name == "nobody" {
			return "", errors.New("no one to greet")
		}
		return "hello " + in.Name, nil
	})
	reg := toolnexus.NewRegistry()
	for _, gt := range []ai.Tool{add, greet} {
		tool, err := genkittool.FromTool(gt)
		if err != nil {
			t.Fatal(err)
		}
		if err := reg.Add(tool); err != nil {
			t.Fatal(err)
		}
	}

	res := reg.Execute(ctx, "add", json.RawMessage(`{"a":"one","c":2}`))
	if want := `invalid arguments for "add": "a" must be an integer, got a string; unknown property "c"; allowed: a, b; "b" is required`; !res.IsError || res.Output != want {
		t.Errorf("bad call: %+v\nwant %q", res, want)
	}
	res = reg.Execute(ctx, "add", json.RawMessage(`{"a":1,"b":2}`))
	if res.IsError || res.Output != "3" || string(res.Structured) != "3" {
		t.Errorf("good call: %+v", res)
	}
	res = reg.Execute(ctx, "greet", json.RawMessage(`{"name":"Ada"}`))
	if res.IsError || res.Output != "hello Ada" || res.Structured != nil {
		t.Errorf("string output: %+v", res)
	}
	res = reg.Execute(ctx, "greet", json.RawMessage(`{"name":"nobody"}`))
	if !res.IsError || !strings.Contains(res.Output, "no one to greet") {
		t.Errorf("failing genkit tool: %+v", res)
	}

	rendered, err := json.Marshal(render.OpenAI(reg.Tools()))
	if err != nil {
		t.Fatal(err)
	}
	var fns []struct {
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	}
	if err := json.Unmarshal(rendered, &fns); err != nil {
		t.Fatal(err)
	}
	if len(fns) != 2 || fns[0].Function.Name != "add" || fns[0].Function.Description != "Adds two numbers." {
		t.Fatalf("rendered = %s", rendered)
	}
	want := mustMarshal(t, add.Definition().InputSchema)
	if !reflect.DeepEqual(canonical(t, fns[0].Function.Parameters), canonical(t, want)) {
		t.Errorf("rendered parameters %s, want genkit's %s", fns[0].Function.Parameters, want)
	}
}

func TestFromToolContentAndInterrupt(t *testing.T) {
	ctx := context.Background()
	g, _ := newGenkit(t, &scripted{})
	type none struct{}
	pic := genkit.DefineMultipartTool(g, "pic", "A picture.", func(_ *ai.ToolContext, _ none) (*ai.MultipartToolResponse, error) {
		return &ai.MultipartToolResponse{Output: "a dot", Content: []*ai.Part{
			ai.NewMediaPart("image/png", "data:image/png;base64,iVBORw0K"),
			ai.NewMediaPart("application/pdf", "https://example.com/a.pdf"),
		}}, nil
	})
	ask := genkit.DefineTool(g, "ask", "Asks a person.", func(tc *ai.ToolContext, _ none) (string, error) {
		return "", tc.Interrupt(&ai.InterruptOptions{Metadata: map[string]any{"q": "sure?"}})
	})
	reg := toolnexus.NewRegistry()
	for _, gt := range []ai.Tool{pic, ask} {
		tool, err := genkittool.FromTool(gt)
		if err != nil {
			t.Fatal(err)
		}
		if err := reg.Add(tool); err != nil {
			t.Fatal(err)
		}
	}
	res := reg.Execute(ctx, "pic", nil)
	want := []toolnexus.Part{
		toolnexus.ImagePart("image/png", []byte("\x89PNG\r\n")),
		{Kind: toolnexus.PartFile, MIMEType: "application/pdf", URL: "https://example.com/a.pdf"},
	}
	if res.IsError || res.Output != "a dot" || !reflect.DeepEqual(res.Content, want) {
		t.Errorf("pic = %+v", res)
	}
	res = reg.Execute(ctx, "ask", nil)
	if !res.IsError || !strings.Contains(res.Output, "tool execution interrupted") {
		t.Errorf("interrupting genkit tool = %+v", res)
	}
}

// TestUnderInvopop013 checks the root under this module's replace of
// invopop/jsonschema (v0.14.0 -> v0.13.0, forced by Genkit's dotprompt):
// an unnamed struct argument type, which invopop v0.13.0 alone cannot
// reflect (a nil dereference), registers with the same input schema as on
// v0.14.0, and a call is checked.
func TestUnderInvopop013(t *testing.T) {
	tool, err := toolnexus.NewTool("anon", "Unnamed arguments.", func(_ context.Context, a struct {
		City string `json:"city" validate:"required"`
	}) (string, error) {
		return a.City, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"type":"object","properties":{"city":{"type":"string","minLength":1}},"required":["city"],"additionalProperties":false}`
	if got := string(tool.InputSchema); got != want {
		t.Errorf("input schema\n got %s\nwant %s", got, want)
	}
	reg := toolnexus.NewRegistry()
	if err := reg.Add(tool); err != nil {
		t.Fatal(err)
	}
	if r := reg.Execute(context.Background(), "anon", json.RawMessage(`{}`)); !r.IsError || !strings.Contains(r.Output, "city") {
		t.Errorf("call without city: %+v", r)
	}
}
