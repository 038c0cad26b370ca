package schema

import (
	"encoding/binary"

	"github.com/toolnexus/toolnexus/internal/jsonlex"
)

// The fast path validates an instance in one tight scan and only answers
// "valid": at the first problem, or at anything it does not handle, it
// gives up and Validate runs the general path from the start, which finds
// and words every problem. So what a caller sees never comes from here;
// the fast path only has to accept nothing the general path refuses
// (FuzzFastPath checks that).
//
// It covers the nodes that typed tools' schemas are made of: type,
// nullable, enum/const on scalars, the string, number and array-length
// keywords, uniqueItems, items, properties, required, additionalProperties
// and min/maxProperties. A node with any other keyword (a $ref, a
// combinator, patternProperties, ...) is handed to the general path
// (silently) for its whole subtree. Steps and depth are counted as the
// general path counts them, so the complexity and depth limits give the
// same verdict.

// fastNode is what the fast path knows of a node beyond the node itself.
type fastNode struct {
	keys    []fastKey // n.keys, in the same order
	reqMask uint64    // bit i: keys[i] is required
}

// fastKey is one of a node's property names.
type fastKey struct {
	q          string // the name quoted as JSON text holds it when unescaped: `"city"`; "" if it needs an escape
	w, m       uint64 // the first 8 bytes of q (little endian) and the mask of those present
	sch        *node
	nullAbsent bool // Options.NullAsAbsent: a null here counts as absent
}

// buildFast prepares the fast path of every node it can handle that is
// reachable from root through nodes it can handle. It runs once, at the end
// of compile (after the NullAsAbsent sets are known).
func buildFast(root *node) {
	seen := map[*node]bool{}
	var walk func(n *node)
	walk = func(n *node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		if !fastable(n) {
			return
		}
		f := &fastNode{keys: make([]fastKey, len(n.keys))}
		for i, k := range n.keys {
			fk := &f.keys[i]
			fk.sch, fk.nullAbsent = k.schema, n.nullAbsent[k.name]
			if plainName(k.name) {
				fk.q = `"` + k.name + `"`
				var b [8]byte
				l := copy(b[:], fk.q)
				fk.w = binary.LittleEndian.Uint64(b[:])
				fk.m = ^uint64(0) >> (64 - 8*l)
			}
			if k.required {
				f.reqMask |= 1 << uint(i)
			}
		}
		for _, r := range n.required {
			f.reqMask |= 1 << uint(r)
		}
		n.fast = f
		for _, k := range n.keys {
			walk(k.schema)
		}
		walk(n.additional)
		walk(n.items)
	}
	walk(root)
}

// fastable reports whether the fast path handles n itself (its
// subschemas are decided one by one).
func fastable(n *node) bool {
	if n.never || n.ref != nil || n.dynRef != nil || n.kw&kwCombine != 0 || n.unevalProps != nil || n.unevalItems != nil {
		return false
	}
	if n.kw&kwEnum != 0 && (n.types == 0 || n.types&(tObject|tArray) != 0) {
		return false // an enum of objects or arrays
	}
	if n.kw&kwObject != 0 && (len(n.keys) > 64 || len(n.patternProps) > 0 || n.propertyNames != nil ||
		len(n.depRequired) > 0 || len(n.depSchemas) > 0) {
		return false
	}
	if n.kw&kwArray != 0 && (len(n.prefixItems) > 0 || n.contains != nil || n.items != nil && n.items.never) {
		return false
	}
	return true
}

