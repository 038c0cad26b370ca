package argtype

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// reflectSchema returns t's schema: invopop's reflection with our fixed
// configuration, patched with our rules (no $schema/$id, required per our
// rule, the keywords implied by `validate` tags), turned into its JSON tree
// (schemaTree), and put in canonical order with $defs names that are plain
// pointer tokens.
func (w *walker) reflectSchema(t reflect.Type) (out json.RawMessage, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("reflecting %s: %v", t, v)
		}
	}()
	var names typeNamer
	rootName := names.name(t) // the root keeps its Go name
	r := &jsonschema.Reflector{
		DoNotReference: !w.recursive, // invopop overflows the stack on recursive types without references
		ExpandedStruct: named(t),     // an unnamed type has no definition to expand (invopop v0.13.0 dereferenced nil)
		Anonymous:      true,
		Mapper:         stdMapper,
		Namer:          names.name,
	}
	s := r.ReflectFromType(t)
	s.Version = ""
	s.ID = ""
	if w.recursive {
		// invopop expands the root but references the root type by name;
		// keep a definition for it so every $ref resolves.
		name := rootName
		if s.Definitions == nil {
			s.Definitions = jsonschema.Definitions{}
		}
		if _, ok := s.Definitions[name]; !ok {
			cp := *s
			cp.Definitions = nil
			s.Definitions[name] = &cp
		}
	}
	// invopop may hand out one schema at several places (a type's
	// JSONSchema method returning a shared value): patch each once.
	p := &patcher{w: w, defs: s.Definitions, done: map[*jsonschema.Schema]bool{}}
	if err := p.patch(s, t, true); err != nil {
		return nil, err
	}
	for name, d := range s.Definitions {
		if dt := p.defTypes[name]; dt != nil {
			if err := p.patch(d, dt, true); err != nil {
				return nil, err
			}
		}
	}
	tree, err := schemaTree(s)
	if err != nil {
		return nil, fmt.Errorf("marshalling the schema of %s: %v", t, err)
	}
	tree = canonical(tree)
	renameDefs(tree)
	return slices.Clip(jsonx.Marshal(tree)), nil
}

// typeNamer names types for invopop's reflector (its Namer): by their Go
// name, a second type of a name met before getting "_2", "_3", ... invopop
// files named types by name, so two types of one name (function-local
// types, or pkg.Args inside main.Args) shared one entry, and the one
// reflected last replaced the other's schema, the root's included.
type typeNamer struct {
	byType map[reflect.Type]string
	taken  map[string]bool
}

func (n *typeNamer) name(t reflect.Type) string {
	base := t.Name()
	if base == "" {
		return ""
	}
	if name, ok := n.byType[t]; ok {
		return name
	}
	if n.byType == nil {
		n.byType, n.taken = map[reflect.Type]string{}, map[string]bool{}
	}
	name := base
	for i := 2; n.taken[name]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	n.byType[t], n.taken[name] = name, true
	return name
}

// renameDefs gives every $defs entry a name that is a plain JSON Pointer
// token and URI fragment (letters, digits, '_', '-', '.'), and rewrites
// every $ref to match. invopop names a generic instantiation after its Go
// type, "pair[string,net/netip.Addr]", whose '/' splits the pointer and
// whose brackets are not URI fragment characters, so no renderer resolves it.
func renameDefs(tree any) {
	root, ok := tree.(*jsonx.Object)
	if !ok {
		return
	}
	d, _ := root.Get("$defs")
	defs, _ := d.(*jsonx.Object)
	if defs == nil {
		return
	}
	renamed := map[string]string{}
	taken := map[string]bool{}
	for _, k := range defs.Keys {
		if safeDefName(k) == k {
			taken[k] = true
		}
	}
	for i, k := range defs.Keys {
		n := safeDefName(k)
		if n == k {
			continue
		}
		base := n
		for j := 2; taken[n]; j++ {
			n = base + "_" + strconv.Itoa(j)
		}
		taken[n] = true
		renamed["#/$defs/"+k] = "#/$defs/" + n
		defs.Keys[i] = n
	}
	if len(renamed) > 0 {
		rewriteRefs(root, renamed)
	}
}

