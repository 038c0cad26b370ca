package argtype

import (
	"encoding/json"
	"reflect"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/toolnexus/toolnexus/internal/jsonlex"
)

// This file holds the fast decoder: it decodes arguments the compiled
// schema has accepted into the argument type, from a plan built once per
// type (decPlan), without encoding/json for ordinary structs (strings,
// numbers, bools, pointers, slices, maps with string keys, nested structs).
// A type with its own UnmarshalJSON is decoded through that method on the
// exact bytes of its value; anything else it does not know (interfaces,
// []byte, arrays, embedded structs, TextUnmarshaler, ",string" fields, ...)
// is decoded by encoding/json on the exact bytes of that value. It never
// reports an error: when anything is not as expected (a key it does not
// know, a number out of range, 30.0 for an int, ...) it reports false and
// the caller decodes the whole arguments again with encoding/json into a
// fresh value, so the result is always what encoding/json gives.

type dkind uint8

const (
	dRaw         dkind = iota // encoding/json on the value's bytes
	dUnmarshaler              // the type's own UnmarshalJSON on the value's bytes
	dString
	dInt
	dUint
	dFloat
	dBool
	dStruct
	dPtr
	dSlice
	dMap
)

// decNode is the plan for one Go type.
type decNode struct {
	kind   dkind
	t      reflect.Type
	bits   int      // dFloat: 32 or 64
	size   uintptr  // dInt, dUint: the Go size in bytes
	elem   *decNode // dPtr, dSlice, dMap
	named  bool     // dMap: the key type is a named string type (converted)
	fields []decField
	index  map[string]int // dStruct with more than 8 fields
}

type decField struct {
	name   string
	index  int
	offset uintptr
	node   *decNode
}

var jsonNumberType = reflect.TypeFor[json.Number]()

// compileDecoder returns the plan for t; it never fails (what it does not
// know decodes through encoding/json).
func compileDecoder(t reflect.Type) *decNode {
	return (&decCompiler{seen: map[reflect.Type]*decNode{}}).node(t)
}

type decCompiler struct{ seen map[reflect.Type]*decNode }

func (c *decCompiler) node(t reflect.Type) *decNode {
	if n, ok := c.seen[t]; ok {
		return n
	}
	n := &decNode{t: t}
	c.seen[t] = n
	var pt reflect.Type // *t, when t may have methods
	if mayHaveMethods(t) {
		pt = reflect.PointerTo(t)
	}
	switch {
	case t.Kind() == reflect.Pointer:
		n.kind, n.elem = dPtr, c.node(t.Elem())
	case pt != nil && pt.Implements(jsonUnmarshaler):
		n.kind = dUnmarshaler
	case pt != nil && pt.Implements(textUnmarshaler), t == jsonNumberType:
		n.kind = dRaw
	default:
		switch t.Kind() {
		case reflect.String:
			n.kind = dString
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			n.kind, n.size = dInt, t.Size()
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			n.kind, n.size = dUint, t.Size()
		case reflect.Float32, reflect.Float64:
			n.kind, n.bits = dFloat, t.Bits()
		case reflect.Bool:
			n.kind = dBool
		case reflect.Slice:
			if t.Elem().Kind() != reflect.Uint8 { // []byte is base64: encoding/json's
				n.kind, n.elem = dSlice, c.node(t.Elem())
			}
		case reflect.Map:
			k := t.Key()
			if k.Kind() == reflect.String && !(mayHaveMethods(k) && reflect.PointerTo(k).Implements(textUnmarshaler)) {
				n.kind, n.elem, n.named = dMap, c.node(t.Elem()), k != reflect.TypeFor[string]()
			}
		case reflect.Struct:
			c.structFields(n)
		}
	}
	return n
}

