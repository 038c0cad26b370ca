package schema

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/toolnexus/toolnexus/internal/jsonlex"
)

// The fast path validates an instance in one tight scan and only answers
// "valid": at the first problem, or at anything it does not handle (an
// escaped or repeated key, a number or string off its simple forms), it
// gives up and Validate runs the general path from the start, which finds
// and words every problem. So what a caller sees never comes from here;
// the fast path only has to accept nothing the general path refuses
// (FuzzFastPath, TestFastPathAgrees and TestFastPathSuite check that).
//
// It covers the nodes that typed tools' schemas are made of: type,
// nullable, enum/const on scalars, the string, number and array-length
// keywords, uniqueItems, items, properties, required, additionalProperties
// and min/maxProperties. A node with any other keyword (a $ref, a
// combinator, patternProperties, ...) is handed to the general path
// (silently) for its whole subtree. Depth is counted as the general path
// counts it; steps are overestimated (see fastRun), so neither limit lets
// through what the general path refuses.

// fastNode is what the fast path knows of a node beyond the node itself.
type fastNode struct {
	keys    []fastKey // n.keys, in the same order
	reqMask uint64    // bit i: keys[i] is required

	// strings: when strSimple (a string is allowed, no enum or const, no
	// pattern or format), minLength and maxLength in bytes of an ASCII
	// string (0 and MaxInt when absent); lenCheck when either is present
	strSimple, lenCheck bool
	minLen, maxLen      int

	// numbers: numSimple when a number is allowed, there is no enum or
	// const, and the bounds are small integers (or absent): with v the
	// floor of the number and up 1 when it is not an integer, they hold
	// when loV <= v, loVU <= v+up, v+up <= hiVU and v <= hiV; intOnly when
	// the type is integer and not number
	numSimple, intOnly   bool
	loV, loVU, hiVU, hiV int64
}

// fastKey is one of a node's property names. q is the name quoted and a
// colon, `"city":`, as JSON text holds it when compact: w holds its bytes
// as two little-endian words and m masks them. A name longer than 13 bytes
// or that needs an escape never matches (w[0] is 0 under a full mask, and
// a key starts with '"'); fkey reads it.
type fastKey struct {
	w, m       [2]uint64
	qlen       int // len(q)
	sch        *node
	sf         *fastNode // sch.fast
	nullAbsent bool      // Options.NullAsAbsent: a null here counts as absent
}

// buildFast prepares the fast path of every node it can handle that is
// reachable from root through nodes it can handle. It runs once, at the end
// of compile (after the NullAsAbsent sets are known). all are the
// compiled nodes (their number and keys size the allocations). The shared
// nodes true and false are never written: true's fast path is prepared
// once, at init, and false is handed to the general path.
func buildFast(root *node, all []compiled) {
	keys := 0
	for _, e := range all {
		keys += len(e.n.keys)
	}
	b := fastBuilder{nodes: make([]fastNode, 0, len(all)), keys: make([]fastKey, 0, keys)}
	b.walk(root)
}

// fastBuilder hands out the fastNodes and fastKeys of one document from
// two slices made at their final size.
type fastBuilder struct {
	nodes []fastNode
	keys  []fastKey
}

func (b *fastBuilder) walk(n *node) {
	if n == nil || n.fast != nil || n == trueNode || n == falseNode || !fastable(n) {
		return
	}
	var f *fastNode
	if len(b.nodes) < cap(b.nodes) {
		b.nodes = b.nodes[:len(b.nodes)+1]
		f = &b.nodes[len(b.nodes)-1]
	} else {
		f = new(fastNode) // not one of all's nodes (none known)
	}
	if k := len(n.keys); len(b.keys)+k <= cap(b.keys) {
		f.keys = b.keys[len(b.keys) : len(b.keys)+k : len(b.keys)+k]
		b.keys = b.keys[:len(b.keys)+k]
	} else {
		f.keys = make([]fastKey, k)
	}
	f.prepare(n)
	n.fast = f
	for _, k := range n.keys {
		b.walk(k.schema)
	}
	for i := range f.keys {
		if f.keys[i].sch != nil {
			f.keys[i].sf = f.keys[i].sch.fast
		}
	}
	b.walk(n.additional)
	b.walk(n.items)
}

