package exec

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// ResponsesStream is [Executor.Responses] on a streamed Responses reply
// (stream: true): it reads the server-sent events of body r and runs each
// function_call (custom_tool_call, client tool_search_call) as soon as its
// response.output_item.done event arrives
// (see [ResponsesFeed]). The outputs equal, byte for byte, those
// [Executor.Responses] gives for the response's output array sent whole,
// in output order. Errors and incomplete streams as for
// [Executor.OpenAIChatStream]; the stream is finished by
// response.completed.
func (e *Executor) ResponsesStream(ctx context.Context, r io.Reader) ([]ResponsesOutput, error) {
	f := e.NewResponsesFeed(ctx)
	if err := feedAll(ctx, r, e.maxStream(), f.Feed); err != nil {
		f.s.fail(err)
	}
	return f.Close()
}

// ResponsesFeed is the incremental form of [Executor.ResponsesStream]:
// Feed each event's data, then Close. A function_call item (likewise a
// custom_tool_call, and a tool_search_call with "execution":"client",
// answered as [ToolSearch] says) is registered by
// response.output_item.added. A function_call starts the moment its
// arguments are complete: the response.function_call_arguments.delta
// fragments form one JSON object, or response.function_call_arguments.done
// or response.output_item.done arrives, whichever is first (producers
// that send the arguments only in the .done event, or a done item without
// them, are read alike); the other items start at their
// response.output_item.done. What comes for a call after it started must
// say the same arguments (see [OpenAIChatFeed]). response.completed
// finishes the stream (a call it holds that had not started starts then,
// with the item it holds); response.incomplete for "max_output_tokens"
// finishes it cut at the output limit (the calls not started are answered
// as [ErrTruncated] says); another response.incomplete, response.failed
// and error events make it incomplete. Used by one goroutine, as
// [OpenAIChatFeed].
type ResponsesFeed struct {
	s           *streamCalls
	items       []ResponsesItem
	byIndex     map[int]int // output_index → position in items
	outputIndex []int       // position in items → output_index
	args        []streamArgs
	started     []bool
	done        bool
}

// NewResponsesFeed returns an empty feed whose calls run with ctx.
func (e *Executor) NewResponsesFeed(ctx context.Context) *ResponsesFeed {
	return &ResponsesFeed{s: newStreamCalls(ctx, e, responsesShape), byIndex: map[int]int{}}
}

type responsesEvent struct {
	Type        string          `json:"type"`
	OutputIndex int             `json:"output_index"`
	Item        json.RawMessage `json:"item"`
	Response    json.RawMessage `json:"response"`
	Delta       json.RawMessage `json:"delta"`
	Arguments   json.RawMessage `json:"arguments"` // of function_call_arguments.done
	Message     json.RawMessage `json:"message"`
}