// structFields fills n's fields, or leaves n a dRaw node when the struct
// has what only encoding/json resolves (embedded fields, ",string",
// unusual or repeated names, more than 64 fields).
func (c *decCompiler) structFields(n *decNode) {
	t := n.t
	var fields []decField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			return
		}
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts := tag, ""
		for j := 0; j < len(tag); j++ {
			if tag[j] == ',' {
				name, opts = tag[:j], tag[j:]
				break
			}
		}
		if hasOption(opts, "string") {
			return
		}
		if name == "" {
			name = f.Name
		} else if !plainName(name) {
			return
		}
		for _, g := range fields {
			if g.name == name {
				return
			}
		}
		fields = append(fields, decField{name: name, index: i})
	}
	if len(fields) > 64 {
		return
	}
	n.kind, n.fields = dStruct, fields
	for i := range n.fields {
		sf := t.Field(n.fields[i].index)
		n.fields[i].node, n.fields[i].offset = c.node(sf.Type), sf.Offset
	}
	if len(fields) > 8 {
		n.index = make(map[string]int, len(fields))
		for i, f := range fields {
			n.index[f.name] = i
		}
	}
}

func hasOption(opts, o string) bool {
	for len(opts) > 0 {
		opts = opts[1:] // the comma
		j := 0
		for j < len(opts) && opts[j] != ',' {
			j++
		}
		if opts[:j] == o {
			return true
		}
		opts = opts[j:]
	}
	return false
}

// plainName reports a JSON name made of letters, digits, '_' and '-' only
// (encoding/json takes those as written; others are its business).
func plainName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// decode decodes data into target (a non-nil pointer to a zero value of
// the plan's type) and reports whether it could; false leaves target
// partly written.
func (n *decNode) decode(data []byte, target any) bool {
	rv := reflect.ValueOf(target)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Type().Elem() != n.t {
		return false
	}
	d := decoder{data: data}
	if !d.value(n, rv.UnsafePointer(), 0) {
		return false
	}
	d.ws()
	return d.i == len(d.data)
}

type decoder struct {
	data []byte
	i    int
}

const maxDecodeDepth = 10000

func (d *decoder) ws() { d.i = jsonlex.WS(d.data, d.i) }

func (d *decoder) lit(s string) bool {
	if len(d.data)-d.i < len(s) || string(d.data[d.i:d.i+len(s)]) != s {
		return false
	}
	d.i += len(s)
	return true
}

// value decodes the value at d.i into the n.t at p.
func (d *decoder) value(n *decNode, p unsafe.Pointer, depth int) bool {
	if depth > maxDecodeDepth {
		return false
	}
	d.ws()
	if d.i >= len(d.data) {
		return false
	}
	c := d.data[d.i]
	if c == 'n' {
		switch n.kind {
		case dPtr, dSlice, dMap:
			if !d.lit("null") {
				return false
			}
			reflect.NewAt(n.t, p).Elem().SetZero()
			return true
		case dString, dInt, dUint, dFloat, dBool, dStruct:
			return d.lit("null") // encoding/json leaves the value as it is
		}
		return d.raw(n, p)
	}
	switch n.kind {
	case dRaw:
		return d.raw(n, p)
	case dUnmarshaler:
		start := d.i
		if !d.skip(depth) {
			return false
		}
		u, ok := reflect.NewAt(n.t, p).Interface().(json.Unmarshaler)
		return ok && u.UnmarshalJSON(d.data[start:d.i]) == nil
	case dString:
		if c != '"' {
			return false
		}
		s, ok := d.str()
		if ok {
			*(*string)(p) = s
		}
		return ok
	case dInt:
		x, ok := d.integer()
		if !ok {
			return false
		}
		return storeInt(p, n.size, x)
	case dUint:
		x, ok := d.unsigned()
		if !ok {
			return false
		}
		switch n.size {
		case 1:
			if uint64(uint8(x)) != x {
				return false
			}
			*(*uint8)(p) = uint8(x)
		case 2:
			if uint64(uint16(x)) != x {
				return false
			}
			*(*uint16)(p) = uint16(x)
		case 4:
			if uint64(uint32(x)) != x {
				return false
			}
			*(*uint32)(p) = uint32(x)
		default:
			*(*uint64)(p) = x
		}
		return true
	case dFloat:
		num := d.number()
		if num == nil {
			return false
		}
		x, ok := 0.0, false
		if n.bits == 64 {
			x, ok = exactFloat(num)
		}
		if !ok {
			var err error
			if x, err = strconv.ParseFloat(unsafe.String(&num[0], len(num)), n.bits); err != nil {
				return false
			}
		}
		if n.bits == 32 {
			*(*float32)(p) = float32(x)
		} else {
			*(*float64)(p) = x
		}
		return true
	case dBool:
		switch {
		case d.lit("true"):
			*(*bool)(p) = true
		case d.lit("false"):
			*(*bool)(p) = false
		default:
			return false
		}
		return true
	case dPtr:
		pp := (*unsafe.Pointer)(p)
		if *pp == nil {
			*pp = reflect.New(n.elem.t).UnsafePointer()
		}
		return d.value(n.elem, *pp, depth+1)
	case dSlice:
		return d.slice(n, p, depth)
	case dMap:
		return d.mapValue(n, p, depth)
	case dStruct:
		return d.object(n, p, depth)
	}
	return false
}

