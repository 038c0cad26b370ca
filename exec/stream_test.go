package exec_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	"github.com/toolnexus/toolnexus/internal/golden"
)

// streamRun runs one provider's streaming method on r.
type streamRun func(e *exec.Executor, ctx context.Context, r io.Reader) (any, error)

// wholeRun runs the same provider's *JSON method on a whole reply.
type wholeRun func(e *exec.Executor, ctx context.Context, raw []byte) (any, error)

// feedRun runs the same provider's incremental feed on the events'
// data, one Feed each.
type feedRun func(e *exec.Executor, ctx context.Context, events [][]byte) (any, error)

// feedAll feeds f each event, stopping at the first error (as the
// streaming method does), and closes it.
func feedAll[T any](events [][]byte, feed func([]byte) error, closeFeed func() (T, error)) (any, error) {
	for _, ev := range events {
		if feed(ev) != nil {
			break
		}
	}
	return closeFeed()
}

var streamProviders = map[string]struct {
	stream streamRun
	whole  wholeRun
	feed   feedRun
}{
	"openai_chat": {
		func(e *exec.Executor, ctx context.Context, r io.Reader) (any, error) {
			return e.OpenAIChatStream(ctx, r)
		},
		func(e *exec.Executor, ctx context.Context, raw []byte) (any, error) {
			return e.OpenAIChatJSON(ctx, raw)
		},
		func(e *exec.Executor, ctx context.Context, events [][]byte) (any, error) {
			f := e.NewOpenAIChatFeed(ctx)
			return feedAll(events, f.Feed, f.Close)
		},
	},
	"openai_responses": {
		func(e *exec.Executor, ctx context.Context, r io.Reader) (any, error) {
			return e.ResponsesStream(ctx, r)
		},
		func(e *exec.Executor, ctx context.Context, raw []byte) (any, error) { return e.ResponsesJSON(ctx, raw) },
		func(e *exec.Executor, ctx context.Context, events [][]byte) (any, error) {
			f := e.NewResponsesFeed(ctx)
			return feedAll(events, f.Feed, f.Close)
		},
	},
	"anthropic": {
		func(e *exec.Executor, ctx context.Context, r io.Reader) (any, error) {
			return e.AnthropicStream(ctx, r)
		},
		func(e *exec.Executor, ctx context.Context, raw []byte) (any, error) { return e.AnthropicJSON(ctx, raw) },
		func(e *exec.Executor, ctx context.Context, events [][]byte) (any, error) {
			f := e.NewAnthropicFeed(ctx)
			return feedAll(events, f.Feed, f.Close)
		},
	},
	"gemini": {
		func(e *exec.Executor, ctx context.Context, r io.Reader) (any, error) { return e.GeminiStream(ctx, r) },
		func(e *exec.Executor, ctx context.Context, raw []byte) (any, error) { return e.GeminiJSON(ctx, raw) },
		func(e *exec.Executor, ctx context.Context, events [][]byte) (any, error) {
			f := e.NewGeminiFeed(ctx)
			return feedAll(events, f.Feed, f.Close)
		},
	},
}

