package argtype

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/toolnexus/toolnexus/internal/jsonlex"
)

type seg struct {
	key   []byte
	idx   int
	isIdx bool
}

const (
	// MaxDepth is the nesting limit of arguments (objects and arrays).
	MaxDepth = 512
	// MaxProblems bounds the problems reported for one call.
	MaxProblems = 20
)

// rewrite replaces data[start:end] with text before decoding.
type rewrite struct {
	start, end int
	text       []byte
}

type scanner struct {
	rewrites []rewrite // integral numbers written with a fraction or exponent
	data     []byte
	i        int
	errs     []*Problem
	fatal    bool
	depth    int
	npath    int     // path length
	pathSt   [32]seg // the first 32 path segments (no allocation)
	pathOv   []seg   // segments beyond 32
}

func (s *scanner) push(g seg) {
	if s.npath < len(s.pathSt) {
		s.pathSt[s.npath] = g
	} else {
		s.pathOv = append(s.pathOv[:s.npath-len(s.pathSt)], g)
	}
	s.npath++
}

func (s *scanner) pop() { s.npath-- }

func (s *scanner) seg(i int) seg {
	if i < len(s.pathSt) {
		return s.pathSt[i]
	}
	return s.pathOv[i-len(s.pathSt)]
}

// checkObject verifies that args is exactly one JSON object (raw tools).
func checkObject(args []byte) *Problem {
	s := scanner{data: args}
	s.top(rawObjectSpec)
	if len(s.errs) > 0 {
		return s.errs[0]
	}
	return nil
}

func (s *scanner) top(spec *valSpec) {
	s.ws()
	if s.i >= len(s.data) {
		s.syntax("arguments are empty")
		return
	}
	if c := s.data[s.i]; c != '{' {
		// Valid JSON of another type, or not JSON at all?
		probe := scanner{data: s.data, i: s.i}
		probe.skipValue()
		if !probe.fatal {
			probe.ws()
		}
		if probe.fatal || probe.i < len(probe.data) {
			s.syntax("arguments are not valid JSON (send one JSON object)")
			return
		}
		s.add(&Problem{Rule: "type", Param: "object",
			Msg: "arguments must be a JSON object, got " + jsonlex.Kind(c)})
		s.fatal = true
		return
	}
	s.value(spec)
	if s.fatal {
		return
	}
	s.ws()
	if s.i < len(s.data) {
		s.syntax("arguments have data after the JSON object at byte " + strconv.Itoa(s.i) +
			" (send exactly one JSON object)")
	}
}

func (s *scanner) add(e *Problem) {
	if len(s.errs) < MaxProblems {
		s.errs = append(s.errs, e)
	} else {
		s.fatal = true
	}
}

func (s *scanner) syntax(msg string) {
	if s.fatal {
		return
	}
	s.add(&Problem{Rule: "syntax", Msg: msg})
	s.fatal = true
}

func (s *scanner) syntaxAt(what string) {
	if s.i >= len(s.data) {
		s.syntax("arguments are not valid JSON: unexpected end of input (truncated?)")
		return
	}
	s.syntax(fmt.Sprintf("arguments are not valid JSON: %s at byte %d", what, s.i))
}

func (s *scanner) ws() { s.i = jsonlex.WS(s.data, s.i) }

// pathString renders the current JSON path: stops[2].city
func (s *scanner) pathString() string {
	var b strings.Builder
	for i := 0; i < s.npath; i++ {
		p := s.seg(i)
		if p.isIdx {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(p.idx))
			b.WriteByte(']')
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.Write(unescapeKey(p.key))
	}
	return b.String()
}

func (s *scanner) typeErr(spec *valSpec, got string) {
	p := s.pathString()
	s.add(&Problem{Path: p, Rule: "type", Param: kindParam(spec.kind),
		Msg: fmt.Sprintf("%q must be %s, got %s", p, kindNames[spec.kind], got)})
}

