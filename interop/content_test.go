package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"google.golang.org/genai"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

// onePixelPNG is a 1x1 PNG.
var onePixelPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde" +
	"\x00\x00\x00\x0cIDATx\x9cc\xf8\xcf\xc0\x00\x00\x03\x01\x01\x00\xc9\xfe\x92\xef\x00\x00\x00\x00IEND\xaeB`\x82")

// richExecutor runs "chart" (text + PNG image), "report" (PDF file) and
// "sum" (typed output).
func richExecutor(t *testing.T) *exec.Executor {
	t.Helper()
	reg := toolnexus.NewRegistry()
	type none struct{}
	if err := toolnexus.RegisterResult(reg, "chart", "draws a chart", func(context.Context, none) toolnexus.Result {
		return toolnexus.ContentResult(toolnexus.TextPart("Sales by month:"), toolnexus.ImagePart("image/png", onePixelPNG))
	}); err != nil {
		t.Fatal(err)
	}
	if err := toolnexus.RegisterResult(reg, "report", "a PDF", func(context.Context, none) toolnexus.Result {
		return toolnexus.ContentResult(toolnexus.FilePart("q3.pdf", "application/pdf", []byte("%PDF-1.4 q3")))
	}); err != nil {
		t.Fatal(err)
	}
	if err := toolnexus.RegisterOutput(reg, "sum", "adds", func(_ context.Context, in struct {
		A int `json:"a"`
	}) (struct {
		Sum int `json:"sum"`
	}, error) {
		return struct {
			Sum int `json:"sum"`
		}{in.A + 1}, nil
	}); err != nil {
		t.Fatal(err)
	}
	return exec.New(reg, nil)
}

// roundTrip decodes ours into the SDK type T and encodes it again: the
// result must be the same JSON, so the SDK type has a field for every
// key we send (nothing unknown is dropped) and reads every value as sent.
func roundTrip[T any](t *testing.T, what string, ours []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(ours, &v); err != nil {
		t.Fatalf("%s: our bytes do not decode into %T: %v\n%s", what, v, err, ours)
	}
	back, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	requireSameJSON(t, what+" (SDK round trip)", back, ours)
	return v
}

// body returns the request body the capture server received last.
func (c *capture) body(t *testing.T) []byte {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.bodies) == 0 {
		t.Fatal("no request received")
	}
	return c.bodies[len(c.bodies)-1]
}

// TestAnthropicRichToolResult: the tool_result with text, image and
// document blocks decodes into anthropic.MessageParam with nothing lost
// and reaches the API through the SDK as the same JSON.
func TestAnthropicRichToolResult(t *testing.T) {
	e := richExecutor(t)
	calls := `{"type":"tool_use","id":"toolu_1","name":"chart","input":{}},` +
		`{"type":"tool_use","id":"toolu_2","name":"report","input":{}}`
	msg, err := e.AnthropicJSON(context.Background(), []byte(`[`+calls+`,{"type":"tool_use","id":"toolu_3","name":"sum","input":{"a":41}}]`))
	if err != nil {
		t.Fatal(err)
	}
	// The SDK holds a string "content" as one text block, so the
	// structured (string) result is checked apart from the round trip.
	var sum anthropic.MessageParam
	all, _ := json.Marshal(msg)
	if err := json.Unmarshal(all, &sum); err != nil || sum.OfUser == nil || len(sum.OfUser.Content) != 3 {
		t.Fatalf("not read as a user message with 3 blocks: %v\n%s", err, all)
	}
	if s := sum.OfUser.Content[2].OfToolResult.Content[0].OfText; s == nil || s.Text != `{"sum":42}` {
		t.Fatalf("structured result not read as text: %s", all)
	}
	msg.Content = msg.Content[:2]
	ours, _ := json.Marshal(msg)
	user := roundTrip[anthropic.MessageParam](t, "anthropic", ours)
	blocks := user.OfUser.Content[0].OfToolResult.Content
	if len(blocks) != 2 || blocks[1].OfImage == nil || blocks[1].OfImage.Source.OfBase64 == nil ||
		blocks[1].OfImage.Source.OfBase64.MediaType != "image/png" {
		t.Fatalf("image block not read by the SDK: %s", ours)
	}
	if doc := user.OfUser.Content[1].OfToolResult.Content[0].OfDocument; doc == nil || doc.Source.OfBase64 == nil {
		t.Fatalf("document block not read by the SDK: %s", ours)
	}

	var assistant anthropic.MessageParam
	if err := json.Unmarshal([]byte(`{"role":"assistant","content":[`+calls+`]}`), &assistant); err != nil {
		t.Fatal(err)
	}
	c := newCapture(t, anthropicResponse)
	client := anthropicClient(t, c.srv.URL)
	if _, err := client.Messages.New(context.Background(), anthropic.MessageNewParams{
		Model: "claude-test", MaxTokens: 64,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("chart please")), assistant, user},
	}); err != nil {
		t.Fatal(err)
	}
	var sent struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(c.body(t), &sent); err != nil {
		t.Fatal(err)
	}
	requireSameJSON(t, "anthropic tool_result on the wire", sent.Messages[2], ours)
}