// TestStreamGolden feeds each recorded stream in
// testdata/streams/<provider>/<case>.sse to the provider's streaming
// method and compares its answer and error, byte for byte, with
// testdata/golden/streams/<provider>/<case>.json. Where <case>.whole.json
// holds the same reply sent whole, the answer must equal, byte for byte,
// what the *JSON method gives for it.
func TestStreamGolden(t *testing.T) {
	reg := testRegistry(t)
	n := 0
	for provider, p := range streamProviders {
		files, _ := filepath.Glob(filepath.Join("testdata", "streams", provider, "*.sse"))
		if len(files) < 2 {
			t.Fatalf("%s: %d recorded streams", provider, len(files))
		}
		for _, file := range files {
			name := strings.TrimSuffix(filepath.Base(file), ".sse")
			n++
			t.Run(provider+"/"+name, func(t *testing.T) {
				raw, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				var outs []string
				var answer []byte
				for _, conc := range []int{1, 0, -1} {
					v, err := p.stream(exec.New(reg, &exec.Options{Concurrency: conc}), context.Background(), bytes.NewReader(raw))
					if err != nil && !errors.Is(err, exec.ErrStreamIncomplete) {
						t.Fatalf("Concurrency %d: error %v does not wrap ErrStreamIncomplete", conc, err)
					}
					errText := ""
					if err != nil {
						errText = err.Error()
					}
					answer = []byte(mustJSON(t, v))
					outs = append(outs, mustJSON(t, struct {
						Answer json.RawMessage `json:"answer"`
						Error  string          `json:"error,omitempty"`
					}{answer, errText})+"\n")
				}
				if outs[0] != outs[1] || outs[0] != outs[2] {
					t.Fatalf("answers differ between concurrency settings:\n%s%s%s", outs[0], outs[1], outs[2])
				}
				golden.Check(t, filepath.Join("testdata", "golden", "streams", provider, name+".json"), []byte(outs[0]))

				// The incremental feed, one event at a time, and the
				// streaming method on a body that pauses between events,
				// give the same answer.
				e := exec.New(reg, nil)
				if v, _ := p.feed(e, context.Background(), sseData(raw)); mustJSON(t, v) != string(answer) {
					t.Errorf("feed answer differs from the stream's:\nfeed   %s\nstream %s", mustJSON(t, v), answer)
				}
				if v, _ := p.stream(e, context.Background(), &pausedReader{events: bytes.SplitAfter(raw, []byte("\n\n"))}); mustJSON(t, v) != string(answer) {
					t.Errorf("paused stream answer differs:\npaused %s\nstream %s", mustJSON(t, v), answer)
				}

				wholeFile := strings.TrimSuffix(file, ".sse") + ".whole.json"
				whole, err := os.ReadFile(wholeFile)
				if errors.Is(err, os.ErrNotExist) {
					return
				}
				v, err := p.whole(exec.New(reg, nil), context.Background(), whole)
				if err != nil {
					t.Fatal(err)
				}
				if want := mustJSON(t, v); string(answer) != want {
					t.Errorf("stream answer differs from the whole reply's:\nstream %s\nwhole  %s", answer, want)
				}
			})
		}
	}
	if n < 8 {
		t.Errorf("only %d streams ran", n)
	}
}

// gateReader serves data in three reads: up to the event holding mark,
// that event (recording when it went out, in served), then, once gate is
// closed (or the test has failed after a while), the rest.
type gateReader struct {
	t      testing.TB
	data   []byte
	ev     int // start of the event holding mark
	cut    int // its end
	gate   <-chan struct{}
	served time.Time
	off    int
}

func newGateReader(t testing.TB, data []byte, mark string, gate <-chan struct{}) *gateReader {
	i := bytes.Index(data, []byte(mark))
	if i < 0 {
		t.Fatalf("mark %q not in the stream", mark)
	}
	sep := []byte("\n\n")
	if bytes.Contains(data, []byte("\r\n\r\n")) {
		sep = []byte("\r\n\r\n")
	}
	ev := bytes.LastIndex(data[:i], sep) + len(sep)
	cut := i + bytes.Index(data[i:], sep) + len(sep)
	return &gateReader{t: t, data: data, ev: ev, cut: cut, gate: gate}
}

func (g *gateReader) Read(p []byte) (int, error) {
	if g.off == g.cut {
		select {
		case <-g.gate:
		case <-time.After(30 * time.Second): // a hang detector: generous for a loaded machine
			g.t.Errorf("the first call did not start while the stream was held after its arguments")
		}
	}
	if g.off >= len(g.data) {
		return 0, io.EOF
	}
	end := len(g.data)
	switch {
	case g.off < g.ev:
		end = g.ev
	case g.off < g.cut:
		end = g.cut
	}
	n := copy(p, g.data[g.off:end])
	g.off += n
	if g.off == g.cut {
		g.served = time.Now()
	}
	return n, nil
}

