package argtype

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/invopop/jsonschema"

	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// This file is our own reflection of an argument type into the schema
// reflectSchema makes of invopop/jsonschema's Reflector result with
// reflectSchema's settings (DoNotReference, ExpandedStruct, Anonymous,
// Mapper stdMapper), our rules applied (patch) and written as a tree in
// canonical order (schemaTree), for the types and tags it follows. It
// reads the struct fields the walker has already listed (their tags
// parsed once) instead of reflecting every type and tag again, writes each
// struct's properties straight into the tree and reuses one invopop Schema
// value per nesting level for a field's keywords (the validate-rule table
// writes those). Anything it does not follow — a type with references or
// with schema methods (JSONSchema, JSONSchemaExtend, ...), an interface
// with methods, an embedded field, two fields of one JSON name, a
// jsonschema_extras tag, the oneof_/anyof_ keys, type= or anchor=, an
// escaped comma, a rule that makes registration fail — makes it decline,
// and invopop reflects the type as before. TestOwnReflectMatchesInvopop
// and FuzzOwnReflect hold it to the invopop path, byte for byte.

// ownSchema returns the tree reflectSchema makes of the struct type t
// with invopop (before renameDefs), or false where it declines.
func (w *walker) ownSchema(t reflect.Type) (any, bool) {
	if w.recursive || schemaRoundTrip {
		return nil, false
	}
	r := reflectors.Get().(*ownReflector)
	r.w, r.b.ok, r.b.own = w, true, true
	defer r.reset()
	s, ok := r.typ(t, true)
	if !ok {
		return nil, false
	}
	tree := r.b.schema(s)
	return tree, r.b.ok
}

// reflectors are ownReflectors between uses, with the schemas they reuse.
var reflectors = sync.Pool{New: func() any {
	r := &ownReflector{}
	r.used, r.free = r.buf[:0:4], r.buf[4:4]
	return r
}}

// reset clears r of one use (keeping its schemas, cleared, for the next)
// and puts it back in reflectors.
func (r *ownReflector) reset() {
	r.release(0, 0)
	clear(r.b.keys[:cap(r.b.keys)])
	clear(r.b.vals[:cap(r.b.vals)])
	r.b.keys, r.b.vals = r.b.keys[:0], r.b.vals[:0]
	r.w = nil
	if len(r.free) <= 64 {
		reflectors.Put(r)
	}
}

// ownReflector is the state of one ownSchema: the walk it reads the fields
// of, the tree it writes, and the schemas it hands out and reuses.
type ownReflector struct {
	w *walker
	b treeBuilder
	// used are the schemas handed out by newSchema for the field being
	// written, free those already written and cleared.
	used, free []*jsonschema.Schema
	buf        [8]*jsonschema.Schema // room for the first of used and free
}

// newSchema returns an empty schema, reused once release gives it back.
func (r *ownReflector) newSchema() *jsonschema.Schema {
	var s *jsonschema.Schema
	if n := len(r.free); n > 0 {
		s, r.free = r.free[n-1], r.free[:n-1]
	} else {
		s = &jsonschema.Schema{}
	}
	r.used = append(r.used, s)
	return s
}

// release clears the schemas handed out since len(r.used) was mark, and
// forgets the structs written since len(r.b.built) was built (their
// schemas are among them).
func (r *ownReflector) release(mark, built int) {
	for _, s := range r.used[mark:] {
		*s = jsonschema.Schema{}
		r.free = append(r.free, s)
	}
	r.used = r.used[:mark]
	clear(r.b.built[built:])
	r.b.built = r.b.built[:built]
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

// typ is invopop's reflectTypeToSchema for the types ownSchema follows.
// A struct is written at once (object) with enforced saying whether the
// validator sees its fields (patch's enforced).
func (r *ownReflector) typ(t reflect.Type, enforced bool) (*jsonschema.Schema, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if mayHaveMethods(t) {
		if st, ok := stdTypes[t]; ok {
			return st.schema(), true
		}
		if hasSchemaMethods(t) {
			return nil, false
		}
	}
	switch t.Kind() {
	case reflect.Struct:
		return r.object(t, enforced)
	case reflect.Slice, reflect.Array:
		s := r.newSchema()
		if t.Kind() == reflect.Array {
			n := uint64(t.Len())
			s.MinItems, s.MaxItems = &n, &n // one pointer for both, as invopop
		}
		if byteSlice(t) { // invopop's for []byte; stdMapper's for a named byte
			s.Type, s.ContentEncoding = "string", "base64"
			return s, true
		}
		items, ok := r.typ(t.Elem(), enforced)
		if !ok {
			return nil, false
		}
		s.Type, s.Items = "array", items
		return s, true
	case reflect.Map:
		s := r.newSchema()
		s.Type = "object"
		switch t.Key().Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			v, ok := r.typ(t.Elem(), enforced)
			if !ok {
				return nil, false
			}
			s.PatternProperties = map[string]*jsonschema.Schema{"^[0-9]+$": v}
			s.AdditionalProperties = jsonschema.FalseSchema
			return s, true
		}
		if t.Elem().Kind() != reflect.Interface {
			v, ok := r.typ(t.Elem(), enforced)
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
		return r.newSchema(), true
	}
	s := r.newSchema()
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		s.Type = "integer"
	case reflect.Float32, reflect.Float64:
		s.Type = "number"
	case reflect.Bool:
		s.Type = "boolean"
	case reflect.String:
		s.Type = "string"
	default:
		return nil, false // uintptr and the like: invopop panics, reflectSchema reports it
	}
	return s, true
}

