package schema

// unevaluatedProps validates the members that no keyword of n nor of a
// successful in-place subschema evaluated against n.unevalProps.
func (s *state) unevaluatedProps(n *node, obj, ubase int) {
	for k := ubase; k < len(s.pend) && s.fatal == nil; k++ {
		m := s.pend[k]
		bbase := len(s.buf)
		name := s.unescape(m.pos)
		ev := s.evaluatedIn(n, obj, name, -1, -1)
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
			return
		}
		s.path = s.path[:len(s.path)-1]
	}
}

// unevaluatedItems is unevaluatedProps for array elements.
func (s *state) unevaluatedItems(n *node, arr, ubase int) {
	for k := ubase; k < len(s.pend) && s.fatal == nil; k++ {
		m := s.pend[k]
		if s.evaluatedIn(n, arr, nil, m.idx, m.pos) {
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
			return
		}
		s.path = s.path[:len(s.path)-1]
	}
}

// evaluates reports whether sub, applied in place at pos, evaluates the
// member name (or, when name is nil, the element idx at epos); sub is
// assumed valid there (the caller checks where that matters).
func (s *state) evaluates(sub *node, pos int, name []byte, idx, epos int) bool {
	if sub.never {
		return false
	}
	if name != nil {
		if sub.additional != nil || sub.unevalProps != nil {
			return true
		}
		if i := sub.lookup(name); i >= 0 && sub.keys[i].schema != nil {
			return true
		}
		for _, pp := range sub.patternProps {
			if s.match(pp.re, name) {
				return true
			}
		}
	} else {
		if idx < len(sub.prefixItems) || sub.items != nil || sub.unevalItems != nil {
			return true
		}
		if sub.contains != nil {
			if _, ok := s.matches(sub.contains, epos); ok {
				return true
			}
		}
	}
	return s.evaluatedIn(sub, pos, name, idx, epos)
}

// evaluatedIn checks the in-place applicators of n.
func (s *state) evaluatedIn(n *node, pos int, name []byte, idx, epos int) bool {
	if n.ref != nil && s.evaluates(n.ref, pos, name, idx, epos) {
		return true
	}
	if n.dynRef != nil && s.evaluates(s.dynTarget(n), pos, name, idx, epos) {
		return true
	}
	for _, a := range n.allOf {
		if s.evaluates(a, pos, name, idx, epos) {
			return true
		}
	}
	for _, group := range [2][]*node{n.anyOf, n.oneOf} {
		for _, a := range group {
			if _, ok := s.matches(a, pos); ok && s.evaluates(a, pos, name, idx, epos) {
				return true
			}
		}
	}
	if n.ifN != nil {
		if _, ok := s.matches(n.ifN, pos); ok {
			if s.evaluates(n.ifN, pos, name, idx, epos) || n.thenN != nil && s.evaluates(n.thenN, pos, name, idx, epos) {
				return true
			}
		} else if n.elseN != nil && s.evaluates(n.elseN, pos, name, idx, epos) {
			return true
		}
	}
	for _, d := range n.depSchemas {
		if s.hasMember(pos, n.keys[d.key].name, n.nullAbsent) && s.evaluates(d.schema, pos, name, idx, epos) {
			return true
		}
	}
	return false
}

// hasMember reports whether the (checked) object at pos has the key name
// (a null counts as absent when nullAbsent says so).
func (s *state) hasMember(pos int, name string, nullAbsent map[string]bool) bool {
	if s.data[pos] != '{' {
		return false
	}
	k := wsT(s.data, pos+1)
	for s.data[k] != '}' {
		s.steps++ // counted: called once per unevaluated member
		bbase := len(s.buf)
		got := string(s.unescape(k)) == name
		s.buf = s.buf[:bbase]
		k = wsT(s.data, wsT(s.data, endT(s.data, k))+1)
		if got {
			return s.data[k] != 'n' || !nullAbsent[name]
		}
		k = wsT(s.data, endT(s.data, k))
		if s.data[k] == ',' {
			k = wsT(s.data, k+1)
		}
	}
	return false
}
