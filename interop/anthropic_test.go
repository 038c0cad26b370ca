package interop

import (
	"context"
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