// safeDefName drops package paths from a Go type name and replaces every
// character outside [A-Za-z0-9_.-] with '_': "pair[string,net/netip.Addr]"
// becomes "pair_string_netip.Addr".
func safeDefName(name string) string {
	var b strings.Builder
	tok := 0 // start of the current type name in b
	for _, c := range name {
		switch {
		case c == '/':
			s := b.String()[:tok]
			b.Reset()
			b.WriteString(s) // drop the package path written so far
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.':
			b.WriteRune(c)
		default:
			if s := b.String(); s != "" && !strings.HasSuffix(s, "_") {
				b.WriteByte('_')
			}
			tok = b.Len()
		}
	}
	out := strings.TrimRight(b.String(), "_")
	if out == "" {
		return "def"
	}
	return out
}

func rewriteRefs(v any, renamed map[string]string) {
	switch x := v.(type) {
	case *jsonx.Object:
		for i, k := range x.Keys {
			if s, ok := x.Vals[i].(string); ok && k == "$ref" {
				if n, ok := renamed[s]; ok {
					x.Vals[i] = n
				}
				continue
			}
			rewriteRefs(x.Vals[i], renamed)
		}
	case []any:
		for _, e := range x {
			rewriteRefs(e, renamed)
		}
	}
}

var (
	frontKeys = []string{"$ref", "type", "title", "description"}
	tailKeys  = []string{"properties", "required", "additionalProperties", "$defs"}
)

// canonical puts a schema's keywords in a reading order (type and
// description first; properties, required, additionalProperties and $defs
// last; the rest as invopop wrote them) at every level, and turns the
// boolean schema true into {}. Property names keep field order.
func canonical(v any) any {
	o, ok := v.(*jsonx.Object)
	if !ok {
		if b, ok := v.(bool); ok && b {
			return &jsonx.Object{}
		}
		return v
	}
	for i, k := range o.Keys {
		switch k {
		case "properties", "$defs", "patternProperties", "dependentSchemas":
			if m, ok := o.Vals[i].(*jsonx.Object); ok {
				for j := range m.Vals {
					m.Vals[j] = canonical(m.Vals[j])
				}
			}
		case "items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else":
			o.Vals[i] = canonical(o.Vals[i])
		case "anyOf", "oneOf", "allOf", "prefixItems":
			if a, ok := o.Vals[i].([]any); ok {
				for j := range a {
					a[j] = canonical(a[j])
				}
			}
		}
	}
	out := &jsonx.Object{}
	take := func(k string) {
		if val, ok := o.Get(k); ok {
			out.Keys = append(out.Keys, k)
			out.Vals = append(out.Vals, val)
		}
	}
	for _, k := range frontKeys {
		take(k)
	}
	for i, k := range o.Keys {
		if !slices.Contains(frontKeys, k) && !slices.Contains(tailKeys, k) {
			out.Keys = append(out.Keys, k)
			out.Vals = append(out.Vals, o.Vals[i])
		}
	}
	for _, k := range tailKeys {
		take(k)
	}
	return out
}

type patcher struct {
	w        *walker
	defs     jsonschema.Definitions
	done     map[*jsonschema.Schema]bool
	defTypes map[string]reflect.Type
}

func (p *patcher) resolve(s *jsonschema.Schema, t reflect.Type) *jsonschema.Schema {
	if s.Ref != "" && strings.HasPrefix(s.Ref, "#/$defs/") {
		name := strings.TrimPrefix(s.Ref, "#/$defs/")
		if p.defTypes == nil {
			p.defTypes = map[string]reflect.Type{}
		}
		p.defTypes[name] = t
		if d, ok := p.defs[name]; ok {
			return d
		}
	}
	return s
}

