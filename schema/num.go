package schema

import (
	"math/big"
	"math/bits"
)

// dnum is a JSON number read in place from its text: value =
// ±0.D × 10^point, where D are the significant digits of a++b from lead to
// trail (no leading or trailing zeros). Comparisons on dnum are exact and
// do not allocate, whatever the size of the number (1e400, 0.1, 30.0).
type dnum struct {
	neg         bool
	a, b        []byte // integer and fraction digits as written
	lead, trail int    // significant digits are digit(lead) .. digit(trail-1); lead == trail for zero
	point       int    // decimal exponent of the digit string (see above)
}

// maxExp clamps exponents so that arithmetic on them cannot overflow.
const maxExp = 1 << 40

// parseNum reads a syntactically valid JSON number.
func parseNum(t []byte) dnum {
	var n dnum
	i := 0
	if i < len(t) && t[i] == '-' {
		n.neg = true
		i++
	}
	st := i
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	n.a = t[st:i]
	if i < len(t) && t[i] == '.' {
		i++
		st = i
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		n.b = t[st:i]
	}
	exp := 0
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		eneg := false
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			eneg = t[i] == '-'
			i++
		}
		for ; i < len(t); i++ {
			if exp < maxExp {
				exp = exp*10 + int(t[i]-'0')
			}
		}
		if eneg {
			exp = -exp
		}
	}
	tot := len(n.a) + len(n.b)
	n.lead = 0
	for n.lead < tot && n.digit(n.lead) == '0' {
		n.lead++
	}
	n.trail = tot
	for n.trail > n.lead && n.digit(n.trail-1) == '0' {
		n.trail--
	}
	n.point = len(n.a) - n.lead + exp
	if n.lead == n.trail {
		n.neg, n.point = false, 0
	}
	return n
}

func (n *dnum) digit(k int) byte {
	if k < len(n.a) {
		return n.a[k]
	}
	return n.b[k-len(n.a)]
}

func (n *dnum) isZero() bool { return n.lead == n.trail }

// ndigits is the number of significant digits.
func (n *dnum) ndigits() int { return n.trail - n.lead }

// isInteger reports a zero fractional part (30.0 and 1e2 are integers).
func (n *dnum) isInteger() bool { return n.isZero() || n.ndigits() <= n.point }

// cmpNum compares x and y exactly: -1, 0 or +1.
func cmpNum(x, y *dnum) int {
	if x.isZero() || y.isZero() {
		switch {
		case x.isZero() && y.isZero():
			return 0
		case x.isZero():
			if y.neg {
				return 1
			}
			return -1
		default:
			if x.neg {
				return -1
			}
			return 1
		}
	}
	if x.neg != y.neg {
		if x.neg {
			return -1
		}
		return 1
	}
	c := cmpAbs(x, y)
	if x.neg {
		return -c
	}
	return c
}

func cmpAbs(x, y *dnum) int {
	if x.point != y.point {
		if x.point < y.point {
			return -1
		}
		return 1
	}
	nx, ny := x.ndigits(), y.ndigits()
	for k := 0; k < nx || k < ny; k++ {
		var dx, dy byte = '0', '0'
		if k < nx {
			dx = x.digit(x.lead + k)
		}
		if k < ny {
			dy = y.digit(y.lead + k)
		}
		if dx != dy {
			if dx < dy {
				return -1
			}
			return 1
		}
	}
	return 0
}

// mantissa returns x = m × 10^e when the significant digits fit in 19.
func (n *dnum) mantissa() (m uint64, e int, ok bool) {
	if n.ndigits() > 19 {
		return 0, 0, false
	}
	for k := n.lead; k < n.trail; k++ {
		m = m*10 + uint64(n.digit(k)-'0')
	}
	return m, n.point - n.ndigits(), true
}

// isMultiple reports whether x is an integer multiple of y (y > 0).
func isMultiple(x, y *dnum) bool {
	if x.isZero() {
		return true
	}
	mx, ex, okx := x.mantissa()
	my, ey, oky := y.mantissa()
	if !okx || !oky || my == 0 {
		return isMultipleBig(x, y)
	}
	d := ex - ey
	if d >= 0 {
		// mx × 10^d ≡ 0 (mod my)
		return mulmod(mx%my, pow10mod(d, my), my) == 0
	}
	if mx%my != 0 {
		return false
	}
	q := mx / my
	if -d > 19 {
		return false
	}
	return q%pow10[-d] == 0
}

var pow10 = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < 20; i++ {
		p[i] = p[i-1] * 10
	}
	return
}()

func mulmod(a, b, m uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	_, r := bits.Div64(hi%m, lo, m)
	return r
}

func pow10mod(d int, m uint64) uint64 {
	r, b := uint64(1)%m, uint64(10)%m
	for d > 0 {
		if d&1 == 1 {
			r = mulmod(r, b, m)
		}
		b = mulmod(b, b, m)
		d >>= 1
	}
	return r
}

// isMultipleBig is the exact slow path for numbers with more than 19
// significant digits; exponents beyond ±100000 are treated as not a
// multiple unless x is 0, to bound the work.
func isMultipleBig(x, y *dnum) bool {
	rx, okx := x.rat()
	ry, oky := y.rat()
	if !okx || !oky || ry.Sign() == 0 {
		return false
	}
	q := new(big.Rat).Quo(rx, ry)
	return q.IsInt()
}

func (n *dnum) rat() (*big.Rat, bool) {
	e := n.point - n.ndigits()
	if e > 100000 || e < -100000 {
		return nil, false
	}
	m := new(big.Int)
	buf := make([]byte, 0, n.ndigits())
	for k := n.lead; k < n.trail; k++ {
		buf = append(buf, n.digit(k))
	}
	m.SetString(string(buf), 10)
	if n.neg {
		m.Neg(m)
	}
	r := new(big.Rat).SetInt(m)
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(absInt(e))), nil)
	if e >= 0 {
		r.Mul(r, new(big.Rat).SetInt(p))
	} else {
		r.Quo(r, new(big.Rat).SetInt(p))
	}
	return r, true
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
