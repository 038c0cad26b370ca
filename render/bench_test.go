package render

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
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

// benchRenderer reports, for 100 tools in one run, each figure next to
// its floor (issue 11: Marshal at most 1.5x MarshalFloor, AppendJSON at
// most 1.5x AppendFloor):
//
//   - Render: building the typed value.
//   - Append: that plus the direct bytes path into a reused buffer.
//   - AppendJSON: the bytes path alone, on a value built once.
//   - AppendFloor: the hand-written floor of AppendJSON: the work no
//     writer of these bytes avoids, that is escaping every tool's name and
//     description (jsonx.AppendString) and copying the rest, here the
//     entries' bytes already built, into a reused buffer.
//   - CopyFloor: the copy alone (the entries' bytes already built, joined
//     with commas); the gap to AppendFloor is the string escaping.
//   - Marshal: json.Marshal of the value (MarshalJSON, then encoding/json's
//     re-scan of its output).
//   - MarshalFloor: json.Marshal of the same entries already built as
//     json.RawMessage (the re-scan alone).
func benchRenderer[E appendable, T ~[]E](b *testing.B, render func([]toolnexus.Tool) (T, error)) {
	tools := benchTools(b)
	v, err := render(tools) // also warms the rewrite caches
	if err != nil {
		b.Fatal(err)
	}
	entries := make([]json.RawMessage, len(v))
	for i := range v {
		entries[i] = v[i].AppendJSON(nil)
	}
	if want, got := appendJSON(v, nil), appendRaw(nil, entries); string(want) != string(got) {
		b.Fatalf("floor bytes differ from AppendJSON:\n%s\n%s", got, want)
	}
	b.Run("Render", func(b *testing.B) {
		b.ReportAllocs()
		start := cpuTime()
		for b.Loop() {
			if _, err := render(tools); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, start)
	})
	b.Run("Append", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		start := cpuTime()
		for b.Loop() {
			v, err := render(tools)
			if err != nil {
				b.Fatal(err)
			}
			buf = appendJSON(v, buf[:0])
		}
		reportCPU(b, start)
		b.SetBytes(int64(len(buf)))
	})
	b.Run("AppendJSON", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		start := cpuTime()
		for b.Loop() {
			buf = appendJSON(v, buf[:0])
		}
		reportCPU(b, start)
		b.SetBytes(int64(len(buf)))
	})
	b.Run("AppendFloor", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		start := cpuTime()
		for b.Loop() {
			buf = buf[:0]
			for i := range tools {
				buf = jsonx.AppendString(buf, tools[i].Name)
				buf = jsonx.AppendString(buf, tools[i].Description)
			}
			buf = appendRaw(buf[:0], entries)
		}
		reportCPU(b, start)
		b.SetBytes(int64(len(buf)))
	})
	b.Run("CopyFloor", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		start := cpuTime()
		for b.Loop() {
			buf = appendRaw(buf[:0], entries)
		}
		reportCPU(b, start)
		b.SetBytes(int64(len(buf)))
	})
	b.Run("Marshal", func(b *testing.B) {
		b.ReportAllocs()
		start := cpuTime()
		for b.Loop() {
			v, err := render(tools)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := json.Marshal(v); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, start)
	})
	b.Run("MarshalFloor", func(b *testing.B) {
		b.ReportAllocs()
		start := cpuTime()
		for b.Loop() {
			if _, err := json.Marshal(entries); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, start)
	})
}

// appendJSON is the list's own AppendJSON.
func appendJSON[E appendable, T ~[]E](v T, dst []byte) []byte {
	return any(v).(appendable).AppendJSON(dst)
}

// appendRaw is the hand-written floor: pre-built entries joined into a
// JSON array.
func appendRaw(dst []byte, entries []json.RawMessage) []byte {
	dst = append(dst, '[')
	for i, e := range entries {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, e...)
	}
	return append(dst, ']')
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
				openAIStrictRules.strict(schemaOf(&tools[i]))
			}
		}
	})
	b.Run("Gemini", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i := range tools {
				if _, err := geminiSchema(schemaOf(&tools[i]), DefaultGeminiRecursionDepth, false, false); err != nil {
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