// startRegistry has get_weather, which closes started when it starts,
// and echo.
func startRegistry(t testing.TB, started chan<- time.Time) *toolnexus.Registry {
	reg := toolnexus.NewRegistry()
	err := toolnexus.Register(reg, "get_weather", "", func(ctx context.Context, a WeatherArgs) (string, error) {
		started <- time.Now()
		return "22C in " + a.City, nil
	})
	if err == nil {
		err = reg.Add(toolnexus.Tool{Name: "echo", Handler: toolnexus.HandlerFunc(
			func(ctx context.Context, args json.RawMessage) (string, error) { return string(args), nil })})
	}
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// streamMarks is, for each recorded two-call stream, text from the event
// that completes the first call's arguments: the fragment holding their
// last byte (nothing after it is needed to start the call).
var streamMarks = map[string]struct{ file, mark string }{
	"openai_chat":      {"two_calls.sse", `"arguments":"ris\"}"`},
	"openai_responses": {"two_calls.sse", `"sequence_number":10,`},
	"anthropic":        {"three_calls.sse", `"partial_json":"ris\"}"`},
	"gemini":           {"two_calls.sse", `"name":"get_weather"`},
}

// TestStreamCallStartsBeforeEnd: the stream is held right after the event
// that completes the first call's arguments; the call must start while
// it is held, for every provider and concurrency setting.
func TestStreamCallStartsBeforeEnd(t *testing.T) {
	for provider, m := range streamMarks {
		for _, conc := range []int{1, 0} {
			raw, err := os.ReadFile(filepath.Join("testdata", "streams", provider, m.file))
			if err != nil {
				t.Fatal(err)
			}
			started := make(chan time.Time, 1)
			gate := make(chan struct{})
			go func() { <-started; close(gate) }()
			e := exec.New(startRegistry(t, started), &exec.Options{Concurrency: conc})
			v, err := streamProviders[provider].stream(e, context.Background(), newGateReader(t, raw, m.mark, gate))
			if err != nil || !strings.Contains(mustJSON(t, v), "22C in Paris") {
				t.Errorf("%s, Concurrency %d: %s, %v", provider, conc, mustJSON(t, v), err)
			}
		}
	}
}

// TestStreamCutOffNeverRuns: in a stream cut off in the middle of a
// call's arguments, that call's handler never runs; the call before it
// did.
func TestStreamCutOffNeverRuns(t *testing.T) {
	for provider, p := range streamProviders {
		if provider == "gemini" {
			continue // Gemini sends each call whole: there is no middle
		}
		raw, err := os.ReadFile(filepath.Join("testdata", "streams", provider, "cut_off.sse"))
		if err != nil {
			t.Fatal(err)
		}
		var echoed, weather atomic.Int32
		reg := toolnexus.NewRegistry()
		_ = toolnexus.Register(reg, "get_weather", "", func(ctx context.Context, a WeatherArgs) (string, error) {
			weather.Add(1)
			return "ok", nil
		})
		_ = reg.Add(toolnexus.Tool{Name: "echo", Handler: toolnexus.HandlerFunc(
			func(ctx context.Context, args json.RawMessage) (string, error) { echoed.Add(1); return "ran", nil })})
		_, err = p.stream(exec.New(reg, nil), context.Background(), bytes.NewReader(raw))
		if !errors.Is(err, exec.ErrStreamIncomplete) || weather.Load() != 1 || echoed.Load() != 0 {
			t.Errorf("%s: err %v; get_weather ran %d times (want 1), echo %d (want 0)", provider, err, weather.Load(), echoed.Load())
		}
	}
}

// endless is an event stream whose one line never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	copy(p, "data: ")
	return len(p), nil
}

