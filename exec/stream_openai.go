package exec

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// OpenAIChatStream is [Executor.OpenAIChat] on a streamed Chat
// Completions reply (stream: true): it reads the server-sent events of
// body r (chat.completion.chunk objects, then "data: [DONE]") and runs
// each tool call as soon as its arguments are complete, while the rest of
// the reply still streams in; see [OpenAIChatFeed] for when that is. The
// messages equal, byte for byte, those [Executor.OpenAIChat] gives for the
// same reply sent whole, in call order.
//
// The error is nil when the stream finished (a finish_reason on choice 0,
// or [DONE]) and every call ran. A stream that did not finish (cut off, an
// error chunk, a chunk that is not valid JSON, an event over
// [Options.MaxStreamBytes], ctx done while reading) gives an error
// wrapping [ErrStreamIncomplete], with the messages all the same: the
// calls already complete ran; the call still receiving arguments did not
// run and is answered with an error result saying so.
func (e *Executor) OpenAIChatStream(ctx context.Context, r io.Reader) ([]OpenAIToolMessage, error) {
	f := e.NewOpenAIChatFeed(ctx)
	if err := feedAll(ctx, r, e.maxStream(), f.Feed); err != nil {
		f.s.fail(err)
	}
	return f.Close()
}

// OpenAIChatFeed is the incremental form of [Executor.OpenAIChatStream],
// for hosts that read the stream themselves (to show the text as it
// comes): Feed each event's data, then Close. choices[0] is read (as by
// [Executor.OpenAIChatJSON]).
//
// Producers send delta.tool_calls in several shapes, and all are read
// (see "Stream shapes" in the package doc): a delta belongs to the call
// with its id when it has one; else to the call with its index; with
// neither, to the latest call, unless that call is complete and the
// delta names a tool (a producer that sends each call whole without
// index or id). A new id at a known index is a new call, unless the
// delta carries only arguments while that call's are not complete (an id
// that changes after the first fragment); a new id and a new index are a
// new call. Fragments of parallel calls may interleave.
//
// A call starts the moment its name is known and its arguments form one
// complete JSON object, whatever comes after; a call whose arguments
// never do starts when choice 0 gets a finish_reason or at [DONE] (and is
// answered with the registry's message for its arguments). What the
// stream sends for a call after that must be white space or the same
// arguments again (as a JSON value: vLLM resends the whole arguments at
// the end when its own copy differs in form); anything else makes the
// call's answer say the stream contradicted itself. With finish_reason
// "length" the calls not complete by then do not run and are answered
// as [ErrTruncated] says.
//
// A feed is used by one goroutine; the calls run on their own (see
// [Options.Concurrency]; with 1 they run inside Feed). Feed after Close
// returns an error and reads nothing.
type OpenAIChatFeed struct {
	s       *streamCalls
	calls   []OpenAIToolCall
	args    []streamArgs
	byIndex map[int]int    // tool_calls[].index → the latest call with it
	byID    map[string]int // tool_calls[].id → its call
	started []bool
	done    bool
}

// NewOpenAIChatFeed returns an empty feed whose calls run with ctx.
func (e *Executor) NewOpenAIChatFeed(ctx context.Context) *OpenAIChatFeed {
	return &OpenAIChatFeed{s: newStreamCalls(ctx, e, chatShape), byIndex: map[int]int{}, byID: map[string]int{}}
}

