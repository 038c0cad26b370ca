package argtype

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/invopop/jsonschema"
	orderedmap "github.com/pb33f/ordered-map/v2"

	"github.com/toolnexus/toolnexus/internal/jsonlex"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// schemaTree converts the schema invopop reflected (and patcher patched)
// into the jsonx tree that canonical(jsonx.Parse(json.Marshal(s))) gives,
// without the round trip through bytes: the keywords as invopop writes
// them (its field order, empty ones left out as its omitempty tags do,
// maps in sorted key order, Extras after the keywords, an empty schema as
// true), then put in canonical's reading order with true as {}. It
// reports false when s holds something whose encoding/json form it does
// not reproduce exactly (a string that is not valid UTF-8, a number
// json.Marshal refuses, a properties map without entries list, an extra
// repeating a keyword, a contentSchema, where canonical does not go); the
// caller then takes the round trip, which also gives the same error as
// before.
func schemaTree(s *jsonschema.Schema) (any, bool) {
	b := treeBuilder{ok: true}
	v := b.schema(s)
	return v, b.ok
}

type treeBuilder struct {
	ok  bool
	own bool // the schemas are ownSchema's (never invopop's boolean ones)
	// keys and vals are the keywords of the schemas being written, the
	// innermost last (reused from schema to schema)
	keys []string
	vals []any
	// room for the first keywords of the stacks
	keyBuf [16]string
	valBuf [16]any
	// built are the struct schemas ownSchema has written the properties
	// of; schema writes those for them.
	built []builtObject
}

// builtObject is a struct's schema and its properties, already written.
type builtObject struct {
	s     *jsonschema.Schema
	props *jsonx.Object
}

// builtProperties returns the properties written for s, or nil.
func (b *treeBuilder) builtProperties(s *jsonschema.Schema) *jsonx.Object {
	for i := len(b.built) - 1; i >= 0; i-- {
		if b.built[i].s == s {
			return b.built[i].props
		}
	}
	return nil
}

