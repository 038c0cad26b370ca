package exec_test

import (
	"context"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

// FuzzRichShapes: whatever parts a tool returns (any kind, text, MIME
// type, name, URL, bytes), every provider's message is valid JSON and
// valid UTF-8 and answers the call.
func FuzzRichShapes(f *testing.F) {
	f.Add("image", "chart:", "image/png", "a.png", "", []byte("\x89PNG"))
	f.Add("file", "", "application/pdf", "q.pdf", "https://x/q.pdf", []byte(nil))
	f.Add("file", "", "text/plain", "n.txt", "", []byte("bad \xff"))
	f.Add("resource", "\xfe", "", "", "test://r", []byte{0})
	f.Add("resource_link", "", "", "", "file:///a", []byte(nil))
	f.Add("audio", "", "audio/wav", "", "", []byte("RIFF"))
	f.Fuzz(func(t *testing.T, kind, text, mimeType, name, url string, data []byte) {
		part := toolnexus.Part{Kind: toolnexus.PartKind(kind), Text: text, MIMEType: mimeType, Name: name, URL: url, Data: data}
		reg := toolnexus.NewRegistry()
		if err := toolnexus.RegisterResult(reg, "t", "", func(context.Context, struct{}) toolnexus.Result {
			return toolnexus.ContentResult(toolnexus.TextPart(text), part)
		}); err != nil {
			t.Fatal(err)
		}
		e := exec.New(reg, &exec.Options{Concurrency: 1})
		ctx := context.Background()
		outs := make([]any, 4)
		var err error
		if outs[0], err = e.AnthropicJSON(ctx, []byte(`[{"type":"tool_use","id":"1","name":"t","input":{}}]`)); err != nil {
			t.Fatal(err)
		}
		if outs[1], err = e.ResponsesJSON(ctx, []byte(`[{"type":"function_call","call_id":"1","name":"t","arguments":"{}"}]`)); err != nil {
			t.Fatal(err)
		}
		if outs[2], err = e.OpenAIChatJSON(ctx, []byte(`[{"id":"1","type":"function","function":{"name":"t","arguments":"{}"}}]`)); err != nil {
			t.Fatal(err)
		}
		if outs[3], err = e.GeminiJSON(ctx, []byte(`[{"functionCall":{"name":"t","args":{}}}]`)); err != nil {
			t.Fatal(err)
		}
		for _, o := range outs {
			b, err := json.Marshal(o)
			if err != nil {
				t.Fatal(err)
			}
			if !json.Valid(b) || !utf8.Valid(b) {
				t.Fatalf("invalid message: %q", b)
			}
		}
		a := outs[0].(exec.AnthropicMessage)
		if len(a.Content) != 1 {
			t.Fatalf("anthropic: %d results", len(a.Content))
		}
		for _, blk := range a.Content[0].Blocks {
			if blk.Type == "text" && blk.Text == "" {
				t.Fatalf("empty text block in %+v", a.Content[0].Blocks)
			}
		}
	})
}
