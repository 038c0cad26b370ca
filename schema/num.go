package schema

import (
	"math/big"
	"math/bits"
	"strconv"
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

// maxMultipleWork bounds one multipleOf check whose multipleOf has more
// than 19 significant digits: digits of the instance × digits of
// multipleOf, plus 64 × (digits of multipleOf)² (a few milliseconds).
const maxMultipleWork = 1 << 30

// checkMultipleOf reports d when it is not a multiple of b, or when b is so
// long that deciding would cost more than maxMultipleWork.
func (s *state) checkMultipleOf(d *dnum, b *bound) {
	mult, ok := isMultiple(d, &b.n)
	if !ok {
		if s.fail() {
			p := s.pathString()
			s.add(p, "complexity", b.text, subject(p)+" is too long to check against multipleOf "+b.text+" ("+
				strconv.Itoa(d.ndigits())+" significant digits, at most "+strconv.Itoa(maxMultipleDigits(&b.n))+")")
		}
		return
	}
	if !mult {
		s.numProblem("multipleOf", b, "must be a multiple of ")
	}
}

// maxMultipleDigits is the longest instance (significant digits) that a
// multipleOf of y's length may be checked against.
func maxMultipleDigits(y *dnum) int {
	ny := y.ndigits()
	if ny <= 19 {
		return -1 // no limit
	}
	return max(0, (maxMultipleWork-64*ny*ny)/ny)
}

// isMultiple reports whether x is an integer multiple of y (y > 0),
// exactly. With x = mx × 10^ex and y = my × 10^ey (mx, my without
// trailing zeros): for ex < ey, x/y = mx / (my × 10^(ey-ex)) is no integer
// since 10 does not divide mx; otherwise x is a multiple when
// mx × 10^(ex-ey) ≡ 0 (mod my). mx mod my is read digit by digit: linear in
// the length of x when my fits in 64 bits. ok is false (and nothing is
// computed) when a longer my would cost more than maxMultipleWork.
func isMultiple(x, y *dnum) (mult, ok bool) {
	if x.isZero() {
		return true, true
	}
	if y.isZero() {
		return false, true
	}
	d := (x.point - x.ndigits()) - (y.point - y.ndigits())
	if d < 0 {
		return false, true
	}
	if my, _, fits := y.mantissa(); fits {
		var r uint64
		for k := x.lead; k < x.trail; {
			var chunk uint64
			j := k
			for ; j < x.trail && j-k < 19; j++ {
				chunk = chunk*10 + uint64(x.digit(j)-'0')
			}
			hi, lo := bits.Mul64(r, pow10[j-k])
			var c uint64
			lo, c = bits.Add64(lo, chunk, 0)
			_, r = bits.Div64((hi+c)%my, lo, my)
			k = j
		}
		return mulmod(r, pow10mod(d, my), my) == 0, true
	}
	if lim := maxMultipleDigits(y); x.ndigits() > lim {
		return false, false
	}
	return isMultipleBig(x, y, d), true
}

// isMultipleBig is isMultiple for a y of more than 19 significant digits,
// in time digits(x) × digits(y).
func isMultipleBig(x, y *dnum, d int) bool {
	my, ok := new(big.Int).SetString(string(y.significand()), 10)
	if !ok {
		return false
	}
	r, t, w := new(big.Int), new(big.Int), new(big.Int)
	ten18 := new(big.Int).SetUint64(pow10[18])
	for k := x.lead; k < x.trail; {
		var chunk uint64
		j := k
		for ; j < x.trail && j-k < 18; j++ {
			chunk = chunk*10 + uint64(x.digit(j)-'0')
		}
		if j-k == 18 {
			t.Mul(r, ten18)
		} else {
			t.Mul(r, w.SetUint64(pow10[j-k]))
		}
		t.Add(t, w.SetUint64(chunk))
		r.Mod(t, my)
		k = j
	}
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d)), my)
	return r.Mul(r, p).Mod(r, my).Sign() == 0
}

// significand returns the significant digits.
func (n *dnum) significand() []byte {
	b := make([]byte, 0, n.ndigits())
	for k := n.lead; k < n.trail; k++ {
		b = append(b, n.digit(k))
	}
	return b
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
