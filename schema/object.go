package schema

import (
	"slices"
	"strconv"
)

// object validates the object at i against n (nil: only check syntax,
// depth and duplicate keys).
func (s *state) object(n *node, i int) int {
	if !s.enter() {
		return -1
	}
	start := i
	i = s.ws(i + 1)
	var seen uint64
	pbase, hbase, ubase := len(s.present), len(s.hashes), len(s.pend)
	nkeys := 0
	if n != nil {
		nkeys = len(n.keys)
	}
	for k := 64; k < nkeys; k++ {
		s.present = append(s.present, false)
	}
	dups := s.v.opts.RejectDuplicateKeys
	// Keys are hashed for duplicates only when one may be repeated: a
	// known key seen twice, or a key the schema does not name (or that has
	// an escape). The offsets are kept meanwhile.
	var known uint64
	suspect := n == nil
	next := 0 // the key index expected next
	count := 0
	if i < len(s.data) && s.data[i] == '}' {
		i++
	} else {
		for {
			kq := s.ws(i)
			k, esc, vi := s.key(i)
			if vi < 0 {
				return -1
			}
			if vi >= len(s.data) {
				return s.syntaxAt(vi, "")
			}
			if dups {
				s.hashes = append(s.hashes, hent{pos: kq})
			}
			var e int
			if n == nil {
				s.path = append(s.path, seg{q: kq})
				e = s.skip(vi)
				s.path = s.path[:len(s.path)-1]
			} else {
				bbase := len(s.buf)
				name := k
				if esc {
					name = s.unescape(kq)
					suspect = true
				}
				idx := -1
				if next < len(n.keys) && n.keys[next].name == string(name) {
					idx = next // keys usually come in the schema's order
				} else {
					idx = n.lookup(name)
				}
				next = idx + 1
				if idx < 0 || idx >= 64 || known&(1<<uint(idx)) != 0 {
					suspect = true
				} else {
					known |= 1 << uint(idx)
				}
				e = s.member(n, idx, name, kq, vi, &seen, pbase, &count)
				s.buf = s.buf[:bbase]
			}
			if e < 0 {
				return -1
			}
			var more bool
			if i, more = s.next(e, '}', "a property value"); i < 0 {
				return -1
			}
			if !more {
				break
			}
		}
	}
	if n != nil {
		s.objectEnd(n, start, seen, pbase, count)
		if n.unevalProps != nil && s.fatal == nil {
			s.unevaluatedProps(n, start, ubase)
		}
	}
	s.pend = s.pend[:ubase]
	if dups && suspect && len(s.hashes)-hbase > 1 {
		hs := s.hashes[hbase:]
		for k := range hs {
			_, hs[k].h = hashValue(s.data, hs[k].pos)
		}
		s.duplicates(hs, "duplicateKey")
	}
	s.present = s.present[:pbase]
	s.hashes = s.hashes[:hbase]
	s.depth--
	if s.fatal != nil {
		return -1
	}
	return i
}

// member validates one property value; idx is n.lookup(name).
func (s *state) member(n *node, idx int, name []byte, kq, vi int, seen *uint64, pbase int, count *int) int {
	if s.data[vi] == 'n' && n.nullAbsent[string(name)] {
		return s.literal(vi) // counts as absent
	}
	*count++
	if idx >= 0 {
		if idx < 64 {
			*seen |= 1 << uint(idx)
		} else {
			s.present[pbase+idx-64] = true
		}
	}
	s.path = append(s.path, seg{q: kq})
	e := -2
	if idx >= 0 && n.keys[idx].schema != nil {
		e = s.validate(n.keys[idx].schema, vi)
	}
	for _, pp := range n.patternProps {
		if e == -1 {
			break
		}
		if s.match(pp.re, name) {
			e = s.validate(pp.schema, vi)
		}
	}
	if e == -2 && n.additional != nil {
		if n.additional.never {
			s.unknownKey(n, name)
		} else {
			e = s.validate(n.additional, vi)
		}
	}
	if n.propertyNames != nil && e != -1 {
		if _, ok := s.matches(n.propertyNames, kq); !ok && s.fail() {
			p := s.pathString()
			s.add(p, "propertyNames", "", "property name "+quote(string(name))+" is not allowed by the schema in \"propertyNames\"")
		}
	}
	if e == -2 {
		if n.unevalProps != nil && n.additional == nil {
			s.pend = append(s.pend, hent{pos: kq, idx: vi}) // decided in objectEnd
		}
		e = s.skip(vi)
	}
	s.path = s.path[:len(s.path)-1]
	return e
}

