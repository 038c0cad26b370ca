package argtype

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// skipValue validates and skips any JSON value.
func (s *scanner) skipValue() {
	if s.i >= len(s.data) {
		s.syntaxAt("")
		return
	}
	switch c := s.data[s.i]; {
	case c == '{':
		s.mapObject(rawObjectSpec)
	case c == '[':
		s.array(anySpec)
	case c == '"':
		s.skipString()
	case c == 't' || c == 'f' || c == 'n':
		s.literal()
	case c == '-' || c >= '0' && c <= '9':
		s.number()
	default:
		s.syntaxAt(fmt.Sprintf("unexpected character %q", rune(c)))
	}
}

// skipString skips a string starting at the opening quote.
func (s *scanner) skipString() bool {
	i := s.i + 1
	for i < len(s.data) {
		c := s.data[i]
		switch {
		case c == '"':
			s.i = i + 1
			return true
		case c == '\\':
			if i+1 >= len(s.data) {
				s.i = len(s.data)
				s.syntaxAt("")
				return false
			}
			switch s.data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(s.data) {
					s.i = len(s.data)
					s.syntaxAt("")
					return false
				}
				for _, h := range s.data[i+2 : i+6] {
					if !isHex(h) {
						s.i = i
						s.syntaxAt("invalid \\u escape in a string")
						return false
					}
				}
				i += 6
			default:
				s.i = i
				s.syntaxAt("invalid escape in a string")
				return false
			}
		case c < 0x20:
			s.i = i
			s.syntaxAt("control character in a string")
			return false
		default:
			i++
		}
	}
	s.i = len(s.data)
	s.syntaxAt("")
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func (s *scanner) literal() bool {
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(s.data)-s.i >= len(lit) && string(s.data[s.i:s.i+len(lit)]) == lit {
			s.i += len(lit)
			return true
		}
	}
	if len(s.data)-s.i < 5 {
		// could be a truncated literal
		s.i = len(s.data)
		s.syntaxAt("")
		return false
	}
	s.syntaxAt("invalid literal")
	return false
}

// number skips a JSON number and reports whether it has no fraction or
// exponent.
func (s *scanner) number() (integral, ok bool) {
	i := s.i
	d := s.data
	if i < len(d) && d[i] == '-' {
		i++
	}
	if i >= len(d) {
		s.i = i
		s.syntaxAt("")
		return false, false
	}
	switch {
	case d[i] == '0':
		i++
	case d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		s.i = i
		s.syntaxAt("invalid number")
		return false, false
	}
	integral = true
	if i < len(d) && d[i] == '.' {
		integral = false
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			s.i = i
			s.syntaxAt("invalid number")
			return false, false
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		integral = false
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			s.i = i
			s.syntaxAt("invalid number")
			return false, false
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	s.i = i
	return integral, true
}

func hasEscape(b []byte) bool {
	for _, c := range b {
		if c == '\\' {
			return true
		}
	}
	return false
}

// unescapeKey returns the decoded form of a raw (validated) JSON string body.
func unescapeKey(b []byte) []byte {
	if !hasEscape(b) {
		if utf8.Valid(b) {
			return b
		}
		return []byte(strings.ToValidUTF8(string(b), "\uFFFD"))
	}
	q := make([]byte, 0, len(b)+2)
	q = append(q, '"')
	q = append(q, b...)
	q = append(q, '"')
	var out string
	if err := json.Unmarshal(q, &out); err != nil {
		return b
	}
	return []byte(out)
}
