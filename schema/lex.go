package schema

import (
	"strconv"

	"github.com/toolnexus/toolnexus/internal/jsonlex"
)

// The lexer works on the instance bytes in place: every function takes the
// offset of a token and returns the offset after it, or -1 after recording
// a syntax problem in s.fatal.

func (s *state) ws(i int) int { return jsonlex.WS(s.data, i) }

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
	end, esc, err := jsonlex.Str(s.data, i)
	if err != jsonlex.None {
		end = s.lexErr(end, err)
	}
	return end, esc
}

// lexErr records the lexer's error err at byte i and returns -1.
func (s *state) lexErr(i int, err jsonlex.Err) int { return s.syntaxAt(i, err.String()) }

func unhex(c byte) int { return jsonlex.Unhex(c) }

// num scans the number starting at i.
func (s *state) num(i int) int {
	end, _, err := jsonlex.Num(s.data, i)
	if err != jsonlex.None {
		end = s.lexErr(end, err)
	}
	return end
}

// literal scans true, false or null at i.
func (s *state) literal(i int) int {
	end, err := jsonlex.Lit(s.data, i)
	if err != jsonlex.None {
		end = s.lexErr(end, err)
	}
	return end
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
	end, esc, err := jsonlex.Str(s.data, i)
	if err != jsonlex.None {
		return nil, false, s.lexErr(end, err)
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
