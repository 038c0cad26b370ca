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
				if err := f.piece(&parts[i], i == last); err != nil {
					return f.s.fail(err)
				}
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
				if err := f.piece(&parts[i], i == last); err != nil {
					return f.s.fail(err)
				}
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
// of a reply cut at the output limit). A part that could not be read
// makes the call's problem (it does not run).
func (f *GeminiFeed) piece(p *GeminiPart, last bool) error {
	fc := p.FunctionCall
	if prob := joinProblems(p.problem, fc.problem); prob != "" && f.partial.err == "" {
		f.partial.err = prob
	}
	for _, pa := range fc.PartialArgs {
		if f.partial.err == "" {
			f.partial.apply(pa)
		}
	}
	if err := f.s.keep(f.partial.made * containerOverhead); err != nil {
		return err
	}
	f.partial.made = 0
	if fc.WillContinue {
		return nil
	}
	pos := f.held
	f.held = -1
	if f.s.cut != "" && last {
		return nil
	}
	call := Call{ID: f.calls[pos].ID, Name: f.calls[pos].Name, malformed: f.partial.err, Arguments: fc.Args}
	if len(fc.Args) == 0 && call.malformed == "" {
		var err error
		if call.Arguments, err = json.Marshal(f.partial.root); err != nil {
			call.malformed = "partialArgs: " + err.Error()
		}
	}
	f.s.start(pos, call)
	return nil
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

// containerOverhead is what each object or array a call's pieces make
// counts against [Options.MaxStreamBytes]: about the memory it holds.
const containerOverhead = 256

// partialValue puts together the arguments of a call streamed in
// pieces: each piece sets the value at its JSON path, and a string piece
// at a path that holds a string goes on with it. Paths are "$" followed
// by .name, ['name'] and [index] steps; an index may only be the next
// one of its array. A path it cannot follow, or a value that is not one,
// is the call's problem.
type partialValue struct {
	root map[string]any
	err  string
	made int // objects and arrays made since the last count
}

// pieceString is a string value being put together from pieces.
type pieceString struct{ strings.Builder }

func (p *pieceString) MarshalJSON() ([]byte, error) { return json.Marshal(p.String()) }

func (v *partialValue) apply(pa GeminiPartialArg) {
	var val any
	switch {
	case pa.StringValue != nil:
		ps := &pieceString{}
		ps.WriteString(*pa.StringValue)
		val = ps
	case len(pa.NumberValue) > 0:
		n, ok := jsonNumber(pa.NumberValue)
		if !ok {
			v.err = fmt.Sprintf("partialArgs: the numberValue at %q is %s, not a JSON number", headOf(pa.JSONPath), headOf(string(pa.NumberValue)))
			return
		}
		val = n
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
		var get func() any
		var set func(any)
		switch node := parent.(type) {
		case map[string]any:
			if st.key == nil {
				v.err = fmt.Sprintf("partialArgs: %q indexes an object", headOf(pa.JSONPath))
				return
			}
			k := *st.key
			get, set = func() any { return node[k] }, func(x any) { node[k] = x }
		case *[]any:
			if st.key != nil || st.index > len(*node) {
				v.err = fmt.Sprintf("partialArgs: %q skips into an array", headOf(pa.JSONPath))
				return
			}
			if st.index == len(*node) {
				*node = append(*node, nil)
			}
			n := st.index
			get, set = func() any { return (*node)[n] }, func(x any) { (*node)[n] = x }
		default:
			v.err = fmt.Sprintf("partialArgs: %q goes inside a value that is not an object or array", headOf(pa.JSONPath))
			return
		}
		if i == len(steps)-1 {
			set(joinPiece(get(), val))
			return
		}
		if get() == nil {
			set(v.container(steps[i+1]))
		}
		parent = get()
	}
}

// jsonNumber is a piece's numberValue as a JSON number: its text, or the
// number in a string (protobuf JSON may quote numbers); "NaN" and
// "Infinity" are not one.
func jsonNumber(raw json.RawMessage) (json.Number, bool) {
	text := string(raw)
	if len(raw) > 0 && raw[0] == '"' {
		if json.Unmarshal(raw, &text) != nil {
			return "", false
		}
	}
	var n json.Number
	if json.Unmarshal([]byte(text), &n) != nil || text == "" || text[0] == '"' {
		return "", false
	}
	return n, true
}

// joinPiece is a string piece joined to the string it goes on, or the
// value itself.
func joinPiece(old, val any) any {
	if a, ok := old.(*pieceString); ok {
		if b, ok := val.(*pieceString); ok {
			a.WriteString(b.String())
			return a
		}
	}
	return val
}

// container is a new object or array for the step that goes into it.
func (v *partialValue) container(st pathStep) any {
	v.made++
	if st.key != nil {
		return map[string]any{}
	}
	return &[]any{}
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

// pathStep is one step of a JSON path: a member name, or an index.
type pathStep struct {
	key   *string
	index int
}

// jsonPathSteps reads the steps of a normalized JSON path (RFC 9535
// §2.7, and the dot shorthand): $, then .name, ['name'] (with the escapes
// \\, \' and \") or [index] steps.
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
			var b strings.Builder
			i := 2
			for ; i < len(rest) && rest[i] != q; i++ {
				if rest[i] == '\\' {
					if i++; i == len(rest) || !strings.ContainsRune(`\'"`, rune(rest[i])) {
						return nil, false
					}
				}
				b.WriteByte(rest[i])
			}
			if i+1 >= len(rest) || rest[i+1] != ']' {
				return nil, false
			}
			name := b.String()
			steps = append(steps, pathStep{key: &name})
			rest = rest[i+2:]
		case rest[0] == '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, false
			}
			n, err := strconv.Atoi(rest[1:end])
			if err != nil || n < 0 || n > maxPartialIndex {
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
