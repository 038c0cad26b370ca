package exec_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	"github.com/toolnexus/toolnexus/internal/golden"
)

// tinyPNG is a 1x1 PNG, the image part of the rich golden cases.
var tinyPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde" +
	"\x00\x00\x00\x0cIDATx\x9cc\xf8\xcf\xc0\x00\x00\x03\x01\x01\x00\xc9\xfe\x92\xef\x00\x00\x00\x00IEND\xaeB`\x82")

// richRegistry holds the tools of the rich golden cases:
//
//	chart   text + PNG image
//	report  PDF file + plain-text file
//	song    WAV audio (no provider takes audio in a tool result but Gemini)
//	photo   image by URL
//	sum     typed output {"sum": a+b}
func richRegistry(t testing.TB) *toolnexus.Registry {
	t.Helper()
	reg := toolnexus.NewRegistry()
	type none struct{}
	result := func(name string, parts ...toolnexus.Part) {
		if err := toolnexus.RegisterResult(reg, name, name, func(context.Context, none) toolnexus.Result {
			return toolnexus.ContentResult(parts...)
		}); err != nil {
			t.Fatal(err)
		}
	}
	result("chart", toolnexus.TextPart("Sales by month:"), toolnexus.ImagePart("image/png", tinyPNG))
	result("report", toolnexus.FilePart("q3.pdf", "application/pdf", []byte("%PDF-1.4 q3")),
		toolnexus.FilePart("notes.txt", "text/plain", []byte("up 4%")))
	result("song", toolnexus.AudioPart("audio/wav", []byte("RIFF\x24\x00\x00\x00WAVE")))
	result("photo", toolnexus.ImageURLPart("image/jpeg", "https://example.com/cat.jpg"))
	type sumIn struct {
		A int `json:"a"`
		B int `json:"b"`
	}
	type sumOut struct {
		Sum int `json:"sum"`
	}
	if err := toolnexus.RegisterOutput(reg, "sum", "adds", func(_ context.Context, in sumIn) (sumOut, error) {
		return sumOut{Sum: in.A + in.B}, nil
	}); err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestGoldenRich runs testdata/rich/<provider>.json (images, files, audio,
// an image URL, a structured result, an error) and compares each
// provider's messages with testdata/golden/<provider>/rich_content.json
// byte for byte.
func TestGoldenRich(t *testing.T) {
	e := exec.New(richRegistry(t), nil)
	ctx := context.Background()
	providers := map[string]func(raw []byte) (any, error){
		"openai_chat":      func(raw []byte) (any, error) { return e.OpenAIChatJSON(ctx, raw) },
		"openai_responses": func(raw []byte) (any, error) { return e.ResponsesJSON(ctx, raw) },
		"anthropic":        func(raw []byte) (any, error) { return e.AnthropicJSON(ctx, raw) },
		"gemini":           func(raw []byte) (any, error) { return e.GeminiJSON(ctx, raw) },
	}
	for provider, run := range providers {
		t.Run(provider, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", "rich", provider+".json"))
			if err != nil {
				t.Fatal(err)
			}
			v, err := run(raw)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "golden", provider, "rich_content.json"), append(b, '\n'))
		})
	}
}

// A plain text result keeps the plain shapes: content and output stay
// strings, Gemini has no parts.
func TestPlainResultShapes(t *testing.T) {
	reg := toolnexus.NewRegistry()
	if err := toolnexus.RegisterResult(reg, "t", "", func(context.Context, struct{}) toolnexus.Result {
		return toolnexus.ContentResult(toolnexus.TextPart("a"), toolnexus.TextPart("b"))
	}); err != nil {
		t.Fatal(err)
	}
	e := exec.New(reg, nil)
	ctx := context.Background()
	a, _ := e.AnthropicJSON(ctx, []byte(`[{"type":"tool_use","id":"1","name":"t","input":{}}]`))
	r, _ := e.ResponsesJSON(ctx, []byte(`[{"type":"function_call","call_id":"1","name":"t","arguments":"{}"}]`))
	g, _ := e.GeminiJSON(ctx, []byte(`[{"functionCall":{"name":"t","args":{}}}]`))
	for _, c := range []struct{ got, want string }{
		{mustJSON(t, a), `{"role":"user","content":[{"type":"tool_result","tool_use_id":"1","content":"a\nb"}]}`},
		{mustJSON(t, r), `[{"type":"function_call_output","call_id":"1","output":"a\nb"}]`},
		{mustJSON(t, g), `{"role":"user","parts":[{"functionResponse":{"name":"t","response":{"output":"a\nb"}}}]}`},
	} {
		if c.got != c.want {
			t.Errorf("got  %s\nwant %s", c.got, c.want)
		}
	}
}

// OnEvent receives the tool's progress and log events with the call.
func TestOnEvent(t *testing.T) {
	reg := toolnexus.NewRegistry()
	if err := toolnexus.Register(reg, "work", "", func(ctx context.Context, _ struct{}) (string, error) {
		toolnexus.ReportProgress(ctx, 1, 2, "half")
		toolnexus.Log(ctx, slog.LevelWarn, "careful")
		return "ok", nil
	}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	e := exec.New(reg, &exec.Options{
		Before: func(ctx context.Context, c *exec.Call) *toolnexus.Result { c.Name = "work"; return nil },
		OnEvent: func(c exec.Call, ev toolnexus.Event) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, c.ID+" "+c.Name+" "+mustJSON(t, ev))
		},
	})
	res := e.Run(context.Background(), exec.Call{ID: "c1", Name: "alias"})
	if res.Output != "ok" {
		t.Fatalf("Run = %+v", res)
	}
	want := []string{
		`c1 alias {"kind":"progress","progress":1,"total":2,"message":"half"}`,
		`c1 alias {"kind":"log","level":"WARN","message":"careful"}`,
	}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("events = %q, want %q", got, want)
	}
}