// schema converts s (nil is null) as canonical leaves it: keywords in
// reading order, true as {}. canonical does not go inside contentSchema,
// so a schema with one takes the round trip.
func (b *treeBuilder) schema(s *jsonschema.Schema) any {
	if s == nil {
		return nil
	}
	if s == jsonschema.TrueSchema {
		return &jsonx.Object{}
	}
	if s == jsonschema.FalseSchema {
		return false
	}
	if v, ok := b.boolSchema(s); ok {
		if v {
			return &jsonx.Object{}
		}
		return false
	}
	if s.ContentSchema != nil {
		b.ok = false
	}
	// The keywords go on b's stacks above base (subschemas push and pop
	// theirs meanwhile), then into an object of their number.
	if b.keys == nil {
		b.keys, b.vals = b.keyBuf[:0], b.valBuf[:0]
	}
	base := len(b.keys)
	add := func(k string, v any) {
		b.keys = append(b.keys, k)
		b.vals = append(b.vals, v)
	}
	str := func(k, v string) {
		if v != "" {
			add(k, b.str(v))
		}
	}
	typeKeyword := func(v string) {
		switch v {
		case "":
		case "object", "string", "integer", "number", "boolean", "array", "null":
			add("type", boxedType(v))
		default:
			add("type", b.str(v))
		}
	}
	num := func(k string, v json.Number) {
		if v != "" {
			add(k, b.number(v))
		}
	}
	count := func(k string, v *uint64) {
		if v != nil {
			if *v < uint64(len(smallNumbers)) {
				add(k, smallNumbers[*v])
			} else {
				add(k, json.Number(strconv.FormatUint(*v, 10)))
			}
		}
	}
	flag := func(k string, v bool) {
		if v {
			add(k, true)
		}
	}
	sub := func(k string, v *jsonschema.Schema) {
		if v != nil {
			add(k, b.schema(v))
		}
	}
	list := func(k string, v []*jsonschema.Schema) {
		if len(v) > 0 {
			a := make([]any, len(v))
			for i, e := range v {
				a[i] = b.schema(e)
			}
			add(k, a)
		}
	}
	// canonical's frontKeys first.
	str("$ref", s.Ref)
	typeKeyword(s.Type)
	str("title", s.Title)
	str("description", s.Description)
	// The rest in invopop's order, but canonical's tailKeys.
	str("$schema", s.Version)
	str("$id", string(s.ID))
	str("$anchor", s.Anchor)
	str("$dynamicRef", s.DynamicRef)
	str("$comment", s.Comments)
	list("allOf", s.AllOf)
	list("anyOf", s.AnyOf)
	list("oneOf", s.OneOf)
	sub("not", s.Not)
	sub("if", s.If)
	sub("then", s.Then)
	sub("else", s.Else)
	if len(s.DependentSchemas) > 0 {
		add("dependentSchemas", b.schemaMap(s.DependentSchemas))
	}
	list("prefixItems", s.PrefixItems)
	sub("items", s.Items)
	sub("contains", s.Contains)
	if len(s.PatternProperties) > 0 {
		add("patternProperties", b.schemaMap(s.PatternProperties))
	}
	sub("propertyNames", s.PropertyNames)
	if len(s.Enum) > 0 {
		add("enum", b.anyList(s.Enum))
	}
	if s.Const != nil {
		add("const", b.value(s.Const))
	}
	num("multipleOf", s.MultipleOf)
	num("maximum", s.Maximum)
	num("exclusiveMaximum", s.ExclusiveMaximum)
	num("minimum", s.Minimum)
	num("exclusiveMinimum", s.ExclusiveMinimum)
	count("maxLength", s.MaxLength)
	count("minLength", s.MinLength)
	str("pattern", s.Pattern)
	count("maxItems", s.MaxItems)
	count("minItems", s.MinItems)
	flag("uniqueItems", s.UniqueItems)
	count("maxContains", s.MaxContains)
	count("minContains", s.MinContains)
	count("maxProperties", s.MaxProperties)
	count("minProperties", s.MinProperties)
	if len(s.DependentRequired) > 0 {
		m := &jsonx.Object{}
		for _, k := range sortedKeys(s.DependentRequired) {
			m.Keys = append(m.Keys, b.str(k))
			if v := s.DependentRequired[k]; v != nil {
				m.Vals = append(m.Vals, b.strings(v))
			} else {
				m.Vals = append(m.Vals, nil)
			}
		}
		add("dependentRequired", m)
	}
	str("format", s.Format)
	str("contentEncoding", s.ContentEncoding)
	str("contentMediaType", s.ContentMediaType)
	if s.Default != nil {
		add("default", b.value(s.Default))
	}
	flag("deprecated", s.Deprecated)
	flag("readOnly", s.ReadOnly)
	flag("writeOnly", s.WriteOnly)
	if len(s.Examples) > 0 {
		add("examples", b.anyList(s.Examples))
	}
	if len(s.Extras) > 0 {
		for _, k := range sortedKeys(s.Extras) {
			if slices.Contains(b.keys[base:], k) || slices.Contains(tailKeys, k) {
				b.ok = false // a keyword written twice: canonical keeps both
			}
			add(b.str(k), b.value(s.Extras[k]))
		}
	}
	// canonical's tailKeys last.
	if s.Properties != nil {
		add("properties", b.properties(s.Properties))
	} else if props := b.builtProperties(s); props != nil {
		add("properties", props)
	}
	if len(s.Required) > 0 {
		add("required", b.strings(s.Required))
	}
	sub("additionalProperties", s.AdditionalProperties)
	if len(s.Definitions) > 0 {
		add("$defs", b.schemaMap(s.Definitions))
	}
	o := newObject(b.keys[base:], b.vals[base:])
	clear(b.vals[base:])
	b.keys, b.vals = b.keys[:base], b.vals[:base]
	return o
}

// newObject returns an object holding copies of keys and vals, made in
// one allocation when they are few.
func newObject(keys []string, vals []any) *jsonx.Object {
	var o *jsonx.Object
	switch n := len(keys); {
	case n <= 2:
		ob := &struct {
			o    jsonx.Object
			keys [2]string
			vals [2]any
		}{}
		o = &ob.o
		o.Keys, o.Vals = ob.keys[:n], ob.vals[:n]
	case n <= 4:
		ob := &struct {
			o    jsonx.Object
			keys [4]string
			vals [4]any
		}{}
		o = &ob.o
		o.Keys, o.Vals = ob.keys[:n], ob.vals[:n]
	case n <= 8:
		ob := &struct {
			o    jsonx.Object
			keys [8]string
			vals [8]any
		}{}
		o = &ob.o
		o.Keys, o.Vals = ob.keys[:n], ob.vals[:n]
	default:
		o = &jsonx.Object{Keys: make([]string, n), Vals: make([]any, n)}
	}
	copy(o.Keys, keys)
	copy(o.Vals, vals)
	return o
}

// schemaBoolField is the index of jsonschema.Schema's unexported boolean
// field (set in TrueSchema, FalseSchema and their copies), or -1.
var schemaBoolField = func() int {
	f, ok := reflect.TypeFor[jsonschema.Schema]().FieldByName("boolean")
	if !ok || f.Type.Kind() != reflect.Pointer || f.Type.Elem().Kind() != reflect.Bool {
		return -1
	}
	return f.Index[0]
}()

