package argtype

import (
	"encoding/json"
	"reflect"
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
// array, []byte, json.Number and a struct with an embedded field or more
// than 64 properties are dRaw.
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

// plainFields lists the JSON properties of struct t with their offsets,
// as the walk lists them; false when one comes from an embedded struct or
// there are more than 64.
func plainFields(t reflect.Type) ([]layoutField, bool) {
	fields, err := structFields(t)
	if err != nil || len(fields) > 64 {
		return nil, false
	}
	out := make([]layoutField, len(fields))
	for i, f := range fields {
		if len(f.index) != 1 {
			return nil, false
		}
		out[i] = layoutField{name: f.name, t: f.typ, offset: t.Field(f.index[0]).Offset}
	}
	return out, true
}
