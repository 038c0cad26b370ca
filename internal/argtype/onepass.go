package argtype

import (
	"encoding/json"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/toolnexus/toolnexus/internal/jsonlex"
	jschema "github.com/toolnexus/toolnexus/schema"
)

// This file holds the one-pass path of a typed call: the arguments are
// checked against the compiled schema and decoded into the argument type
// in one scan, from a plan (opNode) compiled once per type from the
// reflected schema (Info.Schema, exactly what the model is shown) and the
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
// and decoded as the fast decoder does (decode.go).
//
// The path never reports a problem: at the first thing that is not plainly
// valid (a failed check, null, a key it does not know or with an escape, a
// number at a float bound, 30.0 for an integer, invalid UTF-8, a
// constrained string with an escape, ...) it reports false and the caller
// runs the full path (ApplyDefaults, Validate, Decode or encoding/json,
// Diagnose), whose messages are the only ones the model sees. So it only
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
	index    map[string]int // more than 8 fields
	required uint64         // bit i: fields[i] is required

	// dRaw
	sub *jschema.Validator // the value's subschema compiled (also checks syntax)
	dec *decNode           // how the value is decoded
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

type opCompiler struct {
	dec *decCompiler
}

// compileOnePass returns the plan of the argument type t (a struct) for
// schema, or nil when the plan cannot follow the schema.
func compileOnePass(t reflect.Type, schema []byte) *opNode {
	c := &opCompiler{dec: &decCompiler{seen: map[reflect.Type]*decNode{}}}
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
		if c.dec.node(t).kind != dPtr {
			return nil, false
		}
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
	dn := c.dec.node(t)
	n := &opNode{t: t, minLen: -1, maxLen: -1, minItems: -1, maxItems: -1}
	ok := false
	switch dn.kind {
	case dString:
		n.kind = dString
		ok = c.stringNode(n, kw)
	case dInt, dUint:
		n.kind, n.size = dn.kind, dn.size
		ok = c.intNode(n, kw)
	case dFloat:
		n.kind, n.bits = dFloat, dn.bits
		ok = c.floatNode(n, kw)
	case dBool:
		n.kind = dBool
		ok = onlyKeys(kw, "type") && typeIs(kw, "boolean")
	case dSlice:
		n.kind = dSlice
		ok = c.arrayNode(n, kw, depth)
	case dStruct:
		n.kind = dStruct
		var fail bool
		if ok, fail = c.structNode(n, kw, depth); fail {
			return nil, false
		}
	}
	if !ok {
		return c.opaque(raw, t, depth)
	}
	return n, true
}

