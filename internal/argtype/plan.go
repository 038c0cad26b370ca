package argtype

import (
	"encoding/json"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"sync"
	"unicode/utf8"

	jschema "github.com/toolnexus/toolnexus/schema"
)

// This file holds the plan of the one-pass path of a typed call (its
// reader is onepass.go): the arguments are checked against the compiled
// schema and decoded into the argument type in one scan, from a plan
// (opNode) compiled once per type from the reflected schema (Info.Schema, exactly what the model is shown) and the
// Go type's layout.
//
// The plan mirrors, per value: type; for strings minLength, maxLength and
// an enum of strings; for integers and numbers minimum, maximum,
// exclusiveMinimum and exclusiveMaximum (bounds a float64 holds exactly);
// for objects properties, required, additionalProperties and the defaults
// of scalar properties; for arrays items, minItems and maxItems. A value
// whose schema says anything else (pattern, format, const, multipleOf,
// uniqueItems, a map, time.Time, ...) is checked by the schema engine on
// the exact bytes of that value (a validator compiled from its subschema)
// and decoded from them by encoding/json.
//
// The path never reports a problem: at the first thing that is not plainly
// valid (a failed check, null, a key it does not know or with an escape, a
// number at a float bound, 30.0 for an integer, invalid UTF-8, a
// constrained string with an escape, ...) it reports false and the caller
// runs the full path (ApplyDefaults, Validate, encoding/json, Diagnose),
// whose messages are the only ones the model sees. So it only
// has to be sound: when it reports true, the engine accepts the arguments
// (with defaults applied) and target holds what encoding/json decodes
// from them. A type whose schema has what the plan cannot follow ($ref,
// combinators, a default under a value checked by the engine, more than 64
// properties, ...) has no plan and always takes the full path.

// opNode is the one-pass plan of one value.
type opNode struct {
	kind dkind // dString, dInt, dUint, dFloat, dBool, dPtr, dSlice, dStruct; dRaw: checked by sub
	t    reflect.Type
	size uintptr // dInt, dUint: Go size in bytes
	bits int     // dFloat: 32 or 64
	elem *opNode // dPtr: the pointee (same schema); dSlice: the items

	// dString
	minLen, maxLen int      // -1: none
	enum           []string // string enum; nil: none

	// dInt, dUint: inclusive bounds (exclusive ones moved by one)
	iMin, iMax       int64
	hasIMin, hasIMax bool
	// dFloat: bounds a float64 holds exactly; a value equal to one falls back
	fMin, fMax       float64
	hasFMin, hasFMax bool
	fMinEx, fMaxEx   bool // the bound is exclusive

	// dSlice
	minItems, maxItems int       // -1: none
	scratch            sync.Pool // *reflect.Value: a zeroed []T the items are decoded into

	// dStruct
	fields   []opField
	required uint64 // bit i: fields[i] is required

	// dRaw
	sub *jschema.Validator // the value's subschema compiled (also checks syntax)
}

// opField is one property of a struct node.
type opField struct {
	name   string
	quoted string // name in quotes, as a key without escapes is written
	offset uintptr
	node   *opNode
	def    []byte // the schema's default, decoded when the key is absent
}

// annotations are keywords that do not constrain a value.
var annotations = map[string]bool{
	"description": true, "title": true, "examples": true, "$comment": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "default": true,
}

// opaqueDeny are keywords a subschema checked by its own validator must
// not hold anywhere: they refer outside it ($ref), make validation steps
// multiply (combinators) or would be applied by ApplyDefaults (default).
var opaqueDeny = map[string]bool{
	"$ref": true, "$dynamicRef": true, "$recursiveRef": true, "allOf": true, "anyOf": true,
	"oneOf": true, "not": true, "if": true, "then": true, "else": true,
	"dependentSchemas": true, "default": true,
}

type opCompiler struct{}

// compileOnePass returns the plan of the argument type t (a struct) for
// schema, or nil when the plan cannot follow the schema.
func compileOnePass(t reflect.Type, schema []byte) *opNode {
	var c opCompiler
	n, ok := c.node(schema, t, 0)
	if !ok || n.kind != dStruct {
		return nil
	}
	return n
}

