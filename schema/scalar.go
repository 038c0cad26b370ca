package schema

import (
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// checkEnum checks enum and const; false when either fails.
func (s *state) checkEnum(n *node, i int) bool {
	ok := true
	for _, vs := range [2]*valueSet{n.constV, n.enum} {
		if vs != nil && !s.inSet(vs, i) {
			ok = false
			if s.fail() {
				p := s.pathString()
				if text := vs.text; vs.isConst {
					s.add(p, "const", text, subject(p)+" must be "+cut(text))
				} else {
					s.add(p, "enum", text, subject(p)+" must be one of ["+text+"]")
				}
			}
		}
	}
	return ok
}

func (s *state) inSet(vs *valueSet, i int) bool {
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
	if n.pattern != nil && !s.match(n.pattern, body) {
		if s.fail() {
			p := s.pathString()
			s.add(p, "pattern", cut(n.pattern.src), subject(p)+" must match the pattern "+cut(n.pattern.src))
		}
	}
	s.buf = s.buf[:base]
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
	d := parseNum(s.data[i:e])
	if n.multipleOf != nil {
		s.checkMultipleOf(&d, n.multipleOf)
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

// maxMatchWork bounds one regular-expression match: input bytes times
// program instructions (about a second of the slowest RE2 path).
const maxMatchWork = 1 << 25

// match runs p on b. An input too long for the pattern's size is a
// problem of its own (keyword "complexity") and counts as a match, so it
// is reported once.
func (s *state) match(p *pattern, b []byte) bool {
	if len(b) > maxMatchWork/p.cost {
		if s.fail() {
			path := s.pathString()
			s.add(path, "complexity", strconv.Itoa(maxMatchWork/p.cost), subject(path)+" is too long to check against the pattern "+
				cut(p.src)+" ("+strconv.Itoa(len(b))+" bytes, at most "+strconv.Itoa(maxMatchWork/p.cost)+")")
		}
		return true
	}
	return p.re.Match(b)
}
