package schema

import "github.com/toolnexus/toolnexus/internal/jsonlex"

// unevaluatedProps validates the members that no keyword of n nor of a
// successful in-place subschema evaluated against n.unevalProps.
func (s *state) unevaluatedProps(n *node, obj, ubase int) {
	base := len(s.uev)
	if !s.collect(n, obj, base) {
		s.uev = s.uev[:base]
		return
	}
	for k := ubase; k < len(s.pend) && s.fatal == nil; k++ {
		m := s.pend[k]
		bbase := len(s.buf)
		name := s.unescape(m.pos)
		ev := s.evaluatedProp(base, name)
		s.buf = s.buf[:bbase]
		if ev {
			continue
		}
		s.path = append(s.path, seg{q: m.pos})
		if n.unevalProps.never {
			if s.fail() {
				p := s.pathString()
				s.add(p, "unevaluatedProperties", "", "unknown property "+quote(p)+" (unevaluatedProperties)")
			}
		} else if s.validate(n.unevalProps, m.idx) < 0 {
			s.path = s.path[:len(s.path)-1]
			break
		}
		s.path = s.path[:len(s.path)-1]
	}
	s.uev = s.uev[:base]
}

// unevaluatedItems is unevaluatedProps for array elements.
func (s *state) unevaluatedItems(n *node, arr, ubase int) {
	base := len(s.uev)
	if !s.collect(n, arr, base) {
		s.uev = s.uev[:base]
		return
	}
	for k := ubase; k < len(s.pend) && s.fatal == nil; k++ {
		m := s.pend[k]
		if ev, ok := s.evaluatedItem(base, m.idx, m.pos); !ok {
			break
		} else if ev {
			continue
		}
		s.path = append(s.path, seg{q: -1, idx: m.idx})
		if n.unevalItems.never {
			if s.fail() {
				p := s.pathString()
				s.add(p, "unevaluatedItems", "", subject(p)+" is not allowed (unevaluatedItems)")
			}
		} else if s.validate(n.unevalItems, m.pos) < 0 {
			s.path = s.path[:len(s.path)-1]
			break
		}
		s.path = s.path[:len(s.path)-1]
	}
	s.uev = s.uev[:base]
}

// collect appends to s.uev (from base) every subschema that n applies in
// place at pos and that contributes its annotations there: the targets of
// $ref and $dynamicRef, allOf, the anyOf and oneOf alternatives that
// match, if with then when it matches, else when it does not, and the
// dependentSchemas whose key is present; recursively, each once. It runs
// once per object or array, so that the matches are not redone for every
// member; each subschema costs a step. false after a fatal problem.
func (s *state) collect(n *node, pos, base int) bool {
	add := func(m *node) bool {
		if m == nil || m.never {
			return true
		}
		for _, o := range s.uev[base:] {
			if o == m {
				return true
			}
		}
		if !s.step() {
			return false
		}
		s.uev = append(s.uev, m)
		return s.collect(m, pos, base)
	}
	if !add(n.ref) {
		return false
	}
	if n.dynRef != nil && !add(s.dynTarget(n)) {
		return false
	}
	for _, a := range n.allOf {
		if !add(a) {
			return false
		}
	}
	for _, group := range [2][]*node{n.anyOf, n.oneOf} {
		for _, a := range group {
			e, ok := s.matches(a, pos)
			if e < 0 {
				return false
			}
			if ok && !add(a) {
				return false
			}
		}
	}
	if n.ifN != nil {
		e, ok := s.matches(n.ifN, pos)
		if e < 0 {
			return false
		}
		if ok {
			if !add(n.ifN) || !add(n.thenN) {
				return false
			}
		} else if !add(n.elseN) {
			return false
		}
	}
	for _, d := range n.depSchemas {
		if s.hasMember(pos, n, d.key) && !add(d.schema) {
			return false
		}
	}
	return s.fatal == nil
}

// step counts one evaluation step; false (recorded) beyond the budget.
func (s *state) step() bool {
	if s.steps++; s.steps > s.maxSteps {
		if s.fatal == nil {
			s.fatal = &Problem{Path: s.pathString(), Keyword: "complexity",
				Message: "arguments need too many validation steps for the schema"}
		}
		return false
	}
	return true
}

// evaluatedProp reports whether a collected subschema (s.uev[base:])
// evaluates the member name.
func (s *state) evaluatedProp(base int, name []byte) bool {
	for _, m := range s.uev[base:] {
		s.steps++
		if m.additional != nil || m.unevalProps != nil {
			return true
		}
		if i := m.lookup(name); i >= 0 && m.keys[i].schema != nil {
			return true
		}
		for _, pp := range m.patternProps {
			if s.match(pp.re, name) {
				return true
			}
		}
	}
	return false
}

// evaluatedItem reports whether a collected subschema evaluates the element
// idx at epos; ok is false after a fatal problem.
func (s *state) evaluatedItem(base, idx, epos int) (ev, ok bool) {
	for _, m := range s.uev[base:] {
		if !s.step() {
			return false, false
		}
		if idx < len(m.prefixItems) || m.items != nil || m.unevalItems != nil {
			return true, true
		}
		if m.contains != nil {
			e, match := s.matches(m.contains, epos)
			if e < 0 {
				return false, false
			}
			if match {
				return true, true
			}
		}
	}
	return false, true
}

// hasMember reports whether the (checked) object at pos has the member
// n.keys[key] (a null counts as absent when n says so).
func (s *state) hasMember(pos int, n *node, key int) bool {
	name := n.keys[key].name
	if s.data[pos] != '{' {
		return false
	}
	k := jsonlex.WS(s.data, pos+1)
	for s.data[k] != '}' {
		s.steps++
		bbase := len(s.buf)
		got := string(s.unescape(k)) == name
		s.buf = s.buf[:bbase]
		k = jsonlex.WS(s.data, jsonlex.WS(s.data, endT(s.data, k))+1)
		if got {
			return s.data[k] != 'n' || !n.nullAbsent[name]
		}
		k = jsonlex.WS(s.data, endT(s.data, k))
		if s.data[k] == ',' {
			k = jsonlex.WS(s.data, k+1)
		}
	}
	return false
}