func (c *opCompiler) node(raw json.RawMessage, t reflect.Type, depth int) (*opNode, bool) {
	if depth >= MaxDepth {
		return nil, false
	}
	if t.Kind() == reflect.Pointer {
		e, ok := c.node(raw, t.Elem(), depth)
		if !ok {
			return nil, false
		}
		return &opNode{kind: dPtr, t: t, elem: e}, true
	}
	var kw map[string]json.RawMessage
	if json.Unmarshal(raw, &kw) != nil {
		return c.opaque(raw, t, depth) // true or false
	}
	n := &opNode{kind: kindOf(t), t: t, minLen: -1, maxLen: -1, minItems: -1, maxItems: -1}
	ok := false
	switch n.kind {
	case dString:
		ok = c.stringNode(n, kw)
	case dInt, dUint:
		n.size = t.Size()
		ok = c.intNode(n, kw)
	case dFloat:
		n.bits = t.Bits()
		ok = c.floatNode(n, kw)
	case dBool:
		ok = onlyKeys(kw, "type") && typeIs(kw, "boolean")
	case dSlice:
		ok = c.arrayNode(n, kw, depth)
	case dStruct:
		if fields, plain := plainFields(t); plain {
			var fail bool
			if ok, fail = c.structNode(n, fields, kw, depth); fail {
				return nil, false
			}
		}
	}
	if !ok {
		return c.opaque(raw, t, depth)
	}
	return n, true
}

// opaque is a value checked by a validator compiled from its subschema
// (its nesting limit reduced by depth) and decoded by encoding/json.
func (c *opCompiler) opaque(raw json.RawMessage, t reflect.Type, depth int) (*opNode, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil || denied(v) {
		return nil, false
	}
	n := &opNode{kind: dRaw, t: t}
	opts := *typedOptions
	opts.MaxDepth = MaxDepth - depth
	sub, err := jschema.Compile(raw, &opts)
	if err != nil {
		return nil, false
	}
	n.sub = sub
	return n, true
}

// denied reports a keyword of opaqueDeny anywhere in v (also as a
// property name: the check only errs towards the full path).
func denied(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if opaqueDeny[k] || denied(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if denied(e) {
				return true
			}
		}
	}
	return false
}

// onlyKeys reports that kw holds only annotations and the keys given.
func onlyKeys(kw map[string]json.RawMessage, keys ...string) bool {
next:
	for k := range kw {
		if annotations[k] {
			continue
		}
		for _, o := range keys {
			if k == o {
				continue next
			}
		}
		return false
	}
	return true
}

// typeIs reports that kw's type is the one type want.
func typeIs(kw map[string]json.RawMessage, want string) bool {
	var one string
	return json.Unmarshal(kw["type"], &one) == nil && one == want
}

// count reads a non-negative integer keyword into *dst; false when it is
// present but not one.
func count(kw map[string]json.RawMessage, key string, dst *int) bool {
	raw, ok := kw[key]
	if !ok {
		return true
	}
	x, err := strconv.Atoi(string(raw))
	if err != nil || x < 0 {
		return false
	}
	*dst = x
	return true
}

func (c *opCompiler) stringNode(n *opNode, kw map[string]json.RawMessage) bool {
	if !onlyKeys(kw, "type", "minLength", "maxLength", "enum") || !typeIs(kw, "string") ||
		!count(kw, "minLength", &n.minLen) || !count(kw, "maxLength", &n.maxLen) {
		return false
	}
	if raw, ok := kw["enum"]; ok {
		if json.Unmarshal(raw, &n.enum) != nil || n.enum == nil {
			return false
		}
		for _, s := range n.enum {
			if !plainString(s) {
				return false
			}
		}
	}
	return true
}

// plainString reports a string JSON writes without escapes.
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == '"' || s[i] == '\\' {
			return false
		}
	}
	return utf8.ValidString(s)
}

func (c *opCompiler) intNode(n *opNode, kw map[string]json.RawMessage) bool {
	if !onlyKeys(kw, "type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") || !typeIs(kw, "integer") {
		return false
	}
	for _, b := range [...]struct {
		key   string
		delta int64
		dst   *int64
		has   *bool
		upper bool
	}{
		{"minimum", 0, &n.iMin, &n.hasIMin, false},
		{"exclusiveMinimum", 1, &n.iMin, &n.hasIMin, false},
		{"maximum", 0, &n.iMax, &n.hasIMax, true},
		{"exclusiveMaximum", -1, &n.iMax, &n.hasIMax, true},
	} {
		raw, ok := kw[b.key]
		if !ok {
			continue
		}
		x, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || x <= math.MinInt64+1 || x >= math.MaxInt64-1 {
			return false // a bound written 1.5 or 1e3: the engine's
		}
		x += b.delta
		if *b.has && (b.upper && x > *b.dst || !b.upper && x < *b.dst) {
			continue // the other bound of the pair is tighter
		}
		*b.dst, *b.has = x, true
	}
	return true
}

