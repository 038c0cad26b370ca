package exec_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

// bigArgsStream is one call whose arguments ({"text":"xxx…"}, size bytes)
// stream in deltas of delta bytes, as an SSE body of provider.
func bigArgsStream(provider string, size, delta int) []byte {
	args := `{"text":"` + strings.Repeat("x", size-11) + `"}`
	var s bytes.Buffer
	frags := func(each func(frag []byte)) {
		for j := 0; j < len(args); j += delta {
			frag, _ := json.Marshal(args[j:min(j+delta, len(args))])
			each(frag)
		}
	}
	switch provider {
	case "openai_chat":
		s.WriteString(`data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"sink","arguments":""}}]}}]}` + "\n\n")
		frags(func(frag []byte) {
			fmt.Fprintf(&s, "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":%s}}]}}]}\n\n", frag)
		})
		s.WriteString(`data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n")
	case "openai_responses":
		s.WriteString(`data: {"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","call_id":"call_1","name":"sink","arguments":""}}` + "\n\n")
		frags(func(frag []byte) {
			fmt.Fprintf(&s, "data: {\"type\":\"response.function_call_arguments.delta\",\"output_index\":0,\"delta\":%s}\n\n", frag)
		})
		q, _ := json.Marshal(args)
		fmt.Fprintf(&s, "data: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"type\":\"function_call\",\"call_id\":\"call_1\",\"name\":\"sink\",\"arguments\":%s}}\n\n", q)
		s.WriteString(`data: {"type":"response.completed","response":{"output":[]}}` + "\n\n")
	case "anthropic":
		s.WriteString(`data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"sink","input":{}}}` + "\n\n")
		frags(func(frag []byte) {
			fmt.Fprintf(&s, "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":%s}}\n\n", frag)
		})
		s.WriteString(`data: {"type":"content_block_stop","index":0}` + "\n\ndata: {\"type\":\"message_stop\"}\n\n")
	case "gemini": // Gemini sends each call whole, in one chunk
		fmt.Fprintf(&s, "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"name\":\"sink\",\"args\":%s}}]},\"finishReason\":\"STOP\"}]}\n\n", args)
	}
	return s.Bytes()
}

// sinkExecutor has one tool "sink" that answers with the length of its
// text; OnInvalidPartial is set so that every provider keeps the deltas.
func sinkExecutor(t testing.TB) *exec.Executor {
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.Register(reg, "sink", "", func(_ context.Context, a struct {
		Text string `json:"text"`
	}) (string, error) {
		return fmt.Sprint(len(a.Text)), nil
	}))
	return exec.New(reg, &exec.Options{OnInvalidPartial: func(exec.Call, string) {}})
}

var streamOf = map[string]func(*exec.Executor, []byte) (any, error){
	"openai_chat": func(e *exec.Executor, b []byte) (any, error) {
		return e.OpenAIChatStream(context.Background(), bytes.NewReader(b))
	},
	"openai_responses": func(e *exec.Executor, b []byte) (any, error) {
		return e.ResponsesStream(context.Background(), bytes.NewReader(b))
	},
	"anthropic": func(e *exec.Executor, b []byte) (any, error) {
		return e.AnthropicStream(context.Background(), bytes.NewReader(b))
	},
	"gemini": func(e *exec.Executor, b []byte) (any, error) {
		return e.GeminiStream(context.Background(), bytes.NewReader(b))
	},
}

// TestStreamAssemblyLinear: putting one call's arguments together from
// many small deltas allocates in proportion to the stream, not to the
// square of the number of deltas. 512 KiB in 100-byte deltas (5,243
// deltas) may allocate at most 64 times the stream's size; joining by
// string concatenation allocated ~1.4 GB (the sum of every prefix).
func TestStreamAssemblyLinear(t *testing.T) {
	const size = 512 << 10
	for provider, run := range streamOf {
		t.Run(provider, func(t *testing.T) {
			e := sinkExecutor(t)
			body := bigArgsStream(provider, size, 100)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			out, err := run(e, body)
			runtime.ReadMemStats(&after)
			require.NoError(t, err)
			require.Contains(t, mustJSON(t, out), fmt.Sprint(size-11))
			alloc := after.TotalAlloc - before.TotalAlloc
			require.Less(t, alloc, uint64(64*len(body)), "allocated %d bytes for a %d-byte stream", alloc, len(body))
		})
	}
}

// BenchmarkStreamAssembly reads one call of 2 MiB arguments sent in
// 100-byte deltas (Gemini: in one chunk) per provider; the baseline is
// reading the same call from a whole Anthropic message (AnthropicJSON).
// The registry answers each with an error (the arguments are over its
// 1 MiB default), so what is timed is reading and assembly.
func BenchmarkStreamAssembly(b *testing.B) {
	const size = 2 << 20
	e := sinkExecutor(b)
	for _, provider := range []string{"openai_chat", "openai_responses", "anthropic", "gemini"} {
		body := bigArgsStream(provider, size, 100)
		b.Run(provider, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if _, err := streamOf[provider](e, body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	whole := []byte(`{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"sink","input":{"text":"` + strings.Repeat("x", size-11) + `"}}]}`)
	b.Run("baseline_whole_anthropic", func(b *testing.B) {
		b.SetBytes(int64(len(whole)))
		for b.Loop() {
			if _, err := e.AnthropicJSON(context.Background(), whole); err != nil {
				b.Fatal(err)
			}
		}
	})
}
