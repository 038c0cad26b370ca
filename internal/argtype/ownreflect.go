package argtype

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
)

// This file is our own reflection of an argument type into the schema
// invopop/jsonschema's Reflector gives it with reflectSchema's settings
// (DoNotReference, ExpandedStruct, Anonymous, Mapper stdMapper), for the
// types and tags it follows: it reads the struct fields the walker has
// already listed (their tags parsed once) instead of reflecting every type
// and tag again, and allocates only the schemas themselves. Anything it
// does not follow — a type with references or with schema methods
// (JSONSchema, JSONSchemaExtend, ...), an interface with methods, an
// embedded field, two fields of one JSON name, a
// jsonschema_extras tag, the oneof_/anyof_ keys, type= or anchor=, an
// escaped comma — makes it decline, and invopop reflects the type as
// before. TestOwnReflectMatchesInvopop and FuzzOwnReflect hold it to
// invopop's result, byte for byte after our rules are applied.

// ownReflect returns the schema invopop would reflect for the struct type
// t (before patch), or false where it declines.
func (w *walker) ownReflect(t reflect.Type) (*jsonschema.Schema, bool) {
	if w.recursive {
		return nil, false
	}
	r := ownReflector{w: w, root: t}
	return r.typ(t)
}

type ownReflector struct {
	w    *walker
	root reflect.Type
}

// schemaMethods are the methods invopop looks for on a type (JSONSchema,
// JSONSchemaAlias, JSONSchemaExtend, JSONSchemaProperty,
// GetFieldDocString, and protobuf enums' EnumDescriptor): a type with any
// of them, whatever its signature, is left to invopop.
var schemaMethods = []string{"JSONSchema", "JSONSchemaAlias", "JSONSchemaExtend", "JSONSchemaProperty", "GetFieldDocString", "EnumDescriptor"}

func hasSchemaMethods(t reflect.Type) bool {
	if !mayHaveMethods(t) {
		return false
	}
	pt := reflect.PointerTo(t)
	if pt.NumMethod() == 0 {
		return false
	}
	for _, m := range schemaMethods {
		if _, ok := pt.MethodByName(m); ok {
			return true
		}
	}
	return false
}

// typ is invopop's reflectTypeToSchema for the types ownReflect follows.
func (r *ownReflector) typ(t reflect.Type) (*jsonschema.Schema, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if st, ok := stdTypes[t]; ok {
		return st.schema(), true
	}
	if hasSchemaMethods(t) {
		return nil, false
	}
	// invopop files named structs, slices and maps under their name and
	// expands the root from that entry: another type of the root's name
	// would replace it.
	if t != r.root && t.Name() != "" && t.Name() == r.root.Name() {
		return nil, false
	}
	switch t.Kind() {
	case reflect.Struct:
		return r.object(t)
	case reflect.Slice, reflect.Array:
		s := &jsonschema.Schema{}
		if t.Kind() == reflect.Array {
			n := uint64(t.Len())
			s.MinItems, s.MaxItems = &n, &n // one pointer for both, as invopop
		}
		if t.Kind() == reflect.Slice && t.Elem() == uint8Type {
			s.Type, s.ContentEncoding = "string", "base64"
			return s, true
		}
		items, ok := r.typ(t.Elem())
		if !ok {
			return nil, false
		}
		s.Type, s.Items = "array", items
		return s, true
	case reflect.Map:
		s := &jsonschema.Schema{Type: "object"}
		switch t.Key().Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			v, ok := r.typ(t.Elem())
			if !ok {
				return nil, false
			}
			s.PatternProperties = map[string]*jsonschema.Schema{"^[0-9]+$": v}
			s.AdditionalProperties = jsonschema.FalseSchema
			return s, true
		}
		if t.Elem().Kind() != reflect.Interface {
			v, ok := r.typ(t.Elem())
			if !ok {
				return nil, false
			}
			s.AdditionalProperties = v
		}
		return s, true
	case reflect.Interface:
		if t.NumMethod() > 0 {
			return nil, false // invopop asks such an interface for its JSONSchema and fails
		}
		return &jsonschema.Schema{}, true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return &jsonschema.Schema{Type: "integer"}, true
	case reflect.Float32, reflect.Float64:
		return &jsonschema.Schema{Type: "number"}, true
	case reflect.Bool:
		return &jsonschema.Schema{Type: "boolean"}, true
	case reflect.String:
		return &jsonschema.Schema{Type: "string"}, true
	}
	return nil, false // uintptr and the like: invopop panics, reflectSchema reports it
}

var uint8Type = reflect.TypeFor[uint8]()

// object is invopop's reflectStruct and reflectStructFields for a struct
// without embedded fields: the walker's field list is then exactly the
// properties invopop writes, in the same order.
func (r *ownReflector) object(t reflect.Type) (*jsonschema.Schema, bool) {
	ws := r.w.find(t)
	if ws == nil || ws.irregular {
		return nil, false
	}
	fields := ws.fields
	s := &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties(), AdditionalProperties: jsonschema.FalseSchema}
	for i := range fields {
		f := &fields[i]
		p, ok := r.typ(f.typ)
		if !ok || !tagKeywords(p, f) {
			return nil, false
		}
		if f.tags.nullable {
			p = &jsonschema.Schema{OneOf: []*jsonschema.Schema{p, {Type: "null"}}}
		}
		s.Properties.Set(f.name, p)
		if f.tags.required {
			s.Required = append(s.Required, f.name)
		}
	}
	return s, true
}