// value checks one value at s.i against spec.
func (s *scanner) value(spec *valSpec) {
	if s.i >= len(s.data) {
		s.syntaxAt("")
		return
	}
	if spec.kind == kAny && spec.text != nil && s.data[s.i] != 'n' {
		s.selfDecoded(spec.text)
		return
	}
	switch c := s.data[s.i]; {
	case c == '{':
		switch spec.kind {
		case kObject:
			s.object(spec.obj)
		case kMap:
			s.mapObject(spec)
		case kAny:
			s.skipValue()
		default:
			s.typeErr(spec, "an object")
			s.skipValue()
		}
	case c == '[':
		switch spec.kind {
		case kArray:
			s.array(spec.elem)
		case kAny:
			s.skipValue()
		default:
			s.typeErr(spec, "an array")
			s.skipValue()
		}
	case c == '"':
		start := s.i
		if !s.skipString() {
			return
		}
		switch spec.kind {
		case kString, kAny:
		case kBase64:
			raw := s.data[start+1 : s.i-1]
			if hasEscape(raw) {
				raw = unescapeKey(raw)
			}
			if _, err := base64.StdEncoding.DecodeString(string(raw)); err != nil {
				s.typeErr(spec, "a string that is not valid base64")
			}
		case kText:
			raw := s.data[start+1 : s.i-1]
			if hasEscape(raw) {
				raw = unescapeKey(raw)
			}
			if u, ok := reflect.New(spec.text).Interface().(encoding.TextUnmarshaler); ok && u.UnmarshalText(raw) != nil {
				p := s.pathString()
				s.add(&Problem{Path: p, Rule: "format", Param: spec.want,
					Msg: fmt.Sprintf("%q must be %s, got %s", p, spec.want, quoteShort(string(raw)))})
			}
		case kDateTime:
			var v string
			if err := json.Unmarshal(s.data[start:s.i], &v); err == nil {
				if _, err := time.Parse(time.RFC3339, v); err != nil {
					p := s.pathString()
					s.add(&Problem{Path: p, Rule: "format", Param: "date-time",
						Msg: fmt.Sprintf("%q must be %s, got %s", p, kindNames[kDateTime], quoteShort(v))})
				}
			}
		default:
			s.typeErr(spec, "a string")
		}
	case c == 't' || c == 'f':
		if !s.literal() {
			return
		}
		if spec.kind != kBool && spec.kind != kAny {
			s.typeErr(spec, "a boolean")
		}
	case c == 'n':
		if !s.literal() {
			return
		}
		if spec.kind != kAny && !spec.nullable {
			s.typeErr(spec, "null")
		}
	case c == '-' || c >= '0' && c <= '9':
		start := s.i
		integral, ok := s.number()
		if !ok {
			return
		}
		switch spec.kind {
		case kAny:
		case kNumber, kInteger:
			raw := s.data[start:s.i]
			num := raw
			if !integral && spec.kind == kInteger {
				// JSON Schema counts 30.0 and 1e2 as integers; encoding/json
				// does not, so they are rewritten as 30 and 100 for decoding.
				n, ok := integralText(raw)
				if !ok {
					p := s.pathString()
					s.add(&Problem{Path: p, Rule: "type", Param: "integer",
						Msg: fmt.Sprintf("%q must be an integer, got %s", p, cutText(string(raw)))})
					return
				}
				num = n
				s.rewrites = append(s.rewrites, rewrite{start: start, end: s.i, text: n})
			}
			if spec.bits != 0 {
				s.inRange(spec, num, raw)
			}
		default:
			s.typeErr(spec, "a number")
		}
	default:
		s.syntaxAt(fmt.Sprintf("unexpected character %q", rune(c)))
	}
}

// selfDecoded skips a value of a type that decodes itself and reports the
// error of its own decoding method at the value's path, in its words
// without the Go names that lead them ("stamp.UnmarshalJSON: ").
func (s *scanner) selfDecoded(t reflect.Type) {
	start := s.i
	s.skipValue()
	if s.fatal {
		return
	}
	if err := json.Unmarshal(s.data[start:s.i], reflect.New(t).Interface()); err != nil {
		p := s.pathString()
		s.add(&Problem{Path: p, Rule: "decode", Msg: fmt.Sprintf("%q is not valid: %s", p, cutText(modelWords(err.Error())))})
	}
}

// modelWords drops the leading Go names from an error text: "json: ",
// "Type.Method: ", "pkg.Func(...): ".
func modelWords(msg string) string {
	for {
		msg = strings.TrimPrefix(msg, "json: ")
		head, rest, ok := strings.Cut(msg, ": ")
		if !ok || strings.ContainsAny(head, " \t") || !strings.ContainsAny(head, ".(") {
			return msg
		}
		msg = rest
	}
}

func (s *scanner) enter() bool {
	s.depth++
	if s.depth > MaxDepth {
		s.syntax(fmt.Sprintf("arguments are nested more than %d levels deep", MaxDepth))
		return false
	}
	return true
}

// object reads an object checked against a struct's fields. Unknown and
// repeated keys and missing required properties are the schema engine's to
// report; the decoder only needs the values' Go types.
func (s *scanner) object(o *objSpec) {
	if !s.enter() {
		return
	}
	defer func() { s.depth-- }()
	s.i++ // '{'
	s.ws()
	if s.i < len(s.data) && s.data[s.i] == '}' {
		s.i++
		return
	}
	for {
		key, ok := s.key()
		if !ok {
			return
		}
		idx, ok := o.lookup(key)
		if !ok && hasEscape(key) {
			idx, ok = o.lookup(unescapeKey(key))
		}
		if !ok {
			if name, fold := o.foldMatch(key); fold {
				// encoding/json would decode this key into name's field,
				// past what the schema checked for name
				s.push(seg{key: key})
				p := s.pathString()
				s.add(&Problem{Path: p, Rule: "unknown",
					Msg: fmt.Sprintf("unknown property %q; property names are case-sensitive: did you mean %q?", p, name)})
				s.pop()
			}
			s.skipValue()
		} else {
			f := &o.fields[idx]
			s.push(seg{key: key})
			if s.i < len(s.data) && s.data[s.i] == 'n' && (!f.required || f.val.nullable) {
				s.literal() // null for an optional property means absent
			} else {
				s.value(f.val)
			}
			s.pop()
		}
		if s.fatal {
			return
		}
		more, ok := s.next('}', "a property value")
		if !ok || !more {
			return
		}
	}
}

