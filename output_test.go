package toolnexus_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/builtin"
	"github.com/toolnexus/toolnexus/schema"
)

// outputTool is a raw tool that returns out (or fails with it).
func outputTool(name, out string, fail bool) toolnexus.Tool {
	return toolnexus.Tool{Name: name, Description: "returns a fixed output",
		Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) {
			if fail {
				return "", errors.New(out)
			}
			return out, nil
		})}
}

func TestMaxOutputBytes(t *testing.T) {
	e200 := strings.Repeat("é", 100) // 200 bytes, 2 per character
	cases := []struct {
		name  string
		limit int
		out   string
		fail  bool
		want  string
	}{
		// The note is 33 bytes, leaving 27: a head of 13 would split an é
		// (12 are kept), the tail takes the 14 bytes after the cut.
		{"head and tail cut on character boundaries", 60, e200, false,
			strings.Repeat("é", 6) + "\n\n[... 174 bytes truncated ...]\n\n" + strings.Repeat("é", 7)},
		{"error results too", 60, e200, true,
			strings.Repeat("é", 6) + "\n\n[... 174 bytes truncated ...]\n\n" + strings.Repeat("é", 7)},
		{"exactly at the limit", 200, e200, false, e200},
		{"limit smaller than the note: the head alone", 10, e200, false, strings.Repeat("é", 5)},
		{"negative: no limit", -1, strings.Repeat("x", 3<<20), false, strings.Repeat("x", 3<<20)},
		// Each \xff becomes U+FFFD (3 bytes): 120 bytes, 33 of note.
		{"invalid UTF-8 is repaired before the cut", 50, strings.Repeat("\xffa", 30), false,
			"\uFFFDa\uFFFDa\n\n[... 103 bytes truncated ...]\n\na\uFFFDa\uFFFDa"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reg := toolnexus.NewRegistryWith(&toolnexus.Options{MaxOutputBytes: c.limit})
			if err := reg.Add(outputTool("big", c.out, c.fail)); err != nil {
				t.Fatal(err)
			}
			res := reg.Execute(context.Background(), "big", nil)
			if res.IsError != c.fail {
				t.Errorf("IsError = %v, want %v", res.IsError, c.fail)
			}
			if res.Output != c.want {
				t.Errorf("Output = %.200q\nwant     %.200q", res.Output, c.want)
			}
			if c.limit > 0 && len(res.Output) > max(c.limit, len(c.want)) {
				t.Errorf("len(Output) = %d, over the limit %d", len(res.Output), c.limit)
			}
		})
	}
}

