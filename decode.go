package toolnexus

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// This file holds the argument checker: one pass over the raw JSON bytes,
// driven by tables built once per argument type at registration. It checks
// what encoding/json does not: exact (case-sensitive) key names, unknown
// and duplicate keys, required properties, null only where a property is
// optional, and JSON types with their JSON paths. It allocates nothing on
// valid input.

// jkind is the JSON type a Go value expects.
type jkind uint8

const (
	kAny      jkind = iota // any JSON value (interface{}, json.RawMessage, custom unmarshalers)
	kString                // JSON string
	kInteger               // JSON number without fraction or exponent
	kNumber                // any JSON number
	kBool                  // true or false
	kObject                // JSON object checked against an objSpec (a struct)
	kArray                 // JSON array whose items match elem
	kMap                   // JSON object whose values match elem
	kDateTime              // JSON string holding an RFC 3339 date-time (time.Time)
	kBase64                // JSON string holding standard base64 ([]byte)
	kText                  // JSON string that valSpec.text's UnmarshalText accepts (netip.Addr, big.Rat, ...)
)

var kindNames = [...]string{
	kAny:      "any JSON value",
	kString:   "a string",
	kInteger:  "an integer",
	kNumber:   "a number",
	kBool:     "a boolean",
	kObject:   "an object",
	kArray:    "an array",
	kMap:      "an object",
	kDateTime: "a date-time string (RFC 3339, e.g. 2026-01-02T15:04:05Z)",
	kBase64:   "a base64 string",
	kText:     "a string",
}

type valSpec struct {
	kind     jkind
	bits     uint8        // kInteger, kNumber: the Go size (8..64); 0 means unchecked
	unsigned bool         // kInteger (or the keys of a kMap): no negative values
	keyBits  uint8        // kMap with integer keys: their size; 0 means string keys
	nullable bool         // null is a valid value (jsonschema:"nullable")
	obj      *objSpec     // kObject
	elem     *valSpec     // kArray, kMap
	text     reflect.Type // kText: the type whose UnmarshalText must accept the string
	want     string       // kText: what the string must be, for messages ("an IPv4 or IPv6 address")
}

type fieldSpec struct {
	name     string
	required bool
	val      *valSpec
	vtag     string // the field's validate tag
	ptr      bool   // the Go field is a pointer (validator's required then means non-nil)
}

type objSpec struct {
	fields []fieldSpec
	index  map[string]int
	nreq   int
	names  string // "city, unit, days" for messages
}

var anySpec = &valSpec{kind: kAny}
var rawObjectSpec = &valSpec{kind: kMap, elem: anySpec}

type seg struct {
	key   []byte
	idx   int
	isIdx bool
}

