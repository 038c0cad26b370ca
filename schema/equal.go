package schema

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/internal/jsonlex"
)

// JSON equality and hashing on text that is already known to be valid JSON
// (a checked instance span, or a compact value from the schema): numbers
// compare by value (1 == 1.0), strings after unescaping, objects regardless
// of key order. None of these allocate.

// endT returns the end of the trusted value at i.
func endT(d []byte, i int) int {
	i = jsonlex.WS(d, i)
	switch c := d[i]; c {
	case '"':
		i++
		for d[i] != '"' {
			if d[i] == '\\' {
				i++
			}
			i++
		}
		return i + 1
	case '{', '[':
		depth := 0
		for {
			switch d[i] {
			case '"':
				i = endT(d, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
	case 't', 'n':
		return i + 4
	case 'f':
		return i + 5
	}
	for i < len(d) {
		switch c := d[i]; {
		case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			i++
		default:
			return i
		}
	}
	return i
}

// strRune returns the rune at i inside a string body, and the offset
// after it; r is -1 at the closing quote.
func strRune(d []byte, i int) (r rune, next int) {
	c := d[i]
	switch {
	case c == '"':
		return -1, i
	case c < utf8.RuneSelf && c != '\\':
		return rune(c), i + 1
	case c != '\\':
		r, n := utf8.DecodeRune(d[i:])
		return r, i + n
	}
	switch d[i+1] {
	case 'b':
		return '\b', i + 2
	case 'f':
		return '\f', i + 2
	case 'n':
		return '\n', i + 2
	case 'r':
		return '\r', i + 2
	case 't':
		return '\t', i + 2
	case 'u':
		r = hex4(d[i+2:])
		i += 6
		if utf16.IsSurrogate(r) && i+5 < len(d) && d[i] == '\\' && d[i+1] == 'u' {
			if r2 := utf16.DecodeRune(r, hex4(d[i+2:])); r2 != utf8.RuneError {
				return r2, i + 6
			}
		}
		if utf16.IsSurrogate(r) {
			r = utf8.RuneError
		}
		return r, i
	}
	return rune(d[i+1]), i + 2
}

func hex4(b []byte) rune {
	return rune(unhex(b[0])<<12 | unhex(b[1])<<8 | unhex(b[2])<<4 | unhex(b[3]))
}

// strEqual compares the strings starting with '"' at a[i] and b[j].
func strEqual(a []byte, i int, b []byte, j int) bool {
	i++
	j++
	for {
		r1, ni := strRune(a, i)
		r2, nj := strRune(b, j)
		if r1 != r2 {
			return false
		}
		if r1 < 0 {
			return true
		}
		i, j = ni, nj
	}
}

// equalT reports JSON equality of the values at a[i] and b[j].
func equalT(a []byte, i int, b []byte, j int) bool {
	i, j = jsonlex.WS(a, i), jsonlex.WS(b, j)
	ca, cb := a[i], b[j]
	if ca == '-' || ca >= '0' && ca <= '9' {
		if !(cb == '-' || cb >= '0' && cb <= '9') {
			return false
		}
		x, y := parseNum(a[i:endT(a, i)]), parseNum(b[j:endT(b, j)])
		return cmpNum(&x, &y) == 0
	}
	if ca != cb {
		return false
	}
	switch ca {
	case '"':
		return strEqual(a, i, b, j)
	case 't', 'f', 'n':
		return true
	case '[':
		i, j = jsonlex.WS(a, i+1), jsonlex.WS(b, j+1)
		for {
			ea, eb := a[i] == ']', b[j] == ']'
			if ea || eb {
				return ea && eb
			}
			if !equalT(a, i, b, j) {
				return false
			}
			i, j = jsonlex.WS(a, endT(a, i)), jsonlex.WS(b, endT(b, j))
			if a[i] == ',' {
				i = jsonlex.WS(a, i+1)
			}
			if b[j] == ',' {
				j = jsonlex.WS(b, j+1)
			}
		}
	}
	// objects: same number of members, and each member of a found in b
	if countMembers(a, i) != countMembers(b, j) {
		return false
	}
	i = jsonlex.WS(a, i+1)
	for a[i] != '}' {
		kEnd := endT(a, i)
		vi := jsonlex.WS(a, jsonlex.WS(a, kEnd)+1)
		found := false
		k := jsonlex.WS(b, j+1)
		for b[k] != '}' {
			bkEnd := endT(b, k)
			bvi := jsonlex.WS(b, jsonlex.WS(b, bkEnd)+1)
			if strEqual(a, i, b, k) {
				if !equalT(a, vi, b, bvi) {
					return false
				}
				found = true
				break
			}
			k = jsonlex.WS(b, endT(b, bvi))
			if b[k] == ',' {
				k = jsonlex.WS(b, k+1)
			}
		}
		if !found {
			return false
		}
		i = jsonlex.WS(a, endT(a, vi))
		if a[i] == ',' {
			i = jsonlex.WS(a, i+1)
		}
	}
	return true
}

func countMembers(d []byte, i int) int {
	n := 0
	i = jsonlex.WS(d, i+1)
	for d[i] != '}' {
		n++
		i = jsonlex.WS(d, jsonlex.WS(d, endT(d, i))+1) // past ':'
		i = jsonlex.WS(d, endT(d, i))
		if d[i] == ',' {
			i = jsonlex.WS(d, i+1)
		}
	}
	return n
}

const (
	fnvOff   = 14695981039346656037
	fnvPrime = 1099511628211
)

func mix(h, x uint64) uint64 {
	h ^= x
	h *= fnvPrime
	h ^= h >> 29
	return h
}

// hashValue hashes the value at d[i] so that equal values (by equalT) get
// equal hashes; it returns the end of the value too.
func hashValue(d []byte, i int) (end int, h uint64) {
	i = jsonlex.WS(d, i)
	c := d[i]
	switch {
	case c == '-' || c >= '0' && c <= '9':
		end = endT(d, i)
		n := parseNum(d[i:end])
		h = mix(fnvOff, 'd')
		if n.neg {
			h = mix(h, 1)
		}
		h = mix(h, uint64(n.point))
		for k := n.lead; k < n.trail; k++ {
			h = mix(h, uint64(n.digit(k)))
		}
		return end, h
	case c == '"':
		h = mix(fnvOff, 's')
		k := i + 1
		for {
			r, nk := strRune(d, k)
			if r < 0 {
				return nk + 1, h
			}
			h = mix(h, uint64(r))
			k = nk
		}
	case c == 't' || c == 'f' || c == 'n':
		return endT(d, i), mix(fnvOff, uint64(c))
	case c == '[':
		h = mix(fnvOff, '[')
		i = jsonlex.WS(d, i+1)
		for d[i] != ']' {
			var eh uint64
			i, eh = hashValue(d, i)
			h = mix(h, eh)
			i = jsonlex.WS(d, i)
			if d[i] == ',' {
				i = jsonlex.WS(d, i+1)
			}
		}
		return i + 1, h
	}
	// object: order-independent sum of member hashes
	var sum uint64
	i = jsonlex.WS(d, i+1)
	for d[i] != '}' {
		kEnd, kh := hashValue(d, i)
		vEnd, vh := hashValue(d, jsonlex.WS(d, jsonlex.WS(d, kEnd)+1))
		sum += mix(mix(fnvOff, kh), vh)
		i = jsonlex.WS(d, vEnd)
		if d[i] == ',' {
			i = jsonlex.WS(d, i+1)
		}
	}
	return i + 1, mix(mix(fnvOff, '{'), sum)
}
