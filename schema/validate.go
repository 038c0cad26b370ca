package schema

import (
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

func appendRune(b []byte, r rune) []byte { return utf8.AppendRune(b, r) }

// run validates the whole instance against the root.
func (s *state) run(n *node) {
	i := s.ws(0)
	if i >= len(s.data) {
		s.fatal = &Problem{Keyword: "syntax", Message: "arguments are empty"}
		return
	}
	what := "JSON value"
	if n.types == tObject {
		what = "JSON object"
	}
	switch c := s.data[i]; {
	case c == '{', c == '[', c == '"', c == 't', c == 'f', c == 'n', c == '-', c >= '0' && c <= '9':
	default:
		s.fatal = &Problem{Keyword: "syntax", Message: "arguments are not valid JSON (send one " + what + ")"}
		return
	}
	end := s.validate(n, i)
	if end < 0 {
		return
	}
	if end = s.ws(end); end < len(s.data) {
		s.fatal = &Problem{Keyword: "syntax", Message: "arguments have data after the " + what + " at byte " +
			strconv.Itoa(end) + " (send exactly one " + what + ")"}
	}
}

// matches evaluates n at i silently.
func (s *state) matches(n *node, i int) (end int, ok bool) {
	before := s.nerr
	s.silent++
	end = s.validate(n, i)
	s.silent--
	ok = s.nerr == before
	s.nerr = before
	return end, ok
}

func jsonType(c byte) uint8 {
	switch {
	case c == '{':
		return tObject
	case c == '[':
		return tArray
	case c == '"':
		return tString
	case c == 't' || c == 'f':
		return tBool
	case c == 'n':
		return tNull
	}
	return tNumber
}

// validate checks the value at i (no leading whitespace) against n and
// returns the offset after the value, or -1 after a fatal problem.
func (s *state) validate(n *node, i int) int {
	if s.steps++; s.steps > s.maxSteps {
		if s.fatal == nil {
			s.fatal = &Problem{Path: s.pathString(), Keyword: "complexity",
				Message: "arguments need too many validation steps for the schema"}
		}
		return -1
	}
	if n.never {
		if s.fail() {
			p := s.pathString()
			s.add(p, "false", "", subject(p)+" is not allowed")
		}
		return s.skip(i)
	}
	if i >= len(s.data) {
		return s.syntaxAt(i, "")
	}
	end := -2
	if n.ref != nil {
		if end = s.validate(n.ref, i); end < 0 {
			return -1
		}
	}
	c := s.data[i]
	t := jsonType(c)
	nullOK := c == 'n' && n.nullable
	if n.types != 0 && t&n.types == 0 && !nullOK {
		if t == tNumber && n.types&tInteger != 0 {
			e := s.num(i)
			if e < 0 {
				return -1
			}
			if d := parseNum(s.data[i:e]); !d.isInteger() {
				if s.fail() {
					p := s.pathString()
					s.add(p, "type", typeParam(n.allowed()), subject(p)+" must be "+typeWords(n.allowed(), len(s.path) == 0)+", got "+cut(string(s.data[i:e])))
				}
				return e
			}
		} else {
			if s.fail() {
				p := s.pathString()
				s.add(p, "type", typeParam(n.allowed()), subject(p)+" must be "+typeWords(n.allowed(), len(s.path) == 0)+", got "+describe(c))
			}
			if end >= 0 {
				return end
			}
			return s.skip(i)
		}
	}
	var e int
	switch t {
	case tObject:
		if n.kw&kwObject != 0 {
			e = s.object(n, i)
		} else if end >= 0 {
			e = end
		} else {
			e = s.skip(i)
		}
	case tArray:
		if n.kw&kwArray != 0 {
			e = s.array(n, i)
		} else if end >= 0 {
			e = end
		} else {
			e = s.skip(i)
		}
	case tString:
		var esc bool
		if e, esc = s.str(i); e < 0 {
			return -1
		}
		if n.kw&kwEnum != 0 && !s.checkEnum(n, i) {
			break
		}
		if n.kw&kwString != 0 {
			s.checkString(n, i, e, esc)
		}
	case tNumber:
		if e = s.num(i); e < 0 {
			return -1
		}
		if n.kw&kwEnum != 0 && !s.checkEnum(n, i) {
			break
		}
		if n.kw&kwNumber != 0 {
			s.checkNumber(n, i, e)
		}
	default:
		if e = s.literal(i); e < 0 {
			return -1
		}
		if n.kw&kwEnum != 0 && !nullOK {
			s.checkEnum(n, i)
		}
	}
	if e < 0 {
		return -1
	}
	if n.kw&kwEnum != 0 && (t == tObject || t == tArray) {
		s.checkEnum(n, i)
	}
	if n.kw&kwCombine != 0 {
		if !s.combine(n, i) {
			return -1
		}
	}
	return e
}

func (s *state) checkEnum(n *node, i int) bool {
	if n.enumStr != nil && s.data[i] == '"' {
		e := endT(s.data, i)
		if _, ok := n.enumStr[string(s.data[i+1:e-1])]; ok {
			return true
		}
	}
	_, h := hashValue(s.data, i)
	for k, eh := range n.enumHash {
		if eh == h && equalT(n.enum[k], 0, s.data, i) {
			return true
		}
	}
	if s.fail() {
		p := s.pathString()
		if n.isConst {
			s.add(p, "const", n.enumText, subject(p)+" must be "+cut(n.enumText))
		} else {
			s.add(p, "enum", n.enumText, subject(p)+" must be one of ["+n.enumText+"]")
		}
	}
	return false
}

func (s *state) lenProblem(n *node, count, min, max int, minKw, maxKw, unit string) {
	switch {
	case min >= 0 && min == max && count != min:
		kw := minKw
		if count > max {
			kw = maxKw
		}
		if s.fail() {
			p := s.pathString()
			s.add(p, kw, strconv.Itoa(min), subject(p)+" must have exactly "+plural(min, unit))
		}
	case min >= 0 && count < min:
		if s.fail() {
			p := s.pathString()
			s.add(p, minKw, strconv.Itoa(min), subject(p)+" must have at least "+plural(min, unit))
		}
	case max >= 0 && count > max:
		if s.fail() {
			p := s.pathString()
			s.add(p, maxKw, strconv.Itoa(max), subject(p)+" must have at most "+plural(max, unit))
		}
	}
}

// checkString enforces the string keywords on the string at [i, e).
func (s *state) checkString(n *node, i, e int, esc bool) {
	body := s.data[i+1 : e-1]
	if n.minLen >= 0 || n.maxLen >= 0 {
		var cnt int
		if !esc {
			cnt = utf8.RuneCount(body)
		} else {
			for k := i + 1; ; cnt++ {
				r, nk := strRune(s.data, k)
				if r < 0 {
					break
				}
				k = nk
			}
		}
		s.lenProblem(n, cnt, n.minLen, n.maxLen, "minLength", "maxLength", "character")
	}
	if n.formatFn == nil && n.pattern == nil {
		return
	}
	base := len(s.buf)
	if esc {
		body = s.unescape(i)
	}
	if n.formatFn != nil && !n.formatFn(unsafe.String(unsafe.SliceData(body), len(body))) {
		if s.fail() {
			p := s.pathString()
			s.add(p, "format", n.format, subject(p)+" must be "+formatWords[n.format]+", got "+quote(string(body)))
		}
	}
	if n.pattern != nil && !n.pattern.Match(body) {
		if s.fail() {
			p := s.pathString()
			s.add(p, "pattern", cut(n.patternSrc), subject(p)+" must match the pattern "+cut(n.patternSrc))
		}
	}
	s.buf = s.buf[:base]
}

// checkNumber enforces the numeric keywords on the number at [i, e).
func (s *state) checkNumber(n *node, i, e int) {
	d := parseNum(s.data[i:e])
	if n.multipleOf != nil && !isMultiple(&d, &n.multipleOf.n) {
		s.numProblem("multipleOf", n.multipleOf, "must be a multiple of ")
	}
	if n.min != nil && cmpNum(&d, &n.min.n) < 0 {
		s.numProblem("minimum", n.min, "must be at least ")
	}
	if n.exMin != nil && cmpNum(&d, &n.exMin.n) <= 0 {
		s.numProblem("exclusiveMinimum", n.exMin, "must be greater than ")
	}
	if n.max != nil && cmpNum(&d, &n.max.n) > 0 {
		s.numProblem("maximum", n.max, "must be at most ")
	}
	if n.exMax != nil && cmpNum(&d, &n.exMax.n) >= 0 {
		s.numProblem("exclusiveMaximum", n.exMax, "must be less than ")
	}
}

func (s *state) numProblem(kw string, b *bound, words string) {
	if s.fail() {
		p := s.pathString()
		s.add(p, kw, b.text, subject(p)+" "+words+b.text)
	}
}

// combine evaluates allOf, anyOf, oneOf, not and if/then/else at i; false
// after a fatal problem.
func (s *state) combine(n *node, i int) bool {
	for _, a := range n.allOf {
		if s.validate(a, i) < 0 {
			return false
		}
	}
	if n.anyOf != nil {
		ok := false
		for _, a := range n.anyOf {
			e, m := s.matches(a, i)
			if e < 0 {
				return false
			}
			if m {
				ok = true
				break
			}
		}
		if !ok && s.fail() {
			p := s.pathString()
			s.add(p, "anyOf", "", subject(p)+" must match at least one of "+plural(len(n.anyOf), "alternative")+" (anyOf), matches none")
		}
	}
	if n.oneOf != nil {
		first, second := -1, -1
		for k, a := range n.oneOf {
			e, m := s.matches(a, i)
			if e < 0 {
				return false
			}
			if m {
				if first < 0 {
					first = k
				} else {
					second = k
					break
				}
			}
		}
		if (first < 0 || second >= 0) && s.fail() {
			p := s.pathString()
			got := "none"
			if second >= 0 {
				got = "alternatives " + strconv.Itoa(first+1) + " and " + strconv.Itoa(second+1)
			}
			s.add(p, "oneOf", "", subject(p)+" must match exactly one of "+plural(len(n.oneOf), "alternative")+" (oneOf), matches "+got)
		}
	}
	if n.not != nil {
		e, m := s.matches(n.not, i)
		if e < 0 {
			return false
		}
		if m && s.fail() {
			p := s.pathString()
			s.add(p, "not", "", subject(p)+" must not match the schema in \"not\"")
		}
	}
	if n.ifN != nil {
		e, m := s.matches(n.ifN, i)
		if e < 0 {
			return false
		}
		next := n.elseN
		if m {
			next = n.thenN
		}
		if next != nil && s.validate(next, i) < 0 {
			return false
		}
	}
	return true
}

// object validates the object at i against n (nil: only check syntax,
// depth and duplicate keys).
func (s *state) object(n *node, i int) int {
	if !s.enter() {
		return -1
	}
	start := i
	i = s.ws(i + 1)
	var seen uint64
	pbase, hbase := len(s.present), len(s.hashes)
	nkeys := 0
	if n != nil {
		nkeys = len(n.keys)
	}
	for k := 64; k < nkeys; k++ {
		s.present = append(s.present, false)
	}
	dups := s.v.opts.RejectDuplicateKeys
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
				_, h := hashValue(s.data, kq)
				s.hashes = append(s.hashes, hent{h: h, pos: kq})
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
				}
				e = s.member(n, name, kq, vi, &seen, pbase, &count)
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
	}
	if dups && len(s.hashes)-hbase > 1 {
		s.duplicates(s.hashes[hbase:], "duplicateKey")
	}
	s.present = s.present[:pbase]
	s.hashes = s.hashes[:hbase]
	s.depth--
	if s.fatal != nil {
		return -1
	}
	return i
}

// member validates one property value.
func (s *state) member(n *node, name []byte, kq, vi int, seen *uint64, pbase int, count *int) int {
	idx := n.lookup(name)
	if idx >= 0 && s.v.opts.NullAsAbsent && s.data[vi] == 'n' && n.keys[idx].schema != nil && !n.keys[idx].required {
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
		if pp.re.Match(name) {
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

// array validates the array at i against n.
func (s *state) array(n *node, i int) int {
	if !s.enter() {
		return -1
	}
	start := i
	i = s.ws(i + 1)
	idx, matched := 0, 0
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
			if n.contains != nil && e != -1 {
				ce, ok := s.matches(n.contains, ei)
				if ok {
					matched++
				}
				if e == -2 {
					e = ce
				}
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
	if n.uniqueItems && idx > 1 {
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
	return i
}
