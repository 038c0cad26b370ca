package exec

import (
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// This file holds a fast path for reading provider replies: a one-pass
// scanner that extracts exactly the fields the Parse* functions need and
// skips (while validating) everything else, without reflection.
//
// It is optimistic: whenever it meets anything that encoding/json might
// treat differently (invalid JSON, a key with escapes or non-ASCII bytes,
// a key equal to a wanted one except for case, which encoding/json would
// match, a duplicate wanted key, a value of an unexpected type, a string
// with invalid UTF-8, deep nesting), it gives up and the caller falls back
// to encoding/json. So whenever the fast path succeeds its result equals
// encoding/json's; FuzzFastParse checks that on arbitrary input.

const fastMaxDepth = 1000

type walker struct {
	d     []byte
	i     int
	depth int

	// s and buf are copies of d made on first use: unescaped strings are
	// substrings of s and raw values are subslices of buf, so a reply
	// costs one allocation for each rather than one per field.
	s   string
	buf []byte
}

func (w *walker) ws() {
	for w.i < len(w.d) {
		switch w.d[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (w *walker) peek() byte {
	w.ws()
	if w.i >= len(w.d) {
		return 0
	}
	return w.d[w.i]
}

// end reports whether only whitespace is left.
func (w *walker) end() bool {
	w.ws()
	return w.i == len(w.d)
}

// null consumes a null literal if it comes next.
func (w *walker) null() bool {
	if w.peek() == 'n' && w.i+4 <= len(w.d) && string(w.d[w.i:w.i+4]) == "null" {
		w.i += 4
		return true
	}
	return false
}

// strSpan scans a string token starting at '"' and returns its content
// (between the quotes) and whether it holds escapes or non-ASCII bytes.
func (w *walker) strSpan() (content []byte, escaped, nonASCII, ok bool) {
	if w.peek() != '"' {
		return nil, false, false, false
	}
	start := w.i + 1
	for j := start; j < len(w.d); j++ {
		c := w.d[j]
		switch {
		case c == '"':
			w.i = j + 1
			return w.d[start:j], escaped, nonASCII, true
		case c == '\\':
			escaped = true
			j++
			if j >= len(w.d) {
				return nil, false, false, false
			}
			switch w.d[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(w.d) || !isHex4(w.d[j+1:j+5]) {
					return nil, false, false, false
				}
				j += 4
			default:
				return nil, false, false, false
			}
		case c < 0x20:
			return nil, false, false, false
		case c >= 0x80:
			nonASCII = true
		}
	}
	return nil, false, false, false
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// str reads a string value (null gives ""). Strings with invalid UTF-8
// are refused (encoding/json would replace bytes; the fallback does).
func (w *walker) str() (string, bool) {
	if w.null() {
		return "", true
	}
	b, escaped, nonASCII, ok := w.strSpan()
	if !ok || nonASCII && !utf8.Valid(b) {
		return "", false
	}
	if !escaped {
		if w.s == "" {
			w.s = string(w.d)
		}
		end := w.i - 1 // the closing quote
		return w.s[end-len(b) : end], true
	}
	return unescape(b), true
}

// unescape decodes JSON escapes exactly as encoding/json does (a lone or
// broken surrogate becomes U+FFFD). b holds valid escapes only.
func unescape(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	for i := 0; i < len(b); {
		c := b[i]
		if c != '\\' {
			j := i + 1
			for j < len(b) && b[j] != '\\' {
				j++
			}
			sb.Write(b[i:j])
			i = j
			continue
		}
		switch b[i+1] {
		case '"', '\\', '/':
			sb.WriteByte(b[i+1])
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'u':
			r := hex4(b[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) {
				if i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u' {
					if dec := utf16.DecodeRune(r, hex4(b[i+2:i+6])); dec != unicode.ReplacementChar {
						sb.WriteRune(dec)
						i += 6
						continue
					}
				}
				r = unicode.ReplacementChar
			}
			sb.WriteRune(r)
			continue
		}
		i += 2
	}
	return sb.String()
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// arguments reads an OpenAI arguments value: a string (null gives ""),
// or the arguments object itself, as its JSON text (see
// OpenAIFunctionCall.UnmarshalJSON).
func (w *walker) arguments() (string, bool) {
	if w.peek() == '{' {
		r, ok := w.raw()
		return string(r), ok
	}
	return w.str()
}

// boolean reads true, false or null (false).
func (w *walker) boolean() (bool, bool) {
	switch {
	case w.null():
		return false, true
	case w.peek() == 't' && w.i+4 <= len(w.d) && string(w.d[w.i:w.i+4]) == "true":
		w.i += 4
		return true, true
	case w.peek() == 'f' && w.i+5 <= len(w.d) && string(w.d[w.i:w.i+5]) == "false":
		w.i += 5
		return false, true
	}
	return false, false
}

// raw skips one value and returns its bytes (as encoding/json fills a
// json.RawMessage): a subslice of a private copy of the input, capacity
// clipped so that appending to it cannot touch its neighbours.
func (w *walker) raw() ([]byte, bool) {
	w.ws()
	start := w.i
	if !w.skip() {
		return nil, false
	}
	if w.buf == nil {
		w.buf = append([]byte(nil), w.d...)
	}
	return w.buf[start:w.i:w.i], true
}

// skip skips one value, validating it.
func (w *walker) skip() bool {
	switch c := w.peek(); {
	case c == '"':
		_, _, _, ok := w.strSpan()
		return ok
	case c == '{':
		return w.obj(func([]byte) bool { return w.skip() })
	case c == '[':
		return w.arr(func() bool { return w.skip() })
	case c == 't':
		_, ok := w.boolean()
		return ok
	case c == 'f':
		_, ok := w.boolean()
		return ok
	case c == 'n':
		return w.null()
	case c == '-' || c >= '0' && c <= '9':
		return w.number()
	}
	return false
}

// number skips a number with the JSON grammar
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (w *walker) number() bool {
	d, i := w.d, w.i
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return false
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return false
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	w.i = i
	return true
}

// obj walks an object; fn gets each key (plain ASCII, no escapes: other
// keys make obj fail) and must consume its value.
func (w *walker) obj(fn func(key []byte) bool) bool {
	if w.peek() != '{' {
		return false
	}
	w.depth++
	if w.depth > fastMaxDepth {
		return false
	}
	w.i++
	if w.peek() == '}' {
		w.i++
		w.depth--
		return true
	}
	for {
		k, escaped, nonASCII, ok := w.strSpan()
		if !ok || escaped || nonASCII || w.peek() != ':' {
			return false
		}
		w.i++
		if !fn(k) {
			return false
		}
		switch w.peek() {
		case ',':
			w.i++
		case '}':
			w.i++
			w.depth--
			return true
		default:
			return false
		}
	}
}

// arr walks an array; fn must consume each element.
func (w *walker) arr(fn func() bool) bool {
	if w.peek() != '[' {
		return false
	}
	w.depth++
	if w.depth > fastMaxDepth {
		return false
	}
	w.i++
	if w.peek() == ']' {
		w.i++
		w.depth--
		return true
	}
	for {
		if !fn() {
			return false
		}
		switch w.peek() {
		case ',':
			w.i++
		case ']':
			w.i++
			w.depth--
			return true
		default:
			return false
		}
	}
}

// fields tracks the wanted keys of one struct: a key seen twice, or a key
// that matches a wanted one only case-insensitively (encoding/json would
// take it), makes the fast path give up.
type fields struct {
	names []string
	seen  uint32
}

// want returns the index of key among the wanted names, -1 for a key to
// skip, or -2 to give up.
func (f *fields) want(key []byte) int {
	for i, n := range f.names {
		if string(key) == n {
			if f.seen&(1<<i) != 0 {
				return -2
			}
			f.seen |= 1 << i
			return i
		}
		if asciiEqualFold(key, n) {
			return -2
		}
	}
	return -1
}

// asciiEqualFold is strings.EqualFold for ASCII keys (obj refuses others).
func asciiEqualFold(a []byte, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// object walks an object whose wanted keys are names: read gets the index
// in names of each wanted key and must consume its value; other keys are
// skipped; a repeated or case-folded wanted key makes object fail (see
// fields.want).
func (w *walker) object(names []string, read func(i int) bool) bool {
	f := fields{names: names}
	return w.obj(func(key []byte) bool {
		switch i := f.want(key); {
		case i >= 0:
			return read(i)
		case i == -1:
			return w.skip()
		}
		return false
	})
}

// only reads an object in which only key matters, its value read by read
// (the zero T when key is absent).
func only[T any](w *walker, key string, read func() (T, bool)) (T, bool) {
	var v T
	ok := w.object([]string{key}, func(int) bool {
		var ok bool
		v, ok = read()
		return ok
	})
	return v, ok
}

// objects reads an array of objects into a []T (null gives nil, [] an
// empty non-nil slice): each element starts as a zero T and field gets a
// pointer to it with the index in names of each wanted key, and must
// consume that key's value.
func objects[T any](w *walker, names []string, field func(e *T, i int) bool) ([]T, bool) {
	if w.null() {
		return nil, true
	}
	out := []T{}
	ok := w.arr(func() bool {
		var zero T
		out = append(out, zero)
		e := &out[len(out)-1]
		return w.object(names, func(i int) bool { return field(e, i) })
	})
	return out, ok
}

// message reads a message object (null gives nil) and returns its list:
// names[0] ("role") must hold a string, which is dropped; names[1] holds
// the list, read by list; if wrap is not nil, the last name is an array
// of wrappers ("choices", "candidates"): when that array is present and
// not null, what wrap reads from its first element (every element is
// read) replaces the object's own list; the names between hold any value
// ("content": a json.RawMessage), dropped; other keys are skipped.
func message[T any](w *walker, names []string, list, wrap func() ([]T, bool)) ([]T, bool) {
	if w.null() {
		return nil, true
	}
	var own, first []T
	var wrapped bool
	ok := w.object(names, func(i int) bool {
		switch {
		case i == 0:
			_, ok := w.str()
			return ok
		case i == 1:
			var ok bool
			own, ok = list()
			return ok
		case wrap != nil && i == len(names)-1:
			if w.null() {
				return true
			}
			wrapped = true
			n := 0
			return w.arr(func() bool {
				n++
				l, ok := wrap()
				if n == 1 {
					first = l
				}
				return ok
			})
		}
		return w.skip()
	})
	if wrapped {
		return first, ok
	}
	return own, ok
}

// reply reads a whole reply: a bare array (read by list) or an object
// (read by object), then nothing but whitespace.
func reply[T any](w *walker, list, object func() ([]T, bool)) ([]T, bool) {
	var out []T
	var ok bool
	switch w.peek() {
	case '[':
		out, ok = list()
	case '{':
		out, ok = object()
	}
	if !ok || !w.end() {
		return nil, false
	}
	return out, true
}

// fastChat parses what ParseOpenAIChat accepts.
func fastChat(raw []byte) ([]OpenAIToolCall, bool) {
	w := walker{d: raw}
	return reply(&w, w.chatCalls, func() ([]OpenAIToolCall, bool) {
		return message(&w, []string{"role", "tool_calls", "content", "choices"}, w.chatCalls, w.chatMessage)
	})
}

// chatMessage reads {"message":{…}} (one element of choices) and returns
// the message's tool calls.
func (w *walker) chatMessage() ([]OpenAIToolCall, bool) {
	return only(w, "message", func() ([]OpenAIToolCall, bool) {
		return message(w, []string{"role", "tool_calls", "content"}, w.chatCalls, nil)
	})
}

// chatCalls reads a tool_calls array (null gives nil).
func (w *walker) chatCalls() ([]OpenAIToolCall, bool) {
	return objects(w, []string{"id", "type", "function", "custom"}, func(tc *OpenAIToolCall, i int) bool {
		var ok bool
		switch i {
		case 0:
			tc.ID, ok = w.str()
		case 1:
			tc.Type, ok = w.str()
		case 2:
			if w.null() {
				return true
			}
			ok = w.object([]string{"name", "arguments"}, func(i int) bool {
				var ok bool
				if i == 0 {
					tc.Function.Name, ok = w.str()
				} else {
					tc.Function.Arguments, ok = w.arguments()
				}
				return ok
			})
		case 3:
			if w.null() {
				return true
			}
			ok = w.object([]string{"name", "input"}, func(i int) bool {
				var ok bool
				if i == 0 {
					tc.Custom.Name, ok = w.str()
				} else {
					tc.Custom.Input, ok = w.str()
				}
				return ok
			})
		}
		return ok
	})
}

// fastResponses parses what ParseResponses accepts.
func fastResponses(raw []byte) ([]ResponsesItem, bool) {
	w := walker{d: raw}
	return reply(&w, w.responsesItems, func() ([]ResponsesItem, bool) {
		return only(&w, "output", w.responsesItems)
	})
}

func (w *walker) responsesItems() ([]ResponsesItem, bool) {
	return objects(w, []string{"type", "id", "call_id", "name", "arguments", "status", "input", "namespace", "execution"}, func(it *ResponsesItem, i int) bool {
		var ok bool
		if i == 4 {
			it.Arguments, ok = w.arguments()
			return ok
		}
		dst := [...]*string{&it.Type, &it.ID, &it.CallID, &it.Name, &it.Arguments, &it.Status, &it.Input, &it.Namespace, &it.Execution}
		*dst[i], ok = w.str()
		return ok
	})
}

// fastAnthropic parses what ParseAnthropic accepts.
func fastAnthropic(raw []byte) ([]AnthropicContentBlock, bool) {
	w := walker{d: raw}
	return reply(&w, w.anthropicBlocks, func() ([]AnthropicContentBlock, bool) {
		return only(&w, "content", w.anthropicBlocks)
	})
}

func (w *walker) anthropicBlocks() ([]AnthropicContentBlock, bool) {
	return objects(w, []string{"type", "text", "id", "name", "input"}, func(b *AnthropicContentBlock, i int) bool {
		var ok bool
		switch i {
		case 0:
			b.Type, ok = w.str()
		case 1:
			b.Text, ok = w.str()
		case 2:
			b.ID, ok = w.str()
		case 3:
			b.Name, ok = w.str()
		case 4:
			b.Input, ok = w.raw()
		}
		return ok
	})
}

// fastGemini parses what ParseGemini accepts.
func fastGemini(raw []byte) ([]GeminiPart, bool) {
	w := walker{d: raw}
	return reply(&w, w.geminiParts, func() ([]GeminiPart, bool) {
		return message(&w, []string{"role", "parts", "candidates"}, w.geminiParts, w.geminiCandidate)
	})
}

// geminiCandidate reads {"content":{"role":…,"parts":[…]}} and returns
// the parts.
func (w *walker) geminiCandidate() ([]GeminiPart, bool) {
	return only(w, "content", func() ([]GeminiPart, bool) {
		return message(w, []string{"role", "parts"}, w.geminiParts, nil)
	})
}

func (w *walker) geminiParts() ([]GeminiPart, bool) {
	return objects(w, []string{"text", "thought", "functionCall", "functionResponse", "thoughtSignature"}, func(p *GeminiPart, i int) bool {
		var ok bool
		switch i {
		case 0:
			p.Text, ok = w.str()
		case 1:
			p.Thought, ok = w.boolean()
		case 2:
			if w.null() {
				return true
			}
			fc := &GeminiFunctionCall{}
			ok = w.object([]string{"id", "name", "args"}, func(i int) bool {
				var ok bool
				switch i {
				case 0:
					fc.ID, ok = w.str()
				case 1:
					fc.Name, ok = w.str()
				case 2:
					fc.Args, ok = w.raw()
				}
				return ok
			})
			p.FunctionCall = fc
		case 3:
			return w.null() // a model turn has no functionResponse; anything else: fall back
		case 4:
			p.ThoughtSignature, ok = w.str()
		}
		return ok
	})
}
