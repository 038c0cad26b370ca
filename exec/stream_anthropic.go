package exec

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
)

// AnthropicStream is [Executor.Anthropic] on a streamed Messages reply
// (stream: true): it reads the server-sent events of body r and runs each
// tool_use block as soon as its content_block_stop arrives (see
// [AnthropicFeed]). The message equals, byte for byte, what
// [Executor.Anthropic] gives for the same message sent whole (each
// tool_use input being its input_json_delta fragments joined), tool_result
// blocks in tool_use order. The stream is finished by message_stop; errors
// and incomplete streams as for [Executor.OpenAIChatStream].
func (e *Executor) AnthropicStream(ctx context.Context, r io.Reader) (AnthropicMessage, error) {
	f := e.NewAnthropicFeed(ctx)
	if err := feedAll(ctx, r, e.maxStream(), f.Feed); err != nil {
		f.s.fail(err)
	}
	return f.Close()
}

// AnthropicFeed is the incremental form of [Executor.AnthropicStream]:
// Feed each event's data, then Close. A tool_use block is registered by
// content_block_start and gets its input from the input_json_delta
// fragments of content_block_delta events (none: the input of
// content_block_start, {}). It starts the moment those fragments form
// one complete JSON object, or, when it has none, once the reply goes on
// after its content_block_stop (the next block, or a message_delta whose
// stop_reason is not a cut); a block whose fragments never complete starts at message_stop
// (and is answered with the registry's message for its arguments), or,
// when message_delta says stop_reason "max_tokens", does not run and is
// answered as [ErrTruncated] says. Fragments after the object is
// complete must be white space or the same input again (see
// [OpenAIChatFeed]). ping, text and thinking blocks and message_start
// are skipped; message_stop finishes the stream and an error event
// makes it incomplete. Used by one goroutine, as [OpenAIChatFeed].
type AnthropicFeed struct {
	s       *streamCalls
	blocks  []AnthropicContentBlock
	input   []streamArgs
	byIndex map[int]int // content block index → position in blocks
	started []bool
	waiting []int // stopped blocks without fragments, started when the reply goes on
	done    bool
}

// goOn starts the blocks that stopped without fragments: the reply went
// on past them (a next block, or a stop_reason that is not a cut).
func (f *AnthropicFeed) goOn() {
	for _, pos := range f.waiting {
		f.start(pos)
	}
	f.waiting = nil
}

// NewAnthropicFeed returns an empty feed whose calls run with ctx.
func (e *Executor) NewAnthropicFeed(ctx context.Context) *AnthropicFeed {
	return &AnthropicFeed{s: newStreamCalls(ctx, e, anthropicShape), byIndex: map[int]int{}}
}

type anthropicEvent struct {
	Type         string          `json:"type"`
	Index        int             `json:"index"`
	ContentBlock json.RawMessage `json:"content_block"`
	Delta        struct {
		Type        string          `json:"type"`
		PartialJSON json.RawMessage `json:"partial_json"`
		StopReason  json.RawMessage `json:"stop_reason"` // of message_delta
	} `json:"delta"`
	Error json.RawMessage `json:"error"`
}

// Feed takes the data of one server-sent event (its "type" says which
// event it is). Errors as for [OpenAIChatFeed.Feed].
func (f *AnthropicFeed) Feed(data []byte) error {
	if err := f.s.usable(); err != nil {
		return err
	}
	f.s.look(data)
	var ev anthropicEvent
	deep, err := unmarshalEvent(data, &ev)
	if err != nil {
		return f.s.fail(fmt.Errorf("%w: an event is not a Messages stream event: %v", ErrStreamIncomplete, err))
	}
	switch ev.Type {
	case "content_block_start":
		var b AnthropicContentBlock
		if err := json.Unmarshal(ev.ContentBlock, &b); err != nil || b.Type != "tool_use" {
			return nil
		}
		if deep {
			markDeepAnthropic(&b)
		}
		if _, ok := f.byIndex[ev.Index]; ok {
			return f.s.fail(fmt.Errorf("%w: content block %d started twice", ErrStreamIncomplete, ev.Index))
		}
		f.goOn()
		f.byIndex[ev.Index] = f.s.add()
		f.blocks = append(f.blocks, b)
		f.input = append(f.input, streamArgs{})
		f.started = append(f.started, false)
		return f.keep(len(b.ID) + len(b.Name) + len(b.Input))
	case "content_block_delta":
		pos, ok := f.byIndex[ev.Index]
		if !ok || ev.Delta.Type != "input_json_delta" {
			return nil
		}
		var frag string
		if err := json.Unmarshal(ev.Delta.PartialJSON, &frag); err != nil {
			return f.s.fail(fmt.Errorf("%w: content block %d: partial_json is not a string", ErrStreamIncomplete, ev.Index))
		}
		if err := f.keep(len(frag)); err != nil {
			return err
		}
		in := &f.input[pos]
		complete := in.add(frag)
		if !f.started[pos] {
			b := &f.blocks[pos]
			f.s.partial(pos, b.ID, b.Name, frag, func() string { return string(in.text) })
			if complete {
				f.start(pos)
			}
		}
	case "content_block_stop":
		if pos, ok := f.byIndex[ev.Index]; ok && !f.started[pos] && f.input[pos].scan.state == scanStart {
			// No fragments: the input of content_block_start, unless the
			// reply was cut right there; it starts once the model goes on.
			f.waiting = append(f.waiting, pos)
		}
	case "message_delta":
		if cut := anthropicCut(ev.Delta.StopReason); cut != "" {
			f.s.cut = cut
			f.waiting = nil
		}
		f.goOn()
	case "message_stop":
		f.done = true
	case "error":
		return f.s.fail(fmt.Errorf("%w: the provider sent an error: %s", ErrStreamIncomplete, ev.Error))
	}
	return nil
}

func (f *AnthropicFeed) keep(n int) error {
	if err := f.s.keep(n); err != nil {
		return f.s.fail(err)
	}
	return nil
}

func (f *AnthropicFeed) start(pos int) {
	f.started[pos] = true
	b := &f.blocks[pos]
	if in := &f.input[pos]; in.scan.state != scanStart {
		b.Input = json.RawMessage(in.text)
		in.started(string(in.text))
	}
	f.s.start(pos, f.s.e.anthropicCall(b))
}

// Close ends the feed: it waits for the calls and returns the user
// message answering them, tool_result blocks in tool_use order.
func (f *AnthropicFeed) Close() (AnthropicMessage, error) {
	if !f.done {
		f.s.fail(fmt.Errorf("%w: the stream ended before message_stop", ErrStreamIncomplete))
	}
	for pos := range f.blocks {
		switch {
		case f.started[pos]:
			f.s.contradict(pos, f.input[pos].end())
		case f.done && f.s.cut == "":
			f.start(pos) // fragments that never formed an object
		}
	}
	results, err := f.s.finish(func(i int) (string, string) { return f.blocks[i].ID, f.blocks[i].Name })
	msg := AnthropicMessage{Role: "user", Content: make([]AnthropicToolResult, len(results))}
	for i := range results {
		msg.Content[i] = anthropic.answer(f.s.e, &f.blocks[i], &results[i])
	}
	return msg, err
}
