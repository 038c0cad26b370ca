package exec_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

// BenchmarkStreamStartDelay measures, per provider, the time from the
// moment the reader hands over the last byte of the event that completes
// the first call's arguments to the moment that call's handler starts
// (metric start-delay-ns), with the call run inline (Concurrency 1) and on
// a goroutine (default).
func BenchmarkStreamStartDelay(b *testing.B) {
	for _, provider := range []string{"openai_chat", "openai_responses", "anthropic", "gemini"} {
		m := streamMarks[provider]
		raw, err := os.ReadFile(filepath.Join("testdata", "streams", provider, m.file))
		if err != nil {
			b.Fatal(err)
		}
		for _, conc := range []int{1, 0} {
			b.Run(fmt.Sprintf("%s/Concurrency%d", provider, conc), func(b *testing.B) {
				started := make(chan time.Time, 1)
				e := exec.New(startRegistry(b, started), &exec.Options{Concurrency: conc})
				open := make(chan struct{})
				close(open)
				var total time.Duration
				for i := 0; i < b.N; i++ {
					r := newGateReader(b, raw, m.mark, open)
					if _, err := streamProviders[provider].stream(e, context.Background(), r); err != nil {
						b.Fatal(err)
					}
					total += (<-started).Sub(r.served)
				}
				b.ReportMetric(float64(total.Nanoseconds())/float64(b.N), "start-delay-ns")
			})
		}
	}
}

// benchStreams is one reply of 8 calls as a Chat stream (arguments in
// 8-byte deltas, as a model emits them token by token) and sent whole,
// and the same for Anthropic.
func benchStreams() (chatSSE, chatWhole, antSSE, antWhole []byte) {
	var cs, as bytes.Buffer
	var calls []exec.OpenAIToolCall
	var blocks []string
	as.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[]}}\n\n")
	for i := 0; i < 8; i++ {
		args := fmt.Sprintf(`{"city":"City number %d","unit":"celsius","days":%d}`, i, i+1)
		id := fmt.Sprintf("call_%d", i)
		calls = append(calls, exec.OpenAIToolCall{ID: id, Type: "function", Function: exec.OpenAIFunctionCall{Name: "work", Arguments: args}})
		blocks = append(blocks, fmt.Sprintf(`{"type":"tool_use","id":%q,"name":"work","input":%s}`, id, args))
		fmt.Fprintf(&cs, "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":%d,\"id\":%q,\"type\":\"function\",\"function\":{\"name\":\"work\",\"arguments\":\"\"}}]},\"finish_reason\":null}]}\n\n", i, id)
		fmt.Fprintf(&as, "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":%d,\"content_block\":{\"type\":\"tool_use\",\"id\":%q,\"name\":\"work\",\"input\":{}}}\n\n", i, id)
		for j := 0; j < len(args); j += 8 {
			frag, _ := json.Marshal(args[j:min(j+8, len(args))])
			fmt.Fprintf(&cs, "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":%d,\"function\":{\"arguments\":%s}}]},\"finish_reason\":null}]}\n\n", i, frag)
			fmt.Fprintf(&as, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":%d,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":%s}}\n\n", i, frag)
		}
		fmt.Fprintf(&as, "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":%d}\n\n", i)
	}
	cs.WriteString("data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n")
	as.WriteString("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	chatWhole, _ = json.Marshal(exec.OpenAIMessage{Role: "assistant", ToolCalls: calls})
	antWhole = []byte(`{"role":"assistant","content":[` + strings.Join(blocks, ",") + `]}`)
	return cs.Bytes(), chatWhole, as.Bytes(), antWhole
}

