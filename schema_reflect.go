package toolnexus

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/invopop/jsonschema"

	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// typeInfo is everything Execute needs about an argument type, computed
// once per type by [typeInfoFor] and never modified afterwards.
type typeInfo struct {
	schema   json.RawMessage // the reflected input schema, compact JSON
	spec     *valSpec        // the argument checker's tables (root is kObject)
	validate bool            // some field (at any depth) has a `validate` tag
}

// typeCache maps reflect.Type (a struct type, never a pointer) to
// *typeInfo. A race between two first registrations of one type only costs
// a second computation; LoadOrStore keeps the first.
var typeCache sync.Map

// errCache maps reflect.Type to the registration error for that type.
var errCache sync.Map

var (
	timeType          = reflect.TypeFor[time.Time]()
	rawMessageType    = reflect.TypeFor[json.RawMessage]()
	jsonUnmarshaler   = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler   = reflect.TypeFor[encoding.TextUnmarshaler]()
	schemaHookType    = reflect.TypeFor[interface{ JSONSchema() *jsonschema.Schema }]()
	schemaAliasType   = reflect.TypeFor[interface{ JSONSchemaAlias() any }]()
	errUnsupported    = errors.New("unsupported type")
	knownBareSchemaWs = map[string]bool{"required": true, "nullable": true, "-": true, "uniqueItems": true}
)

// typeInfoFor returns the cached typeInfo of the argument type t (a struct
// or a pointer to a struct).
func typeInfoFor(t reflect.Type) (*typeInfo, error) {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if v, ok := typeCache.Load(t); ok {
		return v.(*typeInfo), nil
	}
	if v, ok := errCache.Load(t); ok {
		return nil, v.(error)
	}
	info, err := buildTypeInfo(t)
	if err != nil {
		errCache.Store(t, err)
		return nil, err
	}
	v, _ := typeCache.LoadOrStore(t, info)
	return v.(*typeInfo), nil
}

func buildTypeInfo(t reflect.Type) (*typeInfo, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("arguments type %s must be a struct or a pointer to a struct (a JSON object), not %s",
			t, kindWord(t))
	}
	w := &walker{objs: map[reflect.Type]*objSpec{}, onStack: map[reflect.Type]bool{}, fields: map[reflect.Type][]goField{}}
	spec, err := w.value(t, typeName(t))
	if err != nil {
		return nil, err
	}
	schema, err := w.reflectSchema(t)
	if err != nil {
		return nil, err
	}
	if w.validate {
		if err := checkValidateTags(w.objs); err != nil {
			return nil, err
		}
	}
	var defs *jsonx.Object
	if root, ok := w.tree.(*jsonx.Object); ok {
		if d, ok := root.Get("$defs"); ok {
			defs, _ = d.(*jsonx.Object)
		}
	}
	if err := attachConstraints(w.tree, spec, defs, map[*objSpec]bool{}); err != nil {
		return nil, fmt.Errorf("struct %s: field %v", typeName(t), err)
	}
	return &typeInfo{schema: schema, spec: spec, validate: w.validate}, nil
}

func typeName(t reflect.Type) string {
	if t.Name() != "" {
		return t.Name()
	}
	return "arguments"
}

func kindWord(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "a slice (a JSON array)"
	case reflect.Map:
		return "a map"
	case reflect.String:
		return "a string"
	case reflect.Interface:
		return "an interface"
	}
	return "a " + t.Kind().String()
}

// goField is one JSON property of a struct after embedded structs are
// flattened the way encoding/json flattens them.
type goField struct {
	name     string // JSON name
	goName   string // Go field name
	index    []int  // reflect index path
	typ      reflect.Type
	required bool
	validate string // `validate` tag
	depth    int
}

type walker struct {
	objs      map[reflect.Type]*objSpec
	onStack   map[reflect.Type]bool
	fields    map[reflect.Type][]goField
	recursive bool
	validate  bool
	tree      any // the final schema, for attachConstraints
}

func implements(t, iface reflect.Type) bool {
	return t.Implements(iface) || reflect.PointerTo(t).Implements(iface)
}

