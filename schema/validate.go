package schema

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/internal/jsonlex"
)

func appendRune(b []byte, r rune) []byte { return utf8.AppendRune(b, r) }

// run validates the whole instance against the root, finding every
// problem.
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
	case c == '-' || c >= '0' && c <= '9':
		return tNumber
	}
	return 0
}

// validate checks the value at i (no leading whitespace) against n and
// returns the offset after the value, or -1 after a fatal problem.
func (s *state) validate(n *node, i int) int {
	if !s.v.dynamic || n.res == nil || len(s.scope) > 0 && s.scope[len(s.scope)-1] == n.res {
		return s.validateNode(n, i)
	}
	s.scope = append(s.scope, n.res)
	e := s.validateNode(n, i)
	s.scope = s.scope[:len(s.scope)-1]
	return e
}

// dynTarget resolves the $dynamicRef of n: the outermost resource in the
// dynamic scope with a matching $dynamicAnchor, else the static target.
func (s *state) dynTarget(n *node) *node {
	if n.dynName != "" {
		for _, r := range s.scope {
			if t := r.dyn[n.dynName]; t != nil {
				return t
			}
		}
	}
	return n.dynRef
}

func (s *state) validateNode(n *node, i int) int {
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
	if n.dynRef != nil {
		if end = s.validate(s.dynTarget(n), i); end < 0 {
			return -1
		}
	}
	c := s.data[i]
	t := jsonType(c)
	if t == 0 {
		return s.unexpected(i)
	}
	nullOK := c == 'n' && n.nullable
	numEnd := -1 // end of the number at i, once lexed
	if n.types != 0 && t&n.types == 0 && !nullOK {
		if t == tNumber && n.types&tInteger != 0 {
			if numEnd = s.num(i); numEnd < 0 {
				return -1
			}
			e := numEnd
			if !parseNumInt(s.data[i:e]) {
				if s.fail() {
					p := s.pathString()
					s.add(p, "type", typeParam(n.allowed()), subject(p)+" must be "+typeWords(n.allowed(), len(s.path) == 0)+", got "+cut(string(s.data[i:e])))
				}
				return e
			}
		} else {
			if s.fail() {
				p := s.pathString()
				s.add(p, "type", typeParam(n.allowed()), subject(p)+" must be "+typeWords(n.allowed(), len(s.path) == 0)+", got "+jsonlex.Kind(c))
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
		var lerr jsonlex.Err
		if e, esc, lerr = jsonlex.Str(s.data, i); lerr != jsonlex.None {
			return s.lexErr(e, lerr)
		}
		if n.kw&kwEnum != 0 && !s.checkEnum(n, i) {
			break
		}
		if n.kw&kwString != 0 {
			s.checkString(n, i, e, esc)
		}
	case tNumber:
		if e = numEnd; e < 0 {
			var lerr jsonlex.Err
			if e, _, lerr = jsonlex.Num(s.data, i); lerr != jsonlex.None {
				return s.lexErr(e, lerr)
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
		s.steps += (e - i) >> 6 // hashing rescans the value: nested enums must not go quadratic unbounded
		s.checkEnum(n, i)
	}
	if n.kw&kwCombine != 0 {
		if !s.combine(n, i) {
			return -1
		}
	}
	return e
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
				got := jsonlex.Kind(s.data[i])
				if t&tInteger != 0 && jsonType(s.data[i]) == tNumber {
					got = cut(string(s.data[i:endT(s.data, i)])) // 1.5 for an integer
				}
				s.add(p, "anyOf", typeParam(t), subject(p)+" must be "+typeWords(t, len(s.path) == 0)+", got "+got)
			} else if other := nullOr(n.anyOf); other != nil && jsonType(s.data[i]) != tNull {
				if s.validate(other, i) < 0 { // a value for a nullable schema: its own problems
					return false
				}
			} else {
				msg := subject(p) + " must match at least one of " + plural(len(n.anyOf), "alternative") + " (anyOf), matches none"
				wants, ok := s.wanted(n.anyOf, i)
				if !ok {
					return false
				}
				s.add(p, "anyOf", "", msg+wants)
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
		if first < 0 && jsonType(s.data[i]) != tNull && nullOr(n.oneOf) != nil && s.fail() {
			if s.validate(nullOr(n.oneOf), i) < 0 { // a value for a nullable schema: its own problems
				return false
			}
		} else if (first < 0 || second >= 0) && s.fail() {
			p := s.pathString()
			got := "none"
			if second >= 0 {
				got = "alternatives " + strconv.Itoa(first+1) + " and " + strconv.Itoa(second+1)
			} else {
				wants, ok := s.wanted(n.oneOf, i)
				if !ok {
					return false
				}
				got += wants
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
			s.add(p, "not", "", subject(p)+" must not match the schema in \"not\", "+n.notText)
		}
	}
	if n.ifN != nil && (n.thenN != nil || n.elseN != nil) {
		e, m := s.matches(n.ifN, i)
		if e < 0 {
			return false
		}
		next, why := n.elseN, "else"
		if m {
			next, why = n.thenN, "then"
		}
		mark := len(s.problems)
		if next != nil && s.validate(next, i) < 0 {
			return false
		}
		// Say why these rules apply: the value matched "if" (or did not).
		for k := mark; k < len(s.problems); k++ {
			if why == "then" {
				s.problems[k].Message += " (\"then\" applies: the value matches \"if\", " + n.ifText + ")"
			} else {
				s.problems[k].Message += " (\"else\" applies: the value does not match \"if\", " + n.ifText + ")"
			}
		}
	}
	return true
}

// maxNotText bounds the "not" or "if" schema quoted in a message.
const maxNotText = 200

// maxWanted bounds what wanted says of each alternative: its first
// problems, and the most bytes of them.
const (
	maxWanted       = 2
	maxWantedBytes  = 200
	maxAlternatives = 8
)

// wanted says, for alternatives none of which the value at i matched,
// what each of the first maxAlternatives wanted: ": alternative 1: "b" is required; alternative
// 2: …", each alternative's first problems as the registry words them,
// so that a model can see how to satisfy one. It runs each alternative
// again, recording; false after a fatal problem.
func (s *state) wanted(alts []*node, i int) (string, bool) {
	var b strings.Builder
	nerr, mark := s.nerr, len(s.problems)
	for k, a := range alts {
		if k == maxAlternatives {
			b.WriteString("; and " + plural(len(alts)-k, "more alternative"))
			break
		}
		if s.validate(a, i) < 0 {
			return "", false
		}
		got := s.problems[mark:]
		if len(got) == 0 {
			continue // over MaxProblems: nothing recorded
		}
		b.WriteString("; alternative " + strconv.Itoa(k+1) + ": ")
		start := b.Len()
		for j, pr := range got[:min(len(got), maxWanted)] {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pr.Message)
			if b.Len()-start > maxWantedBytes {
				break
			}
		}
		s.problems = s.problems[:mark]
	}
	s.nerr = nerr
	if b.Len() == 0 {
		return "", true
	}
	return ":" + strings.TrimPrefix(b.String(), ";"), true
}

// typeOnly returns the union of the types of alternatives that only say
// "type" (and annotations), or 0.
// nullOr returns the alternative that is not {"type":"null"} when alts
// are such a pair (the form a nullable value takes), else nil.
func nullOr(alts []*node) *node {
	if len(alts) != 2 {
		return nil
	}
	for k := range alts {
		if typeOnly(alts[k:k+1]) == tNull {
			return alts[1-k]
		}
	}
	return nil
}

func typeOnly(alts []*node) uint8 {
	var t uint8
	for _, a := range alts {
		if a.never || a.kw != 0 || a.ref != nil || a.dynRef != nil || a.types == 0 || a.nullable {
			return 0
		}
		t |= a.types
	}
	return t
}
