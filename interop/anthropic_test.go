package interop

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/toolnexus/toolnexus/render"
)

const anthropicResponse = `{"id":"msg_1","type":"message","role":"assistant","model":"claude-test",` +
	`"content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,` +
	`"usage":{"input_tokens":1,"output_tokens":1}}`

func anthropicClient(t *testing.T, url string) anthropic.Client {
	noProviderEnv(t)
	return anthropic.NewClient(option.WithoutEnvironmentDefaults(), option.WithBaseURL(url),
		option.WithAPIKey("test-key"), option.WithMaxRetries(0))
}

func TestAnthropicSDK(t *testing.T) {
	rendered, err := render.Anthropic(caseTools())
	if err != nil {
		t.Fatal(err)
	}
	tools := make([]anthropic.ToolUnionParam, len(rendered))
	for i := range rendered {
		tool := param.Override[anthropic.ToolParam](rendered[i])
		tools[i] = anthropic.ToolUnionParam{OfTool: &tool}
	}
	c := newCapture(t, anthropicResponse)
	client := anthropicClient(t, c.srv.URL)
	msg, err := client.Messages.New(context.Background(), anthropic.MessageNewParams{
		Model:     "claude-test",
		MaxTokens: 64,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("weather in Paris?"))},
		Tools:     tools,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(msg.Content) != 1 || msg.Content[0].Text != "ok" {
		t.Fatalf("response not parsed: %+v", msg.Content)
	}
	requireBytes(t, "anthropic tools", c.tools(t), rendered.AppendJSON(nil))
}

// TestAnthropicSDKSchemaRoute sends only the schema through the SDK's
// ToolInputSchemaParam override, with name and description as SDK fields:
// the tool's keys come out in the SDK's order, the schema bytes unchanged.
func TestAnthropicSDKSchemaRoute(t *testing.T) {
	rendered, err := render.Anthropic(caseTools())
	if err != nil {
		t.Fatal(err)
	}
	tools := make([]anthropic.ToolUnionParam, len(rendered))
	for i, r := range rendered {
		schema := param.Override[anthropic.ToolInputSchemaParam](r.InputSchema)
		tool := anthropic.ToolUnionParamOfTool(schema, r.Name)
		tool.OfTool.Description = anthropic.String(r.Description)
		tools[i] = tool
	}
	c := newCapture(t, anthropicResponse)
	client := anthropicClient(t, c.srv.URL)
	if _, err := client.Messages.New(context.Background(), anthropic.MessageNewParams{
		Model: "claude-test", MaxTokens: 64, Tools: tools,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))},
	}); err != nil {
		t.Fatal(err)
	}
	got := c.tools(t)
	requireSameJSON(t, "anthropic tools (schema route)", got, rendered.AppendJSON(nil))
	for _, r := range rendered {
		if !containsBytes(got, append([]byte(`"input_schema":`), r.InputSchema...)) {
			t.Fatalf("schema of %s not sent byte for byte:\n%s", r.Name, got)
		}
	}
}

// TestAnthropicOptionsSDK: every field AnthropicWith adds (strict,
// defer_loading, input_examples, cache_control) decodes into the SDK's
// ToolParam with no unknown field, with the values rendered, and the
// list goes through the SDK byte for byte.
func TestAnthropicOptionsSDK(t *testing.T) {
	tools := caseTools()
	last := tools[len(tools)-1].Name
	rendered, err := render.AnthropicWith(tools, render.AnthropicOptions{
		Strict: true, Fallback: true, CacheLast: true,
		Defer:         []string{tools[0].Name},
		InputExamples: map[string][]json.RawMessage{tools[0].Name: {json.RawMessage(`{"a":1,"b":{"c":[true]}}`)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	strict := 0
	for i, r := range rendered {
		raw := r.AppendJSON(nil)
		requireKnown[anthropic.ToolParam](t, r.Name, raw)
		var p anthropic.ToolParam
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		if p.Strict.Valid() != r.Strict || (r.Strict && !p.Strict.Value) {
			t.Errorf("%s: SDK strict %+v, rendered %v", r.Name, p.Strict, r.Strict)
		}
		if r.Strict {
			strict++
		}
		if got := p.DeferLoading.Valid() && p.DeferLoading.Value; got != (i == 0) {
			t.Errorf("%s: SDK defer_loading %v", r.Name, got)
		}
		if got := string(p.CacheControl.Type); (got == "ephemeral") != (r.Name == last) || (got != "" && got != "ephemeral") {
			t.Errorf("%s: SDK cache_control type %q", r.Name, got)
		}
		if i == 0 {
			if len(p.InputExamples) != 1 || p.InputExamples[0]["a"] != float64(1) {
				t.Errorf("%s: SDK input_examples %v", r.Name, p.InputExamples)
			}
		} else if p.InputExamples != nil {
			t.Errorf("%s: unexpected input_examples %v", r.Name, p.InputExamples)
		}
	}
	if strict == 0 {
		t.Fatal("no case tool rendered strict")
	}
	// The check still refuses a stray key on the tool (input_schema takes
	// any keyword: ToolInputSchemaParam has ExtraFields).
	var doc any
	json.Unmarshal([]byte(`{"name":"x","input_schema":{"type":"object","additionalProperties":false},"cache_control":{"type":"ephemeral"},"bogus":1}`), &doc)
	if err := known(doc, reflect.TypeOf(anthropic.ToolParam{}), "$"); err == nil || !strings.Contains(err.Error(), `unknown field "bogus"`) {
		t.Errorf("stray key on a tool: %v", err)
	}
	sdk := make([]anthropic.ToolUnionParam, len(rendered))
	for i := range rendered {
		tool := param.Override[anthropic.ToolParam](rendered[i])
		sdk[i] = anthropic.ToolUnionParam{OfTool: &tool}
	}
	c := newCapture(t, anthropicResponse)
	client := anthropicClient(t, c.srv.URL)
	if _, err := client.Messages.New(context.Background(), anthropic.MessageNewParams{
		Model: "claude-test", MaxTokens: 64, Tools: sdk,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))},
	}); err != nil {
		t.Fatal(err)
	}
	requireBytes(t, "anthropic tools with options", c.tools(t), rendered.AppendJSON(nil))
}