// TestStreamBounded: an event over MaxStreamBytes, or a line that never
// ends, is an error wrapping ErrStreamIncomplete, not unbounded growth;
// so are arguments that grow past it.
func TestStreamBounded(t *testing.T) {
	e := exec.New(testRegistry(t), &exec.Options{MaxStreamBytes: 1 << 16})
	for provider, p := range streamProviders {
		done := make(chan error, 1)
		go func() { _, err := p.stream(e, context.Background(), endless{}); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, exec.ErrStreamIncomplete) || !strings.Contains(err.Error(), "larger than the limit of 65536 bytes") {
				t.Errorf("%s: endless line: %v", provider, err)
			}
		case <-time.After(30 * time.Second): // a hang detector: generous for a loaded machine
			t.Fatalf("%s: an endless line was read without end", provider)
		}
	}
	// Many small deltas of one call's arguments add up.
	var sb strings.Builder
	sb.WriteString(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"echo","arguments":""}}]}}]}` + "\n\n")
	for i := 0; i < 100; i++ {
		sb.WriteString(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"` + strings.Repeat("x", 1000) + `"}}]}}]}` + "\n\n")
	}
	msgs, err := e.OpenAIChatStream(context.Background(), strings.NewReader(sb.String()))
	if !errors.Is(err, exec.ErrStreamIncomplete) || len(msgs) != 1 ||
		msgs[0].Content != `error: tool "echo" was not run: the stream ended before its arguments were complete` {
		t.Errorf("growing arguments: %+v, %v", msgs, err)
	}
}

// TestStreamFeed: the incremental form, fed event by event, gives what the
// streaming method gives, and a call starts inside the Feed that
// completes it (Concurrency 1 runs it there).
func TestStreamFeed(t *testing.T) {
	started := make(chan time.Time, 1)
	e := exec.New(startRegistry(t, started), &exec.Options{Concurrency: 1})
	raw, err := os.ReadFile(filepath.Join("testdata", "streams", "anthropic", "three_calls.sse"))
	if err != nil {
		t.Fatal(err)
	}
	f := e.NewAnthropicFeed(context.Background())
	for _, ev := range strings.Split(string(raw), "\n\n") {
		_, data, ok := strings.Cut(ev, "data: ")
		if !ok {
			continue
		}
		if err := f.Feed([]byte(data)); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(ev, `"type":"content_block_stop","index":1`) && len(started) != 1 {
			t.Fatal("get_weather did not start in the Feed that completed it")
		}
	}
	msg, err := f.Close()
	<-started
	go func() { <-started }()
	want, _ := e.AnthropicStream(context.Background(), bytes.NewReader(raw))
	if err != nil || mustJSON(t, msg) != mustJSON(t, want) {
		t.Errorf("feed %s, %v\nwant %s", mustJSON(t, msg), err, mustJSON(t, want))
	}
}

// FuzzStream feeds arbitrary bytes as an event stream to the four
// streaming methods. None may panic or hang; the error is nil or wraps
// ErrStreamIncomplete; every answer has valid UTF-8 content and marshals.
func FuzzStream(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "streams", "*", "*.sse"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"echo\",\"arguments\":{\"x\":1}}},{\"index\":0,\"id\":\"b\"}]}}]}\n\ndata: [DONE]\n\n"))
	f.Add([]byte("data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":5,\"name\":\"echo\"}}\n\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"))
	e := exec.New(testRegistry(f), &exec.Options{Concurrency: 3, MaxStreamBytes: 4096})
	f.Fuzz(func(t *testing.T, body []byte) {
		for provider, p := range streamProviders {
			v, err := p.stream(e, context.Background(), bytes.NewReader(body))
			if err != nil && !errors.Is(err, exec.ErrStreamIncomplete) {
				t.Fatalf("%s: error %v does not wrap ErrStreamIncomplete", provider, err)
			}
			b, merr := json.Marshal(v)
			if merr != nil || !utf8.Valid(b) {
				t.Fatalf("%s: answer does not marshal to valid UTF-8: %v", provider, merr)
			}
		}
	})
}

