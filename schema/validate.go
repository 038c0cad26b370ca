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
	numEnd := -1 // end of the number at i, once lexed
	if n.types != 0 && t&n.types == 0 && !nullOK {
		if t == tNumber && n.types&tInteger != 0 {
			if numEnd = s.num(i); numEnd < 0 {
				return -1
			}
			e := numEnd
			if !plainInt(s.data[i:e]) && !parseNumInt(s.data[i:e]) {
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
		if e = numEnd; e < 0 {
			if e = s.num(i); e < 0 {
				return -1
			}
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

// checkEnum checks enum and const; false when either fails.
func (s *state) checkEnum(n *node, i int) bool {
	ok := true
	for _, vs := range [2]*valueSet{n.constV, n.enum} {
		if vs != nil && !s.inSet(vs, i) {
			ok = false
			if s.fail() {
				p := s.pathString()
				if vs.isConst {
					s.add(p, "const", vs.text, subject(p)+" must be "+cut(vs.text))
				} else {
					s.add(p, "enum", vs.text, subject(p)+" must be one of ["+vs.text+"]")
				}
			}
		}
	}
	return ok
}

func (s *state) inSet(vs *valueSet, i int) bool {
	if vs.strs != nil && s.data[i] == '"' {
		e := endT(s.data, i)
		if _, ok := vs.strs[string(s.data[i+1:e-1])]; ok {
			return true
		}
	}
	_, h := hashValue(s.data, i)
	for k, eh := range vs.hashes {
		if eh == h && equalT(vs.vals[k], 0, s.data, i) {
			return true
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

// plainInt reports a number written without fraction or exponent.
func plainInt(t []byte) bool {
	for _, c := range t {
		if c == '.' || c == 'e' || c == 'E' {
			return false
		}
	}
	return true
}

func parseNumInt(t []byte) bool {
	d := parseNum(t)
	return d.isInteger()
}

// smallInt returns the value of a plain integer of at most 18 digits.
func smallInt(t []byte) (int64, bool) {
	neg := false
	if len(t) > 0 && t[0] == '-' {
		neg, t = true, t[1:]
	}
	if len(t) == 0 || len(t) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range t {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// checkNumber enforces the numeric keywords on the number at [i, e).
func (s *state) checkNumber(n *node, i, e int) {
	if n.intBounds && n.multipleOf == nil {
		if v, ok := smallInt(s.data[i:e]); ok {
			if n.min != nil && v < n.min.i {
				s.numProblem("minimum", n.min, "must be at least ")
			}
			if n.exMin != nil && v <= n.exMin.i {
				s.numProblem("exclusiveMinimum", n.exMin, "must be greater than ")
			}
			if n.max != nil && v > n.max.i {
				s.numProblem("maximum", n.max, "must be at most ")
			}
			if n.exMax != nil && v >= n.exMax.i {
				s.numProblem("exclusiveMaximum", n.exMax, "must be less than ")
			}
			return
		}
	}
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
			if t := typeOnly(n.anyOf); t != 0 {
				// anyOf [{"type":"string"},{"type":"null"}]: say it as a type
				got := describe(s.data[i])
				if t&tInteger != 0 && jsonType(s.data[i]) == tNumber {
					got = cut(string(s.data[i:endT(s.data, i)])) // 1.5 for an integer
				}
				s.add(p, "anyOf", typeParam(t), subject(p)+" must be "+typeWords(t, len(s.path) == 0)+", got "+got)
			} else {
				s.add(p, "anyOf", "", subject(p)+" must match at least one of "+plural(len(n.anyOf), "alternative")+" (anyOf), matches none")
			}
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
	if n.ifN != nil && (n.thenN != nil || n.elseN != nil) {
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
	pbase, hbase, ubase := len(s.present), len(s.hashes), len(s.pend)
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
		if n.unevalProps != nil && s.fatal == nil {
			s.unevaluatedProps(n, start, ubase)
		}
	}
	s.pend = s.pend[:ubase]
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

// typeOnly returns the union of the types of alternatives that only say
// "type" (and annotations), or 0.
func typeOnly(alts []*node) uint8 {
	var t uint8
	for _, a := range alts {
		if a.never || a.kw != 0 || a.ref != nil || a.types == 0 || a.nullable {
			return 0
		}
		t |= a.types
	}
	return t
}

// unevaluatedProps validates the members that no keyword of n nor of a
// successful in-place subschema evaluated against n.unevalProps.
func (s *state) unevaluatedProps(n *node, obj, ubase int) {
	for k := ubase; k < len(s.pend); k++ {
		m := s.pend[k]
		bbase := len(s.buf)
		name := s.unescape(m.pos)
		ev := s.evaluatedIn(n, obj, name, -1)
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
	for k := ubase; k < len(s.pend); k++ {
		m := s.pend[k]
		if s.evaluatedIn(n, arr, nil, m.idx) {
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
// member name (or, when name is nil, the element idx); sub is assumed
// valid there (the caller checks where that matters).
func (s *state) evaluates(sub *node, pos int, name []byte, idx int) bool {
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
			if pp.re.Match(name) {
				return true
			}
		}
	} else {
		if idx < len(sub.prefixItems) || sub.items != nil || sub.unevalItems != nil {
			return true
		}
		if sub.contains != nil {
			if _, ok := s.matches(sub.contains, s.element(pos, idx)); ok {
				return true
			}
		}
	}
	return s.evaluatedIn(sub, pos, name, idx)
}

// evaluatedIn checks the in-place applicators of n.
func (s *state) evaluatedIn(n *node, pos int, name []byte, idx int) bool {
	if n.ref != nil && s.evaluates(n.ref, pos, name, idx) {
		return true
	}
	for _, a := range n.allOf {
		if s.evaluates(a, pos, name, idx) {
			return true
		}
	}
	for _, group := range [2][]*node{n.anyOf, n.oneOf} {
		for _, a := range group {
			if _, ok := s.matches(a, pos); ok && s.evaluates(a, pos, name, idx) {
				return true
			}
		}
	}
	if n.ifN != nil {
		if _, ok := s.matches(n.ifN, pos); ok {
			if s.evaluates(n.ifN, pos, name, idx) || n.thenN != nil && s.evaluates(n.thenN, pos, name, idx) {
				return true
			}
		} else if n.elseN != nil && s.evaluates(n.elseN, pos, name, idx) {
			return true
		}
	}
	for _, d := range n.depSchemas {
		if s.hasMember(pos, n.keys[d.key].name) && s.evaluates(d.schema, pos, name, idx) {
			return true
		}
	}
	return false
}

// element returns the offset of element idx of the (checked) array at pos.
func (s *state) element(pos, idx int) int {
	k := wsT(s.data, pos+1)
	for j := 0; j < idx; j++ {
		k = wsT(s.data, endT(s.data, k))
		k = wsT(s.data, k+1) // ','
	}
	return k
}

// hasMember reports whether the (checked) object at pos has the key name.
func (s *state) hasMember(pos int, name string) bool {
	if s.data[pos] != '{' {
		return false
	}
	k := wsT(s.data, pos+1)
	for s.data[k] != '}' {
		bbase := len(s.buf)
		got := string(s.unescape(k)) == name
		s.buf = s.buf[:bbase]
		if got {
			return true
		}
		k = wsT(s.data, wsT(s.data, endT(s.data, k))+1)
		k = wsT(s.data, endT(s.data, k))
		if s.data[k] == ',' {
			k = wsT(s.data, k+1)
		}
	}
	return false
}
