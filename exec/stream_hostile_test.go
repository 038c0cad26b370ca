package exec_test

// Each test here is an attack on the stream readers that succeeded
// before its fix (the review of 2026-12-07); its comment says what the
// attack did then, and the test checks that it no longer does.

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"encoding/json"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

// TestStreamHostileChatProblemGrowth: a wrongly typed field repeated on every
// delta of one call appends its problem text to the call each time; the
// limit counts one byte per delta ("5"), so the text (and the time to
// build it, quadratic) grows far beyond MaxStreamBytes.
func TestStreamHostileChatProblemGrowth(t *testing.T) {
	const limit = 1 << 16
	e := exec.New(testRegistry(t), &exec.Options{MaxStreamBytes: limit})
	f := e.NewOpenAIChatFeed(context.Background())
	if err := f.Feed([]byte(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"echo","arguments":"{\"a\":"}}]}}]}`)); err != nil {
		t.Fatal(err)
	}
	delta := `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"type":5}]}}]}`
	start := time.Now()
	var err error
	for i := 0; i < 10000 && err == nil; i++ {
		err = f.Feed([]byte(delta))
	}
	_ = f.Feed([]byte(`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`))
	msgs, cerr := f.Close()
	took := time.Since(start)
	if len(msgs) == 1 && len(msgs[0].Content) > 4*limit {
		t.Errorf("10000 deltas of %d bytes each (counted 1 byte each): feed error %v, close error %v; the answer is %d bytes (limit %d), built in %v",
			len(delta), err, cerr, len(msgs[0].Content), limit, took)
	}
}

// geminiChunk is one streamGenerateContent chunk holding one
// functionCall part.
func geminiChunkOf(fc string, finish string) string {
	s := `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":` + fc + `}]}`
	if finish != "" {
		s += `,"finishReason":"` + finish + `"`
	}
	return s + `}]}`
}

