package schema

import (
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNumbersExact(t *testing.T) {
	tests := []struct {
		schema, in string
		valid      bool
	}{
		{`{"maximum":9007199254740993}`, `9007199254740993`, true},
		{`{"maximum":9007199254740992}`, `9007199254740993`, false},
		{`{"minimum":0.1}`, `0.1`, true},
		{`{"minimum":0.1}`, `0.09999999999999999999`, false},
		{`{"maximum":1e400}`, `1e401`, false},
		{`{"maximum":1e400}`, `9e399`, true},
		{`{"type":"integer"}`, `1e400`, true},
		{`{"type":"integer"}`, `1.0000000000000000000001`, false},
		{`{"type":"integer"}`, `-0.0`, true},
		{`{"multipleOf":0.01}`, `19.99`, true},
		{`{"multipleOf":0.01}`, `19.991`, false},
		{`{"multipleOf":3}`, `1e308`, false},
		{`{"multipleOf":5}`, `1e308`, true},
		{`{"multipleOf":0.0001}`, `123456789012345678901234567890.1234`, true},
		{`{"multipleOf":7}`, `123456789012345678901234567891`, false},
		{`{"const":1}`, `1.0`, true},
		{`{"enum":[100]}`, `1e2`, true},
	}
	for _, tc := range tests {
		v := mustCompile(t, tc.schema, nil)
		err := v.Validate([]byte(tc.in))
		assert.False(t, (err == nil) != tc.valid, "%s on %s: valid=%v, got %v", tc.schema, tc.in, tc.valid, err)
	}
}

// TestMultipleOfExact: multipleOf is exact for numbers of any length and
// any exponent.
func TestMultipleOfExact(t *testing.T) {
	long := strings.Repeat("123456789", 20) // 180 digits
	tests := []struct {
		schema, in string
		valid      bool
	}{
		{`{"multipleOf":0.5}`, long + ".5", true},
		{`{"multipleOf":0.5}`, long + ".25", false},
		{`{"multipleOf":9}`, long, true}, // digit sum 900
		{`{"multipleOf":9}`, long + "1", false},
		{`{"multipleOf":7}`, "7" + strings.Repeat("0", 300), true},
		{`{"multipleOf":1e-200000}`, `1`, true},
		{`{"multipleOf":1e-200000}`, `1.5e-199999`, true},
		{`{"multipleOf":1e200000}`, `1e200001`, true},
		{`{"multipleOf":3e200000}`, `1e200001`, false},
		{`{"multipleOf":18446744073709551615}`, `36893488147419103230`, true}, // 2 × (2^64 - 1)
		{`{"multipleOf":18446744073709551615}`, `36893488147419103231`, false},
		{`{"multipleOf":123456789012345678901}`, `246913578024691357802e5`, true},
		{`{"multipleOf":123456789012345678901}`, `246913578024691357803`, false},
		{`{"multipleOf":1.23456789012345678901}`, `2.46913578024691357802`, true},
		{`{"multipleOf":1.23456789012345678901}`, `0.246913578024691357802`, false},
		{`{"multipleOf":0.3}`, `-0.9`, true},
		{`{"multipleOf":0.3}`, `0`, true},
	}
	for _, tc := range tests {
		v := mustCompile(t, tc.schema, nil)
		err := v.Validate([]byte(tc.in))
		assert.False(t, (err == nil) != tc.valid, "%s on %.40s: valid=%v, got %v", tc.schema, tc.in, tc.valid, err)
	}
}

// TestMultipleOfLongNumber: a hostile 2 MB number costs linear time, not
// seconds (the bound is the point of the test: the work was quadratic).
func TestMultipleOfLongNumber(t *testing.T) {
	num := []byte("1" + strings.Repeat("7", 2<<20) + ".5")
	v := mustCompile(t, `{"multipleOf":0.5}`, nil)
	start := time.Now()
	err := v.Validate(num)
	d := time.Since(start)
	assert.LessOrEqual(t, d, 5*time.Second, "2 MB number against multipleOf 0.5 took %v", d)
	assert.NoError(t, err, "valid number refused")
	// A multipleOf with more than 19 significant digits bounds the work
	// (digits of the instance × digits of multipleOf) with a "complexity"
	// problem instead.
	v = mustCompile(t, `{"multipleOf":0.`+strings.Repeat("3", 4000)+`}`, nil)
	ps := problems(t, v, string(num))
	if assert.Len(t, ps, 1, "long multipleOf: %+v", ps) {
		assert.Equal(t, "complexity", ps[0].Keyword, "long multipleOf: %+v", ps)
		assert.True(t, strings.HasPrefix(ps[0].Message, "arguments is too long to check against multipleOf 0.333"), "long multipleOf: %+v", ps)
	}
}

// TestIsMultipleAgainstRat compares isMultiple with big.Rat arithmetic on
// generated numbers, short and long, around the 19-digit boundary.
func TestIsMultipleAgainstRat(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func(digits int) string {
		b := make([]byte, 0, digits+8)
		for range digits {
			b = append(b, byte('0'+rng.IntN(10)))
		}
		if rng.IntN(2) == 0 {
			p := rng.IntN(len(b) + 1)
			b = append(b[:p], append([]byte{'.'}, b[p:]...)...)
		}
		s := "0" + string(b)
		if rng.IntN(3) == 0 {
			s += "e" + strconv.Itoa(rng.IntN(41)-20)
		}
		return s
	}
	multiples := 0
	for i := 0; i < 20000; i++ {
		ys := gen(1 + rng.IntN(24))
		y := parseNum([]byte(ys))
		if y.isZero() {
			continue
		}
		// x = y × k (a multiple), sometimes shifted off by a little
		k := new(big.Rat).SetInt64(int64(rng.IntN(1000000)))
		ry, _ := new(big.Rat).SetString(ys)
		rx := new(big.Rat).Mul(ry, k)
		if rng.IntN(2) == 0 {
			off, _ := new(big.Rat).SetString(gen(1 + rng.IntN(30)))
			rx.Add(rx, off)
		}
		xs := rx.FloatString(60)
		x := parseNum([]byte(xs))
		rx.SetString(xs)
		want := new(big.Rat).Quo(rx, ry).IsInt()
		if want {
			multiples++
		}
		got, ok := isMultiple(&x, &y)
		require.True(t, ok, "isMultiple(%s, %s) = %v, %v; want %v", xs, ys, got, ok, want)
		require.Equal(t, want, got, "isMultiple(%s, %s) = %v, %v; want %v", xs, ys, got, ok, want)
	}
	assert.GreaterOrEqual(t, multiples, 5000, "%d multiples in 20000 cases: the generator is off", multiples)
	assert.LessOrEqual(t, multiples, 15000, "%d multiples in 20000 cases: the generator is off", multiples)
}
