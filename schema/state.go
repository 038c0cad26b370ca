package schema

import (
	"strconv"
	"strings"
	"sync"
)

// seg is one step of the instance path: a member name (q is the offset of
// its opening quote) or an array index (q is -1).
type seg struct {
	q   int
	idx int
}

// hent is a value's hash and offset, for uniqueItems and duplicate keys.
type hent struct {
	h   uint64
	pos int
	idx int
}

// state is one Validate call. States are pooled, so a valid instance
// allocates nothing; every slice is used as a stack.
type state struct {
	v        *Validator
	data     []byte
	fatal    *Problem // a syntax, depth or complexity problem: reported alone
	problems []Problem
	nerr     int // problems found, including silent ones
	silent   int // > 0 inside anyOf/oneOf/not/if/contains/propertyNames: record nothing
	path     []seg
	depth    int
	steps    int
	maxSteps int
	buf      []byte // unescaped strings
	hashes   []hent
	present  []bool      // presence of known keys beyond 64
	pend     []hent      // members/elements left for unevaluatedProperties/Items (pos: key or element, idx: value)
	scope    []*resource // dynamic scope, outermost first (only when Validator.dynamic)
	uev      []*node     // subschemas whose annotations unevaluatedProperties/Items look at (unevaluated.go)
}

var statePool = sync.Pool{New: func() any { return new(state) }}

func getState(v *Validator, data []byte) *state {
	s := statePool.Get().(*state)
	s.v, s.data = v, data
	s.maxSteps = 1<<20 + 64*len(data)
	return s
}

func putState(s *state) {
	s.v, s.data, s.fatal = nil, nil, nil
	s.problems = s.problems[:0]
	s.nerr, s.silent, s.depth, s.steps = 0, 0, 0, 0
	s.path, s.buf, s.hashes, s.present, s.pend = s.path[:0], s.buf[:0], s.hashes[:0], s.present[:0], s.pend[:0]
	s.scope, s.uev = s.scope[:0], s.uev[:0]
	statePool.Put(s)
}

// result hands the problems over to a *ValidationError.
func (s *state) result() error {
	if s.fatal != nil {
		return &ValidationError{Problems: []Problem{*s.fatal}}
	}
	p := s.problems
	s.problems = nil
	return &ValidationError{Problems: p}
}

// fail counts a problem and reports whether to record it.
func (s *state) fail() bool {
	s.nerr++
	return s.silent == 0 && len(s.problems) < MaxProblems
}

func (s *state) add(path, keyword, param, msg string) {
	s.problems = append(s.problems, Problem{Path: path, Keyword: keyword, Param: param, Message: msg})
}

// pathString renders the current instance path: stops[2].city
func (s *state) pathString() string {
	var b strings.Builder
	for _, p := range s.path {
		if p.q < 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(p.idx))
			b.WriteByte(']')
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		for k := p.q + 1; ; {
			r, nk := strRune(s.data, k)
			if r < 0 {
				break
			}
			b.WriteRune(r)
			k = nk
		}
	}
	return b.String()
}

// child is path + "." + name, for a property that is absent.
func child(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// unescape appends the decoded body of the string whose quote is at q to
// s.buf and returns it.
func (s *state) unescape(q int) []byte {
	base := len(s.buf)
	for k := q + 1; ; {
		r, nk := strRune(s.data, k)
		if r < 0 {
			break
		}
		s.buf = appendRune(s.buf, r)
		k = nk
	}
	return s.buf[base:]
}
