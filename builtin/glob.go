package builtin

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// maxGlobBytes is the longest glob pattern (glob's pattern, grep's
// include) accepted, in bytes. Matching costs at most about
// len(pattern) × len(name) steps per name.
const maxGlobBytes = 1024

// compileGlob compiles a glob pattern into a regular expression that
// matches a whole slash-separated path. The syntax is doublestar's (which
// the tools used before): * (any run of characters but /), ? (one
// character but /), [abc], [a-z], [!x] or [^x] (one character of, or not
// of, the set; the set may include /), {a,b} (alternatives, nested), \c
// (c itself), and ** as a whole path segment (at the start or end of the
// pattern or between slashes, outside braces): any number of directories,
// so a/**/b matches a/b and a/x/y/b, and a/** matches a and everything
// under it. ** anywhere else, next to a brace included, is a *.
//
// Braces become alternations of one regular expression instead of being
// expanded, and Go's regexp runs in time linear in the name for a given
// expression, so a match costs O(len(pattern) × len(name)) whatever the
// pattern: no brace or star combination is exponential.
//
// Errors (for the model, prefixed by the caller with the field name): a
// pattern longer than maxGlobBytes, a \ at the end, an unclosed or empty
// [...], an unclosed {, a } without its {.
func compileGlob(pattern string) (*regexp.Regexp, error) {
	if len(pattern) > maxGlobBytes {
		return nil, fmt.Errorf("is %d bytes long, more than the limit of %d", len(pattern), maxGlobBytes)
	}
	p := &globParser{src: pattern}
	seq, err := p.seq(0)
	if err != nil {
		return nil, err
	}
	if p.i < len(p.src) { // only a } can stop the top level
		return nil, fmt.Errorf("has a } without a { before it (byte %d)", p.i+1)
	}
	var b strings.Builder
	b.WriteString(`\A`)
	emitSeq(&b, seq, true)
	b.WriteString(`\z`)
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("is too complex: %v", err)
	}
	return re, nil
}

// globNode is one element of a parsed glob.
type globNode struct {
	kind  byte         // one of the node kinds below
	r     rune         // nLit
	class string       // nClass: the regexp for it
	alts  [][]globNode // nAlt
}

const (
	nLit   = 'c' // a literal rune (/ included)
	nStar  = '*' // * (or a run of stars other than exactly two)
	nStar2 = 'S' // exactly **; a globstar if it is a whole segment
	nAny   = '?'
	nClass = '['
	nAlt   = '{'
)

type globParser struct {
	src string
	i   int
}

// seq parses elements up to the end, or (depth > 0) to a , or } that ends
// an alternative, which it does not consume.
func (p *globParser) seq(depth int) ([]globNode, error) {
	var seq []globNode
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch c {
		case '*':
			j := p.i
			for j < len(p.src) && p.src[j] == '*' {
				j++
			}
			k := byte(nStar)
			if j-p.i == 2 {
				k = nStar2
			}
			seq = append(seq, globNode{kind: k})
			p.i = j
		case '?':
			seq = append(seq, globNode{kind: nAny})
			p.i++
		case '[':
			n, err := p.class()
			if err != nil {
				return nil, err
			}
			seq = append(seq, n)
		case '{':
			open := p.i
			p.i++
			var alts [][]globNode
			for {
				alt, err := p.seq(depth + 1)
				if err != nil {
					return nil, err
				}
				alts = append(alts, alt)
				if p.i >= len(p.src) {
					return nil, fmt.Errorf("has a { without its } (byte %d)", open+1)
				}
				p.i++ // , or }
				if p.src[p.i-1] == '}' {
					break
				}
			}
			seq = append(seq, globNode{kind: nAlt, alts: alts})
		case ',':
			if depth > 0 {
				return seq, nil
			}
			seq = append(seq, globNode{kind: nLit, r: ','})
			p.i++
		case '}':
			return seq, nil
		case '\\':
			p.i++
			if p.i >= len(p.src) {
				return nil, fmt.Errorf("ends with a \\ that escapes nothing")
			}
			fallthrough
		default:
			r, n := utf8.DecodeRuneInString(p.src[p.i:])
			seq = append(seq, globNode{kind: nLit, r: r})
			p.i += n
		}
	}
	return seq, nil
}