// TestStreamInvalidPartial: Options.OnInvalidPartial reports a call as
// soon as its partial arguments break the tool's schema, once, while the
// stream goes on; the call still runs when complete, with its usual
// error result; valid streams get no report.
func TestStreamInvalidPartial(t *testing.T) {
	type report struct {
		after   int // events fed before the report
		id      string
		args    string
		problem string
	}
	var reports []report
	fed := 0
	e := exec.New(testRegistry(t), &exec.Options{Concurrency: 1, OnInvalidPartial: func(c exec.Call, problem string) {
		reports = append(reports, report{fed, c.ID, string(c.Arguments), problem})
	}})
	ctx := context.Background()
	feed := func(f interface{ Feed([]byte) error }, events ...string) {
		t.Helper()
		reports, fed = nil, 0
		for _, ev := range events {
			if err := f.Feed([]byte(ev)); err != nil {
				t.Fatal(err)
			}
			fed++
		}
	}

	chat := e.NewOpenAIChatFeed(ctx)
	feed(chat,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"bog"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"us\":"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1,\"city\":\"Paris\"}"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`)
	msgs, err := chat.Close()
	want := []report{{1, "c1", `{"bogus":`, `unknown property "bogus"; allowed: city, unit`}}
	if fmt.Sprint(reports) != fmt.Sprint(want) || err != nil || !strings.HasPrefix(msgs[0].Content, `error: invalid arguments for "get_weather": unknown property "bogus"`) {
		t.Errorf("chat: reports %v, want %v; answer %+v, %v", reports, want, msgs, err)
	}

	ant := e.NewAnthropicFeed(ctx)
	feed(ant,
		`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"nope","input":{}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\""}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":":1}"}}`,
		`{"type":"content_block_stop","index":0}`, `{"type":"message_stop"}`)
	msg, err := ant.Close()
	want = []report{{1, "t1", `{"a"`, `unknown tool "nope"`}}
	if fmt.Sprint(reports) != fmt.Sprint(want) || err != nil || !strings.HasPrefix(msg.Content[0].Content, `unknown tool "nope"`) {
		t.Errorf("anthropic: reports %v, want %v; answer %+v, %v", reports, want, msg, err)
	}

	resp := e.NewResponsesFeed(ctx)
	feed(resp,
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"r1","name":"echo","arguments":""}}`,
		`{"type":"response.function_call_arguments.delta","output_index":0,"delta":" [1"}`,
		`{"type":"response.function_call_arguments.delta","output_index":0,"delta":"]"}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"r1","name":"echo","arguments":" [1]"}}`,
		`{"type":"response.completed","response":{"output":[]}}`)
	outs, err := resp.Close()
	want = []report{{1, "r1", ` [1`, `the arguments do not start with a JSON object`}}
	if fmt.Sprint(reports) != fmt.Sprint(want) || err != nil || !strings.HasPrefix(outs[0].Output, `error: invalid arguments for "echo"`) {
		t.Errorf("responses: reports %v, want %v; answer %+v, %v", reports, want, outs, err)
	}

	for provider, p := range streamProviders {
		files, _ := filepath.Glob(filepath.Join("testdata", "streams", provider, "*.sse"))
		for _, file := range files {
			raw, _ := os.ReadFile(file)
			reports = nil
			_, _ = p.stream(e, ctx, bytes.NewReader(raw))
			if len(reports) != 0 {
				t.Errorf("%s: reports %v for valid calls", file, reports)
			}
		}
	}
}

// TestStreamCancel: when ctx ends while the stream is read, reading stops
// at the next event; the error wraps both ErrStreamIncomplete and ctx's
// cause, and the call whose arguments had not arrived never runs.
func TestStreamCancel(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "streams", "openai_chat", "two_calls.sse"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var echoed atomic.Int32
	reg := toolnexus.NewRegistry()
	_ = toolnexus.Register(reg, "get_weather", "", func(context.Context, WeatherArgs) (string, error) {
		cancel() // the host gives up while the reply streams on
		return "ok", nil
	})
	_ = reg.Add(toolnexus.Tool{Name: "echo", Handler: toolnexus.HandlerFunc(
		func(context.Context, json.RawMessage) (string, error) { echoed.Add(1); return "ran", nil })})
	msgs, err := exec.New(reg, &exec.Options{Concurrency: 1}).OpenAIChatStream(ctx, bytes.NewReader(raw))
	// get_weather starts the moment its arguments are complete, before
	// the echo call begins: reading stops there, and echo is never seen.
	// (get_weather's own answer is "ok" or its cancellation, as the
	// handler's return and the cancel race.)
	if !errors.Is(err, exec.ErrStreamIncomplete) || !errors.Is(err, context.Canceled) || len(msgs) != 1 || echoed.Load() != 0 ||
		msgs[0].Content != "ok" && msgs[0].Content != `error: tool "get_weather" was cancelled before it finished` {
		t.Errorf("messages %+v, err %v, echo ran %d times", msgs, err, echoed.Load())
	}
}

// TestStreamEdges covers the documented corner cases of the feeds.
func TestStreamEdges(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	ctx := context.Background()
	sse := func(events ...string) io.Reader {
		return strings.NewReader("data: " + strings.Join(events, "\n\ndata: ") + "\n\n")
	}

	// Chat: a new id at the same index is a new call (servers that send
	// each call whole without an index).
	msgs, err := e.OpenAIChatStream(ctx, sse(
		`{"choices":[{"delta":{"tool_calls":[{"id":"a","type":"function","function":{"name":"echo","arguments":"{\"n\":1}"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"id":"b","type":"function","function":{"name":"echo","arguments":"{\"n\":2}"}}]}}]}`,
		`[DONE]`))
	if got := mustJSON(t, msgs); err != nil || got != `[{"role":"tool","tool_call_id":"a","content":"{\"n\":1}"},{"role":"tool","tool_call_id":"b","content":"{\"n\":2}"}]` {
		t.Errorf("chat, calls without index: %s, %v", got, err)
	}

	// Chat: after a call's arguments are complete, white space and the
	// same arguments again are nothing new; other arguments contradict
	// the call that ran, and its answer says so.
	msgs, err = e.OpenAIChatStream(ctx, sse(
		`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"echo","arguments":"{\"n\":1}"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"echo","arguments":"{}"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":" { \"n\": 1 }"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\"n\":2}"}}]}}]}`,
		`[DONE]`))
	if err != nil || len(msgs) != 2 || msgs[0].Content != `{"n":1}` ||
		msgs[1].Content != `error: the stream contradicted itself: tool "echo" ran with the arguments it had when they were complete, and the stream then sent the arguments {"n":2} for the same call; the result of that run: {}` {
		t.Errorf("chat, late arguments: %+v, %v", msgs, err)
	}

	// Responses: a call whose output_item.done never came starts at
	// response.completed, with the item it holds.
	outs, err := e.ResponsesStream(ctx, sse(
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","call_id":"c","name":"echo","arguments":""}}`,
		`{"type":"response.function_call_arguments.delta","output_index":0,"delta":"{\"x\":"}`,
		`{"type":"response.completed","response":{"output":[{"type":"function_call","call_id":"c","name":"echo","arguments":"{\"x\":1}"}]}}`))
	if got := mustJSON(t, outs); err != nil || got != `[{"type":"function_call_output","call_id":"c","output":"{\"x\":1}"}]` {
		t.Errorf("responses, no done event: %s, %v", got, err)
	}

	// Feed after Close.
	f := e.NewGeminiFeed(ctx)
	if _, err := f.Close(); !errors.Is(err, exec.ErrStreamIncomplete) {
		t.Errorf("empty Gemini stream: %v", err)
	}
	if err := f.Feed([]byte(`{"candidates":[]}`)); err == nil || err.Error() != "exec: Feed called after Close" {
		t.Errorf("Feed after Close: %v", err)
	}
}

