package exec

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/internal/jsonlex"
)

// firstByte is the first non-whitespace byte of raw, or 0.
func firstByte(raw []byte) byte {
	if i := jsonlex.WS(raw, 0); i < len(raw) {
		return raw[i]
	}
	return 0
}

// notReply is the error for a reply that is not a JSON object or array
// (its first byte after whitespace is neither '{' nor '['); what names the
// provider ("OpenAI", ...). A reply that is one valid JSON value is named
// by its type; anything else is "not valid JSON" at the offset of the
// first byte that cannot be JSON, with a quoted head of the reply (see
// quoteHead).
func notReply(what string, raw []byte) error {
	off, why := scalarSyntax(raw)
	if off < 0 {
		return fmt.Errorf("exec: %s reply: want a JSON object or array, got %s", what, why)
	}
	return fmt.Errorf("exec: %s reply: not valid JSON at offset %d: %s; %s", what, off, why, quoteHead(raw))
}

// scalarSyntax checks raw, which does not start with '{' or '[', against
// the JSON grammar, as encoding/json does (bytes of a string need not be
// valid UTF-8). When raw is one valid value (whitespace around it allowed)
// it returns -1 and the value's type ("a string", ...), or "no data";
// otherwise the 0-based offset of the first byte that cannot be JSON (the
// length of raw when it ends too soon) and why.
func scalarSyntax(raw []byte) (off int, why string) {
	i := jsonlex.WS(raw, 0)
	if i == len(raw) {
		return -1, "no data"
	}
	var in string
	switch c := raw[i]; {
	case c == 't' || c == 'f' || c == 'n':
		lit := "true"
		switch c {
		case 'f':
			lit = "false"
		case 'n':
			lit = "null"
		}
		in = "literal " + lit
		for k := 0; k < len(lit); k, i = k+1, i+1 {
			if i == len(raw) || raw[i] != lit[k] {
				return badByte(raw, i, in)
			}
		}
	case c == '"':
		in = "a string"
		for i++; ; i++ {
			if i == len(raw) {
				return i, "the reply ends inside a string"
			}
			if c := raw[i]; c == '"' {
				i++
				break
			} else if c < 0x20 {
				return badByte(raw, i, in)
			} else if c == '\\' {
				if i++; i == len(raw) {
					return i, "the reply ends inside a string"
				}
				switch raw[i] {
				case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				case 'u':
					for k := 0; k < 4; k++ {
						if i++; i == len(raw) {
							return i, "the reply ends inside a string"
						}
						if jsonlex.Unhex(raw[i]) < 0 {
							return badByte(raw, i, "a string escape")
						}
					}
				default:
					return badByte(raw, i, "a string escape")
				}
			}
		}
	case c == '-' || c >= '0' && c <= '9':
		in = "a number"
		if raw[i] == '-' {
			i++
		}
		switch {
		case i < len(raw) && raw[i] == '0':
			i++
		case i < len(raw) && raw[i] >= '1' && raw[i] <= '9':
			i = skipDigits(raw, i)
		default:
			return badByte(raw, i, in)
		}
		if i < len(raw) && raw[i] == '.' {
			if i++; i == len(raw) || raw[i] < '0' || raw[i] > '9' {
				return badByte(raw, i, in)
			}
			i = skipDigits(raw, i)
		}
		if i < len(raw) && (raw[i] == 'e' || raw[i] == 'E') {
			if i++; i < len(raw) && (raw[i] == '+' || raw[i] == '-') {
				i++
			}
			if i == len(raw) || raw[i] < '0' || raw[i] > '9' {
				return badByte(raw, i, in)
			}
			i = skipDigits(raw, i)
		}
	default:
		return badByte(raw, i, "")
	}
	if i = jsonlex.WS(raw, i); i < len(raw) {
		return badByte(raw, i, "after")
	}
	return -1, jsonKind(raw)
}

// badByte is scalarSyntax's answer for the byte at i of raw, met inside
// in ("a string", ...; "" at the start of a value, "after" after it).
func badByte(raw []byte, i int, in string) (int, string) {
	if i == len(raw) {
		return i, "the reply ends inside " + in
	}
	what := fmt.Sprintf("invalid byte %#x", raw[i])
	if r, n := utf8.DecodeRune(raw[i:]); r != utf8.RuneError || n > 1 {
		what = fmt.Sprintf("invalid character %q", r)
	}
	switch in {
	case "":
		return i, what + " at the start of a value"
	case "after":
		return i, what + " after the value"
	}
	return i, what + " in " + in
}

func skipDigits(raw []byte, i int) int {
	for i < len(raw) && raw[i] >= '0' && raw[i] <= '9' {
		i++
	}
	return i
}

// maxHead is the most bytes of a reply quoteHead shows.
const maxHead = 40

// quoteHead quotes raw ("the reply is …") or, when it is longer than
// maxHead bytes, its first maxHead bytes or fewer, cut between UTF-8
// characters ("the reply begins …"…). The quoting (strconv.Quote) escapes
// invalid UTF-8, so the text is valid UTF-8.
func quoteHead(raw []byte) string {
	if len(raw) <= maxHead {
		return "the reply is " + strconv.Quote(string(raw))
	}
	n := maxHead
	for k := 0; k < utf8.UTFMax && n > 0 && !utf8.RuneStart(raw[n]); k++ {
		n--
	}
	return "the reply begins " + strconv.Quote(string(raw[:n])) + "…"
}

