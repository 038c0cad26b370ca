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

// AppendString appends s as a JSON string, escaped exactly as
// encoding/json.Marshal escapes it (HTML-safe, invalid UTF-8 replaced by
// U+FFFD, U+2028 and U+2029 escaped).
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
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