// raw decodes the value at d.i with encoding/json.
func (d *decoder) raw(n *decNode, p unsafe.Pointer) bool {
	start := d.i
	if !d.skip(0) {
		return false
	}
	return json.Unmarshal(d.data[start:d.i], reflect.NewAt(n.t, p).Interface()) == nil
}

// str reads the string at d.i (at its quote). Strings without escapes,
// control characters or invalid UTF-8 are copied once; others are
// encoding/json's.
func (d *decoder) str() (string, bool) {
	start := d.i
	d.i++
	plain := true
	for d.i < len(d.data) {
		c := d.data[d.i]
		switch {
		case c == '"':
			d.i++
			body := d.data[start+1 : d.i-1]
			if plain {
				return string(body), true
			}
			if !hasEscapeOrControl(body) && utf8.Valid(body) {
				return string(body), true
			}
			var s string
			if json.Unmarshal(d.data[start:d.i], &s) != nil {
				return "", false
			}
			return s, true
		case c == '\\':
			plain = false
			d.i += 2
			continue
		case c < 0x20 || c >= 0x80:
			plain = false
		}
		d.i++
	}
	return "", false
}

func hasEscapeOrControl(b []byte) bool {
	for _, c := range b {
		if c == '\\' || c < 0x20 {
			return true
		}
	}
	return false
}

// number returns the bytes of the JSON number at d.i, nil if there is none.
func (d *decoder) number() []byte {
	start := d.i
	for d.i < len(d.data) {
		c := d.data[d.i]
		if c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			d.i++
			continue
		}
		break
	}
	if d.i == start {
		return nil
	}
	return d.data[start:d.i]
}

