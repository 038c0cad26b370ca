package schema

import (
	"encoding/binary"
	"math/bits"

	"github.com/toolnexus/toolnexus/internal/jsonlex"
)

// The fast path validates an instance in one scan and only answers
// "valid": at the first problem, or at anything it does not handle (an
// escaped or repeated key), it gives up and Validate runs the general
// path from the start, which finds and words every problem. Plain ASCII
// strings and plain numbers against integer bounds are checked in the
// scan itself; other values go through the general path's checks. So what a caller sees never comes from here;
// the fast path only has to accept nothing the general path refuses
// (FuzzFastPath, TestFastPathAgrees and TestFastPathSuite check that).
//
// It covers the nodes that typed tools' schemas are made of: type,
// nullable, enum/const on scalars, the string, number and array-length
// keywords, uniqueItems, items, properties, required, additionalProperties
// and min/maxProperties (node.fast). A node with any other keyword (a
// $ref, a combinator, patternProperties, ...) is checked by the general
// path, silently, for its whole subtree. Depth is counted as the general
// path counts it; steps are overestimated (see fastRun), so neither limit
// lets through what the general path refuses.

// buildFast marks the compiled nodes the fast path handles itself. The
// shared node true is marked from the start; false never is.
func buildFast(all []compiled) {
	for _, e := range all {
		e.n.fast = fastable(e.n)
	}
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
	i := s.ws(0)
	ok := false
	if i < len(s.data) {
		e := s.fv(n, i)
		ok = e >= 0 && s.ws(e) == len(s.data) && s.nerr == 0 && s.fatal == nil &&
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
	if !n.fast {
		return s.fdelegate(n, i)
	}
	d := s.data
	if i >= len(d) {
		return -1
	}
	c := d[i]
	t := jsonType(c)
	if n.types != 0 && t&n.types == 0 && !(c == 'n' && n.nullable) && !(t == tNumber && n.types&tInteger != 0) {
		return -1
	}
	switch t {
	case tString:
		if e := s.fstr(n, i); e != 0 {
			return e
		}
		e, esc, err := jsonlex.Str(d, i)
		if err != jsonlex.None {
			return -1
		}
		if n.kw&kwEnum != 0 && !s.checkEnum(n, i) {
			return -1
		}
		if n.kw&kwString != 0 {
			s.checkString(n, i, e, esc)
		}
		return s.fok(e)
	case tNumber:
		if e := s.fnum(n, i); e != 0 {
			return e
		}
		e, plain, err := jsonlex.Num(d, i)
		if err != jsonlex.None {
			return -1
		}
		if n.types != 0 && n.types&tNumber == 0 && !plain && !parseNumInt(d[i:e]) {
			return -1
		}
		if n.kw&kwEnum != 0 && !s.checkEnum(n, i) {
			return -1
		}
		if n.kw&kwNumber != 0 {
			s.checkNumber(n, i, e)
		}
		return s.fok(e)
	case tObject:
		if n.kw&kwObject == 0 {
			return s.fok(s.skip(i))
		}
		return s.fobject(n, i)
	case tArray:
		if n.kw&kwArray == 0 {
			return s.fok(s.skip(i))
		}
		return s.farray(n, i)
	case tBool, tNull:
		e, err := jsonlex.Lit(d, i)
		if err != jsonlex.None {
			return -1
		}
		if n.kw&kwEnum != 0 && !(c == 'n' && n.nullable) && !s.checkEnum(n, i) {
			return -1
		}
		return e
	}
	return -1
}

// fobject is object on the fast path.
func (s *state) fobject(n *node, i int) int {
	if s.depth++; s.depth > s.v.opts.MaxDepth {
		return -1
	}
	d := s.data
	i = s.ws(i + 1)
	var seen, known uint64 // keys present (null-absent ones aside), keys given
	next := 0              // the key expected next: keys usually come in the schema's order
	extra, unknown := 0, 0 // members with a name the schema does not list: counted, all
	dups, hbase := s.v.opts.RejectDuplicateKeys, len(s.hashes)
	if i < len(d) && d[i] == '}' {
		i++
	} else {
		for {
			if i >= len(d) || d[i] != '"' {
				return -1
			}
			ke, esc, err := jsonlex.Str(d, i)
			if err != jsonlex.None || esc {
				return -1
			}
			vi := s.ws(ke)
			if vi >= len(d) || d[vi] != ':' {
				return -1
			}
			if vi = s.ws(vi + 1); vi >= len(d) {
				return -1
			}
			if dups {
				s.hashes = append(s.hashes, hent{pos: i})
			}
			name := d[i+1 : ke-1]
			idx := -1
			if next < len(n.keys) && n.keys[next].name == string(name) {
				idx = next // keys usually come in the schema's order
			} else {
				idx = n.lookup(name)
			}
			next = idx + 1
			bit := uint64(1) << uint(idx)
			if idx >= 0 && known&bit != 0 {
				return -1 // a repeated key: the general path decides
			}
			var e int
			switch {
			case idx >= 0:
				known |= bit
				if d[vi] == 'n' && n.nullAbsent[string(name)] {
					e = s.fok(s.skip(vi)) // counts as absent
				} else if seen |= bit; n.keys[idx].schema != nil {
					e = s.fv(n.keys[idx].schema, vi)
				} else {
					e = s.fother(n, vi)
				}
			case d[vi] == 'n' && n.nullAbsent[string(name)]:
				unknown++
				e = s.fok(s.skip(vi))
			default:
				unknown++
				extra++
				e = s.fother(n, vi)
			}
			if e < 0 {
				return -1
			}
			if i = s.ws(e); i >= len(d) {
				return -1
			}
			if d[i] == ',' {
				i = s.ws(i + 1)
				continue
			}
			if d[i] != '}' {
				return -1
			}
			i++
			break
		}
	}
	if hs := s.hashes[hbase:]; unknown > 0 && len(hs) > 1 {
		// a name the schema does not list may be repeated
		for k := range hs {
			_, hs[k].h = hashValue(d, hs[k].pos)
		}
		s.duplicates(hs, "duplicateKey")
	}
	s.hashes = s.hashes[:hbase]
	if s.nerr != 0 {
		return -1
	}
	for _, r := range n.required {
		if seen&(1<<uint(r)) == 0 {
			return -1
		}
	}
	if count := bits.OnesCount64(seen) + extra; n.minProps >= 0 && count < n.minProps || n.maxProps >= 0 && count > n.maxProps {
		return -1
	}
	s.depth--
	return i
}

// fother validates the value at i of a member that properties does not
// give a schema to: additionalProperties, else nothing.
func (s *state) fother(n *node, i int) int {
	if n.additional == nil {
		return s.fok(s.skip(i))
	}
	return s.fv(n.additional, i)
}

// farray is array on the fast path.
func (s *state) farray(n *node, i int) int {
	if s.depth++; s.depth > s.v.opts.MaxDepth {
		return -1
	}
	d := s.data
	start := i
	i = s.ws(i + 1)
	idx := 0
	if i < len(d) && d[i] == ']' {
		i++
	} else {
		for {
			var e int
			if n.items != nil {
				e = s.fv(n.items, i)
			} else {
				e = s.fok(s.skip(i))
			}
			if e < 0 {
				return -1
			}
			idx++
			if i = s.ws(e); i >= len(d) {
				return -1
			}
			if d[i] == ',' {
				i = s.ws(i + 1)
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

// fstr checks an ASCII string without escapes against n's length bounds,
// reading it eight bytes at a time: the offset after it, -1 to give up,
// or 0 for any other string or schema.
func (s *state) fstr(n *node, i int) int {
	if n.kw&kwEnum != 0 || n.pattern != nil || n.formatFn != nil {
		return 0
	}
	d := s.data
	var hi uint64
	for j := i + 1; len(d)-j >= 8; j += 8 {
		x := binary.LittleEndian.Uint64(d[j:])
		m := jsonlex.Stops(x)
		if m == 0 {
			hi |= x
			continue
		}
		k := uint(bits.TrailingZeros64(m)) &^ 7
		if byte(x>>k) != '"' || (hi|x&(1<<k-1))&0x8080808080808080 != 0 {
			return 0
		}
		e := j + int(k>>3) + 1
		if l := e - i - 2; n.minLen >= 0 && l < n.minLen || n.maxLen >= 0 && l > n.maxLen {
			return -1
		}
		return e
	}
	return 0
}

// fnum checks a number written -?int(.frac)? with at most 17 integer
// digits against n's bounds when they are plain integers, in one scan:
// the offset after it, -1 to give up, or 0 for any other number or
// schema.
func (s *state) fnum(n *node, i int) int {
	if n.kw&kwEnum != 0 || n.kw&kwNumber != 0 && (!n.intBounds || n.multipleOf != nil) {
		return 0
	}
	d := s.data
	j := i
	if d[j] == '-' {
		j++
	}
	st := j
	var v int64
	for j < len(d) && d[j]-'0' <= 9 {
		v = v*10 + int64(d[j]-'0')
		j++
	}
	if nint := j - st; nint == 0 || nint > 17 || nint > 1 && d[st] == '0' {
		return 0
	}
	var up int64 // 1 when the fraction is not zero: the number lies strictly between v and v+1
	if j < len(d) && d[j] == '.' {
		j++
		fs := j
		for j < len(d) && d[j]-'0' <= 9 {
			if d[j] != '0' {
				up = 1
			}
			j++
		}
		if j == fs {
			return 0
		}
	}
	if j < len(d) && d[j]|0x20 == 'e' || up != 0 && n.types != 0 && n.types&tNumber == 0 {
		return 0
	}
	if d[i] == '-' {
		v = -v - up
	}
	if n.min != nil && v < n.min.i || n.exMin != nil && v+up <= n.exMin.i ||
		n.max != nil && v+up > n.max.i || n.exMax != nil && v >= n.exMax.i {
		return -1
	}
	return j
}
