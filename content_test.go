package toolnexus_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
)

func TestPartSummary(t *testing.T) {
	cases := []struct {
		part toolnexus.Part
		want string
	}{
		{toolnexus.TextPart("hello"), "hello"},
		{toolnexus.TextPart("bad \xff byte"), "bad \uFFFD byte"},
		{toolnexus.ImagePart("image/png", make([]byte, 12345)), "[image: image/png, 12345 bytes]"},
		{toolnexus.ImageURLPart("", "https://example.com/a.png"), "[image: https://example.com/a.png]"},
		{toolnexus.AudioPart("audio/wav", []byte{1, 2}), "[audio: audio/wav, 2 bytes]"},
		{toolnexus.FilePart("report.pdf", "application/pdf", []byte("pdf")), "[file: report.pdf, application/pdf, 3 bytes]"},
		{toolnexus.FileURLPart("a.pdf", "application/pdf", "https://x/a.pdf"), "[file: a.pdf, application/pdf, https://x/a.pdf]"},
		{toolnexus.ResourceLinkPart("file:///a.txt", "a", "text/plain"), "[resource link: file:///a.txt, text/plain]"},
		{toolnexus.ResourcePart("test://r", "text/plain", "inside"), "inside"},
		{toolnexus.Part{Kind: toolnexus.PartResource, URL: "test://b", MIMEType: "application/octet-stream", Data: []byte{0}},
			"[resource: test://b, application/octet-stream, 1 bytes]"},
	}
	for _, c := range cases {
		require.Equal(t, c.want, c.part.Summary(), "%+v", c.part)
	}
}

func TestResultTextAndParts(t *testing.T) {
	r := toolnexus.ContentResult(toolnexus.TextPart("chart:"), toolnexus.ImagePart("image/png", []byte{1, 2, 3}))
	require.Equal(t, "", r.Output)
	require.Equal(t, "chart:\n[image: image/png, 3 bytes]", r.Text())
	require.Len(t, r.Parts(), 2)

	plain := toolnexus.Result{Output: "22C"}
	require.Equal(t, "22C", plain.Text())
	require.Equal(t, []toolnexus.Part{toolnexus.TextPart("22C")}, plain.Parts())
	require.Nil(t, toolnexus.Result{}.Parts())

	both := toolnexus.Result{Output: "a chart", Content: r.Content}
	require.Equal(t, "a chart", both.Text())

	structured := toolnexus.Result{Output: "see structured content", Structured: []byte(`{"a":1}`)}
	require.Equal(t, `{"a":1}`, structured.Text())
	require.Equal(t, []toolnexus.Part{toolnexus.TextPart(`{"a":1}`)}, structured.Parts())
}

func TestJSONResult(t *testing.T) {
	r, err := toolnexus.JSONResult(map[string]int{"n": 1})
	require.NoError(t, err)
	require.Equal(t, `{"n":1}`, r.Output)
	require.JSONEq(t, `{"n":1}`, string(r.Structured))
	_, err = toolnexus.JSONResult(func() {})
	require.ErrorContains(t, err, "JSONResult")
}

// A handler's parts reach the caller of Execute untouched, and the result
// marshals with base64 data.
func TestContentThroughExecute(t *testing.T) {
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.RegisterResult(reg, "chart", "draws", func(ctx context.Context, _ struct{}) toolnexus.Result {
		return toolnexus.ContentResult(toolnexus.ImagePart("image/png", []byte("PNG")))
	}))
	res := reg.Execute(context.Background(), "chart", nil)
	require.False(t, res.IsError)
	require.Equal(t, []toolnexus.Part{{Kind: toolnexus.PartImage, MIMEType: "image/png", Data: []byte("PNG")}}, res.Content)
	b, err := json.Marshal(res)
	require.NoError(t, err)
	require.Equal(t, `{"output":"","content":[{"kind":"image","mime_type":"image/png","data":"UE5H"}]}`, string(b))
}
