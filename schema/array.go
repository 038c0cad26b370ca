package schema

import (
	"strconv"
)

// array validates the array at i against n.
func (s *state) array(n *node, i int) int {
	if !s.enter() {
		return -1
	}
	start := i
	i = s.ws(i + 1)
	idx, matched := 0, 0
	ubase := len(s.pend)
	if i < len(s.data) && s.data[i] == ']' {
		i++
	} else {
		for {
			ei := s.ws(i)
			sch := n.items
			if idx < len(n.prefixItems) {
				sch = n.prefixItems[idx]
			}
			e := -2
			if sch != nil && sch.never && idx >= len(n.prefixItems) {
				if idx == len(n.prefixItems) && s.fail() {
					p := s.pathString()
					s.add(p, "items", strconv.Itoa(idx), subject(p)+" must have at most "+plural(idx, "item"))
				}
				sch = nil
			}
			s.path = append(s.path, seg{q: -1, idx: idx})
			if sch != nil {
				e = s.validate(sch, ei)
			}
			inContains := false
			if n.contains != nil && e != -1 {
				ce, ok := s.matches(n.contains, ei)
				if ok {
					matched++
					inContains = true
				}
				if e == -2 {
					e = ce
				}
			}
			if n.unevalItems != nil && sch == nil && !inContains && idx >= len(n.prefixItems) && n.items == nil {
				s.pend = append(s.pend, hent{pos: ei, idx: idx})
			}
			if e == -2 {
				e = s.skip(ei)
			}
			s.path = s.path[:len(s.path)-1]
			if e < 0 {
				return -1
			}
			idx++
			var more bool
			if i, more = s.next(e, ']', "an array element"); i < 0 {
				return -1
			}
			if !more {
				break
			}
		}
	}
	s.depth--
	s.lenProblem(n, idx, n.minItems, n.maxItems, "minItems", "maxItems", "item")
	if n.contains != nil {
		if matched < n.minContains && s.fail() {
			p := s.pathString()
			kw := "contains"
			if n.minContains != 1 {
				kw = "minContains"
			}
			s.add(p, kw, strconv.Itoa(n.minContains), subject(p)+" must contain at least "+plural(n.minContains, "item")+" matching the schema in \"contains\", has "+strconv.Itoa(matched))
		}
		if n.maxContains >= 0 && matched > n.maxContains && s.fail() {
			p := s.pathString()
			s.add(p, "maxContains", strconv.Itoa(n.maxContains), subject(p)+" must contain at most "+plural(n.maxContains, "item")+" matching the schema in \"contains\", has "+strconv.Itoa(matched))
		}
	}
	if n.unevalItems != nil && s.fatal == nil {
		s.unevaluatedItems(n, start, ubase)
	}
	s.pend = s.pend[:ubase]
	if n.uniqueItems && idx > 1 {
		s.unique(start, i, idx)
	}
	return i
}

// unique checks uniqueItems on the idx elements of the (checked) array
// [start, end).
func (s *state) unique(start, end, idx int) {
	s.steps += (end - start) >> 6 // the elements are hashed in a second pass
	hbase := len(s.hashes)
	k := s.ws(start + 1)
	for j := 0; j < idx; j++ {
		e, h := hashValue(s.data, k)
		s.hashes = append(s.hashes, hent{h: h, pos: k, idx: j})
		k = s.ws(e)
		if s.data[k] == ',' {
			k = s.ws(k + 1)
		}
	}
	s.duplicates(s.hashes[hbase:], "uniqueItems")
	s.hashes = s.hashes[:hbase]
}
