// Package jsonx is toolnexus's small JSON toolbox: an order-preserving JSON
// tree for rewriting schemas, and append-style encoders that write the same
// bytes every time (renderers depend on byte-stable output).
package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/internal/jsonlex"
)

// Object is a JSON object that keeps its key order.
type Object struct {
	Keys []string // the keys in document order
	Vals []any    // Vals[i] is the value of Keys[i]
}

// Get returns the value under key.
func (o *Object) Get(key string) (any, bool) {
	for i, k := range o.Keys {
		if k == key {
			return o.Vals[i], true
		}
	}
	return nil, false
}

// Set replaces the value under key, or appends key at the end.
func (o *Object) Set(key string, v any) {
	for i, k := range o.Keys {
		if k == key {
			o.Vals[i] = v
			return
		}
	}
	o.Keys = append(o.Keys, key)
	o.Vals = append(o.Vals, v)
}

// Delete removes key; it reports whether it was present.
func (o *Object) Delete(key string) bool {
	for i, k := range o.Keys {
		if k == key {
			o.Keys = append(o.Keys[:i:i], o.Keys[i+1:]...)
			o.Vals = append(o.Vals[:i:i], o.Vals[i+1:]...)
			return true
		}
	}
	return false
}

// Clone returns a deep copy of v.
func Clone(v any) any {
	switch x := v.(type) {
	case *Object:
		c := &Object{Keys: append([]string(nil), x.Keys...), Vals: make([]any, len(x.Vals))}
		for i, e := range x.Vals {
			c.Vals[i] = Clone(e)
		}
		return c
	case []any:
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = Clone(e)
		}
		return c
	}
	return v
}

// MaxDepth is the deepest nesting of arrays and objects Parse accepts, the
// same bound encoding/json's scanner applies. Deeper input is an error, so
// that Parse, Clone and Append (all recursive) never exhaust the stack.
const MaxDepth = 10000

// ErrTooDeep is returned by Parse for input nested more than MaxDepth
// levels.
var ErrTooDeep = fmt.Errorf("jsonx: nested more than %d levels", MaxDepth)

// Parse decodes one JSON value into *Object, []any, string, json.Number,
// bool or nil. Data after the value is an error, and so is nesting deeper
// than MaxDepth ([ErrTooDeep]).
func Parse(data []byte) (any, error) {
	p := parser{d: data}
	if v, ok := p.value(0); ok && jsonlex.WS(data, p.i) == len(data) {
		return v, nil
	}
	return parseDecoder(data) // the error, as encoding/json words it
}

// parser reads well-formed JSON in one pass over the bytes. Anything else
// (a syntax error, nesting past MaxDepth) makes it give up; Parse then
// takes the encoding/json path, which reports the error.
type parser struct {
	d    []byte
	i    int
	keys []string // the keys and values of the objects being read
	vals []any
	elem []any // the elements of the arrays being read
}

// common are strings schemas repeat (keywords, type names), kept once
// (and boxed once, as values) instead of allocated per occurrence.
var common = func() map[string]any {
	m := map[string]any{}
	for _, s := range []string{"type", "properties", "required", "additionalProperties", "description", "title",
		"items", "enum", "const", "default", "format", "pattern", "minimum", "maximum", "exclusiveMinimum",
		"exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "anyOf", "oneOf",
		"allOf", "not", "$ref", "$defs", "$id", "$schema", "examples", "minProperties", "maxProperties",
		"patternProperties", "propertyNames", "multipleOf", "prefixItems", "contains", "nullable",
		"object", "string", "integer", "number", "boolean", "array", "null", "date-time", "email", "uri", "uuid"} {
		m[s] = s
	}
	return m
}()