var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// exactFloat converts a JSON number whose digits fit in 2^53 and whose
// decimal exponent is within ±22: one float64 multiply or divide is then
// correctly rounded (Clinger's fast path), so the result is ParseFloat's.
// ok is false for anything else (and for zero, whose sign ParseFloat keeps).
func exactFloat(num []byte) (float64, bool) {
	i, neg := 0, false
	if num[0] == '-' {
		neg, i = true, 1
	}
	var m uint64
	digits, exp := 0, 0
	for ; i < len(num) && num[i] >= '0' && num[i] <= '9'; i++ {
		m = m*10 + uint64(num[i]-'0')
		digits++
	}
	if digits == 0 {
		return 0, false
	}
	if i < len(num) && num[i] == '.' {
		for i++; i < len(num) && num[i] >= '0' && num[i] <= '9'; i++ {
			m = m*10 + uint64(num[i]-'0')
			digits++
			exp--
		}
	}
	if digits > 15 || m == 0 {
		return 0, false
	}
	if i < len(num) && (num[i] == 'e' || num[i] == 'E') {
		i++
		eneg := false
		if i < len(num) && (num[i] == '-' || num[i] == '+') {
			eneg = num[i] == '-'
			i++
		}
		e, start := 0, i
		for ; i < len(num) && num[i] >= '0' && num[i] <= '9'; i++ {
			if e > 1000 {
				return 0, false
			}
			e = e*10 + int(num[i]-'0')
		}
		if i == start {
			return 0, false
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i != len(num) || exp < -22 || exp > 22 {
		return 0, false
	}
	f := float64(m)
	if exp < 0 {
		f /= pow10[-exp]
	} else {
		f *= pow10[exp]
	}
	if neg {
		f = -f
	}
	return f, true
}

// unsigned reads an integer written without fraction or exponent.
func (d *decoder) unsigned() (uint64, bool) {
	num := d.number()
	if num == nil {
		return 0, false
	}
	var x uint64
	for _, c := range num {
		if c < '0' || c > '9' || x > (1<<64-1)/10 {
			return 0, false
		}
		y := x*10 + uint64(c-'0')
		if y < x {
			return 0, false
		}
		x = y
	}
	return x, true
}

func (d *decoder) integer() (int64, bool) {
	neg := d.i < len(d.data) && d.data[d.i] == '-'
	if neg {
		d.i++
	}
	x, ok := d.unsigned()
	switch {
	case !ok:
		return 0, false
	case neg && x <= 1<<63:
		return -int64(x), true
	case !neg && x < 1<<63:
		return int64(x), true
	}
	return 0, false
}

// skip moves d.i past the value at d.i.
func (d *decoder) skip(depth int) bool {
	if depth > maxDecodeDepth {
		return false
	}
	d.ws()
	if d.i >= len(d.data) {
		return false
	}
	switch c := d.data[d.i]; c {
	case '"':
		_, ok := d.skipString()
		return ok
	case '{', '[':
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		d.i++
		d.ws()
		if d.i < len(d.data) && d.data[d.i] == closing {
			d.i++
			return true
		}
		for {
			if c == '{' {
				d.ws()
				if d.i >= len(d.data) || d.data[d.i] != '"' {
					return false
				}
				if _, ok := d.skipString(); !ok {
					return false
				}
				d.ws()
				if d.i >= len(d.data) || d.data[d.i] != ':' {
					return false
				}
				d.i++
			}
			if !d.skip(depth + 1) {
				return false
			}
			more, ok := d.next(closing)
			if !ok {
				return false
			}
			if !more {
				return true
			}
		}
	case 't':
		return d.lit("true")
	case 'f':
		return d.lit("false")
	case 'n':
		return d.lit("null")
	}
	return d.number() != nil
}

// skipString moves past the string at d.i and reports whether it held an
// escape.
func (d *decoder) skipString() (escaped, ok bool) {
	d.i++
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case '"':
			d.i++
			return escaped, true
		case '\\':
			escaped = true
			d.i++
		}
		d.i++
	}
	return escaped, false
}

// next moves past the ',' or the closing byte after a member.
func (d *decoder) next(closing byte) (more, ok bool) {
	d.ws()
	if d.i >= len(d.data) {
		return false, false
	}
	switch d.data[d.i] {
	case ',':
		d.i++
		return true, true
	case closing:
		d.i++
		return false, true
	}
	return false, false
}

// key reads an object key and the colon after it; keys with escapes are
// left to encoding/json (false).
func (d *decoder) key() ([]byte, bool) {
	d.ws()
	if d.i >= len(d.data) || d.data[d.i] != '"' {
		return nil, false
	}
	start := d.i + 1
	escaped, ok := d.skipString()
	if !ok || escaped {
		return nil, false
	}
	k := d.data[start : d.i-1]
	d.ws()
	if d.i >= len(d.data) || d.data[d.i] != ':' {
		return nil, false
	}
	d.i++
	return k, true
}