// plainName reports a property name that JSON text can hold unescaped.
func plainName(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// at reports whether the key k, quoted, starts at d[i].
func (k *fastKey) at(d []byte, i int) bool {
	if len(d)-i >= 8 {
		if (binary.LittleEndian.Uint64(d[i:])^k.w)&k.m != 0 {
			return false
		}
		if len(k.q) <= 8 {
			return k.q != ""
		}
	}
	return k.q != "" && len(d)-i >= len(k.q) && string(d[i:i+len(k.q)]) == k.q
}

// fws is jsonlex.WS that costs a single test on compact input.
func fws(d []byte, i int) int {
	if i < len(d) && d[i] > ' ' {
		return i
	}
	return jsonlex.WS(d, i)
}

// fastRun validates the whole instance against the root n on the fast path;
// true when it is valid. On false the state is as getState left it.
func (s *state) fastRun(n *node) bool {
	s.silent = 1
	i := fws(s.data, 0)
	ok := false
	if i < len(s.data) {
		e := s.fv(n, i)
		ok = e >= 0 && fws(s.data, e) == len(s.data) && s.nerr == 0 && s.fatal == nil
	}
	if !ok {
		s.fatal = nil
		s.problems = s.problems[:0]
		s.nerr, s.depth, s.steps = 0, 0, 0
		s.path, s.buf, s.hashes, s.present, s.pend = s.path[:0], s.buf[:0], s.hashes[:0], s.present[:0], s.pend[:0]
		s.scope, s.uev = s.scope[:0], s.uev[:0]
	}
	s.silent = 0
	return ok
}

// fv is validateNode on the fast path: the offset after the value at i
// (no leading whitespace), or -1 to give up. Problems found by the
// general checks it calls are counted in s.nerr.
func (s *state) fv(n *node, i int) int {
	f := n.fast
	if f == nil {
		return s.validate(n, i)
	}
	if s.steps++; s.steps > s.maxSteps {
		return -1
	}
	d := s.data
	if i >= len(d) {
		return -1
	}
	switch c := d[i]; c {
	case '"':
		if n.types != 0 && n.types&tString == 0 {
			return -1
		}
		e, esc, ascii, err := jsonlex.StrASCII(d, i)
		if err != jsonlex.None {
			return -1
		}
		if n.kw&kwEnum != 0 && !s.checkEnum(n, i) {
			return -1
		}
		if n.kw&kwString != 0 {
			if ascii && !esc && n.pattern == nil && n.formatFn == nil {
				if l := e - i - 2; n.minLen >= 0 && l < n.minLen || n.maxLen >= 0 && l > n.maxLen {
					return -1
				}
			} else {
				s.checkString(n, i, e, esc)
			}
		}
		return e
	case '{':
		if n.types != 0 && n.types&tObject == 0 {
			return -1
		}
		if n.kw&kwObject == 0 {
			return s.skip(i)
		}
		return s.fobject(n, f, i)
	case '[':
		if n.types != 0 && n.types&tArray == 0 {
			return -1
		}
		if n.kw&kwArray == 0 {
			return s.skip(i)
		}
		return s.farray(n, i)
	case 't', 'f', 'n':
		t, nullOK := tBool, false
		if c == 'n' {
			t, nullOK = tNull, n.nullable
		}
		if n.types != 0 && n.types&t == 0 && !nullOK {
			return -1
		}
		e, err := jsonlex.Lit(d, i)
		if err != jsonlex.None {
			return -1
		}
		if n.kw&kwEnum != 0 && !nullOK && !s.checkEnum(n, i) {
			return -1
		}
		return e
	}
	return s.fnum(n, i)
}

// fnum checks the number at i (or gives up on anything else).
func (s *state) fnum(n *node, i int) int {
	d := s.data
	j := i
	neg := false
	if d[j] == '-' {
		neg = true
		j++
	}
	st := j
	var v int64 // the integer part's value while it has at most 17 digits
	if j < len(d) && d[j] == '0' {
		j++
	} else {
		for j < len(d) && d[j]-'0' <= 9 {
			v = v*10 + int64(d[j]-'0')
			j++
		}
	}
	nint := j - st
	if nint == 0 {
		return -1
	}
	plain, frac := true, false
	if j < len(d) && d[j] == '.' {
		plain = false
		j++
		fs := j
		for j < len(d) && d[j]-'0' <= 9 {
			frac = frac || d[j] != '0'
			j++
		}
		if j == fs {
			return -1
		}
	}
	exp := false
	if j < len(d) && d[j]|0x20 == 'e' {
		e, _, err := jsonlex.Num(d, i)
		if err != jsonlex.None {
			return -1
		}
		j, plain, exp = e, false, true
	}
	if n.types != 0 && n.types&tNumber == 0 {
		if n.types&tInteger == 0 || !plain && !parseNumInt(d[i:j]) {
			return -1
		}
	}
	if n.kw&kwEnum != 0 && !s.checkEnum(n, i) {
		return -1
	}
	if n.kw&kwNumber == 0 {
		return j
	}
	if !n.intBounds || n.multipleOf != nil || exp || nint > 17 {
		s.checkNumber(n, i, j)
		return j
	}
	// as checkNumber with smallDec: v is the floor of the number, which
	// lies strictly between v and v+1 when frac
	var up int64
	if frac {
		up = 1
	}
	if neg {
		v = -v - up
	}
	if n.min != nil && v < n.min.i || n.exMin != nil && v+up <= n.exMin.i ||
		n.max != nil && v+up > n.max.i || n.exMax != nil && v >= n.exMax.i {
		return -1
	}
	return j
}

// fskip is skip on the fast path.
func (s *state) fskip(i int) int {
	d := s.data
	if i >= len(d) {
		return -1
	}
	switch c := d[i]; {
	case c == '"':
		e, _, _, err := jsonlex.StrASCII(d, i)
		if err != jsonlex.None {
			return -1
		}
		return e
	case c == '-' || c >= '0' && c <= '9':
		e, _, err := jsonlex.Num(d, i)
		if err != jsonlex.None {
			return -1
		}
		return e
	case c == 't' || c == 'f' || c == 'n':
		e, err := jsonlex.Lit(d, i)
		if err != jsonlex.None {
			return -1
		}
		return e
	}
	return s.skip(i)
}

// fobject is object on the fast path.
func (s *state) fobject(n *node, f *fastNode, i int) int {
	if s.depth++; s.depth > s.v.opts.MaxDepth {
		return -1
	}
	d := s.data
	start := i
	i = fws(d, i+1)
	var seen, known uint64
	count, next := 0, 0
	suspect := false // a key may be repeated: hash them
	if i < len(d) && d[i] == '}' {
		i++
	} else {
		for {
			if i >= len(d) || d[i] != '"' {
				return -1
			}
			idx, ke := -1, 0 // ke: the offset after the key's closing quote
			if next < len(f.keys) && f.keys[next].at(d, i) {
				idx, ke = next, i+len(f.keys[next].q) // keys usually come in the schema's order
			} else {
				e, esc, _, err := jsonlex.StrASCII(d, i)
				if err != jsonlex.None || esc {
					return -1
				}
				idx, ke = n.lookup(d[i+1:e-1]), e
			}
			vi := ke
			if vi = fws(d, vi); vi >= len(d) || d[vi] != ':' {
				return -1
			}
			if vi = fws(d, vi+1); vi >= len(d) {
				return -1
			}
			next = idx + 1
			if idx < 0 || known&(1<<uint(idx)) != 0 {
				suspect = true
			} else {
				known |= 1 << uint(idx)
			}
			var e int
			if d[vi] == 'n' && n.nullAbsent != nil && (idx >= 0 && f.keys[idx].nullAbsent ||
				idx < 0 && n.nullAbsent[string(d[i+1:ke-1])]) {
				var err jsonlex.Err
				if e, err = jsonlex.Lit(d, vi); err != jsonlex.None {
					return -1
				}
			} else {
				count++
				e = -2
				if idx >= 0 {
					seen |= 1 << uint(idx)
					if sch := f.keys[idx].sch; sch != nil {
						e = s.fv(sch, vi)
					}
				}
				if e == -2 && n.additional != nil {
					if n.additional.never {
						return -1
					}
					e = s.fv(n.additional, vi)
				}
				if e == -2 {
					e = s.fskip(vi)
				}
			}
			if e < 0 || s.nerr != 0 {
				return -1
			}
			if i = fws(d, e); i >= len(d) {
				return -1
			}
			if d[i] == ',' {
				i = fws(d, i+1)
				continue
			}
			if d[i] != '}' {
				return -1
			}
			i++
			break
		}
	}
	if seen&f.reqMask != f.reqMask || n.minProps >= 0 && count < n.minProps || n.maxProps >= 0 && count > n.maxProps {
		return -1
	}
	if suspect && s.v.opts.RejectDuplicateKeys && !s.fdups(start) {
		return -1
	}
	s.depth--
	return i
}

// fdups reports whether the (checked) object at start has no repeated key.
func (s *state) fdups(start int) bool {
	d := s.data
	hbase := len(s.hashes)
	for k := wsT(d, start+1); d[k] != '}'; {
		s.hashes = append(s.hashes, hent{pos: k})
		k = wsT(d, wsT(d, endT(d, k))+1) // the value
		if k = wsT(d, endT(d, k)); d[k] == ',' {
			k = wsT(d, k+1)
		}
	}
	hs := s.hashes[hbase:]
	if len(hs) > 1 {
		for k := range hs {
			_, hs[k].h = hashValue(d, hs[k].pos)
		}
		s.duplicates(hs, "duplicateKey")
	}
	s.hashes = s.hashes[:hbase]
	return s.nerr == 0
}

// farray is array on the fast path.
func (s *state) farray(n *node, i int) int {
	if s.depth++; s.depth > s.v.opts.MaxDepth {
		return -1
	}
	d := s.data
	start := i
	i = fws(d, i+1)
	idx := 0
	if i < len(d) && d[i] == ']' {
		i++
	} else {
		for {
			var e int
			if n.items != nil {
				e = s.fv(n.items, i)
			} else {
				e = s.fskip(i)
			}
			if e < 0 || s.nerr != 0 {
				return -1
			}
			idx++
			if i = fws(d, e); i >= len(d) {
				return -1
			}
			if d[i] == ',' {
				i = fws(d, i+1)
				continue
			}
			if d[i] != ']' {
				return -1
			}
			i++
			break
		}
	}
	s.depth--
	if n.minItems >= 0 && idx < n.minItems || n.maxItems >= 0 && idx > n.maxItems {
		return -1
	}
	if n.uniqueItems && idx > 1 {
		s.unique(start, i, idx)
	}
	return i
}
