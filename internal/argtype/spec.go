package argtype

import (
	"reflect"
	"strings"
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

// fieldSpec is one property of a struct: its JSON name, whether the
// schema requires it, and what its value decodes into.
type fieldSpec struct {
	name     string
	required bool
	val      *valSpec
}

// objSpec is a struct's properties, by JSON name.
type objSpec struct {
	fields []fieldSpec
	index  map[string]int // by name, for structs of more than linearFields properties
}

// linearFields is the number of properties up to which lookup compares
// names in order instead of keeping a map (cheaper to build and no slower
// to search).
const linearFields = 8

// foldMatch returns the name of the property key matches only when case
// is ignored, as encoding/json matches keys to struct fields.
func (o *objSpec) foldMatch(key []byte) (string, bool) {
	k := string(unescapeKey(key))
	for _, f := range o.fields {
		if strings.EqualFold(f.name, k) {
			return f.name, true
		}
	}
	return "", false
}

// lookup returns the index in fields of the property key.
func (o *objSpec) lookup(key []byte) (int, bool) {
	if o.index != nil {
		i, ok := o.index[string(key)]
		return i, ok
	}
	for i := range o.fields {
		if o.fields[i].name == string(key) {
			return i, true
		}
	}
	return 0, false
}

var anySpec = &valSpec{kind: kAny}

var rawObjectSpec = &valSpec{kind: kMap, elem: anySpec}

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