// prepare fills f, whose keys has n.keys's length, from n.
func (f *fastNode) prepare(n *node) {
	for i, k := range n.keys {
		fk := &f.keys[i]
		fk.sch, fk.nullAbsent = k.schema, n.nullIsAbsent(i, k.name)
		fk.m[0] = ^uint64(0) // w[0] == 0 never matches: the key's first byte is '"'
		if qlen := len(k.name) + 3; qlen <= 16 && plainName(k.name) {
			var b, m [16]byte
			b[0] = '"'
			copy(b[1:], k.name)
			b[qlen-2], b[qlen-1] = '"', ':'
			for j := range qlen {
				m[j] = 0xff
			}
			fk.w = [2]uint64{binary.LittleEndian.Uint64(b[:]), binary.LittleEndian.Uint64(b[8:])}
			fk.m = [2]uint64{binary.LittleEndian.Uint64(m[:]), binary.LittleEndian.Uint64(m[8:])}
			fk.qlen = qlen
		}
		if k.required {
			f.reqMask |= 1 << uint(i)
		}
	}
	for _, r := range n.required {
		f.reqMask |= 1 << uint(r)
	}
	f.strSimple = (n.types == 0 || n.types&tString != 0) && n.kw&kwEnum == 0 && n.pattern == nil && n.formatFn == nil
	f.lenCheck = n.minLen >= 0 || n.maxLen >= 0
	f.minLen, f.maxLen = max(n.minLen, 0), n.maxLen
	if f.maxLen < 0 {
		f.maxLen = math.MaxInt
	}
	f.numSimple = (n.types == 0 || n.types&(tNumber|tInteger) != 0) && n.kw&kwEnum == 0 &&
		(n.kw&kwNumber == 0 || n.intBounds && n.x().multipleOf == nil)
	f.intOnly = n.types != 0 && n.types&tNumber == 0
	f.loV, f.loVU, f.hiVU, f.hiV = math.MinInt64, math.MinInt64, math.MaxInt64, math.MaxInt64
	if n.kw&kwNumber != 0 && f.numSimple {
		// bounds of at most 18 digits: +-1 cannot overflow
		if n.min != nil {
			f.loV = n.min.i
		}
		if n.exMin != nil {
			f.loVU = n.exMin.i + 1
		}
		if n.max != nil {
			f.hiVU = n.max.i
		}
		if n.exMax != nil {
			f.hiV = n.exMax.i - 1
		}
	}
}

// The shared node true has its fast path from the start (no keys).
func init() {
	f := &fastNode{}
	f.prepare(trueNode)
	trueNode.fast = f
}