// opaque is a value checked by a validator compiled from its subschema
// (its nesting limit reduced by depth) and decoded by the fast decoder.
func (c *opCompiler) opaque(raw json.RawMessage, t reflect.Type, depth int) (*opNode, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil || denied(v) {
		return nil, false
	}
	n := &opNode{kind: dRaw, t: t, dec: c.dec.node(t)}
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

// typeIs reports that kw's type is want (alone or with "null", which the
// one-pass path never accepts anyway).
func typeIs(kw map[string]json.RawMessage, want string) bool {
	raw, ok := kw["type"]
	if !ok {
		return false
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return one == want
	}
	var many []string
	if json.Unmarshal(raw, &many) != nil {
		return false
	}
	found := false
	for _, s := range many {
		switch s {
		case want:
			found = true
		case "null":
		default:
			return false
		}
	}
	return found
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
func (c *opCompiler) structNode(n *opNode, kw map[string]json.RawMessage, depth int) (ok, fail bool) {
	dn := c.dec.node(n.t)
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
		if !hasGoField(dn, name) && hasKey(sch, "default") {
			return false, true // ApplyDefaults would insert it: the approval gate sees the arguments
		}
	}
	for _, f := range dn.fields {
		sch, has := props[f.name]
		if !has {
			continue // the key is not one the plan knows: the full path decides
		}
		fn, ok := c.node(sch, f.node.t, depth+1)
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
	if len(n.fields) > 8 {
		n.index = make(map[string]int, len(n.fields))
		for i, f := range n.fields {
			n.index[f.name] = i
		}
	}
	return true, false
}

func hasGoField(dn *decNode, name string) bool {
	for _, f := range dn.fields {
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

// strStop marks the bytes that end the plain run of a string body: the
// quote, a backslash and control characters.
var strStop = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return
}()

// opDecoder is one call of the one-pass path.
type opDecoder struct {
	data      []byte
	i         int
	arena     []byte // strings are copied here once, then shared
	defaulted bool   // a default was applied
}

// checkDecode checks and decodes args into target (a non-nil pointer to a
// zero value of the plan's type); see the top of the file.
func (n *opNode) checkDecode(args []byte, target any) (ok, defaulted bool) {
	rv := reflect.ValueOf(target)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Type().Elem() != n.t {
		return false, false
	}
	d := opDecoder{data: args}
	d.i = jsonlex.WS(args, 0)
	if d.i >= len(args) || args[d.i] != '{' || !d.value(n, rv.UnsafePointer(), 0) {
		return false, false
	}
	return jsonlex.WS(args, d.i) == len(args), d.defaulted
}

// str stores the string body b (no escapes, valid UTF-8) at p, copied
// into the call's arena: one allocation of len(data) bytes for every
// string of the call.
func (d *opDecoder) str(b []byte, p unsafe.Pointer) {
	if len(b) == 0 {
		*(*string)(p) = ""
		return
	}
	if cap(d.arena)-len(d.arena) < len(b) {
		d.arena = make([]byte, 0, max(len(d.data), len(b)))
	}
	start := len(d.arena)
	d.arena = append(d.arena, b...)
	*(*string)(p) = unsafe.String(&d.arena[start], len(b))
}

// value checks and decodes the value at d.i (not whitespace) into the
// n.t at p; depth counts the enclosing objects and arrays.
func (d *opDecoder) value(n *opNode, p unsafe.Pointer, depth int) bool {
	if d.i >= len(d.data) {
		return false
	}
	c := d.data[d.i]
	if c == 'n' {
		return false // null: absent or not, the full path decides
	}
	switch n.kind {
	case dString:
		if c != '"' {
			return false
		}
		start, k, data := d.i, d.i+1, d.data
		var or byte // every byte of the body or'ed: ASCII when below 0x80
		for k < len(data) && !strStop[data[k]] {
			or |= data[k]
			k++
		}
		if k >= len(data) || data[k] != '"' {
			if k >= len(data) || data[k] != '\\' || n.minLen >= 0 || n.maxLen >= 0 || n.enum != nil {
				return false // a control character, the end, or an escape in a constrained string
			}
			end, _, err := jsonlex.Str(data, start)
			if err != jsonlex.None {
				return false
			}
			d.i = end
			var s string
			if json.Unmarshal(data[start:end], &s) != nil {
				return false
			}
			*(*string)(p) = s
			return true
		}
		body := data[start+1 : k]
		d.i = k + 1
		ascii := or < 0x80
		if !ascii && !utf8.Valid(body) {
			return false
		}
		if n.minLen >= 0 || n.maxLen >= 0 {
			runes := len(body)
			if !ascii {
				runes = utf8.RuneCount(body)
			}
			if runes < n.minLen || n.maxLen >= 0 && runes > n.maxLen {
				return false
			}
		}
		if n.enum != nil {
			found := false
			for _, e := range n.enum {
				if e == string(body) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		d.str(body, p)
		return true
	case dInt, dUint:
		return d.integer(n, p, c)
	case dFloat:
		return d.float(n, p, c)
	case dBool:
		switch {
		case c == 't' && len(d.data)-d.i >= 4 && string(d.data[d.i:d.i+4]) == "true":
			*(*bool)(p) = true
			d.i += 4
		case c == 'f' && len(d.data)-d.i >= 5 && string(d.data[d.i:d.i+5]) == "false":
			*(*bool)(p) = false
			d.i += 5
		default:
			return false
		}
		return true
	case dPtr:
		pp := (*unsafe.Pointer)(p)
		if *pp == nil {
			*pp = reflect.New(n.elem.t).UnsafePointer()
		}
		return d.value(n.elem, *pp, depth)
	case dSlice:
		return d.array(n, p, depth)
	case dStruct:
		return d.object(n, p, depth)
	case dRaw:
		return d.opaque(n, p)
	}
	return false
}

// integer reads a plain integer (no fraction or exponent: the full path
// rewrites 30.0) within the Go size and the schema's bounds.
func (d *opDecoder) integer(n *opNode, p unsafe.Pointer, c byte) bool {
	if c != '-' && (c < '0' || c > '9') {
		return false
	}
	data, k := d.data, d.i
	neg := c == '-'
	if neg {
		k++
	}
	start := k
	var u uint64
	if k < len(data) && data[k] == '0' {
		k++ // a digit after it is refused by the caller, as JSON does
	} else {
		for k < len(data) && data[k]-'0' < 10 {
			u = u*10 + uint64(data[k]-'0')
			k++
		}
	}
	if k == start || k-start > 19 || k < len(data) && (data[k] == '.' || data[k] == 'e' || data[k] == 'E') {
		return false // not a plain integer of at most 19 digits: the full path (30.0 is rewritten there)
	}
	d.i = k
	if n.kind == dUint {
		if neg || n.hasIMin && (u > math.MaxInt64 || int64(u) < n.iMin) || n.hasIMax && (u > math.MaxInt64 || int64(u) > n.iMax) {
			return false
		}
		switch n.size {
		case 1:
			if u > math.MaxUint8 {
				return false
			}
			*(*uint8)(p) = uint8(u)
		case 2:
			if u > math.MaxUint16 {
				return false
			}
			*(*uint16)(p) = uint16(u)
		case 4:
			if u > math.MaxUint32 {
				return false
			}
			*(*uint32)(p) = uint32(u)
		default:
			*(*uint64)(p) = u
		}
		return true
	}
	if u > math.MaxInt64 {
		return false
	}
	x := int64(u)
	if neg {
		x = -x
	}
	if n.hasIMin && x < n.iMin || n.hasIMax && x > n.iMax {
		return false
	}
	return storeInt(p, n.size, x)
}

// float reads a number within the Go range and the schema's bounds.
func (d *opDecoder) float(n *opNode, p unsafe.Pointer, c byte) bool {
	if c != '-' && (c < '0' || c > '9') {
		return false
	}
	start := d.i
	x, end, integral, ok := plainFloat(d.data, d.i)
	if !ok {
		var err jsonlex.Err
		if end, integral, err = jsonlex.Num(d.data, d.i); err != jsonlex.None {
			return false
		}
		num := d.data[start:end]
		if x, ok = exactFloat(num); !ok {
			var perr error
			if x, perr = strconv.ParseFloat(unsafe.String(&num[0], len(num)), 64); perr != nil {
				return false
			}
		}
	}
	num := d.data[start:end]
	d.i = end
	// float64 rounding is monotonic and the bounds are exact, so x < max
	// means the decimal is below max; x == max says the decimal is max
	// only when x is exact (an integer of at most 15 digits).
	exact := integral && len(num) <= 15
	if n.hasFMin && (x < n.fMin || x == n.fMin && (n.fMinEx || !exact)) ||
		n.hasFMax && (x > n.fMax || x == n.fMax && (n.fMaxEx || !exact)) {
		return false
	}
	if n.bits == 32 {
		f, perr := strconv.ParseFloat(unsafe.String(&num[0], len(num)), 32)
		if perr != nil {
			return false
		}
		*(*float32)(p) = float32(f)
		return true
	}
	*(*float64)(p) = x
	return true
}

// plainFloat reads the number at data[i] in one scan when it is written
// -?int(.frac)? with at most 15 digits, not zero: one float64 division is
// then correctly rounded (see exactFloat). ok is false for anything else,
// which jsonlex.Num and exactFloat or strconv read again.
func plainFloat(data []byte, i int) (x float64, end int, integral, ok bool) {
	neg := data[i] == '-'
	if neg {
		i++
	}
	start := i
	var m uint64
	if i < len(data) && data[i] == '0' {
		i++
	} else {
		for i < len(data) && data[i]-'0' < 10 {
			m = m*10 + uint64(data[i]-'0')
			i++
		}
	}
	digits, frac := i-start, 0
	if digits == 0 {
		return 0, i, false, false
	}
	integral = true
	if i < len(data) && data[i] == '.' {
		integral = false
		i++
		fs := i
		for i < len(data) && data[i]-'0' < 10 {
			m = m*10 + uint64(data[i]-'0')
			i++
		}
		if frac = i - fs; frac == 0 {
			return 0, i, false, false
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') || digits+frac > 15 || m == 0 {
		return 0, i, false, false
	}
	x = float64(m)
	if frac > 0 {
		x /= pow10[frac]
	}
	if neg {
		x = -x
	}
	return x, i, integral, true
}

func (d *opDecoder) ws() { d.i = jsonlex.WS(d.data, d.i) }

// object checks and decodes the object at d.i: known keys without escapes,
// each once, every required one, defaults for absent scalar properties.
func (d *opDecoder) object(n *opNode, p unsafe.Pointer, depth int) bool {
	if d.data[d.i] != '{' || depth+1 > MaxDepth {
		return false
	}
	d.i++
	d.ws()
	var seen uint64
	next := 0 // the field expected next
	if d.i < len(d.data) && d.data[d.i] == '}' {
		d.i++
	} else {
		for {
			if d.i >= len(d.data) || d.data[d.i] != '"' {
				return false
			}
			fi, end := -1, 0
			if next < len(n.fields) {
				// keys usually come in the schema's order
				q := n.fields[next].quoted
				if len(d.data)-d.i >= len(q) && string(d.data[d.i:d.i+len(q)]) == q {
					fi, end = next, d.i+len(q)
				}
			}
			if fi < 0 {
				if fi, end = d.findKey(n); end < 0 {
					return false
				}
			}
			if fi < 0 || seen&(1<<fi) != 0 {
				return false
			}
			seen |= 1 << fi
			next = fi + 1
			d.i = jsonlex.WS(d.data, end)
			if d.i >= len(d.data) || d.data[d.i] != ':' {
				return false
			}
			d.i = jsonlex.WS(d.data, d.i+1)
			f := &n.fields[fi]
			if !d.value(f.node, unsafe.Add(p, f.offset), depth+1) {
				return false
			}
			d.ws()
			if d.i >= len(d.data) {
				return false
			}
			c := d.data[d.i]
			d.i++
			if c == '}' {
				break
			}
			if c != ',' {
				return false
			}
			d.ws()
		}
	}
	if n.required&^seen != 0 {
		return false
	}
	for fi := range n.fields {
		f := &n.fields[fi]
		if f.def == nil || seen&(1<<fi) != 0 {
			continue
		}
		dd := opDecoder{data: f.def}
		if !dd.value(f.node, unsafe.Add(p, f.offset), depth+1) || jsonlex.WS(f.def, dd.i) != len(f.def) {
			return false
		}
		d.defaulted = true
	}
	return true
}

// findKey reads the key at d.i (at its quote) and returns its field, or
// -1; end is the offset after the key, -1 for a key with an escape or
// malformed.
func (d *opDecoder) findKey(n *opNode) (fi, end int) {
	end, esc, err := jsonlex.Str(d.data, d.i)
	if err != jsonlex.None || esc {
		return -1, -1
	}
	k := d.data[d.i+1 : end-1]
	if n.index != nil {
		if j, ok := n.index[string(k)]; ok {
			return j, end
		}
		return -1, end
	}
	for j := range n.fields {
		if n.fields[j].name == string(k) {
			return j, end
		}
	}
	return -1, end
}

// array checks and decodes the array at d.i in one pass: the items are
// decoded into a pooled scratch slice, then copied once into a slice of
// their exact length.
func (d *opDecoder) array(n *opNode, p unsafe.Pointer, depth int) bool {
	if d.data[d.i] != '[' || depth+1 > MaxDepth {
		return false
	}
	d.i = jsonlex.WS(d.data, d.i+1)
	if d.i < len(d.data) && d.data[d.i] == ']' {
		d.i++
		if n.minItems > 0 {
			return false
		}
		reflect.NewAt(n.t, p).Elem().Set(reflect.MakeSlice(n.t, 0, 0))
		return true
	}
	sc, _ := n.scratch.Get().(*reflect.Value)
	if sc == nil {
		v := reflect.MakeSlice(n.t, 8, 8)
		sc = &v
	}
	size, cnt := n.elem.t.Size(), 0
	for {
		if cnt == sc.Len() {
			if n.maxItems >= 0 && cnt >= n.maxItems {
				return false
			}
			grown := reflect.MakeSlice(n.t, 2*cnt, 2*cnt)
			reflect.Copy(grown, *sc)
			*sc = grown
		}
		if !d.value(n.elem, unsafe.Add(sc.UnsafePointer(), uintptr(cnt)*size), depth+1) {
			return false // the scratch is dropped: partly written
		}
		cnt++
		d.ws()
		if d.i >= len(d.data) {
			return false
		}
		c := d.data[d.i]
		d.i++
		if c == ']' {
			break
		}
		if c != ',' {
			return false
		}
		d.ws()
	}
	if cnt < n.minItems || n.maxItems >= 0 && cnt > n.maxItems {
		return false
	}
	used := sc.Slice(0, cnt)
	out := reflect.MakeSlice(n.t, cnt, cnt)
	reflect.Copy(out, used)
	reflect.NewAt(n.t, p).Elem().Set(out)
	used.Clear()
	if sc.Len() <= 1024 {
		n.scratch.Put(sc)
	}
	return true
}

// opaque checks the value at d.i with the node's own validator and decodes
// it with the fast decoder.
func (d *opDecoder) opaque(n *opNode, p unsafe.Pointer) bool {
	dec := decoder{data: d.data, i: d.i}
	start := d.i
	if !dec.skip(0) {
		return false
	}
	end := dec.i
	if n.sub != nil && n.sub.Validate(d.data[start:end]) != nil {
		return false
	}
	dec = decoder{data: d.data[:end], i: start}
	if !dec.value(n.dec, p, 0) || dec.i != end {
		return false
	}
	d.i = end
	return true
}
