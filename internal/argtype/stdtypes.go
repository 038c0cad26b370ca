package argtype

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net"
	"net/netip"
	"net/url"
	"reflect"
	"time"

	"github.com/invopop/jsonschema"
)

// This file says how the standard types that decode from JSON their own
// way are advertised (issue 10 point 4): each gets the schema of the JSON
// it accepts, and the words a message uses for it. Any other type that
// decodes itself (json.Unmarshaler or encoding.TextUnmarshaler, directly or
// promoted from an embedded field) needs a JSONSchema method, or its
// registration fails naming the field.

// stdType describes a standard type's JSON form.
type stdType struct {
	schema func() *jsonschema.Schema // a fresh schema per use (invopop adds tag keywords to it)
	kind   jkind                     // what the argument checker expects
	want   string                    // "an IPv4 or IPv6 address", for messages; "" means the kind's words
}

const (
	prefixWords = "an IP network prefix in CIDR notation, e.g. 10.0.0.0/8 or 2001:db8::/32"
	floatWords  = `a decimal number written as a string, e.g. "3.14" or "-1e-30"`
	ratWords    = `a rational number written as a string: a fraction such as "1/3" or a decimal such as "0.25"`
	ipWords     = "an IPv4 or IPv6 address"
)

func ipSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", AnyOf: []*jsonschema.Schema{{Format: "ipv4"}, {Format: "ipv6"}}}
}

var stdTypes = map[reflect.Type]stdType{
	reflect.TypeFor[time.Time]():       {schema: func() *jsonschema.Schema { return &jsonschema.Schema{Type: "string", Format: "date-time"} }, kind: kDateTime},
	reflect.TypeFor[json.Number]():     {schema: func() *jsonschema.Schema { return &jsonschema.Schema{Type: "number"} }, kind: kNumber},
	reflect.TypeFor[json.RawMessage](): {schema: func() *jsonschema.Schema { return &jsonschema.Schema{} }, kind: kAny},
	reflect.TypeFor[netip.Addr]():      {schema: ipSchema, kind: kText, want: ipWords},
	reflect.TypeFor[net.IP]():          {schema: ipSchema, kind: kText, want: ipWords},
	reflect.TypeFor[netip.Prefix](): {schema: func() *jsonschema.Schema {
		return &jsonschema.Schema{Type: "string", Description: prefixWords, Pattern: `^[0-9A-Fa-f.:]+/[0-9]{1,3}$`}
	}, kind: kText, want: prefixWords},
	reflect.TypeFor[big.Int](): {schema: func() *jsonschema.Schema { return &jsonschema.Schema{Type: "integer"} }, kind: kInteger},
	reflect.TypeFor[big.Float](): {schema: func() *jsonschema.Schema {
		return &jsonschema.Schema{Type: "string", Description: floatWords, Pattern: `^[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?$`}
	}, kind: kText, want: floatWords},
	reflect.TypeFor[big.Rat](): {schema: func() *jsonschema.Schema {
		return &jsonschema.Schema{Type: "string", Description: ratWords, Pattern: `^[-+]?[0-9]+(/[0-9]+|\.[0-9]+)?$`}
	}, kind: kText, want: ratWords},
}

// refusedTypes are standard types whose JSON form is not what a model
// would send; registration fails with the hint given.
var refusedTypes = map[reflect.Type]string{
	reflect.TypeFor[time.Duration](): `a JSON number would arrive as nanoseconds; declare it as a string holding a Go duration ("90s", "1h30m") and parse it with time.ParseDuration, or as an integer number of seconds`,
	reflect.TypeFor[url.URL]():       `encoding/json decodes url.URL from an object of its Go fields, not from a URL string; declare it as a string with jsonschema:"format=uri" (or validate:"url") and parse it with url.Parse`,
}

// stdMapper is the invopop Reflector's Mapper: the schemas of stdTypes.
// A slice of a byte type of its own is a base64 string, as encoding/json
// reads it and the checker holds it (invopop would show an array of
// integers); a type describing itself keeps its schema.
func stdMapper(t reflect.Type) *jsonschema.Schema {
	if st, ok := stdTypes[t]; ok {
		return st.schema()
	}
	if byteSlice(t) && t.Elem() != reflect.TypeFor[uint8]() && !implements(t, schemaHookType) && !implements(t, schemaAliasType) {
		return &jsonschema.Schema{Type: "string", ContentEncoding: "base64"}
	}
	return nil
}

// selfDecoding reports which decoding method t has of its own (directly,
// on its pointer, or promoted from an embedded field), or "".
func selfDecoding(t reflect.Type) string {
	switch {
	case implements(t, jsonUnmarshaler):
		return "UnmarshalJSON" + promoted(t, "UnmarshalJSON")
	case implements(t, textUnmarshaler):
		return "UnmarshalText" + promoted(t, "UnmarshalText")
	}
	return ""
}

func promoted(t reflect.Type, method string) string {
	if t.Kind() != reflect.Struct {
		return ""
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			if _, ok := reflect.PointerTo(f.Type).MethodByName(method); ok {
				return ", promoted from an embedded field"
			}
		}
	}
	return ""
}

// selfDecodingError is the registration error for a field whose type
// decodes itself and says nothing about its JSON form.
func selfDecodingError(where string, t reflect.Type, how string) error {
	return fmt.Errorf("field %s (%s): the type decodes JSON itself (%s), so its fields do not describe its JSON form; give it a method JSONSchema() *jsonschema.Schema that describes the JSON it accepts, or use a plain type",
		where, t, how)
}

func isStdType(t reflect.Type) bool {
	if !mayHaveMethods(t) {
		return false // the standard types are named and have methods
	}
	_, ok := stdTypes[t]
	return ok
}
