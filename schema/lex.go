package schema

import (
	"strconv"
)

// The lexer works on the instance bytes in place: every function takes the
// offset of a token and returns the offset after it, or -1 after recording
// a syntax problem in s.fatal.

func (s *state) ws(i int) int {
	for i < len(s.data) {
		switch s.data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// syntaxAt records a syntax problem at byte i; what is "" at the end of
// the input.
func (s *state) syntaxAt(i int, what string) int {
	if s.fatal != nil {
		return -1
	}
	var msg string
	if i >= len(s.data) {
		msg = "arguments are not valid JSON: unexpected end of input (truncated?)"
	} else {
		msg = "arguments are not valid JSON: " + what + " at byte " + strconv.Itoa(i)
	}
	s.fatal = &Problem{Keyword: "syntax", Message: msg}
	return -1
}

func (s *state) unexpected(i int) int {
	if i >= len(s.data) {
		return s.syntaxAt(i, "")
	}
	return s.syntaxAt(i, "unexpected character "+strconv.QuoteRune(rune(s.data[i])))
}

// str scans the string starting at the '"' at i. esc reports whether the
// body holds an escape sequence.
func (s *state) str(i int) (end int, esc bool) {
	i++
	for i < len(s.data) {
		for i < len(s.data) && plain[s.data[i]] {
			i++
		}
		if i >= len(s.data) {
			break
		}
		c := s.data[i]
		switch {
		case c == '"':
			return i + 1, esc
		case c == '\\':
			esc = true
			i++
			if i >= len(s.data) {
				return s.syntaxAt(i, ""), esc
			}
			switch s.data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+4 >= len(s.data) {
					return s.syntaxAt(len(s.data), ""), esc
				}
				for k := 1; k <= 4; k++ {
					if unhex(s.data[i+k]) < 0 {
						return s.syntaxAt(i+k, "invalid \\u escape in a string"), esc
					}
				}
				i += 5
			default:
				return s.syntaxAt(i, "invalid escape in a string"), esc
			}
		case c < 0x20:
			return s.syntaxAt(i, "control character in a string"), esc
		default:
			i++
		}
	}
	return s.syntaxAt(i, ""), esc
}

// plain marks the bytes a string body holds as they are.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return
}()

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// num scans the number starting at i.
func (s *state) num(i int) int {
	d := s.data
	if i < len(d) && d[i] == '-' {
		i++
	}
	if i >= len(d) {
		return s.syntaxAt(i, "")
	}
	switch {
	case d[i] == '0':
		i++
	case d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		return s.syntaxAt(i, "invalid number")
	}
	if i < len(d) && d[i] == '.' {
		i++
		st := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if i == st {
			return s.syntaxAt(i, "invalid number")
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		st := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if i == st {
			return s.syntaxAt(i, "invalid number")
		}
	}
	return i
}

// literal scans true, false or null at i.
func (s *state) literal(i int) int {
	var w string
	switch s.data[i] {
	case 't':
		w = "true"
	case 'f':
		w = "false"
	default:
		w = "null"
	}
	if len(s.data)-i < len(w) {
		if string(s.data[i:]) == w[:len(s.data)-i] {
			return s.syntaxAt(len(s.data), "")
		}
		return s.syntaxAt(i, "invalid literal")
	}
	if string(s.data[i:i+len(w)]) != w {
		return s.syntaxAt(i, "invalid literal")
	}
	return i + len(w)
}

// enter counts one level of nesting; false (recorded) beyond MaxDepth.
func (s *state) enter() bool {
	s.depth++
	if s.depth > s.v.opts.MaxDepth {
		if s.fatal == nil {
			s.fatal = &Problem{Path: s.pathString(), Keyword: "depth", Param: strconv.Itoa(s.v.opts.MaxDepth),
				Message: "arguments are nested more than " + strconv.Itoa(s.v.opts.MaxDepth) + " levels deep"}
		}
		return false
	}
	return true
}

// next reads the separator after a member or element: more is true after
// ',' and false after the closing byte.
func (s *state) next(i int, closing byte, after string) (j int, more bool) {
	i = s.ws(i)
	if i >= len(s.data) {
		return s.syntaxAt(i, ""), false
	}
	switch s.data[i] {
	case ',':
		return i + 1, true
	case closing:
		return i + 1, false
	}
	return s.syntaxAt(i, "expected ',' or '"+string(closing)+"' after "+after), false
}

// key reads a member name at i (after whitespace) and the ':' after it; it
// returns the name's body (without quotes) and the offset of the value.
func (s *state) key(i int) (k []byte, esc bool, j int) {
	i = s.ws(i)
	if i >= len(s.data) || s.data[i] != '"' {
		if i >= len(s.data) {
			return nil, false, s.syntaxAt(i, "")
		}
		return nil, false, s.syntaxAt(i, "expected a property name")
	}
	end, esc := s.str(i)
	if end < 0 {
		return nil, false, -1
	}
	k = s.data[i+1 : end-1]
	end = s.ws(end)
	if end >= len(s.data) || s.data[end] != ':' {
		if end >= len(s.data) {
			return nil, false, s.syntaxAt(end, "")
		}
		return nil, false, s.syntaxAt(end, "expected ':' after a property name")
	}
	return k, esc, s.ws(end + 1)
}

// skip scans one value at i (after whitespace) without a schema, checking
// its syntax, depth and (with RejectDuplicateKeys) repeated keys.
func (s *state) skip(i int) int {
	if i >= len(s.data) {
		return s.syntaxAt(i, "")
	}
	switch c := s.data[i]; {
	case c == '"':
		end, _ := s.str(i)
		return end
	case c == '-' || c >= '0' && c <= '9':
		return s.num(i)
	case c == 't' || c == 'f' || c == 'n':
		return s.literal(i)
	case c == '[':
		if !s.enter() {
			return -1
		}
		i = s.ws(i + 1)
		if i < len(s.data) && s.data[i] == ']' {
			s.depth--
			return i + 1
		}
		for {
			i = s.skip(s.ws(i))
			if i < 0 {
				return -1
			}
			var more bool
			if i, more = s.next(i, ']', "an array element"); i < 0 {
				return -1
			}
			if !more {
				break
			}
		}
		s.depth--
		return i
	case c == '{':
		return s.object(nil, i)
	}
	return s.unexpected(i)
}