// A stream in another provider's shape is an error naming that provider,
// its first sign and the method to use, for every streaming method; no call
// runs.
func TestStreamOtherProviderShape(t *testing.T) {
	type shape struct{ file, what, name, clue, methods string }
	shapes := map[string]shape{
		"openai_chat":      {"two_calls.sse", "OpenAI", "an OpenAI Chat Completions stream", `"object":"chat.completion.chunk"`, "OpenAIChatStream or NewOpenAIChatFeed"},
		"openai_responses": {"two_calls.sse", "Responses", "an OpenAI Responses stream", `"type":"response.created"`, "ResponsesStream or NewResponsesFeed"},
		"anthropic":        {"three_calls.sse", "Anthropic", "an Anthropic Messages stream", `"type":"message_start"`, "AnthropicStream or NewAnthropicFeed"},
		"gemini":           {"two_calls.sse", "Gemini", "a Gemini streamGenerateContent stream", `"candidates"`, "GeminiStream or NewGeminiFeed"},
	}
	var ran atomic.Int32
	reg := toolnexus.NewRegistry()
	if err := reg.Add(toolnexus.Tool{Name: "get_weather", Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) {
		ran.Add(1)
		return "sunny", nil
	})}); err != nil {
		t.Fatal(err)
	}
	e := exec.New(reg, nil)
	for from, f := range shapes {
		body, err := os.ReadFile(filepath.Join("testdata", "streams", from, f.file))
		if err != nil {
			t.Fatal(err)
		}
		for to, p := range streamProviders {
			if to == from {
				continue
			}
			_, err := p.stream(e, context.Background(), bytes.NewReader(body))
			want := "exec: stream incomplete: " + shapes[to].what + " stream: it looks like " + f.name + " (it has " + f.clue + "); read it with " + f.methods
			if err == nil || err.Error() != want || !errors.Is(err, exec.ErrStreamIncomplete) {
				t.Errorf("%s stream read as %s: err = %v\nwant %s", from, to, err, want)
			}
		}
	}
	if n := ran.Load(); n != 0 {
		t.Errorf("%d calls ran from streams of another shape", n)
	}
}

