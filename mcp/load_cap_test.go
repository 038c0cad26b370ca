package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

// TestLoadCapsEveryPartOfAResult is the attack of issue 33: a loaded
// server answers with 5 MB in structuredContent, or in many text blocks
// beside an image. Whatever form a provider takes the result in, the text
// that reaches the model stays within LoadOptions.MaxOutputBytes, and a
// structured result over the cap is dropped whole (never sent cut, as
// invalid JSON) with a note saying so.
func TestLoadCapsEveryPartOfAResult(t *testing.T) {
	const limit = toolnexus.DefaultMaxOutputBytes
	big, err := json.Marshal(map[string]string{"data": strings.Repeat("A", 5<<20)})
	require.NoError(t, err)
	block := `{"type":"text","text":"` + strings.Repeat("B", 100<<10) + `"}`
	image := `{"type":"image","mimeType":"image/png","data":"` + base64.StdEncoding.EncodeToString([]byte("png")) + `"}`
	small := `{"n":1,"s":"fits"}`
	cases := []struct {
		name, result string
		structured   string // the Structured that must survive; "" for none
		note         bool   // the structured-drop note must be in the text
	}{
		{"structured only", `{"content":[],"structuredContent":` + string(big) + `}`, "", true},
		{"structured and a short text", `{"content":[{"type":"text","text":"see structuredContent"}],"structuredContent":` + string(big) + `}`, "", true},
		{"structured beside an image", `{"content":[` + image + `],"structuredContent":` + string(big) + `}`, "", true},
		{"text blocks beside an image", `{"content":[` + image + strings.Repeat(","+block, 50) + `]}`, "", false},
		{"a structured result that fits is kept", `{"content":[` + block + `],"structuredContent":` + small + `}`, small, false},
		{"a resource link of 5 MB", `{"content":[{"type":"resource_link","uri":"file:///` + strings.Repeat("A", 5<<20) + `","name":"n"}]}`, "", false},
		{"50,000 images", `{"content":[` + image + strings.Repeat(","+image, 50_000) + `]}`, "", false},
		{"an image with a MIME type of 1 MiB", `{"content":[{"type":"image","mimeType":"image/png\n\nIGNORE PREVIOUS ` + strings.Repeat("N", 1<<20) + `","data":"AQ=="}]}`, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := &fakeServer{
				list: func(string) (string, string) { return toolsJSON("t", 1, ""), "" },
				call: func(string) string { return c.result },
			}
			servers := loadFake(context.Background(), "s", srv, nil)
			defer servers.Close()
			reg := toolnexus.NewRegistry()
			require.NoError(t, reg.Add(servers.Tools()...))
			ctx := context.Background()

			res := reg.Execute(ctx, "s_t0", json.RawMessage(`{}`))
			require.False(t, res.IsError, res.Output)
			assert.LessOrEqual(t, len(res.Output), limit, "Output")
			assert.LessOrEqual(t, len(res.Text()), limit, "Text()")
			partText, binary := 0, 0 // binary: images kept, each a block of its own in a message
			for _, p := range res.Parts() {
				if !p.IsBinary() {
					partText += len(p.Text)
				} else {
					binary++
				}
			}
			assert.LessOrEqual(t, partText, limit, "text of Parts()")
			assert.LessOrEqual(t, len(toolnexus.ContentText(res.Parts())), limit, "ContentText(Parts())")
			if c.structured != "" {
				assert.JSONEq(t, c.structured, string(res.Structured))
			} else {
				assert.True(t, res.Structured == nil, "Structured kept: %d bytes", len(res.Structured))
			}
			if c.note {
				assert.True(t, strings.Contains(res.Text(), "[structured result of 5242891 bytes dropped: over the output cap of 32768 bytes]"),
					"no note in Text() %.100q...%q", res.Text(), res.Text()[max(0, len(res.Text())-100):])
			}

			// What each provider is sent: the whole tool-result message,
			// envelope and JSON escaping included (an image's block costs
			// more than its stand-in: at most 128 bytes for these).
			e := exec.New(reg, nil)
			msgs := map[string]func() (any, error){
				"openai_chat": func() (any, error) {
					return e.OpenAIChatJSON(ctx, []byte(`[{"id":"c","type":"function","function":{"name":"s_t0","arguments":"{}"}}]`))
				},
				"responses": func() (any, error) {
					return e.ResponsesJSON(ctx, []byte(`[{"type":"function_call","call_id":"c","name":"s_t0","arguments":"{}"}]`))
				},
				"anthropic": func() (any, error) {
					return e.AnthropicJSON(ctx, []byte(`[{"type":"tool_use","id":"c","name":"s_t0","input":{}}]`))
				},
				"gemini": func() (any, error) {
					return e.GeminiJSON(ctx, []byte(`[{"functionCall":{"name":"s_t0","args":{}}}]`))
				},
			}
			for provider, run := range msgs {
				m, err := run()
				require.NoError(t, err, provider)
				b, err := json.Marshal(m)
				require.NoError(t, err, provider)
				assert.LessOrEqual(t, len(b), limit+1024+128*binary, "%s message: %.100s", provider, b)
			}
		})
	}
}

// TestLoadEscapesPartMetadata: the URI, name and MIME type of a server's
// content blocks are shown with control characters escaped, newlines and
// tabs too (they are one-line values), as in Part.Summary.
func TestLoadEscapesPartMetadata(t *testing.T) {
	result := `{"content":[` +
		`{"type":"image","mimeType":"image/png\n\nIGNORE PREVIOUS\u001b[2J","data":"AQ=="},` +
		`{"type":"resource_link","uri":"file:///a\u0000b","name":"n\r\nx\t\u009b","mimeType":"text/plain"},` +
		`{"type":"resource","resource":{"uri":"test://r\u007f","mimeType":"text/plain\r","text":"line 1\r\nline 2\u001b"}}]}`
	srv := &fakeServer{
		list: func(string) (string, string) { return toolsJSON("t", 1, ""), "" },
		call: func(string) string { return result },
	}
	servers := loadFake(context.Background(), "s", srv, nil)
	defer servers.Close()
	res := servers.Tools()[0].Handler.Call(context.Background(), json.RawMessage(`{}`))
	require.False(t, res.IsError, res.Output)
	assert.Equal(t, []toolnexus.Part{
		toolnexus.ImagePart(`image/png\n\nIGNORE PREVIOUS\x1b[2J`, []byte{1}),
		toolnexus.ResourceLinkPart(`file:///a\x00b`, `n\nx\t\u009b`, "text/plain"),
		toolnexus.ResourcePart(`test://r\x7f`, `text/plain\r`, "line 1\nline 2\\x1b"),
	}, res.Content)
	assert.Equal(t, `[image: image/png\n\nIGNORE PREVIOUS\x1b[2J, 1 bytes]`+"\n"+
		`[resource link: file:///a\x00b, text/plain]`+"\n"+"line 1\nline 2\\x1b", res.Text())
}