var uint8Type = reflect.TypeFor[uint8]()

// object is invopop's reflectStruct and reflectStructFields for a struct
// without embedded fields (the walker's field list is then exactly the
// properties invopop writes, in the same order) followed by patch: each
// field's schema gets its tag keywords and validate rules and is written
// into the tree at once. The struct's own schema carries its required
// list; its properties are in r.b.built until the schema is written.
func (r *ownReflector) object(t reflect.Type, enforced bool) (*jsonschema.Schema, bool) {
	ws := r.w.find(t)
	if ws == nil || ws.irregular {
		return nil, false
	}
	fields := ws.fields
	props := &jsonx.Object{}
	if n := len(fields); n > 0 {
		props.Keys, props.Vals = make([]string, 0, n), make([]any, 0, n)
	}
	var req []string
	var names func(string) string
	for i := range fields {
		f := &fields[i]
		mark, built := len(r.used), len(r.b.built)
		p, ok := r.typ(f.typ, f.enforcedInside(enforced))
		if !ok || !tagKeywords(p, f) {
			return nil, false
		}
		if f.tags.nullable {
			null := r.newSchema()
			null.Type = "null"
			wrap := r.newSchema()
			wrap.OneOf = []*jsonschema.Schema{p, null}
			p = wrap
		}
		if f.validate != "" {
			if names == nil {
				names = jsonNames(fields)
			}
			if applyValidate(p, f.typ, f.validate, enforced, names) != nil {
				return nil, false // the invopop path reports it, in patch's order
			}
		}
		props.Keys = append(props.Keys, r.b.str(f.name))
		props.Vals = append(props.Vals, r.b.schema(p))
		r.release(mark, built)
		if f.required {
			req = append(req, f.name)
		}
	}
	s := r.newSchema()
	s.Type, s.Required, s.AdditionalProperties = "object", req, jsonschema.FalseSchema
	r.b.built = append(r.b.built, builtObject{s, props})
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
	for part := range strings.SplitSeq(f.tags.schema, ",") {
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
		}
	}
	// invopop hands the entries other than title, description and the
	// declined ones to these; they ignore the names they do not know, so
	// they read the whole tag.
	switch p.Type {
	case "string":
		stringKeywords(p, f.tags.schema)
	case "number", "integer":
		numberKeywords(p, f.tags.schema)
	case "boolean":
		boolKeywords(p, f.tags.schema)
	case "array":
		return arrayKeywords(p, f.tags.schema)
	}
	return true
}

// cut2 splits a tag entry as invopop's strings.Split(tag, "=") with two
// parts required: exactly one "=".
func cut2(tag string) (name, val string, ok bool) {
	name, val, ok = strings.Cut(tag, "=")
	return name, val, ok && strings.IndexByte(val, '=') < 0
}

func stringKeywords(p *jsonschema.Schema, tags string) {
	for tag := range strings.SplitSeq(tags, ",") {
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

func numberKeywords(p *jsonschema.Schema, tags string) {
	for tag := range strings.SplitSeq(tags, ",") {
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

func boolKeywords(p *jsonschema.Schema, tags string) {
	for tag := range strings.SplitSeq(tags, ",") {
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
func arrayKeywords(p *jsonschema.Schema, tags string) bool {
	var defaults []any
	var rest []string
	for tag := range strings.SplitSeq(tags, ",") {
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
		case "title", "description", "type", "anchor", "oneof_required", "anyof_required", "oneof_ref", "oneof_type", "anyof_ref", "anyof_type":
			// tagKeywords's, not handed on by invopop
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
	switch items := strings.Join(rest, ","); p.Items.Type {
	case "string":
		stringKeywords(p.Items, items)
	case "number", "integer":
		numberKeywords(p.Items, items)
	case "boolean":
		boolKeywords(p.Items, items)
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
