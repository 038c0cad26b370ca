package argtype

import (
	"fmt"
	"math/bits"
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// goField is one JSON property of a struct after embedded structs are
// flattened the way encoding/json flattens them.
type goField struct {
	name      string // JSON name
	goName    string // Go field name
	index     []int  // reflect index path
	typ       reflect.Type
	required  bool
	validate  string // `validate` tag
	depth     int
	tagged    bool // the json tag names the property
	nullable  bool // jsonschema:"nullable": null is a valid value
	ownFormat bool // the jsonschema tag sets format= (a validate format rule is then not shown)
}

// The specs of the plain kinds, shared: specs are not modified once built
// (a nullable field gets a copy).
var (
	boolSpec    = &valSpec{kind: kBool}
	float64Spec = &valSpec{kind: kNumber}
	stringSpec  = &valSpec{kind: kString}
	base64Spec  = &valSpec{kind: kBase64}
	// by kind, from reflect.Int and reflect.Uint on
	intSpecs  = [...]*valSpec{{kind: kInteger, bits: bits.UintSize}, {kind: kInteger, bits: 8}, {kind: kInteger, bits: 16}, {kind: kInteger, bits: 32}, {kind: kInteger, bits: 64}}
	uintSpecs = [...]*valSpec{{kind: kInteger, bits: bits.UintSize, unsigned: true}, {kind: kInteger, bits: 8, unsigned: true}, {kind: kInteger, bits: 16, unsigned: true},
		{kind: kInteger, bits: 32, unsigned: true}, {kind: kInteger, bits: 64, unsigned: true}, {kind: kInteger, bits: bits.UintSize, unsigned: true}}
)

type walker struct {
	// structs are the struct types met so far, in the order they were met.
	structs   []*walkedStruct
	byType    map[reflect.Type]*walkedStruct
	recursive bool
	validate  bool
	// needValidator is set when a validate rule is not mirrored exactly by
	// the checker (see mirrored).
	needValidator bool
}

// walkedStruct is what the walker knows of one struct type.
type walkedStruct struct {
	t       reflect.Type
	obj     objSpec
	fields  []goField
	onStack bool // the walk is inside this struct's fields
}

// fieldsOf returns the fields of the struct type t listed by the walk
// (false if it did not reach t).
func (w *walker) fieldsOf(t reflect.Type) ([]goField, bool) {
	if s := w.byType[t]; s != nil {
		return s.fields, true
	}
	return nil, false
}

func (w *walker) add(s *walkedStruct) {
	if w.byType == nil {
		w.byType = map[reflect.Type]*walkedStruct{}
	}
	w.structs = append(w.structs, s)
	w.byType[s.t] = s
}

// implements reports whether t or *t has the methods of iface. Predeclared
// and unnamed types other than structs, pointers and interfaces have no
// methods, nor have pointers to them; they are answered without reflect's
// method search (most fields of an argument type are such types, and
// reflect.PointerTo costs a lookup in a global map).
func implements(t, iface reflect.Type) bool {
	return mayHaveMethods(t) && (t.Implements(iface) || reflect.PointerTo(t).Implements(iface))
}

// byteSlice reports whether encoding/json reads the slice type t as a
// base64 string: a slice of bytes, or of a byte type of its own without
// decoding methods.
func byteSlice(t reflect.Type) bool {
	return t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 &&
		!implements(t.Elem(), jsonUnmarshaler) && !implements(t.Elem(), textUnmarshaler)
}

// mayHaveMethods is false when neither t nor *t can have methods: t is
// predeclared or unnamed, and not a struct (which may promote methods of
// embedded fields), a pointer or an interface.
func mayHaveMethods(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Struct, reflect.Pointer, reflect.Interface:
		return true
	}
	return t.PkgPath() != ""
}

// place names a field for error messages, "Args.Done" or "Args.Tags[]",
// built only when a message needs it.
type place struct {
	owner reflect.Type // the struct (named by typeName), alone for the root
	field string       // the Go field name, "" for the root
	elems int          // how many "[]" follow (elements of slices and maps)
}

func (p place) String() string {
	s := typeName(p.owner)
	if p.field != "" {
		s += "." + p.field
	}
	return s + strings.Repeat("[]", p.elems)
}

// elem is the place of an element of the slice or map at p.
func (p place) elem() place {
	p.elems++
	return p
}