func (s *state) unknownKey(n *node, name []byte) {
	if !s.fail() {
		return
	}
	p := s.pathString()
	for _, k := range n.keys {
		if k.schema != nil && len(k.name) == len(name) && equalFold(k.name, name) {
			s.add(p, "additionalProperties", k.name, "unknown property "+quote(p)+"; property names are case-sensitive: did you mean "+quote(k.name)+"?")
			return
		}
	}
	allowed := n.propNames
	if allowed == "" {
		allowed = "none"
	}
	s.add(p, "additionalProperties", "", "unknown property "+quote(p)+"; allowed: "+allowed)
}

func equalFold(a string, b []byte) bool {
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

func (s *state) has(seen uint64, pbase, idx int) bool {
	if idx < 64 {
		return seen&(1<<uint(idx)) != 0
	}
	return s.present[pbase+idx-64]
}

// objectEnd checks the keywords that need the whole object.
func (s *state) objectEnd(n *node, start int, seen uint64, pbase, count int) {
	for _, idx := range n.required {
		if !s.has(seen, pbase, idx) && s.fail() {
			p := child(s.pathString(), n.keys[idx].name)
			s.add(p, "required", n.keys[idx].name, quote(p)+" is required")
		}
	}
	for _, d := range n.depRequired {
		if !s.has(seen, pbase, d.key) {
			continue
		}
		for _, need := range d.need {
			if !s.has(seen, pbase, need) && s.fail() {
				p := child(s.pathString(), n.keys[need].name)
				s.add(p, "dependentRequired", n.keys[d.key].name, quote(p)+" is required when "+quote(n.keys[d.key].name)+" is present")
			}
		}
	}
	if n.minProps >= 0 || n.maxProps >= 0 {
		if n.minProps >= 0 && count < n.minProps && s.fail() {
			p := s.pathString()
			s.add(p, "minProperties", strconv.Itoa(n.minProps), subject(p)+" must have at least "+plural(n.minProps, "property"))
		}
		if n.maxProps >= 0 && count > n.maxProps && s.fail() {
			p := s.pathString()
			s.add(p, "maxProperties", strconv.Itoa(n.maxProps), subject(p)+" must have at most "+plural(n.maxProps, "property"))
		}
	}
	for _, d := range n.depSchemas {
		if s.has(seen, pbase, d.key) {
			if s.validate(d.schema, start) < 0 {
				return
			}
		}
	}
}

// duplicates reports the first pair of equal values among hs.
func (s *state) duplicates(hs []hent, kw string) {
	slices.SortFunc(hs, func(a, b hent) int {
		switch {
		case a.h < b.h:
			return -1
		case a.h > b.h:
			return 1
		}
		return a.pos - b.pos
	})
	for k := 1; k < len(hs); k++ {
		a, b := hs[k-1], hs[k]
		if a.h != b.h || !equalT(s.data, a.pos, s.data, b.pos) {
			continue
		}
		if !s.fail() {
			return
		}
		p := s.pathString()
		if kw == "duplicateKey" {
			s.path = append(s.path, seg{q: b.pos})
			p = s.pathString()
			s.path = s.path[:len(s.path)-1]
			s.add(p, kw, "", quote(p)+" is given more than once")
		} else {
			s.add(p, kw, "", subject(p)+" must not contain duplicates (items "+strconv.Itoa(min(a.idx, b.idx))+" and "+strconv.Itoa(max(a.idx, b.idx))+" are equal)")
		}
		return
	}
}