type chatDelta struct {
	Index    *int            `json:"index"`
	ID       json.RawMessage `json:"id"`
	Type     json.RawMessage `json:"type"`
	Function struct {
		Name      json.RawMessage `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
	Custom struct {
		Name  json.RawMessage `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"custom"`
}

type chatChunk struct {
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			ToolCalls []chatDelta `json:"tool_calls"`
		} `json:"delta"`
		FinishReason json.RawMessage `json:"finish_reason"`
	} `json:"choices"`
	Error json.RawMessage `json:"error"`
}

// Feed takes the data of one server-sent event: a chat.completion.chunk
// object, or [DONE]. It returns an error wrapping [ErrStreamIncomplete]
// once the stream is known to be incomplete (and for every Feed after).
func (f *OpenAIChatFeed) Feed(data []byte) error {
	if err := f.s.usable(); err != nil {
		return err
	}
	f.s.look(data)
	if string(bytes.TrimSpace(data)) == "[DONE]" {
		f.finish()
		return nil
	}
	var c chatChunk
	deep, err := unmarshalEvent(data, &c)
	if err != nil {
		return f.s.fail(fmt.Errorf("%w: a chunk is not a chat.completion.chunk: %v", ErrStreamIncomplete, err))
	}
	if !absent(c.Error) {
		return f.s.fail(fmt.Errorf("%w: the provider sent an error: %s", ErrStreamIncomplete, c.Error))
	}
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue
		}
		for i := range ch.Delta.ToolCalls {
			if err := f.delta(&ch.Delta.ToolCalls[i], deep); err != nil {
				return f.s.fail(err)
			}
		}
		if !absent(ch.FinishReason) {
			if string(ch.FinishReason) == `"length"` {
				f.s.cut = cutChat
			}
			f.finish()
		}
	}
	return nil
}

// delta applies one tool_calls entry.
func (f *OpenAIChatFeed) delta(d *chatDelta, deep bool) error {
	var p, fp problems
	id := p.str(d.ID, "id")
	typ, name := p.str(d.Type, "type"), fp.str(d.Function.Name, "function.name")
	args := fp.arguments(d.Function.Arguments, "function.arguments")
	cname, input := p.str(d.Custom.Name, "custom.name"), p.str(d.Custom.Input, "custom.input")
	if name == "" {
		name = cname
	}
	pos := f.locate(d.Index, id, name)
	ambiguous := ""
	if pos >= 0 && name != "" && f.calls[pos].Function.Name != "" && name != f.calls[pos].Function.Name {
		if !f.args[pos].scan.complete() && !f.started[pos] {
			// A second name while a call's arguments are not complete:
			// which call the arguments that follow belong to cannot be
			// told, so neither call runs.
			ambiguous = fmt.Sprintf("the stream sent the tool name %q while the arguments of a call of %q were not complete, with no id or index to tell the calls apart",
				name, f.calls[pos].Function.Name)
			f.calls[pos].problem = joinProblems(f.calls[pos].problem, ambiguous)
		}
		pos = -1
	}
	if pos < 0 {
		f.startCustom() // a freeform call is complete when the next call begins
		pos = f.s.add()
		f.calls = append(f.calls, OpenAIToolCall{})
		f.args = append(f.args, streamArgs{})
		f.started = append(f.started, false)
		if d.Index != nil {
			f.byIndex[*d.Index] = pos
		}
	}
	if id != "" {
		f.byID[id] = pos
	}
	tc := &f.calls[pos]
	tc.ID, tc.Type = first(tc.ID, id), first(tc.Type, typ)
	if tc.Type == "custom" {
		tc.Custom.Name = first(tc.Custom.Name, cname)
		if err := f.s.keep(len(id) + len(typ) + len(cname) + len(input)); err != nil {
			return err
		}
		if !f.started[pos] {
			f.args[pos].text = append(f.args[pos].text, input...)
		}
		tc.problem = addProblem(tc.problem, joinProblems(ambiguous, p.String()))
		return nil
	}
	tc.Function.Name = first(tc.Function.Name, name)
	tc.problem = addProblem(tc.problem, joinProblems(ambiguous, p.String()))
	tc.Function.problem = addProblem(tc.Function.problem, fp.String())
	if deep {
		markDeepChat(tc)
		tc.Function.problem = joinProblems(tc.Function.problem, deepStr("function.arguments", &args))
	}
	if err := f.s.keep(len(id) + len(typ) + len(name) + len(args)); err != nil {
		return err
	}
	a := &f.args[pos]
	complete := a.add(args)
	if args != "" && !f.started[pos] {
		f.s.partial(pos, tc.ID, tc.Function.Name, args, func() string { return string(a.text) })
	}
	if (complete || a.scan.complete()) && !f.started[pos] && tc.Function.Name != "" {
		f.start(pos)
	}
	return nil
}

// locate is the call a delta with index, id and name belongs to, or -1
// for a new call (the rules are in the doc of [OpenAIChatFeed]).
func (f *OpenAIChatFeed) locate(index *int, id, name string) int {
	if pos, ok := f.byID[id]; ok && id != "" {
		return pos
	}
	if index != nil {
		pos, ok := f.byIndex[*index]
		// A new id at a known index is a new call, unless the delta
		// carries arguments only while that call's are not complete (a
		// producer whose id changes after the first fragment).
		if ok && (id == "" || f.calls[pos].ID == "" || name == "" && !f.args[pos].scan.complete()) {
			return pos
		}
		return -1
	}
	if id != "" {
		if n := len(f.calls) - 1; n >= 0 && f.calls[n].ID == "" && !f.args[n].scan.complete() {
			return n // the id came after the call began
		}
		return -1
	}
	n := len(f.calls) - 1
	if n < 0 || name != "" && f.args[n].scan.complete() {
		return -1
	}
	return n
}

// addProblem adds problem p to a call's problems, once: a producer that
// repeats a wrongly typed field on every fragment does not grow them.
func addProblem(problems, p string) string {
	if p == "" || strings.Contains(problems, p) {
		return problems
	}
	return joinProblems(problems, p)
}

// first is a if set, else b.
func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// start runs call pos with the arguments (or freeform input) it has.
func (f *OpenAIChatFeed) start(pos int) {
	f.started[pos] = true
	tc := &f.calls[pos]
	if tc.Type == "custom" {
		tc.Custom.Input, f.args[pos].text = string(f.args[pos].text), nil
	} else {
		tc.Function.Arguments = string(f.args[pos].text)
		f.args[pos].started(tc.Function.Arguments)
	}
	f.s.start(pos, chatCall(tc))
}

// startCustom starts the freeform calls not yet started: a later call
// began, so their input is complete.
func (f *OpenAIChatFeed) startCustom() {
	for pos := range f.calls {
		if !f.started[pos] && f.calls[pos].Type == "custom" {
			f.start(pos)
		}
	}
}

// finish starts the calls not yet started, unless the reply was cut at
// the output limit (they are then answered as cut).
func (f *OpenAIChatFeed) finish() {
	f.done = true
	if f.s.cut != "" {
		return
	}
	for pos := range f.calls {
		if !f.started[pos] {
			f.start(pos)
		}
	}
}

// Close ends the feed: it waits for the calls and returns one tool
// message per call, in call order, as [Executor.OpenAIChatStream] does.
func (f *OpenAIChatFeed) Close() ([]OpenAIToolMessage, error) {
	if !f.done {
		f.s.fail(fmt.Errorf("%w: the stream ended before the reply was complete", ErrStreamIncomplete))
	}
	for pos := range f.args {
		if f.started[pos] {
			f.s.contradict(pos, f.args[pos].end())
		}
	}
	results, err := f.s.finish(func(i int) (string, string) { return f.calls[i].ID, f.calls[i].Function.Name })
	out := make([]OpenAIToolMessage, len(results))
	for i := range results {
		out[i] = chat.answer(f.s.e, &f.calls[i], &results[i])
	}
	return out, err
}
