package schema

// Options.NullAsAbsent, made exact. The subschemas that evaluate the same
// instance location in place ($ref, allOf, anyOf, oneOf, not, if, then,
// else, dependentSchemas) form a component; every member of an object is
// seen by the same component. A null member counts as absent for the whole
// component or for none of it, so that all its subschemas judge one and the
// same object: the name counts as absent when some subschema lists it in
// "properties" as optional, and every other subschema that could look at it
// lists it as optional too. A subschema that requires it (required, a
// dependentRequired target), forbids it (properties: false), or would see
// it in another way (additionalProperties, patternProperties,
// propertyNames, min/maxProperties, unevaluatedProperties, or a
// dependentRequired or dependentSchemas key in a subschema that does not
// list it in "properties") makes the null an ordinary value, validated as
// such everywhere. A subschema that lists it as optional and also keys a
// dependency on it keeps the null absent, so the dependency does not apply
// (the same as leaving the member out). A subschema applied in place from two
// places (a shared $defs entry) joins their components: that can only turn
// more nulls into ordinary values, never let a subschema disagree.

// nullAbsent fills node.nullAbsent for every compiled node.
func (c *compiler) nullAbsent() {
	// parent holds only the nodes joined with another; every other node is
	// a component of its own.
	var parent map[*node]*node // made by the first union
	var find func(n *node) *node
	find = func(n *node) *node {
		p, ok := parent[n]
		if !ok || p == n {
			return n
		}
		r := find(p)
		parent[n] = r
		return r
	}
	union := func(a, b *node) {
		if a == nil || b == nil || a == trueNode || b == trueNode || a == falseNode || b == falseNode {
			return // the shared boolean nodes look at no member
		}
		if ra, rb := find(a), find(b); ra != rb {
			if parent == nil {
				parent = map[*node]*node{}
			}
			parent[ra] = rb
			if _, ok := parent[rb]; !ok {
				parent[rb] = rb
			}
		}
	}
	for _, e := range c.all {
		n := e.n
		if hasInPlace(n) {
			c.inPlace(n, func(m *node) bool { union(n, m); return true })
		}
	}
	var groups map[*node][]*node
	for _, e := range c.all {
		n := e.n
		if _, joined := parent[n]; !joined {
			n.nullAbsent = absentSet([]*node{n})
			continue
		}
		if groups == nil {
			groups = map[*node][]*node{}
		}
		r := find(n)
		groups[r] = append(groups[r], n)
	}
	for _, g := range groups {
		set := absentSet(g)
		for _, n := range g {
			n.nullAbsent = set
		}
	}
}

// absentSet is the set of member names whose null counts as absent in the
// component g (nil when there are none).
func absentSet(g []*node) map[string]bool {
	var set map[string]bool
	for _, n := range g {
		for _, k := range n.keys {
			if optionalIn(n, k.name) == 1 && !set[k.name] && agreed(g, k.name) {
				if set == nil {
					set = map[string]bool{}
				}
				set[k.name] = true
			}
		}
	}
	return set
}

// inPlace calls f with each subschema that n applies to its own instance
// (some may be nil), in a fixed order, until f returns false; it reports
// whether every call returned true.
func (c *compiler) inPlace(n *node, f func(*node) bool) bool {
	for _, m := range [...]*node{n.ref, n.dynRef, n.not, n.ifN, n.thenN, n.elseN} {
		if !f(m) {
			return false
		}
	}
	if n.dynName != "" {
		for _, r := range c.res {
			if !f(r.dyn[n.dynName]) {
				return false
			}
		}
	}
	for _, s := range [...][]*node{n.allOf, n.anyOf, n.oneOf} {
		for _, m := range s {
			if !f(m) {
				return false
			}
		}
	}
	for _, d := range n.depSchemas {
		if !f(d.schema) {
			return false
		}
	}
	return true
}

// hasInPlace reports whether inPlace may call f with a node other than nil
// ($dynamicRef names come with dynRef; then and else with if).
func hasInPlace(n *node) bool {
	return n.ref != nil || n.dynRef != nil || n.kw&kwCombine != 0 || len(n.depSchemas) > 0
}

// agreed reports whether every node of g that could look at the member
// name lists it as an optional property.
func agreed(g []*node, name string) bool {
	for _, n := range g {
		if optionalIn(n, name) < 0 {
			return false
		}
	}
	return true
}

// optionalIn is 1 when n lists name in "properties" as optional (with a
// schema other than false, neither required nor a dependentRequired
// target), 0 when n cannot look at a member of that name, and -1 when it
// looks at it in another way.
func optionalIn(n *node, name string) int {
	idx := n.lookup([]byte(name))
	if idx >= 0 {
		if optionalAt(n, idx) {
			return 1
		}
		return -1
	}
	if n.additional != nil || n.propertyNames != nil || n.unevalProps != nil || n.minProps >= 0 || n.maxProps >= 0 {
		return -1
	}
	for _, pp := range n.patternProps {
		if pp.re.re.MatchString(name) {
			return -1
		}
	}
	return 0
}

// optionalAt reports whether n lists n.keys[idx] in "properties" as
// optional: with a schema other than false, neither required nor a
// dependentRequired target.
func optionalAt(n *node, idx int) bool {
	k := &n.keys[idx]
	if k.schema == nil || k.schema.never || k.required {
		return false
	}
	for _, d := range n.depRequired {
		for _, need := range d.need {
			if need == idx {
				return false
			}
		}
	}
	return true
}