// boolSchema reports the boolean invopop's MarshalJSON writes for s, if it
// writes one: its boolean field, or true for a schema with nothing set.
func (b *treeBuilder) boolSchema(s *jsonschema.Schema) (v, ok bool) {
	if b.own {
		// ownSchema's schemas are made empty: none has the boolean set,
		// and only one without a type can be empty.
		if s.Type == "" && s.Ref == "" && s.Properties == nil && reflect.DeepEqual(&jsonschema.Schema{}, s) {
			return true, true
		}
		return false, false
	}
	if schemaBoolField < 0 {
		raw, err := s.MarshalJSON()
		return string(raw) == "true", err == nil && (string(raw) == "true" || string(raw) == "false")
	}
	if f := reflect.ValueOf(s).Elem().Field(schemaBoolField); !f.IsNil() {
		return f.Elem().Bool(), true
	}
	if s.Type == "" && s.Ref == "" && s.Properties == nil && reflect.DeepEqual(&jsonschema.Schema{}, s) {
		return true, true
	}
	return false, false
}

func (b *treeBuilder) properties(p *orderedmap.OrderedMap[string, *jsonschema.Schema]) any {
	if p.Len() == 0 && p.Oldest() == nil {
		if raw, err := p.MarshalJSON(); err != nil || string(raw) != "{}" {
			b.ok = false // a zero OrderedMap marshals as null
			return nil
		}
	}
	o := &jsonx.Object{}
	if n := p.Len(); n > 0 {
		o.Keys, o.Vals = make([]string, 0, n), make([]any, 0, n)
	}
	for pair := p.Oldest(); pair != nil; pair = pair.Next() {
		o.Keys = append(o.Keys, b.str(pair.Key))
		o.Vals = append(o.Vals, b.schema(pair.Value))
	}
	return o
}

func (b *treeBuilder) schemaMap(m map[string]*jsonschema.Schema) any {
	o := &jsonx.Object{}
	for _, k := range sortedKeys(m) {
		o.Keys = append(o.Keys, b.str(k))
		o.Vals = append(o.Vals, b.schema(m[k]))
	}
	return o
}

func (b *treeBuilder) strings(v []string) []any {
	a := make([]any, len(v))
	for i, s := range v {
		a[i] = b.str(s)
	}
	return a
}

func (b *treeBuilder) anyList(v []any) []any {
	a := make([]any, len(v))
	for i, e := range v {
		a[i] = b.value(e)
	}
	return a
}

// str keeps s when encoding/json writes it so that it reads back the same:
// valid UTF-8 (invalid bytes would become U+FFFD).
func (b *treeBuilder) str(s string) string {
	if !utf8.ValidString(s) {
		b.ok = false
	}
	return s
}

// number keeps n when it is a JSON number literal, as json.Marshal
// requires of a json.Number.
func (b *treeBuilder) number(n json.Number) any {
	if end, _, err := jsonlex.Num([]byte(n), 0); err != jsonlex.None || end != len(n) {
		b.ok = false
	}
	switch {
	case len(n) == 1 && n[0] >= '0' && n[0] <= '9':
		return smallNumbers[n[0]-'0']
	case len(n) == 2 && n[0] >= '1' && n[0] <= '9' && n[1] >= '0' && n[1] <= '9':
		return smallNumbers[(n[0]-'0')*10+n[1]-'0']
	}
	return n
}

// smallNumbers are the JSON numbers 0 to 99 boxed once, for the counts
// and bounds most schemas hold.
var smallNumbers = func() (a [100]any) {
	for i := range a {
		a[i] = json.Number(strconv.Itoa(i))
	}
	return a
}()

// value converts a keyword value (enum, const, default, examples, extras)
// as json.Marshal then jsonx.Parse would.
func (b *treeBuilder) value(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		b.str(x)
		return v // already boxed
	case bool:
		return v
	case json.Number:
		if x == "" {
			b.ok = false // encoding/json writes 0
		}
		return b.number(x)
	case int:
		return json.Number(strconv.Itoa(x))
	case int64:
		return json.Number(strconv.FormatInt(x, 10))
	case []string:
		if x == nil {
			return nil
		}
		return b.strings(x)
	case []any:
		if x == nil {
			return nil
		}
		return b.anyList(x)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		b.ok = false
		return nil
	}
	t, err := jsonx.Parse(raw)
	if err != nil {
		b.ok = false
		return nil
	}
	return t
}

// boxedType returns the JSON Schema type name t in an interface value
// that takes no allocation (a constant's).
func boxedType(t string) any {
	switch t {
	case "object":
		return "object"
	case "string":
		return "string"
	case "integer":
		return "integer"
	case "number":
		return "number"
	case "boolean":
		return "boolean"
	case "array":
		return "array"
	}
	return "null"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
