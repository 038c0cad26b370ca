// Package jsonlex is the lowest level of JSON reading shared by the schema
// engine (package schema) and the argument decoder (internal/argtype):
// whitespace, strings with their escapes, numbers and literals, scanned in
// place over the input bytes (RFC 8259). It never allocates. Every scanner
// takes the offset of a token's first byte and returns the offset after it
// or, on a syntax error, the offset of the error and what is wrong there.
package jsonlex

import (
	"encoding/binary"
	"math/bits"
)

// Err says what is wrong at the offset a scanner returns; None when
// nothing is.
type Err uint8

// The syntax errors a scanner reports.
const (
	None    Err = iota // the token is well formed
	EOF                // the input ends inside the token (offset len(input))
	Escape             // a '\' not followed by one of "\/bfnrtu
	UEscape            // a \u not followed by four hex digits
	Control            // a byte below 0x20 inside a string
	Number             // a malformed number
	Literal            // not true, false or null
)

var errText = [...]string{
	EOF:     "",
	Escape:  "invalid escape in a string",
	UEscape: "invalid \\u escape in a string",
	Control: "control character in a string",
	Number:  "invalid number",
	Literal: "invalid literal",
}

// String returns the words for e used in messages ("invalid number", ...);
// "" for None and EOF.
func (e Err) String() string {
	if int(e) < len(errText) {
		return errText[e]
	}
	return ""
}

// WS returns the offset of the first byte at or after i that is not JSON
// whitespace (space, tab, newline, carriage return), or len(d).
func WS(d []byte, i int) int {
	for i < len(d) {
		switch d[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// plain marks the bytes a string body holds as they are: 0x20 and above
// but '"' and '\'.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return
}()

// Str scans the string whose opening '"' is at d[i] and returns the offset
// after its closing quote; esc reports whether the body holds an escape
// sequence. On error, end is the offset of the bad byte (the bad hex digit
// of a \u escape; len(d) for EOF).
func Str(d []byte, i int) (end int, esc bool, err Err) {
	end, esc, _, err = StrASCII(d, i)
	return end, esc, err
}

// Bytes of a uint64 for the SWAR tests below: each test sets the high bit
// of the lowest byte that matches (higher bytes may be set spuriously by a
// borrow, so only the lowest one counts).
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
	quote = ones * '"'
	bslsh = ones * '\\'
	space = ones * 0x20
)

// Stops takes eight string-body bytes as a little-endian word and returns
// a word whose lowest set bit is the high bit of the first byte that ends
// a plain run: '"', '\\' or a byte below 0x20; 0 when there is none.
// (Bits above the lowest one mean nothing.) Bytes of 0x80 and above are
// plain.
func Stops(x uint64) uint64 {
	q, b := x^quote, x^bslsh
	return ((q-ones)&^q | (b-ones)&^b | (x-space)&^x) & highs
}

// StrASCII is Str that also reports whether every byte between the quotes
// is below 0x80, so that the body's length in bytes is its length in code
// points (when it has no escape). It reads the body eight bytes at a time.
func StrASCII(d []byte, i int) (end int, esc, ascii bool, err Err) {
	var hi uint64 // the high bits of the body bytes passed over
	i++
	for {
		for i+8 <= len(d) {
			x := binary.LittleEndian.Uint64(d[i:])
			m := Stops(x)
			if m == 0 {
				hi |= x
				i += 8
				continue
			}
			k := uint(bits.TrailingZeros64(m)) &^ 7 // bit offset of the first special byte
			hi |= x & (1<<k - 1)
			i += int(k >> 3)
			goto special
		}
		for i < len(d) && plain[d[i]] {
			hi |= uint64(d[i])
			i++
		}
		if i >= len(d) {
			return len(d), esc, false, EOF
		}
	special:
		switch c := d[i]; {
		case c == '"':
			return i + 1, esc, hi&highs == 0, None
		case c == '\\':
			esc = true
			i++
			if i >= len(d) {
				return len(d), esc, false, EOF
			}
			switch d[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+4 >= len(d) {
					return len(d), esc, false, EOF
				}
				for k := 1; k <= 4; k++ {
					if Unhex(d[i+k]) < 0 {
						return i + k, esc, false, UEscape
					}
				}
				i += 5
			default:
				return i, esc, false, Escape
			}
		default: // c < 0x20
			return i, esc, false, Control
		}
	}
}

// Unhex returns the value of the hex digit c, or -1.
func Unhex(c byte) int {
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

// Num scans the number starting at d[i] ('-' or a digit) and returns the
// offset after it; integral reports that it has no fraction or exponent.
func Num(d []byte, i int) (end int, integral bool, err Err) {
	if i < len(d) && d[i] == '-' {
		i++
	}
	if i >= len(d) {
		return len(d), false, EOF
	}
	switch {
	case d[i] == '0':
		i++
	case d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		return i, false, Number
	}
	integral = true
	if i < len(d) && d[i] == '.' {
		integral = false
		i++
		st := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if i == st {
			return errAt(d, i)
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		integral = false
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		st := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if i == st {
			return errAt(d, i)
		}
	}
	return i, integral, None
}

// errAt reports a number missing its digits at i: EOF at the end of the
// input, a malformed number before it.
func errAt(d []byte, i int) (int, bool, Err) {
	if i >= len(d) {
		return len(d), false, EOF
	}
	return i, false, Number
}

// Lit scans true, false or null starting at d[i] ('t', 'f' or 'n'). A
// prefix of the word cut by the end of the input is EOF.
func Lit(d []byte, i int) (end int, err Err) {
	var w string
	switch d[i] {
	case 't':
		w = "true"
	case 'f':
		w = "false"
	default:
		w = "null"
	}
	if len(d)-i < len(w) {
		if string(d[i:]) == w[:len(d)-i] {
			return len(d), EOF
		}
		return i, Literal
	}
	if string(d[i:i+len(w)]) != w {
		return i, Literal
	}
	return i + len(w), None
}

// Kind names the JSON type of a value that starts with byte c, as messages
// say it: "an object", "an array", "a string", "a boolean", "a number",
// "null", or "invalid JSON" for any other byte.
func Kind(c byte) string {
	switch {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	case c == 'n':
		return "null"
	}
	return "invalid JSON"
}