// value builds the checker spec for a Go type. where names the field for
// error messages ("Args.Done").
func (w *walker) value(t reflect.Type, where string) (*valSpec, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == timeType:
		return &valSpec{kind: kDateTime}, nil
	case t == rawMessageType:
		return anySpec, nil
	case implements(t, schemaHookType), implements(t, schemaAliasType):
		return anySpec, nil // the type describes itself; encoding/json decodes it
	case implements(t, jsonUnmarshaler):
		return anySpec, nil
	case implements(t, textUnmarshaler):
		return &valSpec{kind: kString}, nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return &valSpec{kind: kBool}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return &valSpec{kind: kInteger}, nil
	case reflect.Float32, reflect.Float64:
		return &valSpec{kind: kNumber}, nil
	case reflect.String:
		return &valSpec{kind: kString}, nil
	case reflect.Interface:
		return anySpec, nil
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice {
			return &valSpec{kind: kString}, nil // base64, as encoding/json does
		}
		elem, err := w.value(t.Elem(), where+"[]")
		if err != nil {
			return nil, err
		}
		return &valSpec{kind: kArray, elem: elem}, nil
	case reflect.Map:
		k := t.Key()
		switch k.Kind() {
		case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		default:
			if !implements(k, textUnmarshaler) {
				return nil, fmt.Errorf("field %s (%s): unsupported map key type %s (JSON object keys are strings)", where, t, k)
			}
		}
		elem, err := w.value(t.Elem(), where+"[]")
		if err != nil {
			return nil, err
		}
		return &valSpec{kind: kMap, elem: elem}, nil
	case reflect.Struct:
		o, err := w.object(t, where)
		if err != nil {
			return nil, err
		}
		return &valSpec{kind: kObject, obj: o}, nil
	}
	return nil, fmt.Errorf("field %s (%s): %w (JSON has no %s)", where, t, errUnsupported, t.Kind())
}

func (w *walker) object(t reflect.Type, where string) (*objSpec, error) {
	if o, ok := w.objs[t]; ok {
		if w.onStack[t] {
			w.recursive = true
		}
		return o, nil
	}
	o := &objSpec{index: map[string]int{}}
	w.objs[t] = o
	w.onStack[t] = true
	defer delete(w.onStack, t)
	fields, err := structFields(t)
	if err != nil {
		return nil, err
	}
	w.fields[t] = fields
	names := make([]string, 0, len(fields))
	for _, f := range fields {
		if f.validate != "" {
			w.validate = true
		}
		vs, err := w.value(f.typ, typeName(t)+"."+f.goName)
		if err != nil {
			return nil, err
		}
		o.index[f.name] = len(o.fields)
		o.fields = append(o.fields, fieldSpec{name: f.name, required: f.required, val: vs})
		if f.required {
			o.nreq++
		}
		if len(names) < 30 {
			names = append(names, f.name)
		}
	}
	o.names = strings.Join(names, ", ")
	if len(fields) > 30 {
		o.names += fmt.Sprintf(" and %d more", len(fields)-30)
	}
	return o, nil
}

// structFields lists the JSON properties of struct t in encoding/json's
// order, flattening embedded structs, and checks each field's tags.
func structFields(t reflect.Type) ([]goField, error) {
	var out []goField
	byName := map[string]int{}
	ambiguous := map[string]bool{}
	var walk func(t reflect.Type, index []int, depth int, visited map[reflect.Type]bool) error
	walk = func(t reflect.Type, index []int, depth int, visited map[reflect.Type]bool) error {
		if visited[t] {
			return nil
		}
		visited[t] = true
		defer delete(visited, t)
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			jsonTag := sf.Tag.Get("json")
			if jsonTag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(jsonTag, ",")
			ft := sf.Type
			if sf.Anonymous {
				et := ft
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if name == "" && et.Kind() == reflect.Struct {
					if !sf.IsExported() && ft.Kind() == reflect.Pointer {
						continue // encoding/json cannot set it
					}
					if err := walk(et, append(append([]int(nil), index...), i), depth+1, visited); err != nil {
						return err
					}
					continue
				}
				if !sf.IsExported() {
					continue
				}
			} else if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			schemaTag := sf.Tag.Get("jsonschema")
			if err := checkSchemaTag(t, sf, schemaTag); err != nil {
				return err
			}
			if hasTagWord(schemaTag, "-") {
				continue
			}
			if hasTagWord(opts, "string") {
				return fmt.Errorf("field %s.%s: the json \",string\" option is not supported (declare the field as a string instead)", typeName(t), sf.Name)
			}
			optional := hasTagWord(opts, "omitempty") || hasTagWord(opts, "omitzero")
			vtag := sf.Tag.Get("validate")
			pre, _, _ := strings.Cut(vtag, "dive")
			required := !optional || hasTagWord(schemaTag, "required") || hasTagWord(pre, "required")
			f := goField{name: name, goName: sf.Name, index: append(append([]int(nil), index...), i),
				typ: ft, required: required, validate: vtag, depth: depth}
			if j, ok := byName[name]; ok {
				switch {
				case out[j].depth < depth:
					continue // the shallower field wins, as in encoding/json
				case out[j].depth == depth:
					ambiguous[name] = true
					continue
				default:
					out[j] = f
					continue
				}
			}
			byName[name] = len(out)
			out = append(out, f)
		}
		return nil
	}
	if err := walk(t, nil, 0, map[reflect.Type]bool{}); err != nil {
		return nil, err
	}
	for name := range ambiguous {
		if out[byName[name]].depth > 0 {
			return nil, fmt.Errorf("struct %s: JSON property %q comes from two embedded structs at the same depth; encoding/json would drop it, so name one field explicitly", t, name)
		}
	}
	return out, nil
}