// fastable reports whether the fast path handles n itself (its
// subschemas are decided one by one).
func fastable(n *node) bool {
	if n.never || n.ref != nil || n.x().dynRef != nil || n.kw&kwCombine != 0 || n.x().unevalProps != nil || n.x().unevalItems != nil {
		return false
	}
	if n.kw&kwEnum != 0 && (n.types == 0 || n.types&(tObject|tArray) != 0) {
		return false // an enum of objects or arrays
	}
	if n.kw&kwObject != 0 && (len(n.keys) > 64 || len(n.x().patternProps) > 0 || n.x().propertyNames != nil ||
		len(n.x().depRequired) > 0 || len(n.x().depSchemas) > 0) {
		return false
	}
	if n.kw&kwArray != 0 && (len(n.x().prefixItems) > 0 || n.x().contains != nil || n.items != nil && n.items.never) {
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

// fws is jsonlex.WS that costs a single test on compact input.
func fws(d []byte, i int) int {
	if i < len(d) && d[i] > ' ' {
		return i
	}
	return jsonlex.WS(d, i)
}

// fastRun validates the whole instance against the root n on the fast path;
// true when it is valid. On false the state is as getState left it.
//
// Steps: the fast path validates each value against one node at most, so
// it takes at most len(s.data) steps of its own; s.steps counts only
// those of the general path, which is handed that bound on top
// (fdelegate). So the fast path can only overestimate, and an instance
// that the general path finds too complex is never accepted here.
func (s *state) fastRun(n *node) bool {
	s.silent = 1
	i := fws(s.data, 0)
	ok := false
	if i < len(s.data) {
		e := s.fv(n, i)
		ok = e >= 0 && fws(s.data, e) == len(s.data) && s.nerr == 0 && s.fatal == nil &&
			s.steps+len(s.data)+1 <= s.maxSteps
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

// fok is e, or -1 when a general check run on the way found a problem.
func (s *state) fok(e int) int {
	if s.nerr != 0 || s.fatal != nil {
		return -1
	}
	return e
}

// fdelegate validates the value at i against n on the general path.
func (s *state) fdelegate(n *node, i int) int {
	s.steps += len(s.data) + 1
	e := s.validate(n, i)
	s.steps -= len(s.data) + 1
	return s.fok(e)
}

// fv is validateNode on the fast path: the offset after the value at i
// (no leading whitespace), or -1 to give up.
func (s *state) fv(n *node, i int) int {
	f := n.fast
	if f == nil {
		return s.fdelegate(n, i)
	}
	d := s.data
	if i >= len(d) {
		return -1
	}
	switch c := d[i]; c {
	case '"':
		return s.fstr(n, f, i)
	case '{':
		if n.types != 0 && n.types&tObject == 0 {
			return -1
		}
		if n.kw&kwObject == 0 {
			return s.fok(s.skip(i))
		}
		return s.fobject(n, f, i)
	case '[':
		if n.types != 0 && n.types&tArray == 0 {
			return -1
		}
		if n.kw&kwArray == 0 {
			return s.fok(s.skip(i))
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
	return s.fnum(n, f, i)
}

// fstr checks the string at i.
func (s *state) fstr(n *node, f *fastNode, i int) int {
	// the body eight bytes at a time, up to the closing quote; anything
	// else (an escape, the end of the input near) takes fstrGeneral
	d := s.data
	var hi uint64
	for j := i + 1; len(d)-j >= 8; {
		x := binary.LittleEndian.Uint64(d[j:])
		m := jsonlex.Stops(x)
		if m == 0 {
			hi |= x
			j += 8
			continue
		}
		k := uint(bits.TrailingZeros64(m)) &^ 7
		if byte(x>>k) != '"' || !f.strSimple {
			break
		}
		if f.lenCheck {
			if (hi|x&(1<<k-1))&0x8080808080808080 != 0 {
				break // count code points
			}
			if l := j + int(k>>3) - i - 1; l < f.minLen || l > f.maxLen {
				return -1
			}
		}
		return j + int(k>>3) + 1
	}
	return s.fstrGeneral(n, f, i)
}

// fstrGeneral is fstr for any string.
func (s *state) fstrGeneral(n *node, f *fastNode, i int) int {
	if n.types != 0 && n.types&tString == 0 {
		return -1
	}
	e, esc, ascii, err := jsonlex.StrASCII(s.data, i)
	if err != jsonlex.None {
		return -1
	}
	if n.kw&kwEnum != 0 && !s.checkEnum(n, i) {
		return -1
	}
	if n.kw&kwString != 0 {
		if ascii && !esc && n.pattern == nil && n.formatFn == nil {
			if l := e - i - 2; l < f.minLen || l > f.maxLen {
				return -1
			}
		} else {
			s.checkString(n, i, e, esc)
		}
	}
	return s.fok(e)
}

// fnum checks the number at i (or gives up on anything else).
func (s *state) fnum(n *node, f *fastNode, i int) int {
	d := s.data
	j := i
	if d[j] == '-' {
		j++
	}
	st := j
	var v int64 // the integer part's value while it has at most 17 digits
	for j < len(d) {
		c := d[j] - '0'
		if c > 9 {
			break
		}
		v = v*10 + int64(c)
		j++
	}
	nint := j - st
	if nint == 0 || nint > 1 && d[st] == '0' {
		return -1
	}
	var up int64 // 1 when the fraction is not zero
	if j < len(d) && d[j] == '.' {
		j++
		fs := j
		var nz byte
		for j < len(d) {
			c := d[j] - '0'
			if c > 9 {
				break
			}
			nz |= c
			j++
		}
		if j == fs {
			return -1
		}
		if nz != 0 {
			up = 1
		}
	}
	if j < len(d) && d[j]|0x20 == 'e' || nint > 17 || !f.numSimple || f.intOnly && up != 0 {
		return s.fnumGeneral(n, i)
	}
	if d[i] == '-' {
		v = -v - up
	}
	if v < f.loV || v+up < f.loVU || v+up > f.hiVU || v > f.hiV {
		return -1
	}
	return j
}

// fnumGeneral is fnum for any number.
func (s *state) fnumGeneral(n *node, i int) int {
	d := s.data
	j, plain, err := jsonlex.Num(d, i)
	if err != jsonlex.None {
		return -1
	}
	if n.types != 0 && n.types&tNumber == 0 {
		if n.types&tInteger == 0 || !plain && !parseNumInt(d[i:j]) {
			return -1
		}
	}
	if n.kw&kwEnum != 0 && !s.checkEnum(n, i) {
		return -1
	}
	if n.kw&kwNumber != 0 {
		s.checkNumber(n, i, j)
	}
	return s.fok(j)
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
	return s.fok(s.skip(i))
}

// fobject is object on the fast path.
func (s *state) fobject(n *node, f *fastNode, i int) int {
	if s.depth++; s.depth > s.v.opts.MaxDepth {
		return -1
	}
	d := s.data
	start := i
	i = fws(d, i+1)
	var seen, known uint64 // keys present (null-absent ones aside), keys given
	next := 0              // the key expected next: keys usually come in the schema's order
	extra, unknown := 0, 0 // members with a name the schema does not list: counted, all
	if i < len(d) && d[i] == '}' {
		i++
	} else {
		for {
			idx, vi := -1, 0
			if next < len(f.keys) && len(d)-i >= 16 {
				k := &f.keys[next]
				if (binary.LittleEndian.Uint64(d[i:])^k.w[0])&k.m[0]|(binary.LittleEndian.Uint64(d[i+8:])^k.w[1])&k.m[1] == 0 {
					idx, vi = next, i+k.qlen
				}
			}
			if vi == 0 {
				if idx, vi = s.fkey(n, i); vi < 0 {
					return -1
				}
			}
			if vi = fws(d, vi); vi >= len(d) {
				return -1
			}
			next = idx + 1
			var e int
			if idx >= 0 {
				bit := uint64(1) << uint(idx)
				if known&bit != 0 {
					return -1 // a repeated key: the general path decides
				}
				known |= bit
				k := &f.keys[idx]
				switch c := d[vi]; {
				case c == '"' && k.sf != nil:
					e = s.fstr(k.sch, k.sf, vi)
					seen |= bit
				case (c-'0' <= 9 || c == '-') && k.sf != nil:
					e = s.fnum(k.sch, k.sf, vi)
					seen |= bit
				case c == 'n' && k.nullAbsent:
					e = s.fskip(vi) // counts as absent
				default:
					seen |= bit
					if k.sch != nil {
						e = s.fv(k.sch, vi)
					} else {
						e = s.fother(n, vi)
					}
				}
			} else {
				unknown++
				if d[vi] == 'n' && n.nullIsAbsentBytes(-1, keyBody(d, i)) {
					e = s.fskip(vi)
				} else {
					extra++
					e = s.fother(n, vi)
				}
			}
			if e < 0 {
				return -1
			}
			if i = fws(d, e); i >= len(d) {
				return -1
			}
			if d[i] == ',' {
				if i = fws(d, i+1); i >= len(d) || d[i] != '"' {
					return -1
				}
				continue
			}
			if d[i] != '}' {
				return -1
			}
			i++
			break
		}
	}
	if seen&f.reqMask != f.reqMask {
		return -1
	}
	if count := bits.OnesCount64(seen) + extra; n.minProps >= 0 && count < n.minProps || n.maxProps >= 0 && count > n.maxProps {
		return -1
	}
	if unknown > 0 && s.v.opts.RejectDuplicateKeys && !s.fdups(start) {
		return -1
	}
	s.depth--
	return i
}

// fkey reads the key at i (the general way) and the colon after it:
// the key's index in n.keys (or -1) and the offset after the colon; vi is
// -1 to give up.
func (s *state) fkey(n *node, i int) (idx, vi int) {
	d := s.data
	if i >= len(d) || d[i] != '"' {
		return -1, -1
	}
	e, esc, _, err := jsonlex.StrASCII(d, i)
	if err != jsonlex.None || esc {
		return -1, -1
	}
	if vi = fws(d, e); vi >= len(d) || d[vi] != ':' {
		return -1, -1
	}
	return n.lookup(d[i+1 : e-1]), vi + 1
}

// keyBody is the body of the (checked, unescaped) key at i.
func keyBody(d []byte, i int) []byte { return d[i+1 : endT(d, i)-1] }

// fother validates the value at i of a member that properties does not
// give a schema to: additionalProperties, else nothing.
func (s *state) fother(n *node, i int) int {
	if n.additional == nil {
		return s.fskip(i)
	}
	if n.additional.never {
		return -1
	}
	return s.fv(n.additional, i)
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
			if e < 0 {
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
		return s.fok(i)
	}
	return i
}
