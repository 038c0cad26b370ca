package einotool_test

import (
	"context"
	"encoding/base64"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/frameworks/einotool"
)

// With Options.Multimodal a result's content parts reach eino's ToolsNode
// as the tool message's UserInputMultiContent.
func TestMultimodalResult(t *testing.T) {
	png := []byte("\x89PNG\r\n")
	reg := toolnexus.NewRegistry()
	err := toolnexus.RegisterResult(reg, "chart", "Draws a chart.", func(context.Context, struct{}) toolnexus.Result {
		return toolnexus.ContentResult(
			toolnexus.TextPart("the chart:"),
			toolnexus.ImagePart("image/png", png),
			toolnexus.ImageURLPart("image/png", "https://example.com/c.png"),
			toolnexus.ResourceLinkPart("file:///c.csv", "c.csv", "text/csv"),
		)
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tools := registryTools(t, reg, &einotool.Options{Multimodal: true})
	if _, ok := tools[0].(tool.EnhancedInvokableTool); !ok {
		t.Fatalf("%T is not a tool.EnhancedInvokableTool", tools[0])
	}
	node, err := compose.NewToolNode(ctx, &compose.ToolsNodeConfig{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := node.Invoke(ctx, schema.AssistantMessage("", []schema.ToolCall{
		{ID: "c1", Type: "function", Function: schema.FunctionCall{Name: "chart", Arguments: `{}`}},
		{ID: "c2", Type: "function", Function: schema.FunctionCall{Name: "chart", Arguments: `{"x":1}`}},
	}))
	if err != nil {
		t.Fatal(err)
	}
	parts := msgs[0].UserInputMultiContent
	if len(parts) != 4 {
		t.Fatalf("tool message has %d parts, want 4: %+v", len(parts), parts)
	}
	if parts[0].Type != schema.ChatMessagePartTypeText || parts[0].Text != "the chart:" {
		t.Errorf("part 0 = %+v", parts[0])
	}
	img := parts[1].Image
	if parts[1].Type != schema.ChatMessagePartTypeImageURL || img == nil || img.MIMEType != "image/png" ||
		img.Base64Data == nil || *img.Base64Data != base64.StdEncoding.EncodeToString(png) {
		t.Errorf("part 1 = %+v, want the PNG as base64", parts[1])
	}
	if u := parts[2].Image; u == nil || u.URL == nil || *u.URL != "https://example.com/c.png" || u.Base64Data != nil {
		t.Errorf("part 2 = %+v, want the image URL", parts[2])
	}
	if parts[3].Type != schema.ChatMessagePartTypeText || parts[3].Text != "[resource link: file:///c.csv, text/csv]" {
		t.Errorf("part 3 = %+v, want the resource link as text", parts[3])
	}
	// A bad call is a text part with the registry's message.
	bad := msgs[1].UserInputMultiContent
	want := `invalid arguments for "chart": unknown property "x"; allowed: none`
	if len(bad) != 1 || bad[0].Text != want {
		t.Errorf("bad call's parts = %+v, want the text %q", bad, want)
	}
}