// The UnmarshalJSON methods of the provider call types (in each
// provider's file) make one call's wrongly typed field that call's problem instead of
// an error for the whole reply: each first decodes exactly as
// encoding/json would without the method (so well-typed input gives the
// same values as before), and only when that fails decodes field by
// field, keeping what it can and recording what it cannot in the
// unexported problem field. The executor answers a call with a problem
// with an error result wrapping ErrMalformedCall; no hook or tool runs.
//
// The rules, shared by all four providers:
//   - a string field (id, name, type, ...) holding another JSON type gets
//     that value's JSON text (5 → "5", {"a":1} → `{"a":1}`), so an id
//     that is not a string is still echoed, as its JSON text;
//   - arguments (OpenAI Chat and Responses) may be a string holding the
//     arguments or, as some OpenAI-compatible servers send them, the JSON
//     object itself, which is taken as is and is not a problem; another
//     type is a problem;
//   - an element that is not an object has no fields at all: a tool_calls
//     entry that is not an object (null included) is a call with empty id
//     and name, answered with an error; in the other providers' arrays it
//     is not a call (it has no type or functionCall) and is skipped like
//     text blocks.

// problems collects the problems of one element.
type problems []string

func (p problems) String() string { return strings.Join(p, "; ") }

// joinProblems joins non-empty problem texts.
func joinProblems(ps ...string) string {
	var out problems
	for _, p := range ps {
		if p != "" {
			out = append(out, p)
		}
	}
	return out.String()
}

// jsonKind names the JSON type of a valid JSON value, for messages.
func jsonKind(raw []byte) string { return jsonlex.Kind(firstByte(raw)) }

// absent reports whether a field decoded into a json.RawMessage was
// missing or null (which leave a Go string or bool unchanged).
func absent(raw json.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}

// str decodes a string field; another type is a problem and gives the
// value's JSON text.
func (p *problems) str(raw json.RawMessage, field string) string {
	if absent(raw) {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	*p = append(*p, fmt.Sprintf("%q is %s, want a string", field, jsonKind(raw)))
	return string(raw)
}

// boolean decodes a boolean field; another type is a problem and gives
// false.
func (p *problems) boolean(raw json.RawMessage, field string) bool {
	if absent(raw) {
		return false
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return b
	}
	*p = append(*p, fmt.Sprintf("%q is %s, want a boolean", field, jsonKind(raw)))
	return false
}

// arguments decodes an OpenAI arguments field: a string, or the arguments
// object itself (taken as its JSON text). Another type is a problem and
// gives the value's JSON text.
func (p *problems) arguments(raw json.RawMessage, field string) string {
	if len(raw) > 0 && raw[0] == '{' {
		return string(raw)
	}
	if absent(raw) || raw[0] == '"' {
		return p.str(raw, field)
	}
	*p = append(*p, fmt.Sprintf("%q is %s, want a string holding a JSON object", field, jsonKind(raw)))
	return string(raw)
}

// notObject is the problem of an element that is not a JSON object.
func notObject(b []byte, what string) string {
	return fmt.Sprintf("%s is %s, want an object", what, jsonKind(b))
}

// provider is what the methods of one provider API share: T is an
// element of its reply (a tool call, output item, content block or part)
// and A the answer to one call.
type provider[T, A any] struct {
	shape  replyShape
	decode func(raw []byte) ([]T, error) // the accepted forms, by encoding/json
	has    func([]T) bool                // whether a reply holds a call to run
	isCall func(*T) bool                 // whether an element is answered
	call   func(*Executor, *T) Call
	answer func(*Executor, *T, *Result) A
	mark   func(*T) // notes the fields that held deepMarker
}

// parse reads a reply with p.decode. A reply encoding/json refuses only
// for values nested too deep is read again with them cut out (see
// cutDeep), and the elements that held one are marked. A reply with no
// call to run that is recognisably another provider's is an error saying
// so (see otherProvider).
func (p *provider[T, A]) parse(raw []byte) ([]T, error) {
	v, err := p.decode(raw)
	if err != nil {
		if cut, ok := cutDeep(raw); ok {
			if v, err = p.decode(cut); err == nil {
				for i := range v {
					p.mark(&v[i])
				}
			}
		}
	}
	if err == nil && p.has(v) {
		return v, nil
	}
	if err = otherProvider(raw, p.shape, err); err != nil {
		return nil, err
	}
	return v, nil
}

// run runs the elements of items that are calls and returns their
// answers in order (empty, not nil, when there is none).
func (p *provider[T, A]) run(ctx context.Context, e *Executor, items []T) ([]A, error) {
	idx := make([]int, 0, len(items))
	for i := range items {
		if p.isCall(&items[i]) {
			idx = append(idx, i)
		}
	}
	out := make([]A, len(idx))
	if len(idx) == 0 {
		return out, nil
	}
	results := make([]Result, len(idx))
	e.runInto(ctx, len(idx), func(i int) Call { return p.call(e, &items[idx[i]]) }, results)
	for i := range results {
		out[i] = p.answer(e, &items[idx[i]], &results[i])
	}
	return out, e.batchErr(ctx, results)
}

// decodeReply reads a reply that is a JSON array of T, or an object that
// obj reads, with encoding/json; list and object name the two in errors
// ("exec: OpenAI tool_calls: …").
func decodeReply[T any](raw []byte, list, object string, obj func([]byte) ([]T, error)) ([]T, error) {
	var v []T
	var err error
	switch firstByte(raw) {
	case '[':
		if err = json.Unmarshal(raw, &v); err != nil {
			return nil, fmt.Errorf("exec: %s: %w", list, err)
		}
	case '{':
		if v, err = obj(raw); err != nil {
			return nil, fmt.Errorf("exec: %s: %w", object, err)
		}
	default:
		return nil, notReply(strings.Fields(list)[0], raw)
	}
	return v, nil
}

// always is the isCall of a provider whose every element is a call.
func always[T any](*T) bool { return true }