// tagKeywords is invopop's structKeywordsFromTags: the keywords of f's
// jsonschema and jsonschema_description tags, added to its schema p.
func tagKeywords(p *jsonschema.Schema, f *goField) bool {
	if f.tags.extras || strings.IndexByte(f.tags.schema, '\\') >= 0 {
		return false
	}
	p.Description = f.tags.description
	if f.tags.schema == "" {
		return true
	}
	parts := strings.Split(f.tags.schema, ",")
	var rest []string
	for _, part := range parts {
		name, val, ok := strings.Cut(part, "=")
		if !ok {
			continue
		}
		switch name {
		case "title":
			p.Title = val
		case "description":
			p.Description = val
		case "type", "anchor", "oneof_required", "anyof_required", "oneof_ref", "oneof_type", "anyof_ref", "anyof_type":
			return false
		default:
			rest = append(rest, part)
		}
	}
	switch p.Type {
	case "string":
		stringKeywords(p, rest)
	case "number", "integer":
		numberKeywords(p, rest)
	case "boolean":
		boolKeywords(p, rest)
	case "array":
		return arrayKeywords(p, rest)
	}
	return true
}

// cut2 splits a tag entry as invopop's strings.Split(tag, "=") with two
// parts required: exactly one "=".
func cut2(tag string) (name, val string, ok bool) {
	name, val, ok = strings.Cut(tag, "=")
	return name, val, ok && strings.IndexByte(val, '=') < 0
}

func stringKeywords(p *jsonschema.Schema, tags []string) {
	for _, tag := range tags {
		name, val, ok := strings.Cut(tag, "=")
		if !ok {
			continue
		}
		switch name {
		case "minLength":
			p.MinLength = parseUint(val)
		case "maxLength":
			p.MaxLength = parseUint(val)
		case "pattern":
			p.Pattern = val
		case "format":
			p.Format = val
		case "readOnly":
			p.ReadOnly, _ = strconv.ParseBool(val)
		case "writeOnly":
			p.WriteOnly, _ = strconv.ParseBool(val)
		case "default":
			p.Default = val
		case "example":
			p.Examples = append(p.Examples, val)
		case "enum":
			p.Enum = append(p.Enum, val)
		}
	}
}

func numberKeywords(p *jsonschema.Schema, tags []string) {
	for _, tag := range tags {
		name, val, ok := cut2(tag)
		if !ok {
			continue
		}
		switch name {
		case "multipleOf":
			p.MultipleOf, _ = jsonNumber(val)
		case "minimum":
			p.Minimum, _ = jsonNumber(val)
		case "maximum":
			p.Maximum, _ = jsonNumber(val)
		case "exclusiveMaximum":
			p.ExclusiveMaximum, _ = jsonNumber(val)
		case "exclusiveMinimum":
			p.ExclusiveMinimum, _ = jsonNumber(val)
		case "default":
			if n, ok := jsonNumber(val); ok {
				p.Default = n
			}
		case "example":
			if n, ok := jsonNumber(val); ok {
				p.Examples = append(p.Examples, n)
			}
		case "enum":
			if n, ok := jsonNumber(val); ok {
				p.Enum = append(p.Enum, n)
			}
		}
	}
}

func boolKeywords(p *jsonschema.Schema, tags []string) {
	for _, tag := range tags {
		if name, val, ok := cut2(tag); ok && name == "default" {
			switch val {
			case "true":
				p.Default = true
			case "false":
				p.Default = false
			}
		}
	}
}

// arrayKeywords reports false where invopop would fail (an array schema
// without items).
func arrayKeywords(p *jsonschema.Schema, tags []string) bool {
	var defaults []any
	var rest []string
	for _, tag := range tags {
		name, val, ok := cut2(tag)
		if !ok {
			continue
		}
		switch name {
		case "minItems":
			p.MinItems = parseUint(val)
		case "maxItems":
			p.MaxItems = parseUint(val)
		case "uniqueItems":
			p.UniqueItems = true
		case "default":
			defaults = append(defaults, val)
		case "format", "pattern":
			if p.Items == nil {
				return false
			}
			if name == "format" {
				p.Items.Format = val
			} else {
				p.Items.Pattern = val
			}
		default:
			rest = append(rest, tag)
		}
	}
	if len(defaults) > 0 {
		p.Default = defaults
	}
	if len(rest) == 0 {
		return true
	}
	if p.Items == nil {
		return false
	}
	switch p.Items.Type {
	case "string":
		stringKeywords(p.Items, rest)
	case "number", "integer":
		numberKeywords(p.Items, rest)
	case "boolean":
		boolKeywords(p.Items, rest)
	}
	return true
}

// jsonNumber is invopop's toJSONNumber: s when it parses as an int64 or a
// float64, else "" and false.
func jsonNumber(s string) (json.Number, bool) {
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return json.Number(s), true
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return json.Number(s), true
	}
	return "", false
}

func parseUint(s string) *uint64 {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return nil
	}
	return &v
}