// patch applies our rules to the schema s of type t. enforced reports that
// the validator will see values at this place: it walks nested struct
// fields, but the items of a slice or map only when the field's validate tag
// has "dive". Elsewhere only the rules whose keywords Execute's checker
// enforces itself are shown (see applyRule).
func (p *patcher) patch(s *jsonschema.Schema, t reflect.Type, enforced bool) error {
	if s == nil || s == jsonschema.TrueSchema || s == jsonschema.FalseSchema {
		return nil // invopop's shared boolean schemas: nothing to show, never to be written
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	s = p.resolve(s, t)
	if in := nullableWrapped(s); in != nil {
		s = p.resolve(in, t) // the rules belong to the value, not to the oneOf around it
	}
	if p.done[s] {
		return nil
	}
	p.done[s] = true
	switch {
	case isStdType(t), implements(t, schemaHookType), implements(t, schemaAliasType),
		implements(t, jsonUnmarshaler), implements(t, textUnmarshaler):
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		fields, _ := p.w.fieldsOf(t)
		if s.Properties == nil {
			s.Properties = jsonschema.NewProperties()
		}
		var req []string
		for _, f := range fields {
			ps, ok := s.Properties.Get(f.name)
			if !ok {
				continue
			}
			if f.required {
				req = append(req, f.name)
			}
			if ps.Description == "" && ps.Ref == "" {
				// invopop sets a property's description from the field's
				// tags only, over the one the type's JSONSchema gave.
				ps.Description = ownDescription(f.typ)
			}
			if f.validate != "" {
				if err := applyValidate(p.resolve(ps, f.typ), f.typ, f.validate, enforced, jsonNames(fields)); err != nil {
					return fmt.Errorf("field %s.%s: %w", typeName(t), f.goName, err)
				}
			}
			if err := p.patch(ps, f.typ, f.enforcedInside(enforced)); err != nil {
				return err
			}
		}
		s.Required = req
		if s.Type == "" && s.Ref == "" {
			s.Type = "object"
		}
		if s.AdditionalProperties == nil {
			s.AdditionalProperties = jsonschema.FalseSchema
		}
	case reflect.Slice, reflect.Array:
		if s.Items != nil {
			return p.patch(s.Items, t.Elem(), enforced)
		}
	case reflect.Map:
		// A map with integer keys has its values under patternProperties
		// and additionalProperties false.
		if err := p.patch(s.AdditionalProperties, t.Elem(), enforced); err != nil {
			return err
		}
		for _, ps := range s.PatternProperties {
			if err := p.patch(ps, t.Elem(), enforced); err != nil {
				return err
			}
		}
	}
	return nil
}

// enforcedInside is patch's enforced for what the field f holds, when the
// validator sees f's own value if enforced: the fields of a nested struct,
// but the items of a slice, array or map only when f's validate tag has
// "dive".
func (f *goField) enforcedInside(enforced bool) bool {
	ft := f.typ
	for ft.Kind() == reflect.Pointer {
		ft = ft.Elem()
	}
	switch ft.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		return enforced && hasDive(f.validate)
	}
	return enforced
}

// nullableWrapped returns the schema inside invopop's wrapper for a
// jsonschema "nullable" field, {"oneOf":[schema,{"type":"null"}]}, or nil
// when s is not such a wrapper.
func nullableWrapped(s *jsonschema.Schema) *jsonschema.Schema {
	if len(s.OneOf) != 2 || s.Type != "" || s.Ref != "" || s.Properties != nil || s.OneOf[0] == nil ||
		s.OneOf[1] == nil || s.OneOf[1].Type != "null" {
		return nil
	}
	return s.OneOf[0]
}

// jsonNames maps a Go field name of fields to its JSON name ("" if none).
func jsonNames(fields []goField) func(string) string {
	return func(goName string) string {
		for _, f := range fields {
			if f.goName == goName {
				return f.name
			}
		}
		return ""
	}
}

// ownDescription is the description of the schema that t's own JSONSchema
// method returns (t or a pointer to it implementing it), "" when it has
// none.
func ownDescription(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var v reflect.Value
	switch {
	case t.Implements(schemaHookType):
		v = reflect.New(t).Elem()
	case reflect.PointerTo(t).Implements(schemaHookType):
		v = reflect.New(t)
	default:
		return ""
	}
	if s := v.Interface().(interface{ JSONSchema() *jsonschema.Schema }).JSONSchema(); s != nil {
		return s.Description
	}
	return ""
}

// named reports whether t, or the type t points to, has a name.
func named(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Name() != ""
}