func (c *opCompiler) floatNode(n *opNode, kw map[string]json.RawMessage) bool {
	if !onlyKeys(kw, "type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") || !typeIs(kw, "number") {
		return false
	}
	if _, ok := kw["minimum"]; ok {
		if _, ok := kw["exclusiveMinimum"]; ok {
			return false
		}
	}
	if _, ok := kw["maximum"]; ok {
		if _, ok := kw["exclusiveMaximum"]; ok {
			return false
		}
	}
	for _, b := range [...]struct {
		key     string
		dst     *float64
		has, ex *bool
		exclude bool
	}{
		{"minimum", &n.fMin, &n.hasFMin, &n.fMinEx, false},
		{"exclusiveMinimum", &n.fMin, &n.hasFMin, &n.fMinEx, true},
		{"maximum", &n.fMax, &n.hasFMax, &n.fMaxEx, false},
		{"exclusiveMaximum", &n.fMax, &n.hasFMax, &n.fMaxEx, true},
	} {
		raw, ok := kw[b.key]
		if !ok {
			continue
		}
		f, exact := exactBound(string(raw))
		if !exact {
			return false
		}
		*b.dst, *b.has, *b.ex = f, true, b.exclude
	}
	return true
}

// exactBound parses a bound and reports whether a float64 holds it
// exactly (then float comparisons other than equality are the engine's
// decimal ones).
func exactBound(s string) (float64, bool) {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return 0, false
	}
	f, exact := r.Float64()
	return f, exact && !math.IsInf(f, 0)
}

func (c *opCompiler) arrayNode(n *opNode, kw map[string]json.RawMessage, depth int) bool {
	if !onlyKeys(kw, "type", "items", "minItems", "maxItems") || !typeIs(kw, "array") ||
		!count(kw, "minItems", &n.minItems) || !count(kw, "maxItems", &n.maxItems) {
		return false
	}
	items, ok := kw["items"]
	if !ok {
		items = json.RawMessage("true")
	}
	e, ok := c.node(items, n.t.Elem(), depth+1)
	if !ok {
		return false
	}
	n.elem = e
	return true
}

// structNode fills a struct node; fail means the type can have no plan
// (a default the plan cannot apply the way ApplyDefaults does).
func (c *opCompiler) structNode(n *opNode, goFields []layoutField, kw map[string]json.RawMessage, depth int) (ok, fail bool) {
	if !onlyKeys(kw, "type", "properties", "required", "additionalProperties") || !typeIs(kw, "object") {
		return false, false
	}
	var props map[string]json.RawMessage
	if raw, has := kw["properties"]; has && json.Unmarshal(raw, &props) != nil {
		return false, false
	}
	var required []string
	if raw, has := kw["required"]; has && json.Unmarshal(raw, &required) != nil {
		return false, false
	}
	for name, sch := range props {
		if !hasGoField(goFields, name) && hasKey(sch, "default") {
			return false, true // ApplyDefaults would insert it: the approval gate sees the arguments
		}
	}
	for _, f := range goFields {
		sch, has := props[f.name]
		if !has {
			continue // the key is not one the plan knows: the full path decides
		}
		fn, ok := c.node(sch, f.t, depth+1)
		if !ok {
			return false, true
		}
		of := opField{name: f.name, quoted: strconv.Quote(f.name), offset: f.offset, node: fn}
		var pk map[string]json.RawMessage
		if json.Unmarshal(sch, &pk) == nil && pk["default"] != nil {
			if !scalar(fn) {
				return false, true
			}
			of.def = pk["default"]
		}
		n.fields = append(n.fields, of)
	}
	if len(n.fields) > 64 {
		return false, true
	}
	for _, r := range required {
		found := false
		for i, f := range n.fields {
			if f.name == r {
				n.required |= 1 << i
				found = true
			}
		}
		if !found {
			return false, true
		}
	}
	return true, false
}

func hasGoField(fields []layoutField, name string) bool {
	for _, f := range fields {
		if f.name == name {
			return true
		}
	}
	return false
}

func hasKey(sch json.RawMessage, key string) bool {
	var kw map[string]json.RawMessage
	return json.Unmarshal(sch, &kw) == nil && kw[key] != nil
}

// scalar reports a value that holds no property, so decoding a default
// into it applies no nested default (ApplyDefaults inserts a default as
// written).
func scalar(n *opNode) bool {
	for n.kind == dPtr {
		n = n.elem
	}
	switch n.kind {
	case dString, dInt, dUint, dFloat, dBool:
		return true
	}
	return false
}