// TestResponsesRichOutput: function_call_output items whose output is an
// array of input_text / input_image / input_file decode into the SDK's
// item type and are sent as the same JSON.
func TestResponsesRichOutput(t *testing.T) {
	e := richExecutor(t)
	outs, err := e.ResponsesJSON(context.Background(), []byte(`[`+
		`{"type":"function_call","call_id":"call_1","name":"chart","arguments":"{}"},`+
		`{"type":"function_call","call_id":"call_2","name":"report","arguments":"{}"},`+
		`{"type":"function_call","call_id":"call_3","name":"sum","arguments":"{\"a\":41}"}]`))
	if err != nil {
		t.Fatal(err)
	}
	ours, _ := json.Marshal(outs)
	items := roundTrip[[]responses.ResponseInputItemUnionParam](t, "responses", ours)
	img := items[0].OfFunctionCallOutput.Output.OfResponseFunctionCallOutputItemArray[1].OfInputImage
	if img == nil || !bytes.HasPrefix([]byte(img.ImageURL.Value), []byte("data:image/png;base64,iVBOR")) {
		t.Fatalf("input_image not read by the SDK: %s", ours)
	}
	if f := items[1].OfFunctionCallOutput.Output.OfResponseFunctionCallOutputItemArray[0].OfInputFile; f == nil || f.Filename.Value != "q3.pdf" {
		t.Fatalf("input_file not read by the SDK: %s", ours)
	}
	c := newCapture(t, responsesResponse)
	client := openaiClient(t, c.srv.URL)
	if _, err := client.Responses.New(context.Background(), responses.ResponseNewParams{
		Model: "gpt-test", Input: responses.ResponseNewParamsInputUnion{OfInputItemList: items},
	}); err != nil {
		t.Fatal(err)
	}
	var sent struct {
		Input json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(c.body(t), &sent); err != nil {
		t.Fatal(err)
	}
	requireSameJSON(t, "responses input on the wire", sent.Input, ours)
}

// TestChatRichToolMessage: Chat Completions tool messages carry the text
// stand-in and decode into the SDK's tool message type.
func TestChatRichToolMessage(t *testing.T) {
	e := richExecutor(t)
	msgs, err := e.OpenAIChatJSON(context.Background(), []byte(`[{"id":"call_1","type":"function","function":{"name":"chart","arguments":"{}"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	ours, _ := json.Marshal(msgs[0])
	m := roundTrip[openai.ChatCompletionToolMessageParam](t, "chat", ours)
	if got := m.Content.OfString.Value; got != "Sales by month:\n[image: image/png, 69 bytes]" {
		t.Fatalf("content = %q", got)
	}
}

// TestGeminiRichFunctionResponse: the functionResponse with inlineData
// parts decodes into genai.Content with unknown fields refused and is sent
// through the SDK as the same JSON.
func TestGeminiRichFunctionResponse(t *testing.T) {
	e := richExecutor(t)
	reply := `[{"functionCall":{"id":"fc_1","name":"chart","args":{}}},{"functionCall":{"id":"fc_2","name":"sum","args":{"a":41}}}]`
	content, err := e.GeminiJSON(context.Background(), []byte(reply))
	if err != nil {
		t.Fatal(err)
	}
	ours, _ := json.Marshal(content)
	var got genai.Content
	dec := json.NewDecoder(bytes.NewReader(ours))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("our content does not decode into genai.Content: %v\n%s", err, ours)
	}
	fr := got.Parts[0].FunctionResponse
	if len(fr.Parts) != 1 || fr.Parts[0].InlineData == nil || !bytes.Equal(fr.Parts[0].InlineData.Data, onePixelPNG) ||
		fr.Parts[0].InlineData.MIMEType != "image/png" {
		t.Fatalf("inline image not read by genai: %s", ours)
	}
	if out, _ := json.Marshal(got.Parts[1].FunctionResponse.Response); string(out) != `{"output":{"sum":42}}` {
		t.Fatalf("structured response = %s", out)
	}
	var model genai.Content
	if err := json.Unmarshal([]byte(`{"role":"model","parts":`+reply+`}`), &model); err != nil {
		t.Fatal(err)
	}
	c := newCapture(t, geminiResponse)
	client := geminiClient(t, c.srv.URL)
	if _, err := client.Models.GenerateContent(context.Background(), "gemini-test",
		[]*genai.Content{genai.NewContentFromText("chart please", genai.RoleUser), &model, &got}, nil); err != nil {
		t.Fatal(err)
	}
	var sent struct {
		Contents []json.RawMessage `json:"contents"`
	}
	if err := json.Unmarshal(c.body(t), &sent); err != nil {
		t.Fatal(err)
	}
	requireSameJSON(t, "gemini content on the wire", sent.Contents[2], ours)
}
