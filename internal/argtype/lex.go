package argtype

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/internal/jsonlex"
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

// skipString skips a string starting at the opening quote. An invalid
// escape is reported at its backslash.
func (s *scanner) skipString() bool {
	end, _, err := jsonlex.Str(s.data, s.i)
	if err == jsonlex.None {
		s.i = end
		return true
	}
	switch err {
	case jsonlex.Escape:
		end-- // the byte after the backslash
	case jsonlex.UEscape:
		end--                     // the bad digit may be a backslash itself
		for s.data[end] != '\\' { // back over the hex digits and the u
			end--
		}
	}
	s.i = end
	s.syntaxAt(err.String())
	return false
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
	end, integral, err := jsonlex.Num(s.data, s.i)
	s.i = end
	if err != jsonlex.None {
		s.syntaxAt(err.String())
		return false, false
	}
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
