package argtype

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/toolnexus/toolnexus/internal/jsonlex"
)

// This file holds the reader of the one-pass path (its plan is plan.go):
// it checks and decodes the arguments in one scan and reports false at
// the first thing that is not plainly valid.

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
	end, integral, err := jsonlex.Num(d.data, d.i)
	if err != jsonlex.None {
		return false
	}
	num := d.data[start:end]
	x, perr := strconv.ParseFloat(unsafe.String(&num[0], len(num)), 64)
	if perr != nil {
		return false
	}
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
// it with encoding/json.
func (d *opDecoder) opaque(n *opNode, p unsafe.Pointer) bool {
	sc := scanner{data: d.data, i: d.i}
	sc.skipValue()
	value := d.data[d.i:sc.i]
	if len(sc.errs) > 0 || n.sub.Validate(value) != nil || json.Unmarshal(value, reflect.NewAt(n.t, p).Interface()) != nil {
		return false
	}
	d.i = sc.i
	return true
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