func hasTagWord(tag, word string) bool {
	for _, p := range strings.Split(tag, ",") {
		if strings.TrimSpace(p) == word {
			return true
		}
	}
	return false
}

// checkSchemaTag rejects a `jsonschema` tag written as prose: an entry with
// no "=" that is not one of invopop's bare words. invopop drops such entries
// silently, losing the description.
func checkSchemaTag(t reflect.Type, sf reflect.StructField, tag string) error {
	if tag == "" {
		return nil
	}
	for _, part := range splitUnescaped(tag) {
		p := strings.TrimSpace(part)
		if p == "" || strings.Contains(p, "=") || knownBareSchemaWs[p] {
			continue
		}
		if strings.Contains(tag, "=") {
			return fmt.Errorf("field %s.%s: jsonschema tag entry %q is not key=value; escape commas inside values as \\, (invopop splits the tag on commas)",
				typeName(t), sf.Name, p)
		}
		return fmt.Errorf("field %s.%s: jsonschema tag entry %q is not key=value; write jsonschema:\"description=%s\"",
			typeName(t), sf.Name, p, strings.ReplaceAll(tag, `"`, `\"`))
	}
	return nil
}

func splitUnescaped(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == ',' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// reflectSchema runs invopop's reflector with our fixed configuration and
// then applies our rules: no $schema/$id, required per our rule, and the
// keywords implied by `validate` tags.
func (w *walker) reflectSchema(t reflect.Type) (out json.RawMessage, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("reflecting %s: %v", t, v)
		}
	}()
	r := &jsonschema.Reflector{
		DoNotReference: !w.recursive, // invopop overflows the stack on recursive types without references
		ExpandedStruct: true,
		Anonymous:      true,
	}
	s := r.ReflectFromType(t)
	s.Version = ""
	s.ID = ""
	if w.recursive {
		// invopop expands the root but references the root type by name;
		// keep a definition for it so every $ref resolves.
		name := t.Name()
		if s.Definitions == nil {
			s.Definitions = jsonschema.Definitions{}
		}
		if _, ok := s.Definitions[name]; !ok {
			cp := *s
			cp.Definitions = nil
			s.Definitions[name] = &cp
		}
	}
	p := &patcher{w: w, defs: s.Definitions, done: map[*jsonschema.Schema]bool{}}
	if err := p.patch(s, t); err != nil {
		return nil, err
	}
	for name, d := range s.Definitions {
		if dt := p.defTypes[name]; dt != nil {
			if err := p.patch(d, dt); err != nil {
				return nil, err
			}
		}
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("marshalling the schema of %s: %v", t, err)
	}
	tree, err := jsonx.Parse(b)
	if err != nil {
		return nil, fmt.Errorf("re-reading the schema of %s: %v", t, err)
	}
	tree = canonical(tree)
	w.tree = tree
	return jsonx.Marshal(tree), nil
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

