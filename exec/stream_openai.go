package exec

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
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
// [Executor.OpenAIChatJSON]); delta.tool_calls are put together by index.
// A call is complete, and starts, when a later call begins (a new index,
// or a new id at the same index), when choice 0 gets a finish_reason, or
// at [DONE]. An arguments delta for a call that already started is a
// protocol error: the stream is then incomplete.
//
// A feed is used by one goroutine; the calls run on their own (see
// [Options.Concurrency]; with 1 they run inside Feed). Feed after Close
// returns an error and reads nothing.
type OpenAIChatFeed struct {
	s       *streamCalls
	calls   []OpenAIToolCall
	args    [][]byte    // each call's arguments so far, until it starts
	byIndex map[int]int // tool_calls[].index → the latest call with it
	started int         // calls[:started] have started
	done    bool
}

// NewOpenAIChatFeed returns an empty feed whose calls run with ctx.
func (e *Executor) NewOpenAIChatFeed(ctx context.Context) *OpenAIChatFeed {
	return &OpenAIChatFeed{s: newStreamCalls(ctx, e, chatShape), byIndex: map[int]int{}}
}

type chatChunk struct {
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			ToolCalls []struct {
				Index    int             `json:"index"`
				ID       json.RawMessage `json:"id"`
				Type     json.RawMessage `json:"type"`
				Function struct {
					Name      json.RawMessage `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
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
		for _, d := range ch.Delta.ToolCalls {
			var p problems
			id := p.str(d.ID, "id")
			pos, ok := f.byIndex[d.Index]
			if !ok || id != "" && f.calls[pos].ID != "" && id != f.calls[pos].ID {
				f.startUpTo(len(f.calls))
				pos = len(f.calls)
				f.calls = append(f.calls, OpenAIToolCall{})
				f.args = append(f.args, nil)
				f.s.add()
				f.byIndex[d.Index] = pos
			} else if pos < f.started {
				return f.s.fail(fmt.Errorf("%w: tool call %d got more data after it started", ErrStreamIncomplete, pos))
			}
			tc := &f.calls[pos]
			var fp problems
			typ, name := p.str(d.Type, "type"), fp.str(d.Function.Name, "function.name")
			args := fp.arguments(d.Function.Arguments, "function.arguments")
			tc.ID, tc.Type, tc.Function.Name = first(tc.ID, id), first(tc.Type, typ), first(tc.Function.Name, name)
			tc.problem = joinProblems(tc.problem, p.String())
			tc.Function.problem = joinProblems(tc.Function.problem, fp.String())
			if deep {
				markDeepChat(tc)
				tc.Function.problem = joinProblems(tc.Function.problem, deepStr("function.arguments", &args))
			}
			f.args[pos] = append(f.args[pos], args...)
			if err := f.s.keep(len(id) + len(typ) + len(name) + len(args)); err != nil {
				return f.s.fail(err)
			}
			if args != "" {
				f.s.partial(pos, tc.ID, tc.Function.Name, args, func() string { return string(f.args[pos]) })
			}
		}
		if !absent(ch.FinishReason) {
			f.finish()
		}
	}
	return nil
}

// first is a if set, else b.
func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// startUpTo starts calls[started:n].
func (f *OpenAIChatFeed) startUpTo(n int) {
	for ; f.started < n; f.started++ {
		tc := &f.calls[f.started]
		tc.Function.Arguments, f.args[f.started] = string(f.args[f.started]), nil
		f.s.start(f.started, chatCall(tc))
	}
}

func (f *OpenAIChatFeed) finish() {
	f.done = true
	f.startUpTo(len(f.calls))
}

// Close ends the feed: it waits for the calls and returns one tool
// message per call, in call order, as [Executor.OpenAIChatStream] does.
func (f *OpenAIChatFeed) Close() ([]OpenAIToolMessage, error) {
	if f.done {
		f.startUpTo(len(f.calls))
	} else {
		f.s.fail(fmt.Errorf("%w: the stream ended before the reply was complete", ErrStreamIncomplete))
	}
	results, err := f.s.finish(func(i int) (string, string) { return f.calls[i].ID, f.calls[i].Function.Name })
	out := make([]OpenAIToolMessage, len(results))
	for i := range results {
		out[i] = chat.answer(f.s.e, &f.calls[i], &results[i])
	}
	return out, err
}