// TestMaxOutputBytesDefault: with zero Options a 10 MiB output (the size
// an MCP tool was seen passing through) is cut to DefaultMaxOutputBytes,
// typed tools included.
func TestMaxOutputBytesDefault(t *testing.T) {
	big := strings.Repeat("日本語", 10<<20/9+1) // 3 bytes a character
	reg := toolnexus.NewRegistry()
	if err := reg.Add(outputTool("raw", big, false)); err != nil {
		t.Fatal(err)
	}
	type noArgs struct{}
	if err := toolnexus.Register(reg, "typed", "returns a lot", func(context.Context, noArgs) (string, error) {
		return big, nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"raw", "typed"} {
		res := reg.Execute(context.Background(), name, nil)
		if res.IsError || len(res.Output) > toolnexus.DefaultMaxOutputBytes || !utf8.ValidString(res.Output) {
			t.Fatalf("%s: IsError %v, %d bytes, valid UTF-8 %v", name, res.IsError, len(res.Output), utf8.ValidString(res.Output))
		}
		head, rest, ok := strings.Cut(res.Output, "\n\n[... ")
		require.True(t, ok, "%s: no note", name)
		cut, tail, ok := strings.Cut(rest, " bytes truncated ...]\n\n")
		require.True(t, ok, "%s: no note", name)
		require.True(t, strings.HasPrefix(big, head) && strings.HasSuffix(big, tail), "%s: head or tail not of the output", name)
		require.GreaterOrEqual(t, len(head)+len(tail), toolnexus.DefaultMaxOutputBytes-64, name)
		require.Equal(t, itoa(len(big)-len(head)-len(tail)), cut, name)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestMaxOutputBytesBuiltin: a built-in tool's output, already cut by its
// own cap, is cut again by a lower registry limit.
func TestMaxOutputBytesBuiltin(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat("line of text\n", 2000)), 0o644); err != nil {
		t.Fatal(err)
	}
	tools, err := builtin.Tools(&builtin.Options{Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	reg := toolnexus.NewRegistryWith(&toolnexus.Options{MaxOutputBytes: 1000})
	if err := reg.Add(tools...); err != nil {
		t.Fatal(err)
	}
	res := reg.Execute(context.Background(), "read", json.RawMessage(`{"path":"big.txt"}`))
	if res.IsError || len(res.Output) > 1000 || !strings.Contains(res.Output, " bytes truncated ...]") {
		t.Fatalf("IsError %v, %d bytes: %.300q", res.IsError, len(res.Output), res.Output)
	}
}

type forecastIn struct {
	City string `json:"city"`
}

type forecastOut struct {
	City  string  `json:"city"`
	TempC float64 `json:"temp_c"`
	Sky   string  `json:"sky" validate:"oneof=clear cloudy rain"`
}

func TestOutputTool(t *testing.T) {
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.RegisterOutput(reg, "forecast", "Forecast for a city.",
		func(ctx context.Context, in forecastIn) (forecastOut, error) {
			switch in.City {
			case "Oslo":
				return forecastOut{City: in.City, TempC: -3, Sky: "snow"}, nil // breaks the enum
			case "Nowhere":
				return forecastOut{}, errors.New("no such city")
			}
			return forecastOut{City: in.City, TempC: 21.5, Sky: "clear"}, nil
		}))
	tool, ok := reg.Get("forecast")
	require.True(t, ok)
	require.Equal(t, `{"type":"object","properties":{"city":{"type":"string"},"temp_c":{"type":"number"},`+
		`"sky":{"type":"string","enum":["clear","cloudy","rain"]}},"required":["city","temp_c","sky"],"additionalProperties":false}`,
		string(tool.OutputSchema))

	res := reg.Execute(context.Background(), "forecast", []byte(`{"city":"Paris"}`))
	require.False(t, res.IsError, res.Output)
	require.Equal(t, `{"city":"Paris","temp_c":21.5,"sky":"clear"}`, res.Output)
	require.Equal(t, res.Output, string(res.Structured))

	res = reg.Execute(context.Background(), "forecast", []byte(`{"city":"Oslo"}`))
	require.True(t, res.IsError)
	require.Nil(t, res.Structured)
	require.Equal(t, `tool "forecast" failed: internal error: its result does not match its output schema`, res.Output)
	require.ErrorIs(t, res.Err, toolnexus.ErrInvalidOutput)
	var verr *schema.ValidationError
	require.ErrorAs(t, res.Err, &verr)
	require.Equal(t, "sky", verr.Problems[0].Path)
	require.Equal(t, "enum", verr.Problems[0].Keyword)

	res = reg.Execute(context.Background(), "forecast", []byte(`{"city":"Nowhere"}`))
	require.True(t, res.IsError)
	require.Equal(t, "no such city", res.Output)

	// Arguments are checked as for NewTool.
	res = reg.Execute(context.Background(), "forecast", []byte(`{"town":"Paris"}`))
	require.True(t, res.IsError)
	require.ErrorIs(t, res.Err, toolnexus.ErrInvalidArguments)
}

func TestOutputToolNilPointer(t *testing.T) {
	tool, err := toolnexus.NewOutputTool("p", "", func(ctx context.Context, _ struct{}) (*forecastOut, error) {
		return nil, nil
	})
	require.NoError(t, err)
	res := tool.Handler.Call(context.Background(), []byte(`{}`))
	require.True(t, res.IsError)
	require.ErrorIs(t, res.Err, toolnexus.ErrInvalidOutput)
}

func TestOutputToolErrors(t *testing.T) {
	_, err := toolnexus.NewOutputTool("s", "", func(ctx context.Context, _ struct{}) (any, error) { return "", nil })
	require.ErrorIs(t, err, toolnexus.ErrInvalidSchema)
	require.EqualError(t, err, `toolnexus: tool "s": invalid output schema: output type interface {} is an interface: give a concrete type, whose schema says what the result holds`)
	_, err = toolnexus.NewOutputTool("c", "", func(ctx context.Context, _ struct{}) (chan int, error) { return nil, nil })
	require.ErrorIs(t, err, toolnexus.ErrInvalidSchema)
	_, err = toolnexus.NewOutputTool("bad name", "", func(ctx context.Context, _ struct{}) (string, error) { return "", nil })
	require.ErrorIs(t, err, toolnexus.ErrInvalidName)
	_, err = toolnexus.NewOutputTool[struct{}, forecastOut]("n", "", nil)
	require.ErrorContains(t, err, "function is nil")
}

// TestResultCapped: the one cap over Output, Content's text and
// Structured.
func TestResultCapped(t *testing.T) {
	big := `{"k":"` + strings.Repeat("v", 200) + `"}` // 208 bytes of JSON
	image := toolnexus.ImagePart("image/png", []byte("png"))

	t.Run("a structured value that fits is kept", func(t *testing.T) {
		res := toolnexus.Result{Output: `{"a":1}`, Structured: json.RawMessage(`{"a":1}`)}.Capped(100)
		require.Equal(t, `{"a":1}`, res.Output)
		require.JSONEq(t, `{"a":1}`, string(res.Structured))
	})
	t.Run("a structured value over the cap is dropped, never cut", func(t *testing.T) {
		res := toolnexus.Result{Output: "described elsewhere", Structured: json.RawMessage(big)}.Capped(150)
		require.Nil(t, res.Structured)
		note := "[structured result of 208 bytes dropped: over the output cap of 150 bytes]"
		// Without Content the JSON text is what the model read; it keeps
		// its head and tail.
		// 150 - 74 of note - 1 = 75 bytes: 33 of truncation note, 21 of head
		// and 21 of tail.
		require.Equal(t, `{"k":"`+strings.Repeat("v", 15)+"\n\n[... 166 bytes truncated ...]\n\n"+strings.Repeat("v", 19)+`"}`+"\n"+note, res.Output)
		require.Len(t, res.Output, 150)
		require.Equal(t, res.Output, res.Text())
	})
	t.Run("beside Content the note is a last text part", func(t *testing.T) {
		res := toolnexus.Result{Content: []toolnexus.Part{image}, Structured: json.RawMessage(big)}.Capped(150)
		require.Nil(t, res.Structured)
		require.Equal(t, "", res.Output)
		require.Equal(t, []toolnexus.Part{image, toolnexus.TextPart("[structured result of 208 bytes dropped: over the output cap of 150 bytes]")}, res.Content)
	})
	t.Run("Content's parts share one budget, a \"\\n\" between two included", func(t *testing.T) {
		parts := []toolnexus.Part{toolnexus.TextPart(strings.Repeat("a", 40)), image,
			toolnexus.TextPart(strings.Repeat("b", 70)), toolnexus.ResourcePart("file:///c", "text/plain", strings.Repeat("c", 70)), image}
		orig := slices.Clone(parts)
		res := toolnexus.Result{Content: parts}.Capped(150)
		require.Equal(t, orig, parts, "the caller's slice is unchanged")
		// The images' stand-ins ("[image: image/png, 3 bytes]", 27 bytes
		// each) come first: 150 - 2*28 = 94 bytes left with the "\n"s. The
		// first text fits (40 and a "\n"); the second does not fit in the
		// 53 left, so it and the resource's text are joined (141 bytes) and
		// cut to 53: a 33-byte note, 10 bytes of head, 10 of tail.
		require.Equal(t, []toolnexus.Part{parts[0], image,
			toolnexus.TextPart("bbbbbbbbbb\n\n[... 121 bytes truncated ...]\n\ncccccccccc"), image}, res.Content)
		require.Len(t, res.Text(), 150)
	})
	t.Run("binary parts whose stand-ins do not fit are dropped with a note", func(t *testing.T) {
		link := toolnexus.ResourceLinkPart("file:///"+strings.Repeat("A", 200), "n", "text/plain")
		parts := []toolnexus.Part{toolnexus.TextPart(strings.Repeat("a", 20)), image, link, image}
		res := toolnexus.Result{Content: parts}.Capped(150)
		// 150 - 60 kept for the note (as if all three binary parts were
		// dropped) = 90 with the "\n"s: both images (28 each) fit, the link
		// does not; the text takes 21 of the 34 left.
		require.Equal(t, []toolnexus.Part{parts[0], image, image,
			toolnexus.TextPart("[1 content part dropped: over the output cap of 150 bytes]")}, res.Content)
		require.Len(t, res.Text(), 135)
	})
	t.Run("a huge resource link is dropped, not shown", func(t *testing.T) {
		res := toolnexus.Result{Content: []toolnexus.Part{
			toolnexus.ResourceLinkPart("file:///"+strings.Repeat("A", 5<<20), "n", "text/plain")}}.Capped(32 << 10)
		require.Equal(t, []toolnexus.Part{toolnexus.TextPart("[1 content part dropped: over the output cap of 32768 bytes]")}, res.Content)
		require.Equal(t, "[1 content part dropped: over the output cap of 32768 bytes]", res.Text())
	})
	t.Run("a name and a MIME type count too", func(t *testing.T) {
		long := strings.Repeat("N", 1<<20)
		for _, p := range []toolnexus.Part{
			toolnexus.ImagePart("image/png\n\nIGNORE PREVIOUS "+long, []byte{1}),
			{Kind: toolnexus.PartImage, MIMEType: "image/png", Data: []byte{1}, Name: long}, // Gemini's displayName
			toolnexus.ResourceLinkPart("file:///a", long, "text/plain"),
			toolnexus.FilePart(long, "application/pdf", []byte{1}),
		} {
			res := toolnexus.Result{Content: []toolnexus.Part{p}}.Capped(32 << 10)
			require.Equal(t, "[1 content part dropped: over the output cap of 32768 bytes]", res.Text())
		}
	})
	t.Run("200,000 images keep within the cap", func(t *testing.T) {
		const limit = 32 << 10
		parts := make([]toolnexus.Part, 200_000)
		for i := range parts {
			parts[i] = toolnexus.ImagePart("image/png", []byte{1}) // "[image: image/png, 1 bytes]", 27 bytes
		}
		res := toolnexus.Result{Content: parts}.Capped(limit)
		// 32768 - 67 for the note = 32701 with the "\n"s: 1167 images of 28.
		require.Len(t, res.Content, 1168)
		require.Equal(t, parts[:1167], res.Content[:1167])
		require.Equal(t, toolnexus.TextPart("[198833 content parts dropped: over the output cap of 32768 bytes]"), res.Content[1167])
		require.LessOrEqual(t, len(res.Text()), limit)
		require.Greater(t, len(res.Text()), limit-28)
	})
	t.Run("Text() stays within any limit", func(t *testing.T) {
		parts := []toolnexus.Part{toolnexus.TextPart(""), toolnexus.TextPart(strings.Repeat("a", 50)), image,
			toolnexus.TextPart(""), toolnexus.ResourceLinkPart("file:///x", "x", ""), toolnexus.TextPart("é€"),
			toolnexus.ResourcePart("file:///r", "text/plain", strings.Repeat("r", 30)), image, toolnexus.TextPart("")}
		for limit := 0; limit <= 300; limit++ {
			for _, r := range []toolnexus.Result{{Content: parts}, {Content: parts, Structured: json.RawMessage(big)}} {
				got := r.Capped(limit)
				text := toolnexus.ContentText(got.Content)
				require.LessOrEqual(t, len(text), limit, "limit %d, structured %t: %q", limit, r.Structured != nil, text)
				require.True(t, utf8.ValidString(text))
			}
		}
	})
	t.Run("a negative limit repairs UTF-8 and cuts nothing", func(t *testing.T) {
		res := toolnexus.Result{Output: "a\xffb" + big, Content: []toolnexus.Part{toolnexus.TextPart("\xff")},
			Structured: json.RawMessage(big)}.Capped(-1)
		require.Equal(t, "a\uFFFDb"+big, res.Output)
		require.Equal(t, "\uFFFD", res.Content[0].Text)
		require.Equal(t, big, string(res.Structured))
	})
}

type rowOut struct {
	ID   int    `json:"id"`
	Name string `json:"name,omitempty"`
}

// TestOutputAnyJSON: typed outputs may be any JSON value, not only objects:
// slices, maps and scalars get their reflected schema, every result is
// checked against it, and a nil slice or map is sent as [] or {}.
func TestOutputAnyJSON(t *testing.T) {
	rowSchema := `{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}},"required":["id"],"additionalProperties":false}`
	rows := []rowOut{{ID: 1, Name: "a"}, {ID: 2}}
	for _, c := range []struct {
		tool           toolnexus.Tool
		schema, output string
	}{
		{mustOutput(t, func(context.Context, struct{}) ([]rowOut, error) { return rows, nil }),
			`{"type":"array","items":` + rowSchema + `}`, `[{"id":1,"name":"a"},{"id":2}]`},
		{mustOutput(t, func(context.Context, struct{}) ([]rowOut, error) { return nil, nil }),
			`{"type":"array","items":` + rowSchema + `}`, `[]`},
		{mustOutput(t, func(context.Context, struct{}) (map[string]int, error) { return nil, nil }),
			`{"type":"object","additionalProperties":{"type":"integer"}}`, `{}`},
		{mustOutput(t, func(context.Context, struct{}) (int, error) { return 42, nil }), `{"type":"integer"}`, `42`},
		{mustOutput(t, func(context.Context, struct{}) (string, error) { return "hi", nil }), `{"type":"string"}`, `"hi"`},
		{mustOutput(t, func(context.Context, struct{}) ([2]bool, error) { return [2]bool{true, false}, nil }),
			`{"type":"array","items":{"type":"boolean"},"maxItems":2,"minItems":2}`, `[true,false]`},
	} {
		assert.Equal(t, c.schema, string(c.tool.OutputSchema))
		res := c.tool.Handler.Call(context.Background(), []byte(`{}`))
		require.False(t, res.IsError, res.Output)
		assert.Equal(t, c.output, string(res.Structured))
		assert.Equal(t, c.output, res.Output)
	}
}

func mustOutput[Out any](t *testing.T, fn func(context.Context, struct{}) (Out, error)) toolnexus.Tool {
	t.Helper()
	tool, err := toolnexus.NewOutputTool("out", "", fn)
	require.NoError(t, err)
	return tool
}

// TestMediaCap: binary parts are bounded by Options.MaxMediaBytes, apart
// from the text cap: parts that do not fit in what is left are dropped, in
// order, with a note the model reads.
func TestMediaCap(t *testing.T) {
	reg := toolnexus.NewRegistryWith(&toolnexus.Options{MaxMediaBytes: 10})
	require.NoError(t, reg.Add(toolnexus.Tool{Name: "rich", Handler: richHandler{}}))
	res := reg.Execute(context.Background(), "rich", nil)
	var kinds []string
	for _, p := range res.Content {
		kinds = append(kinds, string(p.Kind)+":"+p.Text+string(p.Data))
	}
	assert.Equal(t, []string{"text:caption", "image:123456", "image:7890", "text:[1 content parts dropped: over the media cap of 10 bytes]"}, kinds)
}

type richHandler struct{}

func (richHandler) Call(context.Context, json.RawMessage) toolnexus.Result {
	return toolnexus.Result{Output: "caption", Content: []toolnexus.Part{
		toolnexus.TextPart("caption"),
		{Kind: toolnexus.PartImage, MIMEType: "image/png", Data: []byte("123456")},
		{Kind: toolnexus.PartImage, MIMEType: "image/png", Data: []byte("abcdefgh")},
		{Kind: toolnexus.PartImage, MIMEType: "image/png", Data: []byte("7890")},
	}}
}
