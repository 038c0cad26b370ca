package exec

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// GeminiStream is [Executor.Gemini] on a streamed reply
// (streamGenerateContent?alt=sse): it reads the server-sent events of body
// r, each a GenerateContentResponse, and runs each functionCall part of
// the first candidate as soon as the chunk holding it arrives (the
// Gemini API sends each call whole in one chunk; a call Vertex AI streams
// in pieces, with streamFunctionCallArguments, runs when its last piece
// arrives, its arguments put together from the pieces' partialArgs; see
// [GeminiFunctionCall]). The content equals, byte for byte,
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

	held    int           // the call whose arguments come in pieces (Vertex AI), or -1
	partial *partialValue // its arguments so far
}

// NewGeminiFeed returns an empty feed whose calls run with ctx.
func (e *Executor) NewGeminiFeed(ctx context.Context) *GeminiFeed {
	return &GeminiFeed{s: newStreamCalls(ctx, e, geminiShape), held: -1}
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
			n := len(fc.ID) + len(fc.Name) + len(fc.Args)
			for _, pa := range fc.PartialArgs {
				n += len(pa.JSONPath) + len(pa.NumberValue) + 8
				if pa.StringValue != nil {
					n += len(*pa.StringValue)
				}
			}
			if f.held >= 0 && fc.Name == "" { // the next piece of the held call
				if err := f.s.keep(n); err != nil {
					return f.s.fail(err)
				}
				f.piece(&parts[i], i == last)
				continue
			}
			f.release()
			pos := f.s.add()
			if err := f.s.keep(n); err != nil {
				return f.s.fail(err)
			}
			f.calls = append(f.calls, GeminiFunctionCall{ID: fc.ID, Name: fc.Name})
			if len(fc.PartialArgs) > 0 || fc.WillContinue {
				f.held, f.partial = pos, &partialValue{}
				f.piece(&parts[i], i == last)
				continue
			}
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

// piece applies one part of the held call; the part without
// WillContinue completes it, and it starts (unless it is the last call
// of a reply cut at the output limit).
func (f *GeminiFeed) piece(p *GeminiPart, last bool) {
	fc := p.FunctionCall
	for _, pa := range fc.PartialArgs {
		if f.partial.err == "" {
			f.partial.apply(pa)
		}
	}
	if fc.WillContinue {
		return
	}
	pos := f.held
	f.held = -1
	if f.s.cut != "" && last {
		return
	}
	call := Call{ID: f.calls[pos].ID, Name: f.calls[pos].Name, malformed: f.partial.err}
	if call.Arguments = fc.Args; len(fc.Args) == 0 {
		call.Arguments, _ = json.Marshal(f.partial.root)
	}
	f.s.start(pos, call)
}

// release ends a held call that another call followed before its last
// piece: which pieces were its own cannot be told, so it does not run.
func (f *GeminiFeed) release() {
	if f.held < 0 {
		return
	}
	pos := f.held
	f.held = -1
	f.s.start(pos, Call{ID: f.calls[pos].ID, Name: f.calls[pos].Name,
		malformed: "another call began before the last piece of this call's streamed arguments (willContinue)"})
}

// partialValue puts together the arguments of a call streamed in
// pieces: each piece sets the value at its JSON path, and a string piece
// at a path that holds a string goes on with it. Paths are "$" followed
// by .name, ['name'] and [index] steps; an index may only be the next
// one of its array. A path it cannot follow is the call's problem.
type partialValue struct {
	root map[string]any
	err  string
}

func (v *partialValue) apply(pa GeminiPartialArg) {
	var val any
	switch {
	case pa.StringValue != nil:
		val = *pa.StringValue
	case len(pa.NumberValue) > 0:
		val = json.Number(pa.NumberValue)
	case pa.BoolValue != nil:
		val = *pa.BoolValue
	default:
		val = nil
	}
	steps, ok := jsonPathSteps(pa.JSONPath)
	if !ok || len(steps) == 0 || len(steps) > MaxReplyDepth {
		v.err = fmt.Sprintf("partialArgs: cannot follow the JSON path %q", headOf(pa.JSONPath))
		return
	}
	if v.root == nil {
		v.root = map[string]any{}
	}
	var parent any = v.root
	for i, st := range steps {
		lastStep := i == len(steps)-1
		var next any
		switch node := parent.(type) {
		case map[string]any:
			if st.key == nil {
				v.err = fmt.Sprintf("partialArgs: %q indexes an object", headOf(pa.JSONPath))
				return
			}
			if lastStep {
				node[*st.key] = joinPiece(node[*st.key], val)
				return
			}
			if node[*st.key] == nil {
				node[*st.key] = container(steps[i+1])
			}
			next = node[*st.key]
		case *[]any:
			if st.key != nil || st.index > len(*node) {
				v.err = fmt.Sprintf("partialArgs: %q skips into an array", headOf(pa.JSONPath))
				return
			}
			if st.index == len(*node) {
				var c any
				if !lastStep {
					c = container(steps[i+1])
				}
				*node = append(*node, c)
			}
			if lastStep {
				(*node)[st.index] = joinPiece((*node)[st.index], val)
				return
			}
			next = (*node)[st.index]
		default:
			v.err = fmt.Sprintf("partialArgs: %q goes inside a value that is not an object or array", headOf(pa.JSONPath))
			return
		}
		parent = next
	}
}

// headOf is a path as messages show it: at most its first 64 bytes.
func headOf(path string) string {
	if len(path) <= 64 {
		return path
	}
	n := 64
	for n > 0 && !utf8.RuneStart(path[n]) {
		n--
	}
	return path[:n] + "…"
}

// joinPiece is a string piece joined to the string it goes on, or the
// value itself.
func joinPiece(old, val any) any {
	if a, ok := old.(string); ok {
		if b, ok := val.(string); ok {
			return a + b
		}
	}
	return val
}

// container is a new object or array for the step that goes into it.
func container(st pathStep) any {
	if st.key != nil {
		return map[string]any{}
	}
	return &[]any{}
}

// pathStep is one step of a JSON path: a member name, or an index.
type pathStep struct {
	key   *string
	index int
}

// jsonPathSteps reads the steps of a normalized JSON path (RFC 9535
// §2.7 and the dot shorthand): $, then .name, ['name'] or [index] steps.
func jsonPathSteps(path string) ([]pathStep, bool) {
	if !strings.HasPrefix(path, "$") {
		return nil, false
	}
	var steps []pathStep
	for rest := path[1:]; rest != ""; {
		switch {
		case rest[0] == '.':
			end := strings.IndexAny(rest[1:], ".[")
			if end < 0 {
				end = len(rest) - 1
			}
			name := rest[1 : 1+end]
			if name == "" {
				return nil, false
			}
			steps = append(steps, pathStep{key: &name})
			rest = rest[1+end:]
		case strings.HasPrefix(rest, "['") || strings.HasPrefix(rest, `["`):
			q := rest[1]
			end := strings.IndexByte(rest[2:], q)
			if end < 0 || !strings.HasPrefix(rest[2+end:], string(q)+"]") {
				return nil, false
			}
			name := rest[2 : 2+end]
			steps = append(steps, pathStep{key: &name})
			rest = rest[2+end+2:]
		case rest[0] == '[':
			end := strings.IndexByte(rest, ']')
			n, err := strconv.Atoi(rest[1:max(end, 1)])
			if end < 0 || err != nil || n < 0 || n > maxPartialIndex {
				return nil, false
			}
			steps = append(steps, pathStep{index: n})
			rest = rest[end+1:]
		default:
			return nil, false
		}
	}
	return steps, true
}

// maxPartialIndex bounds an array index of a partialArgs path.
const maxPartialIndex = 1 << 16

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