func (p *patcher) patch(s *jsonschema.Schema, t reflect.Type) error {
	if s == nil {
		return nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	s = p.resolve(s, t)
	if p.done[s] {
		return nil
	}
	p.done[s] = true
	switch {
	case t == timeType, t == rawMessageType, implements(t, schemaHookType), implements(t, schemaAliasType),
		implements(t, jsonUnmarshaler), implements(t, textUnmarshaler):
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		fields := p.w.fields[t]
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
			if f.validate != "" {
				applyValidate(p.resolve(ps, f.typ), f.typ, f.validate)
			}
			if err := p.patch(ps, f.typ); err != nil {
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
			return p.patch(s.Items, t.Elem())
		}
	case reflect.Map:
		if s.AdditionalProperties != nil {
			return p.patch(s.AdditionalProperties, t.Elem())
		}
		for _, ps := range s.PatternProperties {
			if err := p.patch(ps, t.Elem()); err != nil {
				return err
			}
		}
	}
	return nil
}

// applyValidate maps validator rules to JSON Schema keywords so the model
// sees the rules Execute will hold it to. Rules after "dive" apply to the
// items of a slice (or the values of a map). Keywords already set by a
// jsonschema tag are kept.
func applyValidate(s *jsonschema.Schema, t reflect.Type, tag string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	pre, post, dived := strings.Cut(tag, "dive")
	for _, rule := range strings.Split(pre, ",") {
		applyRule(s, t, strings.TrimSpace(rule))
	}
	if dived {
		var item *jsonschema.Schema
		switch t.Kind() {
		case reflect.Slice, reflect.Array:
			item = s.Items
		case reflect.Map:
			item = s.AdditionalProperties
		}
		if item != nil && item != jsonschema.TrueSchema && item != jsonschema.FalseSchema {
			post = strings.TrimPrefix(strings.TrimSpace(post), ",")
			applyValidate(item, t.Elem(), post)
		}
	}
}

func applyRule(s *jsonschema.Schema, t reflect.Type, rule string) {
	if rule == "" || strings.Contains(rule, "|") {
		return
	}
	name, param, _ := strings.Cut(rule, "=")
	kind := t.Kind()
	isNum := kind >= reflect.Int && kind <= reflect.Float64
	isInt := kind >= reflect.Int && kind <= reflect.Uintptr
	isStr := kind == reflect.String
	isList := kind == reflect.Slice || kind == reflect.Array
	isMap := kind == reflect.Map
	u := func() *uint64 {
		n, err := strconv.ParseUint(param, 10, 64)
		if err != nil {
			return nil
		}
		return &n
	}
	num := func() json.Number {
		if _, err := strconv.ParseFloat(param, 64); err != nil {
			return ""
		}
		return json.Number(param)
	}
	switch name {
	case "oneof":
		if len(s.Enum) > 0 {
			return
		}
		for _, v := range strings.Fields(param) {
			if isNum {
				if _, err := strconv.ParseFloat(v, 64); err == nil {
					s.Enum = append(s.Enum, json.Number(v))
				}
				continue
			}
			s.Enum = append(s.Enum, v)
		}
	case "min", "max", "len", "gte", "lte", "gt", "lt":
		switch {
		case isNum:
			n := num()
			if n == "" {
				return
			}
			setNum := func(dst *json.Number) {
				if *dst == "" {
					*dst = n
				}
			}
			switch name {
			case "min", "gte":
				setNum(&s.Minimum)
			case "max", "lte":
				setNum(&s.Maximum)
			case "len":
				setNum(&s.Minimum)
				setNum(&s.Maximum)
			case "gt":
				setNum(&s.ExclusiveMinimum)
			case "lt":
				setNum(&s.ExclusiveMaximum)
			}
			_ = isInt
		case isStr || isList || isMap:
			v := u()
			if v == nil {
				return
			}
			lo, hi := &s.MinLength, &s.MaxLength
			if isList {
				lo, hi = &s.MinItems, &s.MaxItems
			} else if isMap {
				lo, hi = &s.MinProperties, &s.MaxProperties
			}
			set := func(dst **uint64, n uint64) {
				if *dst == nil {
					*dst = &n
				}
			}
			switch name {
			case "min", "gte":
				set(lo, *v)
			case "max", "lte":
				set(hi, *v)
			case "len":
				set(lo, *v)
				set(hi, *v)
			case "gt":
				set(lo, *v+1)
			case "lt":
				if *v > 0 {
					set(hi, *v-1)
				}
			}
		}
	case "email":
		setFormat(s, isStr, "email")
	case "url", "uri", "http_url":
		setFormat(s, isStr, "uri")
	case "uuid", "uuid3", "uuid4", "uuid5", "uuid_rfc4122", "uuid4_rfc4122":
		setFormat(s, isStr, "uuid")
	case "ipv4":
		setFormat(s, isStr, "ipv4")
	case "ipv6":
		setFormat(s, isStr, "ipv6")
	case "hostname", "hostname_rfc1123":
		setFormat(s, isStr, "hostname")
	case "datetime":
		// validator's datetime takes a Go layout; no JSON Schema keyword matches it exactly.
	case "unique":
		if isList {
			s.UniqueItems = true
		}
	}
}

func setFormat(s *jsonschema.Schema, isStr bool, f string) {
	if isStr && s.Format == "" {
		s.Format = f
	}
}

// checkValidateTags makes go-playground/validator parse the `validate` tags
// of every struct type now: it panics on an unknown rule at the first
// validation of a type, which must be a registration error, not a failed
// call later.
func checkValidateTags(objs map[reflect.Type]*objSpec) error {
	types := make([]reflect.Type, 0, len(objs))
	for t := range objs {
		types = append(types, t)
	}
	slices.SortFunc(types, func(a, b reflect.Type) int { return strings.Compare(a.String(), b.String()) })
	for _, t := range types {
		if err := func() (err error) {
			defer func() {
				if v := recover(); v != nil {
					err = fmt.Errorf("struct %s: invalid validate tag: %v", typeName(t), v)
				}
			}()
			_ = validate().Struct(reflect.New(t).Interface())
			return nil
		}(); err != nil {
			return err
		}
	}
	return nil
}
