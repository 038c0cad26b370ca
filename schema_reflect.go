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
	"unicode"

	"github.com/invopop/jsonschema"

	"github.com/toolnexus/toolnexus/internal/jsonx"
	jschema "github.com/toolnexus/toolnexus/schema"
)

// typeInfo is everything Execute needs about an argument type, computed
// once per type by [typeInfoFor] and never modified afterwards.
type typeInfo struct {
	schema json.RawMessage    // the reflected input schema, compact JSON: exactly what renderers read
	check  *jschema.Validator // schema compiled by the engine: what Execute enforces
	spec   *valSpec           // the decoder's tables (root is kObject): Go types, ranges, text forms
	// needValidator: some validate rule is not mirrored exactly by the
	// checker's constraints, so go-playground/validator must run too.
	needValidator bool
}

// typedOptions compile a typed tool's schema: every keyword it shows is
// enforced or refused at registration (Strict), formats are asserted,
// repeated keys are refused, null for an optional property means absent
// (OpenAI strict mode sends null for "absent"), and nesting is bounded.
var typedOptions = &jschema.Options{AssertFormat: true, Strict: true, RejectDuplicateKeys: true, NullAsAbsent: true, MaxDepth: maxDepth}

// typeCache maps reflect.Type (a struct type, never a pointer) to
// *typeInfo. A race between two first registrations of one type only costs
// a second computation; LoadOrStore keeps the first.
var typeCache sync.Map

// errCache maps reflect.Type to the registration error for that type.
var errCache sync.Map

var (
	jsonUnmarshaler   = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler   = reflect.TypeFor[encoding.TextUnmarshaler]()
	schemaHookType    = reflect.TypeFor[interface{ JSONSchema() *jsonschema.Schema }]()
	schemaAliasType   = reflect.TypeFor[interface{ JSONSchemaAlias() any }]()
	errUnsupported    = errors.New("unsupported type")
	knownBareSchemaWs = map[string]bool{"required": true, "nullable": true, "-": true}
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
	if implements(t, jsonUnmarshaler) || implements(t, textUnmarshaler) {
		return nil, fmt.Errorf("arguments type %s has its own UnmarshalJSON or UnmarshalText, so its JSON form is not its fields; use a plain struct for the arguments", t)
	}
	w := &walker{objs: map[reflect.Type]*objSpec{}, onStack: map[reflect.Type]bool{}, fields: map[reflect.Type][]goField{}}
	w.recursive = hasCycle(t, map[reflect.Type]bool{}, map[reflect.Type]bool{})
	spec, err := w.value(t, typeName(t))
	if err != nil {
		return nil, err
	}
	schema, err := w.reflectSchema(t)
	if err != nil {
		return nil, err
	}
	if w.validate {
		if err := checkValidateTags(w.objs, w.fields); err != nil {
			return nil, err
		}
	}
	v, err := jschema.Compile(schema, typedOptions)
	if err != nil {
		return nil, fmt.Errorf("struct %s: %v", typeName(t), err)
	}
	return &typeInfo{schema: schema, check: v, spec: spec, needValidator: w.needValidator}, nil
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
	nullable bool // jsonschema:"nullable": null is a valid value
}