func (p *parser) value(depth int) (any, bool) {
	d := p.d
	i := jsonlex.WS(d, p.i)
	if i >= len(d) {
		return nil, false
	}
	switch c := d[i]; {
	case c == '{':
		if depth >= MaxDepth {
			return nil, false
		}
		o := &Object{}
		i = jsonlex.WS(d, i+1)
		if i < len(d) && d[i] == '}' {
			p.i = i + 1
			return o, true
		}
		mark := len(p.keys)
		defer func() { p.keys, p.vals = p.keys[:mark], p.vals[:mark] }()
		for {
			if i >= len(d) || d[i] != '"' {
				return nil, false
			}
			p.i = i
			k, ok := p.str()
			if !ok {
				return nil, false
			}
			i = jsonlex.WS(d, p.i)
			if i >= len(d) || d[i] != ':' {
				return nil, false
			}
			p.i = i + 1
			v, ok := p.value(depth + 1)
			if !ok {
				return nil, false
			}
			p.keys = append(p.keys, k)
			p.vals = append(p.vals, v)
			i = jsonlex.WS(d, p.i)
			if i >= len(d) {
				return nil, false
			}
			if d[i] == '}' {
				p.i = i + 1
				o.Keys = append([]string(nil), p.keys[mark:]...)
				o.Vals = append([]any(nil), p.vals[mark:]...)
				return o, true
			}
			if d[i] != ',' {
				return nil, false
			}
			i = jsonlex.WS(d, i+1)
		}
	case c == '[':
		if depth >= MaxDepth {
			return nil, false
		}
		i = jsonlex.WS(d, i+1)
		if i < len(d) && d[i] == ']' {
			p.i = i + 1
			return []any{}, true
		}
		p.i = i
		mark := len(p.elem)
		defer func() { p.elem = p.elem[:mark] }()
		for {
			v, ok := p.value(depth + 1)
			if !ok {
				return nil, false
			}
			p.elem = append(p.elem, v)
			i = jsonlex.WS(d, p.i)
			if i >= len(d) {
				return nil, false
			}
			if d[i] == ']' {
				p.i = i + 1
				return append([]any(nil), p.elem[mark:]...), true
			}
			if d[i] != ',' {
				return nil, false
			}
			p.i = i + 1
		}
	case c == '"':
		p.i = i
		return p.strValue()
	case c == '-' || c >= '0' && c <= '9':
		end, _, err := jsonlex.Num(d, i)
		if err != jsonlex.None {
			return nil, false
		}
		p.i = end
		return json.Number(d[i:end]), true
	case c == 't' || c == 'f' || c == 'n':
		end, err := jsonlex.Lit(d, i)
		if err != jsonlex.None {
			return nil, false
		}
		p.i = end
		switch c {
		case 't':
			return true, true
		case 'f':
			return false, true
		}
		return nil, true
	}
	return nil, false
}

// str reads the string at p.i. A body without escapes that is valid UTF-8
// is the string itself; any other goes through encoding/json's unquoting
// (escapes, surrogates, invalid UTF-8 as U+FFFD), so the value is the same.
func (p *parser) str() (string, bool) {
	end, esc, err := jsonlex.Str(p.d, p.i)
	if err != jsonlex.None {
		return "", false
	}
	body := p.d[p.i+1 : end-1]
	if !esc && utf8.Valid(body) {
		p.i = end
		if s, ok := common[string(body)]; ok {
			return s.(string), true
		}
		return string(body), true
	}
	var s string
	if json.Unmarshal(p.d[p.i:end], &s) != nil {
		return "", false
	}
	p.i = end
	return s, true
}

// strValue is str as a tree value: a common string comes boxed already.
func (p *parser) strValue() (any, bool) {
	if end, esc, err := jsonlex.Str(p.d, p.i); err == jsonlex.None && !esc {
		if v, ok := common[string(p.d[p.i+1:end-1])]; ok {
			p.i = end
			return v, true
		}
	}
	return p.str()
}

// parseDecoder is Parse on encoding/json's token stream.
func parseDecoder(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("jsonx: data after the JSON value")
	}
	return v, nil
}

func parseValue(dec *json.Decoder, depth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= MaxDepth && (t == '{' || t == '[') {
			return nil, ErrTooDeep
		}
		switch t {
		case '{':
			o := &Object{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("jsonx: object key is %T", kt)
				}
				v, err := parseValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				o.Keys = append(o.Keys, k)
				o.Vals = append(o.Vals, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return o, nil
		case '[':
			a := []any{}
			for dec.More() {
				v, err := parseValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return a, nil
		}
		return nil, fmt.Errorf("jsonx: unexpected %v", t)
	default:
		return tok, nil
	}
}

// Marshal encodes a tree made by Parse (or built by hand) compactly.
func Marshal(v any) []byte { return Append(nil, v) }

// Append appends the compact encoding of v to dst. Objects keep their key
// order; strings are escaped as encoding/json escapes them (including <, >
// and &), so json.Marshal of the same bytes yields the same bytes.
func Append(dst []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...)
	case bool:
		if x {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case string:
		return AppendString(dst, x)
	case json.Number:
		return append(dst, x...)
	case int:
		return strconv.AppendInt(dst, int64(x), 10)
	case int64:
		return strconv.AppendInt(dst, x, 10)
	case float64:
		b, _ := json.Marshal(x)
		return append(dst, b...)
	case json.RawMessage:
		return append(dst, x...)
	case *Object:
		dst = append(dst, '{')
		for i, k := range x.Keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, k)
			dst = append(dst, ':')
			dst = Append(dst, x.Vals[i])
		}
		return append(dst, '}')
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = Append(dst, e)
		}
		return append(dst, ']')
	case []string:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, e)
		}
		return append(dst, ']')
	}
	b, err := json.Marshal(v)
	if err != nil {
		return append(dst, "null"...)
	}
	return append(dst, b...)
}

const hex = "0123456789abcdef"

// plainByte marks the bytes AppendString copies as they are: ASCII from
// 0x20 up but '"', '\\', '<', '>' and '&'.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return
}()

// AppendString appends s as a JSON string, escaped exactly as
// encoding/json.Marshal escapes it (HTML-safe, invalid UTF-8 replaced by
// U+FFFD, U+2028 and U+2029 escaped).
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		for i < len(s) && plainByte[s[i]] {
			i++
		}
		if i >= len(s) {
			break
		}
		if b := s[i]; b < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
