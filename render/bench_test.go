package render

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render/rendertest"
)

// benchTools returns 100 tools cycling through the case list (schema bytes
// prepared at registration, as a Registry holds them).
func benchTools(b *testing.B) []toolnexus.Tool {
	b.Helper()
	cases := rendertest.Tools()
	reg := toolnexus.NewRegistry()
	for i := range 100 {
		t := cases[i%len(cases)]
		t.Name = fmt.Sprintf("tool_%03d", i)
		if err := reg.Add(t); err != nil {
			b.Fatal(err)
		}
	}
	return reg.Tools()
}

type appendable interface{ AppendJSON([]byte) []byte }

// benchRenderer reports three figures for 100 tools: building the typed
// value (Render), that plus the direct bytes path into a reused buffer
// (Append), and json.Marshal of the value (Marshal, which re-scans the
// MarshalJSON output).
func benchRenderer[T appendable](b *testing.B, render func([]toolnexus.Tool) (T, error)) {
	tools := benchTools(b)
	if _, err := render(tools); err != nil { // warm the rewrite caches
		b.Fatal(err)
	}
	b.Run("Render", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := render(tools); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Append", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			v, err := render(tools)
			if err != nil {
				b.Fatal(err)
			}
			buf = v.AppendJSON(buf[:0])
		}
		b.SetBytes(int64(len(buf)))
	})
	b.Run("Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			v, err := render(tools)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := json.Marshal(v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func noErr[T any](f func([]toolnexus.Tool) T) func([]toolnexus.Tool) (T, error) {
	return func(ts []toolnexus.Tool) (T, error) { return f(ts), nil }
}

func BenchmarkRenderOpenAI(b *testing.B) { benchRenderer(b, noErr(OpenAI)) }

func BenchmarkRenderOpenAIStrict(b *testing.B) {
	benchRenderer(b, func(ts []toolnexus.Tool) (OpenAITools, error) {
		return OpenAIWith(ts, OpenAIOptions{Strict: true, Fallback: true})
	})
}

func BenchmarkRenderOpenAIResponses(b *testing.B) { benchRenderer(b, noErr(OpenAIResponses)) }

func BenchmarkRenderAnthropic(b *testing.B) { benchRenderer(b, Anthropic) }

func BenchmarkRenderGemini(b *testing.B) { benchRenderer(b, Gemini) }

func BenchmarkRenderMCP(b *testing.B) { benchRenderer(b, noErr(MCP)) }

// BenchmarkRewriteUncached measures the schema rewrites themselves for the
// 12 case schemas, bypassing the cache: the cost of the first render of a
// new schema.
func BenchmarkRewriteUncached(b *testing.B) {
	tools := rendertest.Tools()
	b.Run("Strict", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i := range tools {
				strictSchema(schemaOf(&tools[i]))
			}
		}
	})
	b.Run("Gemini", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i := range tools {
				if _, err := geminiSchema(schemaOf(&tools[i]), DefaultGeminiRecursionDepth, false); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkMarshalOpenAIFloor is issue 11's floor for json.Marshal of a
// render: json.Marshal of the same 100 entries already built as
// json.RawMessage (BenchmarkRenderOpenAI/Marshal at most 1.5x this).
func BenchmarkMarshalOpenAIFloor(b *testing.B) {
	v := OpenAI(benchTools(b))
	entries := make([]json.RawMessage, len(v))
	for i := range v {
		entries[i] = v[i].AppendJSON(nil)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(entries); err != nil {
			b.Fatal(err)
		}
	}
}