// class parses [...] at p.i the way doublestar matches it: an optional !
// or ^ (negation), then items up to the first ] that is not escaped: c,
// \c, or lo-hi (hi may be escaped; a - first, or last before ], is
// literal; a range with lo > hi matches lo only, as in doublestar).
func (p *globParser) class() (globNode, error) {
	open := p.i
	p.i++
	neg := false
	if p.i < len(p.src) && (p.src[p.i] == '!' || p.src[p.i] == '^') {
		neg = true
		p.i++
	}
	if p.i >= len(p.src) || p.src[p.i] == ']' {
		return globNode{}, fmt.Errorf("has an empty or unclosed [ (byte %d)", open+1)
	}
	var ranges [][2]rune
	last := rune(-1) // the previous single item, a possible range start
	for {
		if p.i >= len(p.src) {
			return globNode{}, fmt.Errorf("has a [ without its ] (byte %d)", open+1)
		}
		if p.src[p.i] == ']' {
			p.i++
			break
		}
		r, n := utf8.DecodeRuneInString(p.src[p.i:])
		p.i += n
		if last >= 0 && r == '-' && p.i < len(p.src) && p.src[p.i] != ']' {
			if p.src[p.i] == '\\' {
				p.i++
				if p.i >= len(p.src) {
					return globNode{}, fmt.Errorf("has a [ without its ] (byte %d)", open+1)
				}
			}
			hi, n := utf8.DecodeRuneInString(p.src[p.i:])
			p.i += n
			ranges = append(ranges, [2]rune{last, hi}) // lo stays an item: [c-a] matches c
			last = -1
			continue
		}
		if r == '\\' {
			if p.i >= len(p.src) {
				return globNode{}, fmt.Errorf("has a [ without its ] (byte %d)", open+1)
			}
			r, n = utf8.DecodeRuneInString(p.src[p.i:])
			p.i += n
		}
		ranges = append(ranges, [2]rune{r, r})
		last = r
	}
	var b strings.Builder
	for _, rg := range ranges {
		if rg[0] > rg[1] {
			continue // matches nothing
		}
		fmt.Fprintf(&b, `\x{%x}-\x{%x}`, rg[0], rg[1])
	}
	switch {
	case b.Len() == 0 && neg:
		return globNode{kind: nClass, class: `(?s:.)`}, nil
	case b.Len() == 0:
		return globNode{kind: nClass, class: `[^\x00-\x{10ffff}]`}, nil
	case neg:
		return globNode{kind: nClass, class: `[^` + b.String() + `]`}, nil
	}
	return globNode{kind: nClass, class: `[` + b.String() + `]`}, nil
}

func isSlash(seq []globNode, i int) bool {
	return i >= 0 && i < len(seq) && seq[i].kind == nLit && seq[i].r == '/'
}

// emitSeq writes the regexp of a sequence. top is set for the pattern's
// own sequence, whose ends are the ends of the path. A ** is a globstar
// when it is a whole segment of one sequence: after a / or the start of
// the pattern, and before a / or the end of the pattern.
func emitSeq(b *strings.Builder, seq []globNode, top bool) {
	for i := 0; i < len(seq); i++ {
		n := seq[i]
		start := (top && i == 0) || isSlash(seq, i-1)
		end := top && i == len(seq)-1
		switch n.kind {
		case nLit:
			// a/** at the end also matches a: the slash goes with the **.
			if n.r == '/' && top && i == len(seq)-2 && seq[i+1].kind == nStar2 {
				b.WriteString(`(?s:/.*)?`)
				return
			}
			b.WriteString(regexp.QuoteMeta(string(n.r)))
		case nStar2:
			switch {
			case start && end:
				b.WriteString(`(?s:.*)`)
			case start && isSlash(seq, i+1):
				// **/ is zero or more directories, the slash included;
				// more **/ right after it add nothing (and would only
				// cost matching time).
				b.WriteString(`(?s:.*/)?`)
				i++
				for i+2 < len(seq) && seq[i+1].kind == nStar2 && isSlash(seq, i+2) {
					i += 2
				}
			default:
				b.WriteString(`[^/]*`)
			}
		case nStar:
			b.WriteString(`[^/]*`)
		case nAny:
			b.WriteString(`[^/]`)
		case nClass:
			b.WriteString(n.class)
		case nAlt:
			b.WriteString(`(?:`)
			for k, alt := range n.alts {
				if k > 0 {
					b.WriteByte('|')
				}
				emitSeq(b, alt, false)
			}
			b.WriteByte(')')
		}
	}
}