// TestStreamHostileGeminiStringPiecesQuadratic: each string piece of a Vertex
// partialArgs value is joined to the string so far with a + b, copying
// it whole: n pieces cost O(n²) (measured: 20k 0.15s, 40k 0.53s, 80k
// 1.75s). 150k one-byte pieces (1.8 MB counted, well under the default
// 16 MiB limit) take ~10s; the 1.4M pieces the default limit admits
// would take many minutes.
func TestStreamHostileGeminiStringPiecesQuadratic(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	f := e.NewGeminiFeed(context.Background())
	if err := f.Feed([]byte(geminiChunkOf(`{"name":"echo","willContinue":true}`, ""))); err != nil {
		t.Fatal(err)
	}
	piece := `{"jsonPath":"$.t","stringValue":"x"}`
	const perChunk, chunks = 10000, 40
	chunk := geminiChunkOf(`{"partialArgs":[`+strings.TrimSuffix(strings.Repeat(piece+",", perChunk), ",")+`],"willContinue":true}`, "")
	start := time.Now()
	for i := 0; i < chunks; i++ {
		if err := f.Feed([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	took := time.Since(start)
	_ = f.Feed([]byte(geminiChunkOf(`{"partialArgs":[]}`, "STOP")))
	_, _ = f.Close()
	if took > 60*time.Second { // a hang detector: linear work takes a second or two, quadratic minutes
		t.Errorf("%d one-byte string pieces (%d bytes of stream) took %v to feed", perChunk*chunks, chunks*len(chunk), took)
	}
}

// TestStreamHostileGeminiDeepPathMemory: a piece whose path is $.bN.a.a…a (up
// to MaxReplyDepth steps) builds one map per step: 2 bytes of path
// (counted as 2 bytes against MaxStreamBytes) hold a few hundred bytes
// of maps while the call is held.
func TestStreamHostileGeminiDeepPathMemory(t *testing.T) {
	const limit = 1 << 20
	e := exec.New(testRegistry(t), &exec.Options{MaxStreamBytes: limit})
	f := e.NewGeminiFeed(context.Background())
	if err := f.Feed([]byte(geminiChunkOf(`{"name":"echo","willContinue":true}`, ""))); err != nil {
		t.Fatal(err)
	}
	deep := strings.Repeat(".a", 9990)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fed, n := 0, 0
	for i := 0; ; i++ {
		ev := geminiChunkOf(fmt.Sprintf(`{"partialArgs":[{"jsonPath":"$.b%d%s","boolValue":true}],"willContinue":true}`, i, deep), "")
		if err := f.Feed([]byte(ev)); err != nil {
			break
		}
		fed += len(ev)
		n++
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	runtime.KeepAlive(f)
	if held > 20*limit {
		t.Errorf("MaxStreamBytes %d: %d pieces (%d bytes fed) hold %d MB of heap while the call is held (%.0fx the limit)",
			limit, n, fed, held>>20, float64(held)/limit)
	}
	_, _ = f.Close()
}

// TestStreamHostileGeminiBadNumberRunsEmpty: a piece whose numberValue is not a
// JSON number (protobuf JSON allows "NaN", "Infinity" and numbers as
// strings) makes json.Marshal of the pieces fail; the error is dropped
// and the call runs with no arguments at all ({}), losing every piece.
func TestStreamHostileGeminiBadNumberRunsEmpty(t *testing.T) {
	e, ran := recordingExecutor(t)
	out, err := e.GeminiStream(context.Background(), sseOf(
		geminiChunkOf(`{"name":"echo","willContinue":true}`, ""),
		geminiChunkOf(`{"partialArgs":[{"jsonPath":"$.text","stringValue":"keep me"},{"jsonPath":"$.n","numberValue":"Infinity"}]}`, "STOP")))
	got := mustJSON(t, out)
	if len(*ran) > 0 {
		t.Errorf("pieces {text:\"keep me\", n:\"Infinity\"}: the call ran with arguments %q (err %v); answer %s", *ran, err, got)
	}
}

// TestStreamHostileGeminiMalformedPieceRunsPartial: a piece with one wrongly
// typed field fails the plain decode of GeminiFunctionCall; its fallback
// keeps only id, name and args, so the piece loses partialArgs and
// willContinue, looks like the last piece, and the held call runs on the
// pieces before it: partial arguments, and a bad piece that runs.
func TestStreamHostileGeminiMalformedPieceRunsPartial(t *testing.T) {
	e, ran := recordingExecutor(t)
	out, err := e.GeminiStream(context.Background(), sseOf(
		geminiChunkOf(`{"name":"echo","willContinue":true}`, ""),
		geminiChunkOf(`{"partialArgs":[{"jsonPath":"$.text","stringValue":"rm -rf /tmp/build","willContinue":true}],"willContinue":true}`, ""),
		geminiChunkOf(`{"partialArgs":[{"jsonPath":"$.text","stringValue":5}],"willContinue":true}`, ""),
		geminiChunkOf(`{"partialArgs":[{"jsonPath":"$.text","stringValue":"/cache"}]}`, "STOP")))
	got := mustJSON(t, out)
	if len(*ran) > 0 {
		t.Errorf("a bad piece in the middle: the call ran with %q (err %v); answer %s", *ran, err, got)
	}
}

// TestStreamHostileResponsesCutDoneItemRuns: a function_call cut at
// max_output_tokens whose response.output_item.done (status
// "incomplete") arrives before response.incomplete is started by that
// event: with arguments "" the tool runs with {}; with partial
// arguments the Before hook sees them. ResponsesJSON on the same
// response answers both with ErrTruncated.
func TestStreamHostileResponsesCutDoneItemRuns(t *testing.T) {
	for _, args := range []string{``, `{\"text\":\"cut he`} {
		e, ran := recordingExecutor(t)
		item := `{"id":"fc_2","type":"function_call","status":"incomplete","arguments":"` + args + `","call_id":"call_2","name":"echo"}`
		added := `{"id":"fc_2","type":"function_call","status":"in_progress","arguments":"","call_id":"call_2","name":"echo"}`
		events := []string{
			`{"type":"response.output_item.added","output_index":0,"item":` + added + `}`,
		}
		if args != "" {
			events = append(events, `{"type":"response.function_call_arguments.delta","output_index":0,"delta":"`+args+`"}`)
		}
		events = append(events,
			`{"type":"response.output_item.done","output_index":0,"item":`+item+`}`,
			`{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[`+item+`]}}`)
		outs, err := e.ResponsesStream(context.Background(), sseOf(events...))
		streamed := *ran
		wouts, werr := e.ResponsesJSON(context.Background(), []byte(`{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[`+item+`]}`))
		if mustJSON(t, outs) != mustJSON(t, wouts) || len(streamed) > 0 {
			t.Errorf("arguments %q: stream %s (%v), Before saw %q; whole %s (%v)", args, mustJSON(t, outs), err, streamed, mustJSON(t, wouts), werr)
		}
	}
}

// TestStreamHostileAnthropicCutEmptyInputRuns: a tool_use cut at max_tokens
// right after it began: content_block_start (input {}), an empty
// input_json_delta (as Anthropic sends first), content_block_stop,
// message_delta stop_reason "max_tokens". The empty fragment leaves the
// scanner at its start, so content_block_stop runs the call with {};
// AnthropicJSON on the same message answers it with ErrTruncated.
func TestStreamHostileAnthropicCutEmptyInputRuns(t *testing.T) {
	var ran atomic.Int32
	e := exec.New(testRegistry(t), &exec.Options{Before: func(ctx context.Context, c *exec.Call) *toolnexus.Result {
		ran.Add(1)
		return nil
	}})
	msg, err := e.AnthropicStream(context.Background(), sseOf(
		`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"echo","input":{}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null}}`,
		`{"type":"message_stop"}`))
	streamRan := ran.Load()
	whole, werr := e.AnthropicJSON(context.Background(), []byte(`{"type":"message","content":[{"type":"tool_use","id":"toolu_1","name":"echo","input":{}}],"stop_reason":"max_tokens"}`))
	if streamRan > 0 || mustJSON(t, msg) != mustJSON(t, whole) {
		t.Errorf("stream ran the cut call %d times: %s (%v); whole: %s (%v)", streamRan, mustJSON(t, msg), err, mustJSON(t, whole), werr)
	}
}

// TestStreamHostileResponsesRepeatTrailing: after a call started with
// {"n":1}, a done event whose arguments are {"n":1} followed by more
// (another object, garbage) is not the same JSON value, yet sameJSON
// decodes only the first value of it and finds no contradiction.
// ResponsesJSON on the reply holding those arguments answers an error.
func TestStreamHostileResponsesRepeatTrailing(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	for _, done := range []string{`{\"n\":1}{\"n\":2}`, `{\"n\":1} rm -rf`} {
		item := `{"type":"function_call","call_id":"c","name":"echo","arguments":"` + done + `"}`
		outs, err := e.ResponsesStream(context.Background(), sseOf(
			`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","call_id":"c","name":"echo","arguments":""}}`,
			`{"type":"response.function_call_arguments.delta","output_index":0,"delta":"{\"n\":1}"}`,
			`{"type":"response.function_call_arguments.done","output_index":0,"arguments":"`+done+`"}`,
			`{"type":"response.output_item.done","output_index":0,"item":`+item+`}`,
			`{"type":"response.completed","response":{"output":[`+item+`]}}`))
		if err != nil || len(outs) != 1 || !strings.Contains(outs[0].Output, "contradicted") {
			wouts, _ := e.ResponsesJSON(context.Background(), []byte(`{"output":[`+item+`]}`))
			t.Errorf("done arguments %s: stream %s (%v); whole %s", done, mustJSON(t, outs), err, mustJSON(t, wouts))
		}
	}
}

// endlessComments is a body of SSE comment lines that never ends (until stop).
type endlessComments struct{ stop atomic.Bool }

func (r *endlessComments) Read(p []byte) (int, error) {
	if r.stop.Load() {
		return 0, errors.New("stopped")
	}
	for i := range p {
		if i%2 == 0 {
			p[i] = ':'
		} else {
			p[i] = '\n'
		}
	}
	return len(p) &^ 1, nil
}

// TestStreamHostileSSEEndlessCommentsIgnoreCtx: ctx is checked between events
// only; a body of endlessComments comment lines (or blank lines) holds no event,
// so the reader spins in sseReader.next and the method does not return
// when ctx is done.
func TestStreamHostileSSEEndlessCommentsIgnoreCtx(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	body := &endlessComments{}
	done := make(chan error, 1)
	go func() {
		_, err := e.OpenAIChatStream(ctx, body)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, exec.ErrStreamIncomplete) {
			t.Errorf("err %v", err)
		}
	case <-time.After(2 * time.Second):
		body.stop.Store(true)
		err := <-done
		t.Errorf("ctx done after 100ms; OpenAIChatStream returned only when the body stopped, 2s later: %v", err)
	}
}

// TestStreamHostileSSEByteOrderMark: the WHATWG event-stream format, which
// sseReader says it reads, drops one leading U+FEFF; here the BOM makes
// the first line's field "\ufeffdata", so the first event is lost.
func TestStreamHostileSSEByteOrderMark(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	body := "\ufeffdata: " + geminiChunkOf(`{"name":"echo","args":{"a":1}}`, "STOP") + "\n\n"
	out, err := e.GeminiStream(context.Background(), strings.NewReader(body))
	if err != nil || len(out.Parts) != 1 {
		t.Errorf("%s, %v", mustJSON(t, out), err)
	}
}

// TestStreamHostileResponsesWhitespaceDone: white space (or nothing) in
// response.function_call_arguments.done after the call started is
// called a contradiction: sameJSON decodes " " as no value. The same
// "" in output_item.done is accepted ("a done item without them").
func TestStreamHostileResponsesWhitespaceDone(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	for _, done := range []string{``, ` `} {
		item := `{"type":"function_call","call_id":"c","name":"echo","arguments":"{\"n\":1}"}`
		outs, err := e.ResponsesStream(context.Background(), sseOf(
			`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","call_id":"c","name":"echo","arguments":""}}`,
			`{"type":"response.function_call_arguments.delta","output_index":0,"delta":"{\"n\":1}"}`,
			`{"type":"response.function_call_arguments.done","output_index":0,"arguments":"`+done+`"}`,
			`{"type":"response.output_item.done","output_index":0,"item":`+item+`}`,
			`{"type":"response.completed","response":{"output":[`+item+`]}}`))
		if err != nil || len(outs) != 1 || outs[0].Output != `{"n":1}` {
			t.Errorf("arguments.done %q: %s (%v)", done, mustJSON(t, outs), err)
		}
	}
}

// TestStreamHostileResponsesCompletedContradicts: response.completed holding
// other arguments for a call that already ran is not compared (completed
// skips started calls): the stream contradicted itself, and the answer
// does not say so; ResponsesJSON on that response runs {"n":2}.
func TestStreamHostileResponsesCompletedContradicts(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	final := `{"output":[{"type":"function_call","call_id":"c","name":"echo","arguments":"{\"n\":2}"}]}`
	outs, err := e.ResponsesStream(context.Background(), sseOf(
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","call_id":"c","name":"echo","arguments":""}}`,
		`{"type":"response.function_call_arguments.delta","output_index":0,"delta":"{\"n\":1}"}`,
		`{"type":"response.completed","response":`+final+`}`))
	whole, _ := e.ResponsesJSON(context.Background(), []byte(final))
	if err != nil || len(outs) != 1 || !strings.Contains(outs[0].Output, "contradicted") {
		t.Errorf("stream %s (%v); whole %s", mustJSON(t, outs), err, mustJSON(t, whole))
	}
}

// TestStreamHostileChatTrailingWhitespace: arguments " {...}\n" (a model's
// trailing newline): the stream runs the handler on the text up to the
// closing brace, the whole reply on the text as sent; a raw handler
// (echo) answers differently, so the streamed answer is not the whole
// one byte for byte.
func TestStreamHostileChatTrailingWhitespace(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	args := `"{\"a\": 1}\n"`
	msgs, err := e.OpenAIChatStream(context.Background(), sseOf(
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"echo","arguments":`+args+`}}]}}]}`,
		`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`))
	whole, werr := e.OpenAIChatJSON(context.Background(), []byte(`[{"id":"c1","type":"function","function":{"name":"echo","arguments":`+args+`}}]`))
	if mustJSON(t, msgs) != mustJSON(t, whole) {
		t.Errorf("stream %s (%v)\nwhole  %s (%v)", mustJSON(t, msgs), err, mustJSON(t, whole), werr)
	}
}

// TestStreamHostileChatCustomStream: a custom (freeform) tool call streamed as
// {"type":"custom","custom":{"name","input"}} deltas (the shape reported
// in openai/openai-openapi#576): chatDelta has no "custom" field, so the
// call runs with name "" and no input; OpenAIChatJSON runs the tool.
func TestStreamHostileChatCustomStream(t *testing.T) {
	e := exec.New(customRegistry(t), nil)
	msgs, err := e.OpenAIChatStream(context.Background(), sseOf(
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"custom","custom":{"name":"run_sql","input":"SELECT "}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"custom":{"input":"1"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`))
	whole, werr := e.OpenAIChatJSON(context.Background(), []byte(`[{"id":"c1","type":"custom","custom":{"name":"run_sql","input":"SELECT 1"}}]`))
	if mustJSON(t, msgs) != mustJSON(t, whole) {
		t.Errorf("stream %s (%v)\nwhole  %s (%v)", mustJSON(t, msgs), err, mustJSON(t, whole), werr)
	}
}

