package anthropicrunner_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	"github.com/toolnexus/toolnexus/interop/anthropicrunner"
)

// TestBlocksAsExec holds the adapter's tool_result content, after its trip
// through the SDK's block types, to the one exec.Executor.Anthropic gives
// for the same result, part kind by part kind.
func TestBlocksAsExec(t *testing.T) {
	pdf := []byte("%PDF-1.7 fake")
	cases := map[string][]toolnexus.Part{
		"text only":    {toolnexus.TextPart("a"), toolnexus.TextPart("b")},
		"image base64": {toolnexus.TextPart("chart:"), toolnexus.ImagePart("image/png", []byte{1, 2, 3})},
		"image type":   {toolnexus.ImagePart("image/bmp", []byte{1, 2, 3})},
		"image url":    {toolnexus.ImageURLPart("image/jpeg", "https://example.com/a.jpg")},
		"image ftp":    {toolnexus.ImageURLPart("", "ftp://example.com/a.jpg")},
		"pdf":          {toolnexus.FilePart("a.pdf", "application/pdf", pdf)},
		"pdf url":      {toolnexus.FileURLPart("", "application/pdf", "https://example.com/a.pdf")},
		"plain text":   {toolnexus.FilePart("n.txt", "text/plain", []byte("note"))},
		"bad utf8":     {toolnexus.FilePart("n.txt", "text/plain", []byte{0xff})},
		"csv":          {toolnexus.FilePart("t.csv", "text/csv", []byte("a,b"))},
		"audio":        {toolnexus.AudioPart("audio/wav", []byte("RIFF"))},
		"link":         {toolnexus.ResourceLinkPart("file:///a", "a", "text/plain")},
		"resource":     {toolnexus.ResourcePart("file:///a", "text/plain", "body")},
		"empty text":   {toolnexus.TextPart(""), toolnexus.ImagePart("image/gif", []byte{1})},
	}
	ctx := context.Background()
	for name, parts := range cases {
		reg := toolnexus.NewRegistry()
		if err := toolnexus.RegisterResult(reg, "parts", "", func(context.Context, struct{}) toolnexus.Result {
			return toolnexus.ContentResult(parts...)
		}); err != nil {
			t.Fatal(err)
		}
		want, _ := exec.New(reg, nil).Anthropic(ctx, []exec.AnthropicContentBlock{{Type: "tool_use", ID: "x", Name: "parts", Input: json.RawMessage(`{}`)}})
		var wantJSON any = want.Content[0].Content
		if b := want.Content[0].Blocks; b != nil {
			wantJSON = decode(t, b)
		}
		tools, err := anthropicrunner.Tools(reg, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tools[0].Execute(ctx, json.RawMessage(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		var gotJSON any = decode(t, got)
		if want.Content[0].Blocks == nil { // exec sends the text as a string
			if len(got) != 1 || got[0].OfText == nil {
				t.Errorf("%s: got %s, want one text block", name, mustJSON(t, got))
				continue
			}
			gotJSON = got[0].OfText.Text
		}
		if !reflect.DeepEqual(gotJSON, wantJSON) {
			t.Errorf("%s:\n got %s\nwant %s", name, mustJSON(t, gotJSON), mustJSON(t, wantJSON))
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func decode(t *testing.T, v any) any {
	t.Helper()
	var out any
	if err := json.Unmarshal(mustJSON(t, v), &out); err != nil {
		t.Fatal(err)
	}
	return out
}