func (d *decoder) object(n *decNode, p unsafe.Pointer, depth int) bool {
	if d.data[d.i] != '{' {
		return false
	}
	d.i++
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == '}' {
		d.i++
		return true
	}
	var seen uint64
	for {
		k, ok := d.key()
		if !ok {
			return false
		}
		fi := -1
		if n.index != nil {
			if j, ok := n.index[string(k)]; ok {
				fi = j
			}
		} else {
			for j := range n.fields {
				if n.fields[j].name == string(k) {
					fi = j
					break
				}
			}
		}
		if fi < 0 || seen&(1<<fi) != 0 { // unknown or repeated: encoding/json's rules
			return false
		}
		seen |= 1 << fi
		f := &n.fields[fi]
		if !d.value(f.node, unsafe.Add(p, f.offset), depth+1) {
			return false
		}
		more, ok := d.next('}')
		if !ok {
			return false
		}
		if !more {
			return true
		}
	}
}

func (d *decoder) slice(n *decNode, p unsafe.Pointer, depth int) bool {
	if d.data[d.i] != '[' {
		return false
	}
	start := d.i
	count, ok := d.countItems(depth)
	if !ok {
		return false
	}
	d.i = start + 1
	s := reflect.MakeSlice(n.t, count, count)
	base, size := s.UnsafePointer(), n.elem.t.Size()
	for i := 0; i < count; i++ {
		if !d.value(n.elem, unsafe.Add(base, uintptr(i)*size), depth+1) {
			return false
		}
		d.ws()
		if d.i >= len(d.data) {
			return false
		}
		d.i++ // ',' or ']', as countItems found
	}
	if count == 0 {
		d.ws()
		d.i++ // ']'
	}
	reflect.NewAt(n.t, p).Elem().Set(s)
	return true
}

// countItems counts the items of the array at d.i, moving past it.
func (d *decoder) countItems(depth int) (int, bool) {
	d.i++
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == ']' {
		d.i++
		return 0, true
	}
	count := 0
	for {
		if !d.skip(depth + 1) {
			return 0, false
		}
		count++
		more, ok := d.next(']')
		if !ok {
			return 0, false
		}
		if !more {
			return count, true
		}
	}
}

func (d *decoder) mapValue(n *decNode, p unsafe.Pointer, depth int) bool {
	if d.data[d.i] != '{' {
		return false
	}
	d.i++
	m := reflect.MakeMap(n.t)
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == '}' {
		d.i++
		reflect.NewAt(n.t, p).Elem().Set(m)
		return true
	}
	keyType := n.t.Key()
	for {
		d.ws()
		if d.i >= len(d.data) || d.data[d.i] != '"' {
			return false
		}
		ks, ok := d.str()
		if !ok {
			return false
		}
		d.ws()
		if d.i >= len(d.data) || d.data[d.i] != ':' {
			return false
		}
		d.i++
		e := reflect.New(n.elem.t)
		if !d.value(n.elem, e.UnsafePointer(), depth+1) {
			return false
		}
		kv := reflect.ValueOf(ks)
		if n.named {
			kv = kv.Convert(keyType)
		}
		m.SetMapIndex(kv, e.Elem())
		more, ok := d.next('}')
		if !ok {
			return false
		}
		if !more {
			reflect.NewAt(n.t, p).Elem().Set(m)
			return true
		}
	}
}

// storeInt writes x into the signed integer of size bytes at p; false
// when x is outside its range.
func storeInt(p unsafe.Pointer, size uintptr, x int64) bool {
	switch size {
	case 1:
		if int64(int8(x)) != x {
			return false
		}
		*(*int8)(p) = int8(x)
	case 2:
		if int64(int16(x)) != x {
			return false
		}
		*(*int16)(p) = int16(x)
	case 4:
		if int64(int32(x)) != x {
			return false
		}
		*(*int32)(p) = int32(x)
	default:
		*(*int64)(p) = x
	}
	return true
}
