package anthropicrunner_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	anthropic "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"
	"github.com/anthropics/anthropic-sdk-go/v2/toolrunner"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	"github.com/toolnexus/toolnexus/interop/anthropicrunner"
	"github.com/toolnexus/toolnexus/render"
	"github.com/toolnexus/toolnexus/render/rendertest"
)

// TestSchemaOnTheWire: the runner's request carries, for every tool of the
// shared renderer case list, the input_schema bytes render.Anthropic gives.
func TestSchemaOnTheWire(t *testing.T) {
	reg := toolnexus.NewRegistry()
	if err := reg.Add(rendertest.Tools()...); err != nil {
		t.Fatal(err)
	}
	rendered, err := render.Anthropic(reg.Tools())
	if err != nil {
		t.Fatal(err)
	}
	tools, err := anthropicrunner.Tools(reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(t, endTurn("ok"))
	client := m.client(t)
	if _, err := client.Beta.Messages.NewToolRunner(tools, params("hi")).RunToCompletion(context.Background()); err != nil {
		t.Fatal(err)
	}
	var sent []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"input_schema"`
	}
	if err := json.Unmarshal(m.request(t, 0)["tools"], &sent); err != nil {
		t.Fatal(err)
	}
	if len(sent) != len(rendered) {
		t.Fatalf("sent %d tools, rendered %d", len(sent), len(rendered))
	}
	raw := m.request(t, 0)["tools"]
	for i, r := range rendered {
		if sent[i].Name != r.Name || sent[i].Description != r.Description {
			t.Errorf("tool %d: sent %q %q, rendered %q %q", i, sent[i].Name, sent[i].Description, r.Name, r.Description)
		}
		// Byte for byte, as the SDK wrote it into the body.
		if !bytes.Contains(raw, append([]byte(`"input_schema":`), r.InputSchema...)) {
			t.Errorf("%s: input_schema not sent byte for byte:\nsent     %s\nrendered %s", r.Name, sent[i].InputSchema, r.InputSchema)
		}
	}
}

// TestSchemaKeywords: keywords BetaToolInputSchemaParam has no field for
// ($defs, $ref, pattern, additionalProperties, bounds) reach the request.
func TestSchemaKeywords(t *testing.T) {
	schema := `{"type":"object","$defs":{"id":{"type":"string","pattern":"^[a-z]+$"}},"properties":{"id":{"$ref":"#/$defs/id"},"n":{"type":"integer","minimum":1,"maximum":9}},"required":["id"],"additionalProperties":false}`
	reg := toolnexus.NewRegistry()
	if err := reg.Add(toolnexus.Tool{Name: "lookup", InputSchema: json.RawMessage(schema),
		Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "ok", nil })}); err != nil {
		t.Fatal(err)
	}
	tools, err := anthropicrunner.Tools(reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(tools[0].InputSchema())
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != schema {
		t.Fatalf("input schema\n got %s\nwant %s", got, schema)
	}
}

// TestRefusedSchema: a tool render.Anthropic refuses makes Tools fail,
// naming it.
func TestRefusedSchema(t *testing.T) {
	reg := toolnexus.NewRegistry()
	if err := reg.Add(toolnexus.Tool{Name: "either", InputSchema: json.RawMessage(`{"type":"object","anyOf":[{"required":["a"]},{"required":["b"]}]}`),
		Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "ok", nil })}); err != nil {
		t.Fatal(err)
	}
	_, err := anthropicrunner.Tools(reg, nil)
	if !errors.Is(err, render.ErrUnsupportedSchema) || !strings.Contains(err.Error(), `"either"`) {
		t.Fatalf("Tools: %v", err)
	}
}

// TestPanicCostsItself: a turn calling a panicking tool and a good one, in
// the runner's loop: the panic is an error tool_result with the registry's
// message, the other call runs, and the run goes on.
func TestPanicCostsItself(t *testing.T) {
	reg := weatherRegistry(t)
	if err := toolnexus.Register(reg, "boom", "Panics.", func(context.Context, struct{}) (string, error) { panic("boom") }); err != nil {
		t.Fatal(err)
	}
	two := `{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[` +
		`{"type":"tool_use","id":"toolu_a","name":"boom","input":{}},` +
		`{"type":"tool_use","id":"toolu_b","name":"get_weather","input":{"city":"Oslo"}}],` +
		`"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`
	m := newModel(t, two, endTurn("done"))
	tools, err := anthropicrunner.Tools(reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := m.client(t)
	runner := client.Beta.Messages.NewToolRunner(tools, params("go"))
	if _, err := runner.RunToCompletion(context.Background()); err != nil {
		t.Fatal(err)
	}
	msgs := runner.Messages()
	results := msgs[2].OfUser.Content
	if len(results) != 2 {
		t.Fatalf("%d tool_results, want 2", len(results))
	}
	a, b := results[0].OfToolResult, results[1].OfToolResult
	if !a.IsError.Value || resultText(t, a) != `Error: tool "boom" failed: internal error` {
		t.Errorf("panicking call: is_error %v text %q", a.IsError, resultText(t, a))
	}
	if b.IsError.Value || resultText(t, b) != "18°C in Oslo" {
		t.Errorf("good call: is_error %v text %q", b.IsError, resultText(t, b))
	}
}

func approvalRegistry(t *testing.T, ran *atomic.Int32) *toolnexus.Registry {
	t.Helper()
	tool, err := toolnexus.NewTool("delete_file", "Deletes a file.", func(_ context.Context, a struct {
		Path string `json:"path"`
	}) (string, error) {
		ran.Add(1)
		return "deleted " + a.Path, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tool.NeedsApproval = true
	reg := toolnexus.NewRegistry()
	if err := reg.Add(tool); err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestApproval: exec.Options.Approver decides each call; denied, the
// registry's message is the error; approved, the tool runs; with no
// approver the call is the registry's pending request and does not run.
func TestApproval(t *testing.T) {
	ctx := context.Background()
	args := json.RawMessage(`{"path":"a.txt"}`)
	var ran atomic.Int32
	reg := approvalRegistry(t, &ran)

	var asked []toolnexus.ApprovalRequest
	deny := &exec.Options{Approver: func(_ context.Context, req toolnexus.ApprovalRequest) toolnexus.Approval {
		asked = append(asked, req)
		return toolnexus.Approval{Decision: toolnexus.Deny, Reason: "not in the sandbox"}
	}}
	tools, err := anthropicrunner.Tools(reg, deny)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tools[0].Execute(ctx, args)
	if err == nil || err.Error() != `tool "delete_file" was denied: not in the sandbox` || ran.Load() != 0 {
		t.Fatalf("denied: %v (ran %d)", err, ran.Load())
	}
	if len(asked) != 1 || asked[0].Tool != "delete_file" || string(asked[0].Arguments) != `{"path":"a.txt"}` || asked[0].CallID != "" {
		t.Fatalf("approver asked %+v", asked)
	}

	approve := &exec.Options{Approver: func(context.Context, toolnexus.ApprovalRequest) toolnexus.Approval {
		return toolnexus.Approval{Decision: toolnexus.Approve}
	}}
	tools, _ = anthropicrunner.Tools(reg, approve)
	blocks, err := tools[0].Execute(ctx, args)
	if err != nil || len(blocks) != 1 || blocks[0].OfText.Text != "deleted a.txt" || ran.Load() != 1 {
		t.Fatalf("approved: %v %+v (ran %d)", err, blocks, ran.Load())
	}

	tools, _ = anthropicrunner.Tools(reg, nil)
	blocks, err = tools[0].Execute(ctx, args)
	want := reg.Execute(ctx, "delete_file", args)
	if _, ok := toolnexus.PendingFrom(want); !ok {
		t.Fatalf("registry result is not pending: %+v", want)
	}
	if err != nil || len(blocks) != 1 || blocks[0].OfText.Text != want.Text() || ran.Load() != 1 {
		t.Fatalf("no approver: %v %+v (ran %d), want text %q", err, blocks, ran.Load(), want.Text())
	}
}

// TestTimeout: the registry's timeout ends a slow call with its message.
func TestTimeout(t *testing.T) {
	tool, err := toolnexus.NewTool("slow", "Sleeps.", func(ctx context.Context, _ struct{}) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	tool.Timeout = 20 * time.Millisecond
	reg := toolnexus.NewRegistry()
	if err := reg.Add(tool); err != nil {
		t.Fatal(err)
	}
	tools, _ := anthropicrunner.Tools(reg, nil)
	_, err = tools[0].Execute(context.Background(), json.RawMessage(`{}`))
	if err == nil || err.Error() != `tool "slow" timed out after 20ms` {
		t.Fatalf("slow call: %v", err)
	}
}

// TestRichResult: content parts become the runner's text, image and
// document blocks.
func TestRichResult(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\nfake")
	reg := toolnexus.NewRegistry()
	if err := toolnexus.RegisterResult(reg, "chart", "Draws a chart.", func(context.Context, struct{}) toolnexus.Result {
		return toolnexus.ContentResult(toolnexus.TextPart("chart:"), toolnexus.ImagePart("image/png", png),
			toolnexus.FilePart("notes.txt", "text/plain", []byte("a note")), toolnexus.AudioPart("audio/wav", []byte("RIFF")))
	}); err != nil {
		t.Fatal(err)
	}
	tools, _ := anthropicrunner.Tools(reg, nil)
	blocks, err := tools[0].Execute(context.Background(), json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 4 {
		t.Fatalf("%d blocks, want 4", len(blocks))
	}
	if blocks[0].OfText == nil || blocks[0].OfText.Text != "chart:" {
		t.Errorf("block 0: %+v", blocks[0])
	}
	if img := blocks[1].OfImage; img == nil || img.Source.OfBase64 == nil ||
		img.Source.OfBase64.MediaType != "image/png" || img.Source.OfBase64.Data != base64.StdEncoding.EncodeToString(png) {
		t.Errorf("block 1: %+v", blocks[1])
	}
	if doc := blocks[2].OfDocument; doc == nil || doc.Source.OfText == nil || doc.Source.OfText.Data != "a note" || doc.Title.Value != "notes.txt" {
		t.Errorf("block 2: %+v", blocks[2])
	}
	if blocks[3].OfText == nil || blocks[3].OfText.Text != toolnexus.AudioPart("audio/wav", []byte("RIFF")).Summary() {
		t.Errorf("block 3 (audio, as its text stand-in): %+v", blocks[3])
	}
}

// TestParamsToolsKept: render.AnthropicWith's definitions given in
// Params.Tools are sent as rendered (strict here), and the runner runs the
// adapter's tool of the same name.
func TestParamsToolsKept(t *testing.T) {
	reg := weatherRegistry(t)
	rendered, err := render.AnthropicWith(reg.Tools(), render.AnthropicOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	tools, err := anthropicrunner.Tools(reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := params("weather?")
	for _, r := range rendered {
		p.Tools = append(p.Tools, param.Override[anthropic.BetaToolUnionParam](json.RawMessage(r.AppendJSON(nil))))
	}
	m := newModel(t, toolUse("toolu_1", "get_weather", `{"city":"Rome"}`), endTurn("ok"))
	client := m.client(t)
	runner := client.Beta.Messages.NewToolRunner(tools, p)
	if _, err := runner.RunToCompletion(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got, want := string(m.request(t, 0)["tools"]), "["+string(rendered[0].AppendJSON(nil))+"]"; got != want {
		t.Errorf("tools sent\n got %s\nwant %s", got, want)
	}
	if r := toolResult(t, runner.Messages(), 2); r.IsError.Value || resultText(t, r) != "18°C in Rome" {
		t.Errorf("tool_result: is_error %v text %q", r.IsError, resultText(t, r))
	}
}

type CityInput struct {
	City string `json:"city" jsonschema:"required,description=The city name"`
	Days int    `json:"days,omitempty" jsonschema:"minimum=1,maximum=7"`
}

// TestFromBetaTool: a tool made by the SDK's toolrunner helper, added to a
// Registry, is checked by the registry (every problem in one message, the
// SDK's handler not run), runs on good arguments, and renders for OpenAI.
func TestFromBetaTool(t *testing.T) {
	var ran atomic.Int32
	native, err := toolrunner.NewBetaToolFromJSONSchema("forecast", "Forecast for a city.",
		func(_ context.Context, in CityInput) (anthropic.BetaToolResultBlockParamContentUnion, error) {
			ran.Add(1)
			return anthropic.BetaToolResultBlockParamContentUnion{OfText: &anthropic.BetaTextBlockParam{Text: "sunny in " + in.City}}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	tool, unchecked, err := anthropicrunner.FromBetaTool(native)
	if err != nil {
		t.Fatal(err)
	}
	if unchecked != "" {
		t.Errorf("unchecked: %s", unchecked)
	}
	reg := toolnexus.NewRegistry()
	if err := reg.Add(tool); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	bad := reg.Execute(ctx, "forecast", json.RawMessage(`{"days":9,"town":"Oslo"}`))
	const want = `invalid arguments for "forecast": "days" must be at most 7; unknown property "town"; allowed: city, days; "city" is required`
	if !bad.IsError || bad.Output != want || ran.Load() != 0 {
		t.Errorf("bad call: %+v (ran %d)\nwant %q", bad, ran.Load(), want)
	}
	good := reg.Execute(ctx, "forecast", json.RawMessage(`{"city":"Oslo","days":2}`))
	if good.IsError || good.Text() != "sunny in Oslo" || ran.Load() != 1 {
		t.Errorf("good call: %+v (ran %d)", good, ran.Load())
	}
	failing := toolrunner.NewBetaTool("fail", "Fails.", anthropic.BetaToolInputSchemaParam{},
		func(context.Context, json.RawMessage) (anthropic.BetaToolResultBlockParamContentUnion, error) {
			return anthropic.BetaToolResultBlockParamContentUnion{}, errors.New("disk full")
		})
	ft, _, err := anthropicrunner.FromBetaTool(failing)
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Add(ft); err != nil {
		t.Fatal(err)
	}
	if r := reg.Execute(ctx, "fail", nil); !r.IsError || r.Output != "disk full" {
		t.Errorf("failing tool: %+v", r)
	}
	// The SDK writes the keywords it has no field for in map order; the
	// tool's schema is the same bytes every time.
	const schema = `{"$id":"https://github.com/toolnexus/toolnexus/interop/anthropicrunner_test/city-input",` +
		`"$schema":"https://json-schema.org/draft/2020-12/schema","additionalProperties":false,` +
		`"properties":{"city":{"description":"The city name","type":"string"},"days":{"maximum":7,"minimum":1,"type":"integer"}},` +
		`"required":["city"],"type":"object"}`
	for range 20 {
		again, _, _ := anthropicrunner.FromBetaTool(native)
		if string(again.InputSchema) != schema {
			t.Fatalf("input schema\n got %s\nwant %s", again.InputSchema, schema)
		}
	}
	data, err := json.Marshal(render.OpenAI(reg.Tools()))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"name":"forecast","description":"Forecast for a city.","parameters":`+schema)) {
		t.Errorf("render.OpenAI: %s\nwant the schema %s", data, schema)
	}
}

// TestOutputCap: the registry's output cap applies to what the runner
// sends.
func TestOutputCap(t *testing.T) {
	reg := toolnexus.NewRegistryWith(&toolnexus.Options{MaxOutputBytes: 200})
	if err := toolnexus.Register(reg, "long", "Long output.", func(context.Context, struct{}) (string, error) {
		return strings.Repeat("x", 10_000), nil
	}); err != nil {
		t.Fatal(err)
	}
	tools, _ := anthropicrunner.Tools(reg, nil)
	blocks, err := tools[0].Execute(context.Background(), json.RawMessage(`{}`))
	if err != nil || len(blocks) != 1 {
		t.Fatalf("long call: %v %d blocks", err, len(blocks))
	}
	want := reg.Execute(context.Background(), "long", nil).Output
	if text := blocks[0].OfText.Text; text != want || len(text) > 200 || !strings.Contains(text, "bytes truncated") {
		t.Fatalf("capped text (%d bytes): %q\nwant %q", len(text), text, want)
	}
}

// TestHooks: exec.Options hooks run around the runner's calls.
func TestHooks(t *testing.T) {
	reg := weatherRegistry(t)
	opts := &exec.Options{After: func(_ context.Context, call exec.Call, res *exec.Result) {
		res.Output = strings.ToUpper(res.Output)
	}}
	tools, _ := anthropicrunner.Tools(reg, opts)
	blocks, err := tools[0].Execute(context.Background(), json.RawMessage(`{"city":"Lima"}`))
	if err != nil || len(blocks) != 1 || blocks[0].OfText.Text != "18°C IN LIMA" {
		t.Fatalf("after hook: %v %+v", err, blocks)
	}
}
