package exec

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
)

// GeminiStream is [Executor.Gemini] on a streamed reply
// (streamGenerateContent?alt=sse): it reads the server-sent events of body
// r, each a GenerateContentResponse, and runs each functionCall part of
// the first candidate as soon as the chunk holding it arrives (Gemini
// sends each call whole in one chunk). The content equals, byte for byte,
// what [Executor.Gemini] gives for all the chunks' parts sent whole, in
// call order. The stream is finished by a chunk whose candidate has a
// finishReason; with "MAX_TOKENS" the last call of that chunk does not
// run and is answered as [ErrTruncated] says (Gemini sends arguments it
// parsed, so a cut call may look whole); errors and incomplete streams as for
// [Executor.OpenAIChatStream] (here every call seen is complete, so all
// of them ran).
func (e *Executor) GeminiStream(ctx context.Context, r io.Reader) (GeminiContent, error) {
	f := e.NewGeminiFeed(ctx)
	if err := feedAll(ctx, r, e.maxStream(), f.Feed); err != nil {
		f.s.fail(err)
	}
	return f.Close()
}

// GeminiFeed is the incremental form of [Executor.GeminiStream]: Feed
// each event's data (one GenerateContentResponse chunk), then Close. Used
// by one goroutine, as [OpenAIChatFeed].
type GeminiFeed struct {
	s     *streamCalls
	calls []GeminiFunctionCall // id and name of each call (args dropped once started)
	done  bool
}

// NewGeminiFeed returns an empty feed whose calls run with ctx.
func (e *Executor) NewGeminiFeed(ctx context.Context) *GeminiFeed {
	return &GeminiFeed{s: newStreamCalls(ctx, e, geminiShape)}
}

type geminiChunk struct {
	Candidates []struct {
		Content      json.RawMessage `json:"content"`
		FinishReason json.RawMessage `json:"finishReason"`
	} `json:"candidates"`
	Error json.RawMessage `json:"error"`
}

// Feed takes the data of one server-sent event. Errors as for
// [OpenAIChatFeed.Feed].
func (f *GeminiFeed) Feed(data []byte) error {
	if err := f.s.usable(); err != nil {
		return err
	}
	f.s.look(data)
	var c geminiChunk
	deep, err := unmarshalEvent(data, &c)
	if err != nil {
		return f.s.fail(fmt.Errorf("%w: a chunk is not a GenerateContentResponse: %v", ErrStreamIncomplete, err))
	}
	if !absent(c.Error) {
		return f.s.fail(fmt.Errorf("%w: the provider sent an error: %s", ErrStreamIncomplete, c.Error))
	}
	if len(c.Candidates) == 0 {
		return nil
	}
	cand := c.Candidates[0]
	if string(cand.FinishReason) == `"MAX_TOKENS"` {
		f.s.cut = cutGemini
	}
	if !absent(cand.Content) {
		parts, err := ParseGemini(cand.Content)
		if err != nil {
			return f.s.fail(fmt.Errorf("%w: a chunk's content: %v", ErrStreamIncomplete, err))
		}
		last := lastCall(parts, func(p *GeminiPart) bool { return p.FunctionCall != nil })
		for i := range parts {
			fc := parts[i].FunctionCall
			if fc == nil {
				continue
			}
			if deep {
				markDeepGemini(&parts[i])
			}
			pos := f.s.add()
			if err := f.s.keep(len(fc.ID) + len(fc.Name) + len(fc.Args)); err != nil {
				return f.s.fail(err)
			}
			f.calls = append(f.calls, GeminiFunctionCall{ID: fc.ID, Name: fc.Name})
			if f.s.cut != "" && i == last {
				continue // the provider may have closed a cut call: answered as cut
			}
			f.s.start(pos, geminiCall(&parts[i]))
		}
	}
	if !absent(cand.FinishReason) {
		f.done = true
	}
	return nil
}

// Close ends the feed: it waits for the calls and returns the user
// content answering them, functionResponse parts in call order.
func (f *GeminiFeed) Close() (GeminiContent, error) {
	if !f.done {
		f.s.fail(fmt.Errorf("%w: the stream ended before a finishReason", ErrStreamIncomplete))
	}
	results, err := f.s.finish(func(i int) (string, string) { return f.calls[i].ID, f.calls[i].Name })
	out := GeminiContent{Role: "user", Parts: make([]GeminiPart, len(results))}
	for i := range results {
		out.Parts[i] = geminiAnswer(&f.calls[i], &results[i])
	}
	return out, err
}
