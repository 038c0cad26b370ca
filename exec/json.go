package exec

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// firstByte is the first non-whitespace byte of raw, or 0.
func firstByte(raw []byte) byte {
	for _, c := range raw {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c
	}
	return 0
}

// notReply is the error for a reply that is not a JSON object or array
// (its first byte after whitespace is neither '{' nor '['); what names the
// provider ("OpenAI", ...). A reply that is one valid JSON value is named
// by its type; anything else is "not valid JSON" at the offset of the
// first byte that cannot be JSON, with a quoted head of the reply (see
// quoteHead).
func notReply(what string, raw []byte) error {
	off, why := scalarSyntax(raw)
	if off < 0 {
		return fmt.Errorf("exec: %s reply: want a JSON object or array, got %s", what, why)
	}
	return fmt.Errorf("exec: %s reply: not valid JSON at offset %d: %s; %s", what, off, why, quoteHead(raw))
}

// scalarSyntax checks raw, which does not start with '{' or '[', against
// the JSON grammar, as encoding/json does (bytes of a string need not be
// valid UTF-8). When raw is one valid value (whitespace around it allowed)
// it returns -1 and the value's type ("a string", ...), or "no data";
// otherwise the 0-based offset of the first byte that cannot be JSON (the
// length of raw when it ends too soon) and why.
func scalarSyntax(raw []byte) (off int, why string) {
	i := skipSpace(raw, 0)
	if i == len(raw) {
		return -1, "no data"
	}
	var kind, in string
	switch c := raw[i]; {
	case c == 't' || c == 'f' || c == 'n':
		lit := "true"
		kind = "a boolean"
		switch c {
		case 'f':
			lit = "false"
		case 'n':
			lit, kind = "null", "null"
		}
		in = "literal " + lit
		for k := 0; k < len(lit); k, i = k+1, i+1 {
			if i == len(raw) || raw[i] != lit[k] {
				return badByte(raw, i, in)
			}
		}
	case c == '"':
		kind, in = "a string", "a string"
		for i++; ; i++ {
			if i == len(raw) {
				return i, "the reply ends inside a string"
			}
			if c := raw[i]; c == '"' {
				i++
				break
			} else if c < 0x20 {
				return badByte(raw, i, in)
			} else if c == '\\' {
				if i++; i == len(raw) {
					return i, "the reply ends inside a string"
				}
				switch raw[i] {
				case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				case 'u':
					for k := 0; k < 4; k++ {
						if i++; i == len(raw) {
							return i, "the reply ends inside a string"
						}
						if !isHex4(raw[i : i+1]) {
							return badByte(raw, i, "a string escape")
						}
					}
				default:
					return badByte(raw, i, "a string escape")
				}
			}
		}
	case c == '-' || c >= '0' && c <= '9':
		kind, in = "a number", "a number"
		if raw[i] == '-' {
			i++
		}
		switch {
		case i < len(raw) && raw[i] == '0':
			i++
		case i < len(raw) && raw[i] >= '1' && raw[i] <= '9':
			i = skipDigits(raw, i)
		default:
			return badByte(raw, i, in)
		}
		if i < len(raw) && raw[i] == '.' {
			if i++; i == len(raw) || raw[i] < '0' || raw[i] > '9' {
				return badByte(raw, i, in)
			}
			i = skipDigits(raw, i)
		}
		if i < len(raw) && (raw[i] == 'e' || raw[i] == 'E') {
			if i++; i < len(raw) && (raw[i] == '+' || raw[i] == '-') {
				i++
			}
			if i == len(raw) || raw[i] < '0' || raw[i] > '9' {
				return badByte(raw, i, in)
			}
			i = skipDigits(raw, i)
		}
	default:
		return badByte(raw, i, "")
	}
	if i = skipSpace(raw, i); i < len(raw) {
		return badByte(raw, i, "after")
	}
	return -1, kind
}

// badByte is scalarSyntax's answer for the byte at i of raw, met inside
// in ("a string", ...; "" at the start of a value, "after" after it).
func badByte(raw []byte, i int, in string) (int, string) {
	if i == len(raw) {
		return i, "the reply ends inside " + in
	}
	what := fmt.Sprintf("invalid byte %#x", raw[i])
	if r, n := utf8.DecodeRune(raw[i:]); r != utf8.RuneError || n > 1 {
		what = fmt.Sprintf("invalid character %q", r)
	}
	switch in {
	case "":
		return i, what + " at the start of a value"
	case "after":
		return i, what + " after the value"
	}
	return i, what + " in " + in
}

func skipSpace(raw []byte, i int) int {
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	return i
}

func skipDigits(raw []byte, i int) int {
	for i < len(raw) && raw[i] >= '0' && raw[i] <= '9' {
		i++
	}
	return i
}

// maxHead is the most bytes of a reply quoteHead shows.
const maxHead = 40

// quoteHead quotes raw ("the reply is …") or, when it is longer than
// maxHead bytes, its first maxHead bytes or fewer, cut between UTF-8
// characters ("the reply begins …"…). The quoting (strconv.Quote) escapes
// invalid UTF-8, so the text is valid UTF-8.
func quoteHead(raw []byte) string {
	if len(raw) <= maxHead {
		return "the reply is " + strconv.Quote(string(raw))
	}
	n := maxHead
	for k := 0; k < utf8.UTFMax && n > 0 && !utf8.RuneStart(raw[n]); k++ {
		n--
	}
	return "the reply begins " + strconv.Quote(string(raw[:n])) + "…"
}
