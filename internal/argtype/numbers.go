package argtype

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxQuoted bounds every value a message quotes, in bytes (the schema
// engine uses the same bound).
const maxQuoted = 64

// cutText shortens s to at most maxQuoted bytes, on a rune boundary, plus "…".
func cutText(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	i := maxQuoted
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// quoteShort quotes the cut, valid-UTF-8 form of v.
func quoteShort(v string) string {
	return strconv.Quote(strings.ToValidUTF8(cutText(v), "\uFFFD"))
}

// maxIntegralDigits bounds the digits integralText writes: no Go integer
// (nor a useful big.Int argument) needs more.
const maxIntegralDigits = 400

// integralText returns the plain integer form of a JSON number with a
// fraction or exponent whose value is an integer ("30.0" → "30", "1e2" →
// "100", "-0.0" → "0"), and false when the value has a fractional part or
// would need more than maxIntegralDigits digits.
func integralText(raw []byte) ([]byte, bool) {
	neg := len(raw) > 0 && raw[0] == '-'
	if neg {
		raw = raw[1:]
	}
	mant, expPart, hasExp := raw, []byte(nil), false
	for i, c := range raw {
		if c == 'e' || c == 'E' {
			mant, expPart, hasExp = raw[:i], raw[i+1:], true
			break
		}
	}
	exp := 0
	if hasExp {
		e, err := strconv.Atoi(strings.TrimPrefix(string(expPart), "+"))
		if err != nil || e > maxIntegralDigits || e < -maxIntegralDigits-len(mant) {
			if err == nil && e < 0 && allZeroDigits(mant) {
				return []byte("0"), true
			}
			return nil, false
		}
		exp = e
	}
	digits := make([]byte, 0, len(mant))
	for _, c := range mant {
		if c >= '0' && c <= '9' {
			digits = append(digits, c)
		}
	}
	exp -= countDigitsAfterDot(mant)
	// strip leading zeros
	for len(digits) > 1 && digits[0] == '0' {
		digits = digits[1:]
	}
	for exp < 0 && len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	if len(digits) == 0 || allZeroDigits(digits) {
		return []byte("0"), true
	}
	if exp < 0 {
		return nil, false
	}
	if len(digits)+exp > maxIntegralDigits {
		return nil, false
	}
	out := make([]byte, 0, len(digits)+exp+1)
	if neg {
		out = append(out, '-')
	}
	out = append(out, digits...)
	for range exp {
		out = append(out, '0')
	}
	return out, true
}

func countDigitsAfterDot(mant []byte) int {
	for i, c := range mant {
		if c == '.' {
			return len(mant) - i - 1
		}
	}
	return 0
}

func allZeroDigits(b []byte) bool {
	for _, c := range b {
		if c >= '1' && c <= '9' {
			return false
		}
	}
	return true
}

func minInt(bits int) int64 { return -1 << (bits - 1) }

func maxInt(bits int) int64 { return 1<<(bits-1) - 1 }

func maxUint(bits int) uint64 {
	if bits == 64 {
		return ^uint64(0)
	}
	return 1<<bits - 1
}