// Feed takes the data of one server-sent event (its "type" says which
// event it is). Errors as for [OpenAIChatFeed.Feed].
func (f *ResponsesFeed) Feed(data []byte) error {
	if err := f.s.usable(); err != nil {
		return err
	}
	f.s.look(data)
	var ev responsesEvent
	deep, err := unmarshalEvent(data, &ev)
	if err != nil {
		return f.s.fail(fmt.Errorf("%w: an event is not a Responses stream event: %v", ErrStreamIncomplete, err))
	}
	switch ev.Type {
	case "response.output_item.added", "response.output_item.done":
		var it ResponsesItem
		if err := json.Unmarshal(ev.Item, &it); err != nil || !isResponsesCall(&it) {
			return nil // not a call to answer (or not an item): nothing to run
		}
		if deep {
			markDeepResponses(&it)
		}
		if err := f.s.keep(len(it.CallID) + len(it.Name) + len(it.Namespace) + len(it.Arguments) + len(it.Input)); err != nil {
			return f.s.fail(err)
		}
		pos, ok := f.byIndex[ev.OutputIndex]
		if !ok {
			pos = f.add(ev.OutputIndex, it)
		}
		if f.started[pos] {
			if it.Arguments != "" {
				f.args[pos].repeat(it.Arguments)
			}
			return nil
		}
		args := it.Arguments
		if ok && it.Arguments == "" {
			it.Arguments = string(f.args[pos].text) // a done item without them
		}
		f.items[pos] = it
		if ev.Type == "response.output_item.done" {
			if it.Status == "incomplete" || it.Type == "function_call" && !completeObject(it.Arguments) && strings.TrimSpace(it.Arguments) != "" {
				return nil // may be cut: answered at the response's end
			}
			f.start(pos)
		} else if it.Type == "function_call" && f.args[pos].add(args) {
			f.start(pos)
		}
	case "response.function_call_arguments.delta", "response.function_call_arguments.done":
		pos, ok := f.byIndex[ev.OutputIndex]
		if !ok || f.items[pos].Type != "function_call" {
			return nil
		}
		var frag string
		raw := ev.Delta
		if ev.Type == "response.function_call_arguments.done" {
			raw = ev.Arguments
		}
		if json.Unmarshal(raw, &frag) != nil {
			return nil
		}
		if err := f.s.keep(len(frag)); err != nil {
			return f.s.fail(err)
		}
		a, it := &f.args[pos], &f.items[pos]
		if ev.Type == "response.function_call_arguments.done" {
			switch {
			case f.started[pos]:
				a.repeat(frag)
			case completeObject(frag) || strings.TrimSpace(frag) == "":
				it.Arguments = frag
				f.start(pos)
			default:
				it.Arguments = frag // may be cut: answered at the response's end
			}
			return nil
		}
		complete := a.add(frag)
		if !f.started[pos] {
			f.s.partial(pos, it.CallID, it.Name, frag, func() string { return string(a.text) })
			if complete {
				it.Arguments = string(a.text)
				f.start(pos)
			}
		}
	case "response.completed":
		f.done = true
		f.completed(ev.Response)
	case "response.incomplete":
		var r struct {
			IncompleteDetails struct {
				Reason string `json:"reason"`
			} `json:"incomplete_details"`
		}
		if json.Unmarshal(ev.Response, &r) == nil && r.IncompleteDetails.Reason == "max_output_tokens" {
			f.done = true
			f.s.cut = cutResponses
			return nil
		}
		return f.s.fail(fmt.Errorf("%w: the provider sent %s", ErrStreamIncomplete, ev.Type))
	case "response.failed":
		return f.s.fail(fmt.Errorf("%w: the provider sent %s", ErrStreamIncomplete, ev.Type))
	case "error":
		return f.s.fail(fmt.Errorf("%w: the provider sent an error: %s", ErrStreamIncomplete, ev.Message))
	}
	return nil
}

func (f *ResponsesFeed) add(outputIndex int, it ResponsesItem) int {
	pos := f.s.add()
	f.items = append(f.items, it)
	f.started = append(f.started, false)
	f.args = append(f.args, streamArgs{})
	f.byIndex[outputIndex] = pos
	f.outputIndex = append(f.outputIndex, outputIndex)
	return pos
}

func (f *ResponsesFeed) start(pos int) {
	f.started[pos] = true
	it := &f.items[pos]
	f.args[pos].started(it.Arguments)
	f.s.start(pos, responsesCall(it))
}

// completed starts the calls of the final response that had not
// started, with the items it holds.
func (f *ResponsesFeed) completed(response json.RawMessage) {
	items, err := ParseResponses(response)
	if err != nil {
		items = nil
	}
	for pos, oi := range f.outputIndex {
		if oi < 0 || oi >= len(items) || items[oi].Type != f.items[pos].Type {
			if !f.started[pos] {
				f.start(pos) // with what the stream sent
			}
			continue
		}
		if f.started[pos] {
			f.args[pos].repeat(items[oi].Arguments) // must say what ran
			continue
		}
		f.items[pos] = items[oi]
		f.start(pos)
	}
}

// Close ends the feed: it waits for the calls and returns one
// function_call_output per function call (custom_tool_call_output per
// custom tool call, tool_search_output per client tool search), in
// output order.
func (f *ResponsesFeed) Close() ([]ResponsesOutput, error) {
	if !f.done {
		f.s.fail(fmt.Errorf("%w: the stream ended before the response was complete", ErrStreamIncomplete))
	}
	for pos := range f.items {
		if f.started[pos] {
			f.s.contradict(pos, f.args[pos].end())
		}
	}
	results, err := f.s.finish(func(i int) (string, string) { c := responsesCall(&f.items[i]); return c.ID, c.Name })
	out := make([]ResponsesOutput, len(results))
	for i := range results {
		out[i] = f.s.e.responsesOutput(&f.items[i], &results[i])
	}
	return out, err
}