const (
	maxDepth    = 512 // nesting limit of arguments
	maxProblems = 20  // problems reported per call
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
	tool     string
	errs     []*ArgumentError
	soft     int // how many of errs are constraint problems (decoding can go on)
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
func checkObject(tool string, args []byte) *ArgumentError {
	s := scanner{data: args, tool: tool}
	s.top(rawObjectSpec)
	if len(s.errs) > 0 {
		return s.errs[0]
	}
	return nil
}

// checkArgs checks args against spec and returns every problem found.
// decodable reports that all problems are broken constraints, so the
// arguments can still be decoded and validated to find the rest.
func checkArgs(tool string, args []byte, spec *valSpec) (errs []*ArgumentError, decodable bool) {
	s := scanner{data: args, tool: tool}
	s.top(spec)
	return s.errs, !s.fatal && s.soft == len(s.errs)
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
		s.add(&ArgumentError{Rule: "type", Param: "object",
			Msg: "arguments must be a JSON object, got " + describeStart(c)})
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

func describeStart(c byte) string {
	switch {
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	case c == 'n':
		return "null"
	case c == '{':
		return "an object"
	}
	return "invalid JSON"
}

func (s *scanner) add(e *ArgumentError) {
	e.Tool = s.tool
	if len(s.errs) < maxProblems {
		s.errs = append(s.errs, e)
	} else {
		s.fatal = true
	}
}

func (s *scanner) syntax(msg string) {
	if s.fatal {
		return
	}
	s.add(&ArgumentError{Rule: "syntax", Msg: msg})
	s.fatal = true
}

func (s *scanner) syntaxAt(what string) {
	if s.i >= len(s.data) {
		s.syntax("arguments are not valid JSON: unexpected end of input (truncated?)")
		return
	}
	s.syntax(fmt.Sprintf("arguments are not valid JSON: %s at byte %d", what, s.i))
}

func (s *scanner) ws() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

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
	s.add(&ArgumentError{Path: p, Rule: "type", Param: kindParam(spec.kind),
		Msg: fmt.Sprintf("%q must be %s, got %s", p, kindNames[spec.kind], got)})
}

func kindParam(k jkind) string {
	switch k {
	case kString:
		return "string"
	case kInteger:
		return "integer"
	case kNumber:
		return "number"
	case kBool:
		return "boolean"
	case kObject, kMap:
		return "object"
	case kArray:
		return "array"
	case kDateTime:
		return "date-time"
	case kBase64:
		return "base64"
	}
	return ""
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
				s.add(&ArgumentError{Path: p, Rule: "format", Param: spec.want,
					Msg: fmt.Sprintf("%q must be %s, got %s", p, spec.want, quoteShort(string(raw)))})
			}
		case kDateTime:
			var v string
			if err := json.Unmarshal(s.data[start:s.i], &v); err == nil {
				if _, err := time.Parse(time.RFC3339, v); err != nil {
					p := s.pathString()
					s.add(&ArgumentError{Path: p, Rule: "format", Param: "date-time",
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
					s.add(&ArgumentError{Path: p, Rule: "type", Param: "integer",
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

// maxQuoted bounds every value a message quotes, in bytes (the schema
// engine uses the same bound).
const maxQuoted = 64

// cutText shortens s to at most maxQuoted bytes, on a rune boundary, plus "…".
func cutText(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	i := maxQuoted
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// quoteShort quotes the cut, valid-UTF-8 form of v.
func quoteShort(v string) string {
	return strconv.Quote(strings.ToValidUTF8(cutText(v), "\uFFFD"))
}

// maxIntegralDigits bounds the digits integralText writes: no Go integer
// (nor a useful big.Int argument) needs more.
const maxIntegralDigits = 400

// integralText returns the plain integer form of a JSON number with a
// fraction or exponent whose value is an integer ("30.0" → "30", "1e2" →
// "100", "-0.0" → "0"), and false when the value has a fractional part or
// would need more than maxIntegralDigits digits.
func integralText(raw []byte) ([]byte, bool) {
	neg := len(raw) > 0 && raw[0] == '-'
	if neg {
		raw = raw[1:]
	}
	mant, expPart, hasExp := raw, []byte(nil), false
	for i, c := range raw {
		if c == 'e' || c == 'E' {
			mant, expPart, hasExp = raw[:i], raw[i+1:], true
			break
		}
	}
	exp := 0
	if hasExp {
		e, err := strconv.Atoi(strings.TrimPrefix(string(expPart), "+"))
		if err != nil || e > maxIntegralDigits || e < -maxIntegralDigits-len(mant) {
			if err == nil && e < 0 && allZeroDigits(mant) {
				return []byte("0"), true
			}
			return nil, false
		}
		exp = e
	}
	digits := make([]byte, 0, len(mant))
	for _, c := range mant {
		if c >= '0' && c <= '9' {
			digits = append(digits, c)
		}
	}
	exp -= countDigitsAfterDot(mant)
	// strip leading zeros
	for len(digits) > 1 && digits[0] == '0' {
		digits = digits[1:]
	}
	for exp < 0 && len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	if len(digits) == 0 || allZeroDigits(digits) {
		return []byte("0"), true
	}
	if exp < 0 {
		return nil, false
	}
	if len(digits)+exp > maxIntegralDigits {
		return nil, false
	}
	out := make([]byte, 0, len(digits)+exp+1)
	if neg {
		out = append(out, '-')
	}
	out = append(out, digits...)
	for range exp {
		out = append(out, '0')
	}
	return out, true
}

func countDigitsAfterDot(mant []byte) int {
	for i, c := range mant {
		if c == '.' {
			return len(mant) - i - 1
		}
	}
	return 0
}

func allZeroDigits(b []byte) bool {
	for _, c := range b {
		if c >= '1' && c <= '9' {
			return false
		}
	}
	return true
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
		s.add(&ArgumentError{Path: p, Rule: "decode", Msg: fmt.Sprintf("%q is not valid: %s", p, cutText(modelWords(err.Error())))})
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
	if s.depth > maxDepth {
		s.syntax(fmt.Sprintf("arguments are nested more than %d levels deep", maxDepth))
		return false
	}
	return true
}

func (s *scanner) object(o *objSpec) {
	if !s.enter() {
		return
	}
	defer func() { s.depth-- }()
	s.i++ // '{'
	var seen uint64
	var seenBig []bool
	if len(o.fields) > 64 {
		seenBig = make([]bool, len(o.fields))
	}
	s.ws()
	if s.i < len(s.data) && s.data[s.i] == '}' {
		s.i++
	} else {
		for {
			key, ok := s.key()
			if !ok {
				return
			}
			idx, ok := o.index[string(key)]
			if !ok && hasEscape(key) {
				idx, ok = o.index[string(unescapeKey(key))]
			}
			if !ok {
				s.unknownKey(o, key)
				s.skipValue()
			} else {
				dup := false
				if seenBig != nil {
					dup = seenBig[idx]
					seenBig[idx] = true
				} else {
					dup = seen&(1<<uint(idx)) != 0
					seen |= 1 << uint(idx)
				}
				f := &o.fields[idx]
				s.push(seg{key: key})
				if dup {
					p := s.pathString()
					s.add(&ArgumentError{Path: p, Rule: "duplicate", Msg: fmt.Sprintf("%q is given more than once", p)})
				}
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
			if !ok {
				return
			}
			if !more {
				break
			}
		}
	}
	if o.nreq == 0 {
		return
	}
	for idx := range o.fields {
		f := &o.fields[idx]
		if !f.required {
			continue
		}
		present := false
		if seenBig != nil {
			present = seenBig[idx]
		} else {
			present = seen&(1<<uint(idx)) != 0
		}
		if !present {
			s.push(seg{key: []byte(f.name)})
			p := s.pathString()
			s.pop()
			s.add(&ArgumentError{Path: p, Rule: "required", Msg: fmt.Sprintf("%q is required", p)})
		}
	}
}

func (s *scanner) unknownKey(o *objSpec, key []byte) {
	k := string(unescapeKey(key))
	s.push(seg{key: key})
	p := s.pathString()
	s.pop()
	for _, f := range o.fields {
		if strings.EqualFold(f.name, k) {
			s.add(&ArgumentError{Path: p, Rule: "unknown", Param: f.name,
				Msg: fmt.Sprintf("unknown property %s; property names are case-sensitive: did you mean %q?", quoteShort(p), f.name)})
			return
		}
	}
	allowed := o.names
	if allowed == "" {
		allowed = "none"
	}
	s.add(&ArgumentError{Path: p, Rule: "unknown",
		Msg: fmt.Sprintf("unknown property %s; allowed: %s", quoteShort(p), allowed)})
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

// skipValue validates and skips any JSON value.
func (s *scanner) skipValue() {
	if s.i >= len(s.data) {
		s.syntaxAt("")
		return
	}
	switch c := s.data[s.i]; {
	case c == '{':
		s.mapObject(rawObjectSpec)
	case c == '[':
		s.array(anySpec)
	case c == '"':
		s.skipString()
	case c == 't' || c == 'f' || c == 'n':
		s.literal()
	case c == '-' || c >= '0' && c <= '9':
		s.number()
	default:
		s.syntaxAt(fmt.Sprintf("unexpected character %q", rune(c)))
	}
}

// skipString skips a string starting at the opening quote.
func (s *scanner) skipString() bool {
	i := s.i + 1
	for i < len(s.data) {
		c := s.data[i]
		switch {
		case c == '"':
			s.i = i + 1
			return true
		case c == '\\':
			if i+1 >= len(s.data) {
				s.i = len(s.data)
				s.syntaxAt("")
				return false
			}
			switch s.data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(s.data) {
					s.i = len(s.data)
					s.syntaxAt("")
					return false
				}
				for _, h := range s.data[i+2 : i+6] {
					if !isHex(h) {
						s.i = i
						s.syntaxAt("invalid \\u escape in a string")
						return false
					}
				}
				i += 6
			default:
				s.i = i
				s.syntaxAt("invalid escape in a string")
				return false
			}
		case c < 0x20:
			s.i = i
			s.syntaxAt("control character in a string")
			return false
		default:
			i++
		}
	}
	s.i = len(s.data)
	s.syntaxAt("")
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func (s *scanner) literal() bool {
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(s.data)-s.i >= len(lit) && string(s.data[s.i:s.i+len(lit)]) == lit {
			s.i += len(lit)
			return true
		}
	}
	if len(s.data)-s.i < 5 {
		// could be a truncated literal
		s.i = len(s.data)
		s.syntaxAt("")
		return false
	}
	s.syntaxAt("invalid literal")
	return false
}

// number skips a JSON number and reports whether it has no fraction or
// exponent.
func (s *scanner) number() (integral, ok bool) {
	i := s.i
	d := s.data
	if i < len(d) && d[i] == '-' {
		i++
	}
	if i >= len(d) {
		s.i = i
		s.syntaxAt("")
		return false, false
	}
	switch {
	case d[i] == '0':
		i++
	case d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		s.i = i
		s.syntaxAt("invalid number")
		return false, false
	}
	integral = true
	if i < len(d) && d[i] == '.' {
		integral = false
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			s.i = i
			s.syntaxAt("invalid number")
			return false, false
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		integral = false
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			s.i = i
			s.syntaxAt("invalid number")
			return false, false
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	s.i = i
	return integral, true
}

func hasEscape(b []byte) bool {
	for _, c := range b {
		if c == '\\' {
			return true
		}
	}
	return false
}

// unescapeKey returns the decoded form of a raw (validated) JSON string body.
func unescapeKey(b []byte) []byte {
	if !hasEscape(b) {
		if utf8.Valid(b) {
			return b
		}
		return []byte(strings.ToValidUTF8(string(b), "\uFFFD"))
	}
	q := make([]byte, 0, len(b)+2)
	q = append(q, '"')
	q = append(q, b...)
	q = append(q, '"')
	var out string
	if err := json.Unmarshal(q, &out); err != nil {
		return b
	}
	return []byte(out)
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
	s.add(&ArgumentError{Path: p, Rule: "range", Msg: fmt.Sprintf("%q must be %s, got %s", p, what, cutText(string(raw)))})
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
		s.add(&ArgumentError{Path: p, Rule: "type", Param: "integer key",
			Msg: fmt.Sprintf("%q: the keys of this object must be integers, got %s", p, quoteShort(string(k)))})
	}
}