func (s *scanner) mapObject(spec *valSpec) {
	elem := spec.elem
	if !s.enter() {
		return
	}
	defer func() { s.depth-- }()
	s.i++
	s.ws()
	if s.i < len(s.data) && s.data[s.i] == '}' {
		s.i++
		return
	}
	for {
		key, ok := s.key()
		if !ok {
			return
		}
		s.push(seg{key: key})
		if spec.keyBits != 0 {
			s.checkIntKey(spec, key)
		}
		if s.i < len(s.data) && s.data[s.i] == 'n' && elem.nullable {
			s.literal()
		} else {
			s.value(elem)
		}
		s.pop()
		if s.fatal {
			return
		}
		if more, ok := s.next('}', "a property value"); !ok || !more {
			return
		}
	}
}

// array checks an array's items and returns how many there were.
func (s *scanner) array(elem *valSpec) int {
	if !s.enter() {
		return 0
	}
	defer func() { s.depth-- }()
	s.i++
	s.ws()
	if s.i < len(s.data) && s.data[s.i] == ']' {
		s.i++
		return 0
	}
	for n := 0; ; n++ {
		s.ws()
		s.push(seg{idx: n, isIdx: true})
		s.value(elem)
		s.pop()
		if s.fatal {
			return n + 1
		}
		if more, ok := s.next(']', "an array item"); !ok || !more {
			return n + 1
		}
	}
}

// key reads a property name and the ':' after it, leaving s.i at the value.
// It returns the raw (still escaped) name.
func (s *scanner) key() ([]byte, bool) {
	s.ws()
	if s.i >= len(s.data) || s.data[s.i] != '"' {
		s.syntaxAt("expected a property name")
		return nil, false
	}
	start := s.i + 1
	if !s.skipString() {
		return nil, false
	}
	key := s.data[start : s.i-1]
	s.ws()
	if s.i >= len(s.data) || s.data[s.i] != ':' {
		s.syntaxAt("expected ':' after a property name")
		return nil, false
	}
	s.i++
	s.ws()
	return key, true
}

// next reads the ',' or the closing byte after a member: more reports a
// ','; ok is false on a syntax error (recorded). after names the member in
// the message ("a property value", "an array item").
func (s *scanner) next(closing byte, after string) (more, ok bool) {
	s.ws()
	if s.i >= len(s.data) {
		s.syntaxAt("")
		return false, false
	}
	switch s.data[s.i] {
	case ',':
		s.i++
		return true, true
	case closing:
		s.i++
		return false, true
	}
	s.syntaxAt(fmt.Sprintf("expected ',' or '%c' after %s", closing, after))
	return false, false
}

// inRange reports whether the number num fits the Go type of spec, and
// records a problem naming the range when it does not; raw is the number
// as the model wrote it.
func (s *scanner) inRange(spec *valSpec, num, raw []byte) bool {
	var err error
	switch {
	case spec.kind == kNumber:
		_, err = strconv.ParseFloat(string(num), int(spec.bits))
	case spec.unsigned:
		_, err = strconv.ParseUint(string(num), 10, int(spec.bits))
	default:
		_, err = strconv.ParseInt(string(num), 10, int(spec.bits))
	}
	if err == nil {
		return true
	}
	var what string
	switch {
	case spec.kind == kNumber:
		what = "a number in the range of a " + strconv.Itoa(int(spec.bits)) + "-bit float"
	case spec.unsigned:
		what = fmt.Sprintf("an integer between 0 and %d", maxUint(int(spec.bits)))
	default:
		what = fmt.Sprintf("an integer between %d and %d", minInt(int(spec.bits)), maxInt(int(spec.bits)))
	}
	p := s.pathString()
	s.add(&Problem{Path: p, Rule: "range", Msg: fmt.Sprintf("%q must be %s, got %s", p, what, cutText(string(raw)))})
	return false
}

// checkIntKey checks that a map key is an integer of the map's key type.
func (s *scanner) checkIntKey(spec *valSpec, key []byte) {
	k := unescapeKey(key)
	var err error
	if spec.unsigned {
		_, err = strconv.ParseUint(string(k), 10, int(spec.keyBits))
	} else {
		_, err = strconv.ParseInt(string(k), 10, int(spec.keyBits))
	}
	if err != nil {
		p := s.pathString()
		s.add(&Problem{Path: p, Rule: "type", Param: "integer key",
			Msg: fmt.Sprintf("%q: the keys of this object must be integers, got %s", p, quoteShort(string(k)))})
	}
}
