package argtype

import (
	"encoding/json"
	"reflect"
	"strings"
)

// dkind is how the one-pass path reads a Go type (see layoutOf).
type dkind uint8

const (
	dRaw    dkind = iota // encoding/json on the value's bytes
	dString              // a string kind without decoding methods
	dInt                 // a signed integer kind
	dUint                // an unsigned integer kind
	dFloat               // float32 or float64
	dBool
	dStruct // a struct whose fields encoding/json reads by their plain names
	dPtr
	dSlice // a slice other than []byte (base64)
)

// layout is the Go side of one type for the one-pass path: its kind, size
// and, for a struct, its JSON properties and their offsets.
type layout struct {
	kind   dkind
	t      reflect.Type
	bits   int     // dFloat: 32 or 64
	size   uintptr // dInt, dUint: the Go size in bytes
	fields []layoutField
}

// layoutField is one JSON property of a dStruct layout.
type layoutField struct {
	name   string
	t      reflect.Type
	offset uintptr
}

var jsonNumberType = reflect.TypeFor[json.Number]()

// layoutOf returns t's layout. A type with decoding methods, a map, an
// array, []byte, json.Number and a struct with what only encoding/json
// resolves (an embedded field, ",string", a name other than letters,
// digits, '_' and '-', two fields of one name, more than 64 fields) are
// dRaw.
func layoutOf(t reflect.Type) *layout {
	n := &layout{t: t}
	if t.Kind() == reflect.Pointer {
		n.kind = dPtr
		return n
	}
	if mayHaveMethods(t) {
		pt := reflect.PointerTo(t)
		if pt.Implements(jsonUnmarshaler) || pt.Implements(textUnmarshaler) || t == jsonNumberType {
			return n
		}
	}
	switch t.Kind() {
	case reflect.String:
		n.kind = dString
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n.kind, n.size = dInt, t.Size()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n.kind, n.size = dUint, t.Size()
	case reflect.Float32, reflect.Float64:
		n.kind, n.bits = dFloat, t.Bits()
	case reflect.Bool:
		n.kind = dBool
	case reflect.Slice:
		if t.Elem().Kind() != reflect.Uint8 {
			n.kind = dSlice
		}
	case reflect.Struct:
		if fields, ok := plainFields(t); ok {
			n.kind, n.fields = dStruct, fields
		}
	}
	return n
}

// plainFields lists the JSON properties of struct t with their offsets;
// false when encoding/json would resolve them otherwise than by the plain
// reading of each field's json tag (see layoutOf).
func plainFields(t reflect.Type) ([]layoutField, bool) {
	var fields []layoutField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			return nil, false
		}
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if hasTagWord(opts, "string") {
			return nil, false
		}
		if name == "" {
			name = f.Name
		} else if !plainName(name) {
			return nil, false
		}
		for _, g := range fields {
			if g.name == name {
				return nil, false
			}
		}
		fields = append(fields, layoutField{name: name, t: f.Type, offset: f.Offset})
	}
	if len(fields) > 64 {
		return nil, false
	}
	return fields, true
}

// plainName reports a JSON name made of letters, digits, '_' and '-' only
// (encoding/json takes those as written; others are its business).
func plainName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
