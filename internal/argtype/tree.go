package argtype

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/invopop/jsonschema"

	"github.com/toolnexus/toolnexus/internal/jsonlex"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// schemaTree returns the jsonx tree of the schema invopop reflected (and
// the patcher patched): exactly what jsonx.Parse(json.Marshal(s)) gives,
// without writing and reading the bytes. The keywords come in the order of
// invopop's Schema fields, empty ones left out as their omitempty tags
// say, maps in sorted key order, Extras after the keywords (a keyword
// repeated there is kept twice, as invopop writes it), an empty schema as
// true; strings that are not valid UTF-8 get U+FFFD for each bad byte, as
// encoding/json writes them. The error, for a number or a value JSON
// cannot hold, is json.Marshal's.
func schemaTree(s *jsonschema.Schema) (any, error) {
	var b treeBuilder
	v := b.schema(s)
	if b.bad {
		_, err := json.Marshal(s)
		if err == nil {
			err = errors.New("a value of the schema has no JSON form")
		}
		return nil, err
	}
	return v, nil
}

type treeBuilder struct {
	bad bool // a value json.Marshal refuses
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
func boolSchema(s *jsonschema.Schema) (v, ok bool) {
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

// schema converts s (nil is null) as invopop's MarshalJSON writes it.
func (b *treeBuilder) schema(s *jsonschema.Schema) any {
	if s == nil {
		return nil
	}
	if v, ok := boolSchema(s); ok {
		return v
	}
	o := &jsonx.Object{}
	add := func(k string, v any) {
		o.Keys = append(o.Keys, k)
		o.Vals = append(o.Vals, v)
	}
	str := func(k, v string) {
		if v != "" {
			add(k, b.str(v))
		}
	}
	num := func(k string, v json.Number) {
		if v != "" {
			add(k, b.number(v))
		}
	}
	count := func(k string, v *uint64) {
		if v != nil {
			add(k, b.value(*v))
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
	schemaMap := func(k string, m map[string]*jsonschema.Schema) {
		if len(m) > 0 {
			mo := &jsonx.Object{}
			for _, name := range sortedKeys(m) {
				mo.Keys = append(mo.Keys, b.str(name))
				mo.Vals = append(mo.Vals, b.schema(m[name]))
			}
			add(k, mo)
		}
	}
	anyList := func(k string, v []any) {
		if len(v) > 0 {
			add(k, b.value(v))
		}
	}
	str("$schema", s.Version)
	str("$id", string(s.ID))
	str("$anchor", s.Anchor)
	str("$ref", s.Ref)
	str("$dynamicRef", s.DynamicRef)
	schemaMap("$defs", s.Definitions)
	str("$comment", s.Comments)
	list("allOf", s.AllOf)
	list("anyOf", s.AnyOf)
	list("oneOf", s.OneOf)
	sub("not", s.Not)
	sub("if", s.If)
	sub("then", s.Then)
	sub("else", s.Else)
	schemaMap("dependentSchemas", s.DependentSchemas)
	list("prefixItems", s.PrefixItems)
	sub("items", s.Items)
	sub("contains", s.Contains)
	if s.Properties != nil {
		add("properties", b.properties(s))
	}
	schemaMap("patternProperties", s.PatternProperties)
	sub("additionalProperties", s.AdditionalProperties)
	sub("propertyNames", s.PropertyNames)
	str("type", s.Type)
	anyList("enum", s.Enum)
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
	if len(s.Required) > 0 {
		add("required", b.value(s.Required))
	}
	if len(s.DependentRequired) > 0 {
		m := &jsonx.Object{}
		for _, k := range sortedKeys(s.DependentRequired) {
			m.Keys = append(m.Keys, b.str(k))
			m.Vals = append(m.Vals, b.value(s.DependentRequired[k]))
		}
		add("dependentRequired", m)
	}
	str("format", s.Format)
	str("contentEncoding", s.ContentEncoding)
	str("contentMediaType", s.ContentMediaType)
	sub("contentSchema", s.ContentSchema)
	str("title", s.Title)
	str("description", s.Description)
	if s.Default != nil {
		add("default", b.value(s.Default))
	}
	flag("deprecated", s.Deprecated)
	flag("readOnly", s.ReadOnly)
	flag("writeOnly", s.WriteOnly)
	anyList("examples", s.Examples)
	for _, k := range sortedKeys(s.Extras) {
		add(b.str(k), b.value(s.Extras[k]))
	}
	return o
}

// properties converts s.Properties (not nil) in its order; a zero
// OrderedMap, which has no entry list, is written as its MarshalJSON
// writes it.
func (b *treeBuilder) properties(s *jsonschema.Schema) any {
	p := s.Properties
	if p.Len() == 0 && p.Oldest() == nil {
		return b.value(p)
	}
	o := &jsonx.Object{Keys: make([]string, 0, p.Len()), Vals: make([]any, 0, p.Len())}
	for pair := p.Oldest(); pair != nil; pair = pair.Next() {
		o.Keys = append(o.Keys, b.str(pair.Key))
		o.Vals = append(o.Vals, b.schema(pair.Value))
	}
	return o
}

// str returns s as encoding/json writes it and jsonx reads it back: each
// byte that is not part of valid UTF-8 becomes U+FFFD.
func (b *treeBuilder) str(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var sb strings.Builder
	for _, r := range s {
		sb.WriteRune(r) // each invalid byte comes as utf8.RuneError
	}
	return sb.String()
}

// number returns n as jsonx reads it back; json.Marshal refuses a
// json.Number that is not a JSON number literal.
func (b *treeBuilder) number(n json.Number) any {
	if end, _, err := jsonlex.Num([]byte(n), 0); err != jsonlex.None || end != len(n) {
		b.bad = true
	}
	return n
}

// value converts a keyword value (enum, const, default, examples, extras,
// counts) as json.Marshal then jsonx.Parse would.
func (b *treeBuilder) value(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		return b.str(x)
	case bool:
		return x
	case uint64:
		return json.Number(strconv.FormatUint(x, 10))
	case int:
		return json.Number(strconv.Itoa(x))
	case json.Number:
		if x == "" {
			return json.Number("0") // encoding/json writes an empty Number as 0
		}
		return b.number(x)
	case []string:
		if x == nil {
			return nil
		}
		a := make([]any, len(x))
		for i, s := range x {
			a[i] = b.str(s)
		}
		return a
	case []any:
		if x == nil {
			return nil
		}
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = b.value(e)
		}
		return a
	}
	raw, err := json.Marshal(v)
	if err != nil {
		b.bad = true
		return nil
	}
	return b.parse(raw)
}

func (b *treeBuilder) parse(raw []byte) any {
	t, err := jsonx.Parse(raw)
	if err != nil {
		b.bad = true
		return nil
	}
	return t
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
