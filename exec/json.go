package exec

import "fmt"

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

// describe names what raw starts with, for errors; it never quotes content.
func describe(raw []byte) string {
	switch c := firstByte(raw); {
	case c == 0:
		return "no data"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	default:
		return fmt.Sprintf("invalid JSON starting with %q", rune(c))
	}
}