// TestStreamHostileStartedCallsGoroutineMemory: each call that starts gets a
// goroutine at once, whose stack presizeStack grows to 32 KB before it
// waits for a Concurrency slot; the limit counts 512 bytes per call. A
// stream of small complete calls to a slow tool holds ~30x
// MaxStreamBytes in goroutine stacks.
func TestStreamHostileStartedCallsGoroutineMemory(t *testing.T) {
	reg := toolnexus.NewRegistry()
	release := make(chan struct{})
	if err := reg.Add(toolnexus.Tool{Name: "slow", Handler: toolnexus.HandlerFunc(func(ctx context.Context, args json.RawMessage) (string, error) {
		<-release
		return "ok", nil
	})}); err != nil {
		t.Fatal(err)
	}
	const limit = 1 << 20
	e := exec.New(reg, &exec.Options{MaxStreamBytes: limit})
	f := e.NewOpenAIChatFeed(context.Background())
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	g0, n := runtime.NumGoroutine(), 0
	for i := 0; ; i++ {
		if err := f.Feed([]byte(fmt.Sprintf(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"id":"c%d","function":{"name":"slow","arguments":"{}"}}]}}]}`, i, i))); err != nil {
			break
		}
		n++
	}
	time.Sleep(100 * time.Millisecond)
	runtime.ReadMemStats(&after)
	g := runtime.NumGoroutine() - g0
	stacks := int64(after.StackInuse) - int64(before.StackInuse)
	close(release)
	_, _ = f.Close()
	if stacks > 8*limit {
		t.Errorf("MaxStreamBytes %d: %d calls started, %d goroutines waiting, %d MB of goroutine stacks (%.0fx the limit)",
			limit, n, g, stacks>>20, float64(stacks)/limit)
	}
}

// TestStreamHostileGeminiPathEscapes: a normalized JSON path (RFC 9535 §2.7)
// escapes a backslash or quote in a member name; jsonPathSteps keeps the
// escape as part of the name, so $['a\\b'] sets the key `a\\b` (two
// backslashes) instead of `a\b`, and $['it\'s'] is refused.
func TestStreamHostileGeminiPathEscapes(t *testing.T) {
	e := exec.New(testRegistry(t), nil)
	out, err := e.GeminiStream(context.Background(), sseOf(
		geminiChunkOf(`{"name":"echo","willContinue":true}`, ""),
		geminiChunkOf(`{"partialArgs":[{"jsonPath":"$['a\\\\b']","stringValue":"x"}]}`, "STOP")))
	want := `{"role":"user","parts":[{"functionResponse":{"name":"echo","response":{"output":"{\"a\\\\b\":\"x\"}"}}}]}`
	if got := mustJSON(t, out); got != want {
		t.Errorf("path $['a\\\\b']:\n got %s (%v)\nwant %s", got, err, want)
	}
}

// recordingExecutor runs calls inline on the test registry and records,
// in *ran, the arguments of each call that reached its Before hook (that
// is, that was run).
func recordingExecutor(t *testing.T) (*exec.Executor, *[]string) {
	ran := new([]string)
	return exec.New(testRegistry(t), &exec.Options{Concurrency: 1, Before: func(ctx context.Context, c *exec.Call) *toolnexus.Result {
		*ran = append(*ran, string(c.Arguments))
		return nil
	}}), ran
}