// value builds the checker spec for a Go type. where names the field for
// error messages.
func (w *walker) value(t reflect.Type, where place) (*valSpec, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	// The standard, refused and self-describing types are named and have
	// methods; a predeclared or unnamed type is none of them.
	if mayHaveMethods(t) {
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
			return nil, selfDecodingError(where.String(), t, how)
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		return boolSpec, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intSpecs[t.Kind()-reflect.Int], nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return uintSpecs[t.Kind()-reflect.Uint], nil
	case reflect.Float32:
		return &valSpec{kind: kNumber, bits: 32}, nil
	case reflect.Float64:
		return float64Spec, nil // any JSON number but 1e400 fits; the decoder reports that one
	case reflect.String:
		return stringSpec, nil
	case reflect.Interface:
		if t.NumMethod() > 0 {
			return nil, fmt.Errorf("field %s (%s): interface types with methods cannot be decoded from JSON; use any, json.RawMessage or a concrete type", where, t)
		}
		return anySpec, nil
	case reflect.Slice, reflect.Array:
		if byteSlice(t) {
			return base64Spec, nil // []byte is base64, as encoding/json does
		}
		elem, err := w.value(t.Elem(), where.elem())
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
		elem, err := w.value(t.Elem(), where.elem())
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
		o, err := w.object(t)
		if err != nil {
			return nil, err
		}
		return &valSpec{kind: kObject, obj: o}, nil
	}
	return nil, fmt.Errorf("field %s (%s): %w (JSON has no %s)", where, t, errUnsupported, t.Kind())
}

func (w *walker) object(t reflect.Type) (*objSpec, error) {
	if ws := w.byType[t]; ws != nil {
		if ws.onStack {
			w.recursive = true
		}
		return &ws.obj, nil
	}
	ws := &walkedStruct{t: t, onStack: true}
	w.add(ws)
	defer func() { ws.onStack = false }()
	fields, err := structFields(t)
	if err != nil {
		return nil, err
	}
	ws.fields = fields
	o := &ws.obj
	o.fields = make([]fieldSpec, 0, len(fields))
	if len(fields) > linearFields {
		o.index = make(map[string]int, len(fields))
	}
	for _, f := range fields {
		if f.validate != "" {
			w.validate = true
			if !mirrored(f.validate, f.typ, f.ownFormat) {
				w.needValidator = true
			}
		}
		vs, err := w.value(f.typ, place{owner: t, field: f.goName})
		if err != nil {
			return nil, err
		}
		if f.nullable && vs != anySpec {
			cp := *vs
			cp.nullable = true
			vs = &cp
		}
		if o.index != nil {
			o.index[f.name] = len(o.fields)
		}
		o.fields = append(o.fields, fieldSpec{name: f.name, required: f.required, val: vs})
	}
	return o, nil
}

// structFields lists the JSON properties of struct t as encoding/json sees
// them: embedded structs flattened, the shallowest field winning, a tagged
// field winning over untagged ones at the same depth, in index order. Where
// encoding/json would silently drop a property (two fields of one name at
// the same depth, both tagged or both untagged), it is an error instead.
func structFields(t reflect.Type) ([]goField, error) {
	cands := make([]goField, 0, t.NumField())
	embeds := false // some field comes from an embedded struct
	root := t
	var visiting []reflect.Type // the embedded structs being walked, outermost first
	var walk func(t reflect.Type, index []int, depth int) error
	walk = func(t reflect.Type, index []int, depth int) error {
		if depth > 0 {
			if t == root || slices.Contains(visiting, t) {
				return fmt.Errorf("struct %s embeds itself (directly or through other embedded structs); name the field instead of embedding it", typeName(t))
			}
			visiting = append(visiting, t)
			defer func() { visiting = visiting[:len(visiting)-1] }()
		}
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
					embeds = true
					if err := walk(et, append(append([]int(nil), index...), i), depth+1); err != nil {
						return err
					}
					continue
				}
				if !sf.IsExported() {
					continue
				}
			} else if !sf.IsExported() {
				if err := unexportedTagged(t, sf); err != nil {
					return err
				}
				continue
			}
			if name == "-" {
				return fmt.Errorf("field %s.%s: a property named \"-\" (json:\"-,\") is not supported", typeName(t), sf.Name)
			}
			if name != "" && !validJSONName(name) {
				return fmt.Errorf("field %s.%s: json name %q is not one encoding/json accepts (it would use %q instead); rename it", typeName(t), sf.Name, name, sf.Name)
			}
			isTagged := hasTag && name != ""
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
			pre, _, _ := cutDive(vtag)
			required := !optional || hasTagWord(schemaTag, "required") || hasTagWord(pre, "required")
			if first := firstRule(pre); !required && first != "" && !slices.Contains([]string{"omitempty", "omitnil", "omitzero"}, first) && !allConditional(splitRules(pre)) {
				return fmt.Errorf("field %s.%s is optional (json omitempty/omitzero) but its validate rules %q also run when the model leaves it out (on the zero value); start the tag with omitempty: validate:\"omitempty,%s\"",
					typeName(t), sf.Name, pre, vtag)
			}
			if hasTagWord(pre, "required") {
				if err := checkRequiredRule(t, sf); err != nil {
					return err
				}
			}
			fieldIndex := append(slices.Clip(index), i)
			cands = append(cands, goField{name: name, goName: sf.Name, index: fieldIndex,
				typ: ft, required: required, validate: vtag, depth: depth, tagged: isTagged, nullable: hasTagWord(schemaTag, "nullable"),
				ownFormat: strings.Contains(schemaTag, "format=")})
		}
		return nil
	}
	if err := walk(t, nil, 0); err != nil {
		return nil, err
	}
	if !embeds && len(cands) <= 32 && !repeatedName(cands, func(f goField) string { return f.name }) {
		// Every field is at depth 0 under its own name: nothing to resolve,
		// and the walk listed them in index order.
		if len(cands) == 0 {
			return nil, nil // nil when there are none, as below
		}
		return cands, nil
	}

	// Resolve names: shallowest depth wins; at that depth a single tagged
	// field wins; anything else is ambiguous.
	byName := map[string][]int{}
	var order []string
	for i, c := range cands {
		if _, ok := byName[c.name]; !ok {
			order = append(order, c.name)
		}
		byName[c.name] = append(byName[c.name], i)
	}
	var out []goField
	for _, name := range order {
		idx := byName[name]
		minDepth := cands[idx[0]].depth
		for _, i := range idx {
			minDepth = min(minDepth, cands[i].depth)
		}
		var atMin, tagged []int
		for _, i := range idx {
			if cands[i].depth == minDepth {
				atMin = append(atMin, i)
				if cands[i].tagged {
					tagged = append(tagged, i)
				}
			}
		}
		switch {
		case len(atMin) == 1:
			out = append(out, cands[atMin[0]])
		case len(tagged) == 1:
			out = append(out, cands[tagged[0]])
		default:
			return nil, fmt.Errorf("struct %s: JSON property %q is declared by %d fields at the same depth; encoding/json would drop it, so rename one", typeName(t), name, len(atMin))
		}
	}
	slices.SortStableFunc(out, func(a, b goField) int { return slices.Compare(a.index, b.index) })
	return out, nil
}