// BenchmarkStreamThroughput runs one reply of 8 trivial calls read as a
// stream and read whole (the *JSON method), for Chat and Anthropic; MB/s
// is of the bytes each form reads.
func BenchmarkStreamThroughput(b *testing.B) {
	reg := toolnexus.NewRegistry()
	if err := toolnexus.Register(reg, "work", "", func(ctx context.Context, a benchArgs) (string, error) {
		return "22C in " + a.City, nil
	}); err != nil {
		b.Fatal(err)
	}
	e := exec.New(reg, nil)
	ctx := context.Background()
	chatSSE, chatWhole, antSSE, antWhole := benchStreams()
	check := func(got, want any, err error) {
		if err != nil || mustJSON(b, got) != mustJSON(b, want) {
			b.Fatalf("stream %s, %v\nwhole %s", mustJSON(b, got), err, mustJSON(b, want))
		}
	}
	w1, _ := e.OpenAIChatJSON(ctx, chatWhole)
	s1, err := e.OpenAIChatStream(ctx, bytes.NewReader(chatSSE))
	check(s1, w1, err)
	w2, _ := e.AnthropicJSON(ctx, antWhole)
	s2, err := e.AnthropicStream(ctx, bytes.NewReader(antSSE))
	check(s2, w2, err)

	b.Run("chat/stream", func(b *testing.B) {
		b.SetBytes(int64(len(chatSSE)))
		for i := 0; i < b.N; i++ {
			if _, err := e.OpenAIChatStream(ctx, bytes.NewReader(chatSSE)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("chat/whole", func(b *testing.B) {
		b.SetBytes(int64(len(chatWhole)))
		for i := 0; i < b.N; i++ {
			if _, err := e.OpenAIChatJSON(ctx, chatWhole); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("anthropic/stream", func(b *testing.B) {
		b.SetBytes(int64(len(antSSE)))
		for i := 0; i < b.N; i++ {
			if _, err := e.AnthropicStream(ctx, bytes.NewReader(antSSE)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("anthropic/whole", func(b *testing.B) {
		b.SetBytes(int64(len(antWhole)))
		for i := 0; i < b.N; i++ {
			if _, err := e.AnthropicJSON(ctx, antWhole); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkStreamWakeFloor is the limit under start-delay-ns: the time a
// goroutine blocked on a channel takes to run once another sends on it
// (metric wake-ns), measured as BenchmarkStreamStartDelay measures.
func BenchmarkStreamWakeFloor(b *testing.B) {
	ch := make(chan time.Time)
	done := make(chan time.Duration)
	go func() {
		for sent := range ch {
			done <- time.Since(sent)
		}
	}()
	var total time.Duration
	for i := 0; i < b.N; i++ {
		ch <- time.Now()
		total += <-done
	}
	close(ch)
	b.ReportMetric(float64(total.Nanoseconds())/float64(b.N), "wake-ns")
}

// BenchmarkStreamDecodeFloor decodes the data of every event of the
// throughput streams with encoding/json into any: the least a reader of
// those bytes does (compare MB/s with BenchmarkStreamThroughput's stream
// rows).
func BenchmarkStreamDecodeFloor(b *testing.B) {
	chatSSE, _, antSSE, _ := benchStreams()
	for name, raw := range map[string][]byte{"chat": chatSSE, "anthropic": antSSE} {
		events := sseData(raw)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			for i := 0; i < b.N; i++ {
				for _, ev := range events {
					var v any
					if json.Unmarshal(ev, &v) != nil && string(ev) != "[DONE]" {
						b.Fatal("bad event")
					}
				}
			}
		})
	}
}

// BenchmarkStreamHostile measures the memory a feed holds for a hostile
// stream: 10,000 calls that each hold no data (a new index per event,
// metric held-B/call), and one call's arguments in 1-byte deltas (metric
// held-B/byte). A call counts 512 bytes against Options.MaxStreamBytes
// and a byte of data one, so what a stream can make a feed hold is
// bounded by MaxStreamBytes times the larger of held-B/call / 512 and
// held-B/byte.
func BenchmarkStreamHostile(b *testing.B) {
	e := exec.New(testRegistry(b), &exec.Options{Concurrency: 1})
	held := func(feed func(f *exec.OpenAIChatFeed)) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f := e.NewOpenAIChatFeed(context.Background())
		feed(f)
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(f)
		return after.HeapAlloc - before.HeapAlloc
	}
	b.Run("empty-calls", func(b *testing.B) {
		const n = 10000
		events := make([][]byte, n)
		for i := range events {
			events[i] = fmt.Appendf(nil, `{"choices":[{"delta":{"tool_calls":[{"index":%d}]}}]}`, i*7919)
		}
		var total uint64
		for i := 0; i < b.N; i++ {
			total += held(func(f *exec.OpenAIChatFeed) {
				for _, ev := range events {
					if err := f.Feed(ev); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.ReportMetric(float64(total)/float64(b.N)/n, "held-B/call")
	})
	b.Run("tiny-deltas", func(b *testing.B) {
		const n = 100000
		first := []byte(`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"echo","arguments":"{\"a\":\""}}]}}]}`)
		delta := []byte(`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"x"}}]}}]}`)
		var total uint64
		for i := 0; i < b.N; i++ {
			total += held(func(f *exec.OpenAIChatFeed) {
				_ = f.Feed(first)
				for j := 0; j < n; j++ {
					if err := f.Feed(delta); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.ReportMetric(float64(total)/float64(b.N)/n, "held-B/byte")
	})
}