type walker struct {
	objs      map[reflect.Type]*objSpec
	onStack   map[reflect.Type]bool
	fields    map[reflect.Type][]goField
	recursive bool
	validate  bool
	// needValidator is set when a validate rule is not mirrored exactly by
	// the checker (see mirrored).
	needValidator bool
	tree          any // the final schema, for attachConstraints
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
	if st, ok := stdTypes[t]; ok {
		if st.kind == kAny {
			return anySpec, nil
		}
		return &valSpec{kind: st.kind, text: t, want: st.want}, nil
	}
	if hint, ok := refusedTypes[t]; ok {
		return nil, fmt.Errorf("field %s (%s): %s", where, t, hint)
	}
	switch {
	case implements(t, schemaHookType), implements(t, schemaAliasType):
		// The type describes itself; the schema engine checks it and
		// encoding/json decodes it, with its own method if it has one.
		if selfDecoding(t) != "" {
			return &valSpec{kind: kAny, text: t}, nil
		}
		return anySpec, nil
	}
	if how := selfDecoding(t); how != "" {
		return nil, selfDecodingError(where, t, how)
	}
	switch t.Kind() {
	case reflect.Bool:
		return &valSpec{kind: kBool}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return &valSpec{kind: kInteger, bits: uint8(t.Bits())}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return &valSpec{kind: kInteger, bits: uint8(t.Bits()), unsigned: true}, nil
	case reflect.Float32:
		return &valSpec{kind: kNumber, bits: 32}, nil
	case reflect.Float64:
		return &valSpec{kind: kNumber}, nil // any JSON number but 1e400 fits; the decoder reports that one
	case reflect.String:
		return &valSpec{kind: kString}, nil
	case reflect.Interface:
		if t.NumMethod() > 0 {
			return nil, fmt.Errorf("field %s (%s): interface types with methods cannot be decoded from JSON; use any, json.RawMessage or a concrete type", where, t)
		}
		return anySpec, nil
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice && !implements(t.Elem(), jsonUnmarshaler) && !implements(t.Elem(), textUnmarshaler) {
			return &valSpec{kind: kBase64}, nil // []byte is base64, as encoding/json does
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
		vs := &valSpec{kind: kMap, elem: elem}
		if !implements(k, textUnmarshaler) && k.Kind() != reflect.String {
			vs.keyBits = uint8(k.Bits())
			vs.unsigned = k.Kind() >= reflect.Uint && k.Kind() <= reflect.Uintptr
		}
		return vs, nil
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
			if !mirrored(f.validate, f.typ) {
				w.needValidator = true
			}
		}
		vs, err := w.value(f.typ, typeName(t)+"."+f.goName)
		if err != nil {
			return nil, err
		}
		if f.nullable && vs != anySpec {
			cp := *vs
			cp.nullable = true
			vs = &cp
		}
		o.index[f.name] = len(o.fields)
		o.fields = append(o.fields, fieldSpec{name: f.name, required: f.required, val: vs, vtag: f.validate, ptr: f.typ.Kind() == reflect.Pointer})
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

// structFields lists the JSON properties of struct t as encoding/json sees
// them: embedded structs flattened, the shallowest field winning, a tagged
// field winning over untagged ones at the same depth, in index order. Where
// encoding/json would silently drop a property (two fields of one name at
// the same depth, both tagged or both untagged), it is an error instead.
func structFields(t reflect.Type) ([]goField, error) {
	type cand struct {
		f      goField
		tagged bool
	}
	var cands []cand
	var walk func(t reflect.Type, index []int, depth int, visiting map[reflect.Type]bool) error
	walk = func(t reflect.Type, index []int, depth int, visiting map[reflect.Type]bool) error {
		if visiting[t] {
			return fmt.Errorf("struct %s embeds itself (directly or through other embedded structs); name the field instead of embedding it", typeName(t))
		}
		visiting[t] = true
		defer delete(visiting, t)
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			jsonTag, hasTag := sf.Tag.Lookup("json")
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
						return fmt.Errorf("struct %s: embedded field %s is a pointer to an unexported struct, which encoding/json cannot set; embed it by value or export the type", typeName(t), sf.Name)
					}
					if err := walk(et, append(append([]int(nil), index...), i), depth+1, visiting); err != nil {
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
			if name == "-" {
				return fmt.Errorf("field %s.%s: a property named \"-\" (json:\"-,\") is not supported", typeName(t), sf.Name)
			}
			if name != "" && !validJSONName(name) {
				return fmt.Errorf("field %s.%s: json name %q is not one encoding/json accepts (it would use %q instead); rename it", typeName(t), sf.Name, name, sf.Name)
			}
			tagged := hasTag && name != ""
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
			pre, _ := splitDive(vtag)
			required := !optional || hasTagWord(schemaTag, "required") || hasTagWord(pre, "required")
			if rules := splitRules(pre); !required && len(rules) > 0 && !slices.Contains([]string{"omitempty", "omitnil", "omitzero"}, rules[0]) {
				return fmt.Errorf("field %s.%s is optional (json omitempty/omitzero) but its validate rules %q also run when the model leaves it out (on the zero value); start the tag with omitempty: validate:\"omitempty,%s\"",
					typeName(t), sf.Name, pre, vtag)
			}
			if hasTagWord(pre, "required") {
				if err := checkRequiredRule(t, sf); err != nil {
					return err
				}
			}
			cands = append(cands, cand{f: goField{name: name, goName: sf.Name, index: append(append([]int(nil), index...), i),
				typ: ft, required: required, validate: vtag, depth: depth, nullable: hasTagWord(schemaTag, "nullable")}, tagged: tagged})
		}
		return nil
	}
	if err := walk(t, nil, 0, map[reflect.Type]bool{}); err != nil {
		return nil, err
	}
	// Resolve names: shallowest depth wins; at that depth a single tagged
	// field wins; anything else is ambiguous.
	byName := map[string][]int{}
	var order []string
	for i, c := range cands {
		if _, ok := byName[c.f.name]; !ok {
			order = append(order, c.f.name)
		}
		byName[c.f.name] = append(byName[c.f.name], i)
	}
	var out []goField
	for _, name := range order {
		idx := byName[name]
		minDepth := cands[idx[0]].f.depth
		for _, i := range idx {
			minDepth = min(minDepth, cands[i].f.depth)
		}
		var atMin, tagged []int
		for _, i := range idx {
			if cands[i].f.depth == minDepth {
				atMin = append(atMin, i)
				if cands[i].tagged {
					tagged = append(tagged, i)
				}
			}
		}
		switch {
		case len(atMin) == 1:
			out = append(out, cands[atMin[0]].f)
		case len(tagged) == 1:
			out = append(out, cands[tagged[0]].f)
		default:
			return nil, fmt.Errorf("struct %s: JSON property %q is declared by %d fields at the same depth; encoding/json would drop it, so rename one", typeName(t), name, len(atMin))
		}
	}
	slices.SortStableFunc(out, func(a, b goField) int { return slices.Compare(a.index, b.index) })
	return out, nil
}

// validJSONName reports whether encoding/json accepts name from a json tag
// (its isValidTag rule).
func validJSONName(name string) bool {
	for _, c := range name {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// splitDive splits a validate tag at its first "dive" rule: the rules for
// the field and the rules for its items.
func splitDive(tag string) (pre, post string) {
	rules := strings.Split(tag, ",")
	for i, r := range rules {
		if strings.TrimSpace(r) == "dive" {
			return strings.Join(rules[:i], ","), strings.Join(rules[i+1:], ",")
		}
	}
	return tag, ""
}

func hasTagWord(tag, word string) bool {
	for _, p := range strings.Split(tag, ",") {
		if strings.TrimSpace(p) == word {
			return true
		}
	}
	return false
}

// checkRequiredRule refuses validate:"required" where validator's meaning
// (not the zero value) contradicts the schema, which can only say that the
// key must be present: false, 0 or an all-zero object would be shown as
// valid and refused. On a string it is shown as minLength 1; on a pointer,
// slice, map or interface it means "present and not null", which the
// schema says already.
func checkRequiredRule(t reflect.Type, sf reflect.StructField) error {
	ft := sf.Type
	where := typeName(t) + "." + sf.Name
	const already = "the property is already required (its json tag has no omitempty)"
	switch k := ft.Kind(); {
	case k == reflect.Bool:
		return fmt.Errorf("field %s: validate \"required\" on a bool refuses false, which the schema allows; %s: drop the rule, or use *bool to require the key while allowing false", where, already)
	case k >= reflect.Int && k <= reflect.Float64:
		return fmt.Errorf("field %s: validate \"required\" on a number refuses 0, which the schema allows; %s: drop the rule, use *%s to require the key while allowing 0, or state the bound (min=1, gt=0, ne=0)", where, already, ft)
	case k == reflect.Struct && !isStdType(ft) && !implements(ft, schemaHookType):
		return fmt.Errorf("field %s: validate \"required\" on a struct refuses an object whose fields are all zero, which the schema allows; %s: drop the rule, or use *%s", where, already, ft)
	}
	return nil
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
		if p != "" && p != part && strings.Contains(p, "=") && strings.TrimLeft(part, " \t") != part {
			return fmt.Errorf("field %s.%s: jsonschema tag entry %q starts with a space, which invopop/jsonschema reads as an unknown key and drops; remove the space after the comma",
				typeName(t), sf.Name, part)
		}
		if p == "" || knownBareSchemaWs[p] {
			continue
		}
		if key, val, ok := strings.Cut(p, "="); ok {
			if err := checkSchemaKey(t, sf, key, val); err != nil {
				return err
			}
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
		Mapper:         stdMapper,
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
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("marshalling the schema of %s: %v", t, err)
	}
	tree, err := jsonx.Parse(b)
	if err != nil {
		return nil, fmt.Errorf("re-reading the schema of %s: %v", t, err)
	}
	tree = canonical(tree)
	renameDefs(tree)
	w.tree = tree
	return jsonx.Marshal(tree), nil
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
	case isStdType(t), implements(t, schemaHookType), implements(t, schemaAliasType),
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
				applyValidate(p.resolve(ps, f.typ), f.typ, f.validate, enforced)
			}
			childEnforced := enforced
			ft := f.typ
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			switch ft.Kind() {
			case reflect.Slice, reflect.Array, reflect.Map:
				childEnforced = enforced && hasDive(f.validate)
			}
			if err := p.patch(ps, f.typ, childEnforced); err != nil {
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
		if s.AdditionalProperties != nil {
			return p.patch(s.AdditionalProperties, t.Elem(), enforced)
		}
		for _, ps := range s.PatternProperties {
			if err := p.patch(ps, t.Elem(), enforced); err != nil {
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
func applyValidate(s *jsonschema.Schema, t reflect.Type, tag string, enforced bool) {
	ptr := t.Kind() == reflect.Pointer
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	pre, post := splitDive(tag)
	for _, rule := range splitRules(pre) {
		if ptr && rule == "required" {
			continue // on a pointer: present and not null, which the schema says already
		}
		applyRule(s, t, rule, enforced)
	}
	if post == "" && !hasDive(tag) {
		return
	}
	// keys ... endkeys rules apply to map keys, which have no schema here.
	if rules := splitRules(post); len(rules) > 0 && rules[0] == "keys" {
		end := slices.Index(rules, "endkeys")
		if end < 0 {
			return
		}
		post = strings.Join(rules[end+1:], ",")
	}
	var item *jsonschema.Schema
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		item = s.Items
	case reflect.Map:
		item = s.AdditionalProperties
	}
	if item != nil && item != jsonschema.TrueSchema && item != jsonschema.FalseSchema {
		applyValidate(item, t.Elem(), post, enforced)
	}
}

func hasDive(tag string) bool {
	_, post := splitDive(tag)
	return post != "" || slices.Contains(splitRules(tag), "dive")
}

// splitRules splits a validate tag into its rules, honouring the quotes
// oneof allows ('a b').
func splitRules(tag string) []string {
	var out []string
	for _, r := range strings.Split(tag, ",") {
		if r = strings.TrimSpace(r); r != "" {
			out = append(out, r)
		}
	}
	return out
}

// oneofValues splits a oneof parameter the way validator does: by spaces,
// with 'single quoted' values that may contain spaces.
func oneofValues(param string) []string {
	var out []string
	for len(param) > 0 {
		param = strings.TrimLeft(param, " ")
		if param == "" {
			break
		}
		if param[0] == '\'' {
			if end := strings.IndexByte(param[1:], '\''); end >= 0 {
				out = append(out, param[1:1+end])
				param = param[end+2:]
				continue
			}
		}
		v, rest, _ := strings.Cut(param, " ")
		out = append(out, v)
		param = rest
	}
	return out
}

func applyRule(s *jsonschema.Schema, t reflect.Type, rule string, enforced bool) {
	if rule == "" || strings.Contains(rule, "|") {
		return
	}
	name, param, _ := strings.Cut(rule, "=")
	if !enforced && (strings.HasPrefix(name, "hostname") || name == "unique") {
		return // neither the validator (no dive) nor the checker would enforce it
	}
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
		for _, v := range oneofValues(param) {
			if kind == reflect.Bool {
				if b, err := strconv.ParseBool(v); err == nil {
					s.Enum = append(s.Enum, b)
				}
				continue
			}
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
	case "required":
		if isStr && s.MinLength == nil {
			one := uint64(1)
			s.MinLength = &one // validator's required on a string: not empty
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

// checkValidateTags makes go-playground/validator parse and run every
// `validate` tag now, on a zero value of each struct type and on a non-zero
// sample of each field: validator panics on an unknown rule, a rule that
// does not fit the field's type or a bad parameter, at the first validation
// that reaches it, which must be a registration error, not a failed call
// later. Cross-field rules (eqfield=, required_if=, ...) are left to the
// zero-value pass, since a lone field has no siblings.
func checkValidateTags(objs map[reflect.Type]*objSpec, fields map[reflect.Type][]goField) error {
	types := make([]reflect.Type, 0, len(objs))
	for t := range objs {
		types = append(types, t)
	}
	slices.SortFunc(types, func(a, b reflect.Type) int { return strings.Compare(a.String(), b.String()) })
	try := func(what string, f func()) (err error) {
		defer func() {
			if v := recover(); v != nil {
				err = fmt.Errorf("%s: invalid validate tag: %v", what, v)
			}
		}()
		f()
		return nil
	}
	for _, t := range types {
		if err := try("struct "+typeName(t), func() { _ = validate().Struct(reflect.New(t).Interface()) }); err != nil {
			return err
		}
		for _, f := range fields[t] {
			tag := standaloneRules(f.validate)
			if tag == "" {
				continue
			}
			v := sampleValue(f.typ, 0)
			if err := try("field "+typeName(t)+"."+f.goName, func() { _ = validate().Var(v.Interface(), tag) }); err != nil {
				return err
			}
		}
	}
	return nil
}

// standaloneRules drops the rules that refer to other fields.
func standaloneRules(tag string) string {
	var keep []string
	for _, r := range strings.Split(tag, ",") {
		name, _, _ := strings.Cut(strings.TrimSpace(r), "=")
		if strings.Contains(name, "field") || strings.HasPrefix(name, "required_") || strings.HasPrefix(name, "excluded_") ||
			strings.HasPrefix(name, "skip_unless") || strings.Contains(r, "|") {
			continue
		}
		keep = append(keep, r)
	}
	return strings.Join(keep, ",")
}

// sampleValue returns a non-zero value of t (one item for lists and maps)
// so that rules after omitempty and dive are exercised.
func sampleValue(t reflect.Type, depth int) reflect.Value {
	v := reflect.New(t).Elem()
	if depth > 3 {
		return v
	}
	switch t.Kind() {
	case reflect.Pointer:
		p := reflect.New(t.Elem())
		p.Elem().Set(sampleValue(t.Elem(), depth+1))
		return p
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1)
	case reflect.Slice:
		s := reflect.MakeSlice(t, 1, 1)
		s.Index(0).Set(sampleValue(t.Elem(), depth+1))
		return s
	case reflect.Map:
		m := reflect.MakeMapWithSize(t, 1)
		m.SetMapIndex(sampleValue(t.Key(), depth+1), sampleValue(t.Elem(), depth+1))
		return m
	}
	return v
}

// hasCycle reports whether a struct type reachable from t contains itself,
// looking through every field the way invopop's reflector does (including
// types with their own unmarshalers). invopop overflows the stack on such
// types unless it may use $defs/$ref, so this runs before it.
func hasCycle(t reflect.Type, onStack, done map[reflect.Type]bool) bool {
	for {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			t = t.Elem()
			continue
		case reflect.Map:
			if hasCycle(t.Key(), onStack, done) {
				return true
			}
			t = t.Elem()
			continue
		}
		break
	}
	if t.Kind() != reflect.Struct || isStdType(t) || implements(t, schemaHookType) || implements(t, schemaAliasType) {
		return false
	}
	if onStack[t] {
		return true
	}
	if done[t] {
		return false
	}
	onStack[t] = true
	defer delete(onStack, t)
	for i := 0; i < t.NumField(); i++ {
		if hasCycle(t.Field(i).Type, onStack, done) {
			return true
		}
	}
	done[t] = true
	return false
}

// Keys of invopop's jsonschema tag, by the kind of field they apply to.
var (
	schemaKeysAny    = []string{"title", "description", "type", "anchor", "default", "example", "enum", "readOnly", "writeOnly", "oneof_required", "anyof_required", "oneof_ref", "oneof_type", "anyof_ref", "anyof_type"}
	schemaKeysString = []string{"minLength", "maxLength", "pattern", "format"}
	schemaKeysNumber = []string{"multipleOf", "minimum", "maximum", "exclusiveMaximum", "exclusiveMinimum"}
	schemaKeysArray  = []string{"minItems", "maxItems", "uniqueItems", "format", "pattern"}
)

// checkSchemaKey refuses a jsonschema tag key that invopop would drop
// silently (unknown, or meant for another kind of field) and a type= that
// contradicts the Go type: either way the model would be told something
// the runtime does not do.
func checkSchemaKey(t reflect.Type, sf reflect.StructField, key, val string) error {
	ft := sf.Type
	for ft.Kind() == reflect.Pointer {
		ft = ft.Elem()
	}
	if slices.Contains(schemaKeysAny, key) {
		if key == "default" || key == "enum" || key == "example" {
			if err := checkTagValue(jsonTypeOf(ft), val); err != nil {
				return fmt.Errorf("field %s.%s: jsonschema %s=%s: %v (invopop/jsonschema would drop it)", typeName(t), sf.Name, key, val, err)
			}
		}
		if key == "type" {
			want := jsonTypeOf(ft)
			if want != "" && val != want {
				return fmt.Errorf("field %s.%s: jsonschema type=%s contradicts the Go type %s (%s); remove it", typeName(t), sf.Name, val, sf.Type, want)
			}
		}
		return nil
	}
	var allowed []string
	kind := ""
	switch jsonTypeOf(ft) {
	case "string":
		allowed, kind = schemaKeysString, "string"
	case "integer", "number":
		allowed, kind = schemaKeysNumber, "number"
	case "array":
		allowed, kind = schemaKeysArray, "array"
	}
	if slices.Contains(allowed, key) {
		return nil
	}
	all := slices.Concat(schemaKeysString, schemaKeysNumber, schemaKeysArray)
	if slices.Contains(all, key) {
		return fmt.Errorf("field %s.%s: jsonschema key %q does not apply to a %s field (invopop/jsonschema would drop it)", typeName(t), sf.Name, key, orWord(kind, "non-"+key+" "))
	}
	return fmt.Errorf("field %s.%s: jsonschema key %q is not one invopop/jsonschema knows (it would drop it); known keys: %s", typeName(t), sf.Name, key,
		strings.Join(slices.Compact(slices.Sorted(slices.Values(slices.Concat(schemaKeysAny, all)))), ", "))
}

// checkTagValue reports a default=, enum= or example= value that invopop
// cannot parse for a field of JSON type typ.
func checkTagValue(typ, val string) error {
	var err error
	switch typ {
	case "integer":
		_, err = strconv.ParseInt(val, 10, 64)
	case "number":
		_, err = strconv.ParseFloat(val, 64)
	case "boolean":
		_, err = strconv.ParseBool(val)
	default:
		return nil
	}
	if err != nil {
		return fmt.Errorf("%q is not %s", val, map[string]string{"integer": "an integer", "number": "a number", "boolean": "true or false"}[typ])
	}
	return nil
}

func orWord(s, alt string) string {
	if s == "" {
		return strings.TrimSpace(alt)
	}
	return s
}

// jsonTypeOf is the JSON Schema type of a Go type ("" when it has no single
// type: interfaces, custom marshalers).
func jsonTypeOf(t reflect.Type) string {
	switch {
	case isStdType(t):
		return stdTypes[t].schema().Type
	case implements(t, jsonUnmarshaler), implements(t, schemaHookType), implements(t, schemaAliasType):
		return ""
	case implements(t, textUnmarshaler):
		return "string"
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "string"
		}
		return "array"
	case reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return ""
}

// mirrored reports whether every rule of a validate tag on a field of type t
// is enforced by the checker with the validator's own semantics (presence,
// oneof → enum, min/max/len/gt/gte/lt/lte → bounds or lengths, required →
// non-zero), so the validator need not run for it. Formats, cross-field
// rules, map sizes, keys/endkeys and anything else keep the validator.
func mirrored(tag string, t reflect.Type) bool {
	ptr := t.Kind() == reflect.Pointer
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	pre, post := splitDive(tag)
	kind := t.Kind()
	isNum := kind >= reflect.Int && kind <= reflect.Float64
	isInt := kind >= reflect.Int && kind <= reflect.Uintptr
	isStr := kind == reflect.String && jsonTypeOf(t) == "string"
	isList := (kind == reflect.Slice || kind == reflect.Array) && jsonTypeOf(t) == "array"
	if isStdType(t) || implements(t, jsonUnmarshaler) || implements(t, textUnmarshaler) {
		return false
	}
	for _, rule := range splitRules(pre) {
		name, param, _ := strings.Cut(rule, "=")
		switch name {
		case "omitempty":
		case "required":
			// On a string: not empty (minLength 1). On a pointer, slice or
			// map: not nil, that is present and not null, which the schema
			// says. Numbers, bools and structs are refused at registration.
			if !ptr && !isStr && !isList && kind != reflect.Map {
				return false
			}
		case "oneof":
			if !isStr && !isInt {
				return false
			}
		case "min", "max", "len", "gte", "lte", "gt", "lt":
			if !isNum && !isStr && !isList {
				return false
			}
			if !isNum {
				n, err := strconv.ParseUint(param, 10, 64)
				if err != nil || (name == "lt" && n == 0) {
					return false
				}
			}
		default:
			return false
		}
	}
	if hasDive(tag) {
		if !isList || strings.HasPrefix(strings.TrimSpace(post), "keys") {
			return false
		}
		return mirrored(post, t.Elem())
	}
	return true
}
