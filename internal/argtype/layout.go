package argtype

import (
	"encoding/json"
	"reflect"
)

// dkind is how the one-pass path reads a Go type (see kindOf).
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

// layoutField is one JSON property of a struct the one-pass path reads.
type layoutField struct {
	name   string
	t      reflect.Type
	offset uintptr
}

var jsonNumberType = reflect.TypeFor[json.Number]()

// kindOf returns how the one-pass path reads t. A type with decoding
// methods, a map, an array, []byte and json.Number are dRaw; a struct is
// dStruct, read only when plainFields lists its properties.
func kindOf(t reflect.Type) dkind {
	if t.Kind() == reflect.Pointer {
		return dPtr
	}
	if mayHaveMethods(t) {
		pt := reflect.PointerTo(t)
		if pt.Implements(jsonUnmarshaler) || pt.Implements(textUnmarshaler) || t == jsonNumberType {
			return dRaw
		}
	}
	switch t.Kind() {
	case reflect.String:
		return dString
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return dInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return dUint
	case reflect.Float32, reflect.Float64:
		return dFloat
	case reflect.Bool:
		return dBool
	case reflect.Slice:
		if t.Elem().Kind() != reflect.Uint8 {
			return dSlice
		}
	case reflect.Struct:
		return dStruct
	}
	return dRaw
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