// repeatedName reports whether two elements of s have the same name
// (quadratic: for the short lists of one struct's fields).
func repeatedName[T any](s []T, name func(T) string) bool {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if name(s[i]) == name(s[j]) {
				return true
			}
		}
	}
	return false
}

// validJSONName reports whether encoding/json accepts name from a json tag
// (its isValidTag rule).
func validJSONName(name string) bool {
	for _, c := range name {
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_':
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// hasCycle reports whether a struct type reachable from t contains itself,
// looking through every field the way invopop's reflector does (including
// types with their own unmarshalers). invopop overflows the stack on such
// types unless it may use $defs/$ref, so this runs before it.
func hasCycle(t reflect.Type) bool {
	return cycleFrom(t, map[reflect.Type]bool{})
}

// cycleFrom is hasCycle below t; state holds the structs being looked
// through (true) and those found free of cycles (false).
func cycleFrom(t reflect.Type, state map[reflect.Type]bool) bool {
	for {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			t = t.Elem()
			continue
		case reflect.Map:
			if cycleFrom(t.Key(), state) {
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
	if onStack, seen := state[t]; seen {
		return onStack
	}
	state[t] = true
	for i := 0; i < t.NumField(); i++ {
		if cycleFrom(t.Field(i).Type, state) {
			return true
		}
	}
	state[t] = false
	return false
}

// Keys of invopop's jsonschema tag, by the kind of field they apply to.
var (
	schemaKeysAny    = []string{"title", "description", "type", "anchor", "default", "example", "enum", "readOnly", "writeOnly", "oneof_required", "anyof_required", "oneof_ref", "oneof_type", "anyof_ref", "anyof_type"}
	schemaKeysString = []string{"minLength", "maxLength", "pattern", "format"}
	schemaKeysNumber = []string{"multipleOf", "minimum", "maximum", "exclusiveMaximum", "exclusiveMinimum"}
	schemaKeysArray  = []string{"minItems", "maxItems", "uniqueItems", "format", "pattern"}
)

// allConditional reports whether every rule is a conditional presence rule
// (required_if, required_with, excluded_unless, ...): rules made to run on
// a field the model left out, so an optional field may carry them without
// a leading omitempty (which would switch them off).
func allConditional(rules []string) bool {
	for _, r := range rules {
		name, _, _ := strings.Cut(r, "=")
		if !strings.HasPrefix(name, "required_") && !strings.HasPrefix(name, "excluded_") {
			return false
		}
	}
	return true
}

// unexportedTagged refuses a json tag on the unexported field sf of t:
// encoding/json ignores the field, so its property would vanish and the
// model's value be refused as unknown (go vet's structtag check reports it
// too).
func unexportedTagged(t reflect.Type, sf reflect.StructField) error {
	if tag := sf.Tag.Get("json"); tag == "" || tag == "-" {
		return nil
	}
	r, size := utf8.DecodeRuneInString(sf.Name)
	return fmt.Errorf("field %s.%s: it has a json tag but is unexported, so encoding/json ignores it and the model could not set it; export it (rename it %s) or remove the tag",
		typeName(t), sf.Name, string(unicode.ToUpper(r))+sf.Name[size:])
}