// The feeds say the same, from the Feed that fails or from Close.
func TestFeedOtherProviderShape(t *testing.T) {
	e := exec.New(toolnexus.NewRegistry(), nil)
	f := e.NewResponsesFeed(context.Background())
	for _, ev := range []string{`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"}}]}`, `[DONE]`} {
		_ = f.Feed([]byte(ev))
	}
	_, err := f.Close()
	want := `exec: stream incomplete: Responses stream: it looks like an OpenAI Chat Completions stream (it has "object":"chat.completion.chunk"); read it with OpenAIChatStream or NewOpenAIChatFeed`
	if err == nil || err.Error() != want {
		t.Errorf("Close = %v\nwant %s", err, want)
	}
	g := e.NewGeminiFeed(context.Background())
	if err := g.Feed([]byte(`{"type":"message_start","message":{"type":"message"}}`)); err != nil {
		t.Fatalf("Feed of a first foreign event = %v, want nil (not known to be incomplete yet)", err)
	}
	_, err = g.Close()
	want = `exec: stream incomplete: Gemini stream: it looks like an Anthropic Messages stream (it has "type":"message_start"); read it with AnthropicStream or NewAnthropicFeed`
	if err == nil || err.Error() != want {
		t.Errorf("Close = %v\nwant %s", err, want)
	}
}

// A cut-off stream of the method's own shape keeps its own error.
func TestStreamOwnShapeKeepsItsError(t *testing.T) {
	e := exec.New(toolnexus.NewRegistry(), nil)
	_, err := e.GeminiStream(context.Background(), strings.NewReader("data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}]}\n\n"))
	if want := "exec: stream incomplete: the stream ended before a finishReason"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}

// sseData is the data of each event of an SSE body whose events are
// one "data: " line each (comments and other lines skipped).
func sseData(raw []byte) [][]byte {
	var out [][]byte
	for _, ev := range bytes.Split(raw, []byte("\n\n")) {
		for _, line := range bytes.Split(ev, []byte("\n")) {
			if data, ok := bytes.CutPrefix(line, []byte("data: ")); ok {
				out = append(out, data)
			}
		}
	}
	return out
}

// pausedReader serves one event per Read, after a pause: a producer
// that sends the events apart.
type pausedReader struct{ events [][]byte }

func (r *pausedReader) Read(p []byte) (int, error) {
	if len(r.events) == 0 {
		return 0, io.EOF
	}
	time.Sleep(200 * time.Microsecond)
	n := copy(p, r.events[0])
	if r.events[0] = r.events[0][n:]; len(r.events[0]) == 0 {
		r.events = r.events[1:]
	}
	return n, nil
}
