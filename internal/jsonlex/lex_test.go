package jsonlex

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestStr(t *testing.T) {
	for _, c := range []struct {
		in  string
		end int
		esc bool
		err Err
	}{
		{`"abc"x`, 5, false, None},
		{`"a\"b"`, 6, true, None},
		{`"\u00e9"`, 8, true, None},
		{`"\u00g9"`, 5, true, UEscape},
		{`"\u00`, 5, true, EOF},
		{`"\x"`, 2, true, Escape},
		{"\"a\nb\"", 2, false, Control},
		{`"abc`, 4, false, EOF},
		{`"ab\`, 4, true, EOF},
	} {
		end, esc, err := Str([]byte(c.in), 0)
		require.Equal(t, [3]any{c.end, c.esc, c.err}, [3]any{end, esc, err}, c.in)
	}
}

func TestNum(t *testing.T) {
	for _, c := range []struct {
		in       string
		end      int
		integral bool
		err      Err
	}{
		{`-12,`, 3, true, None},
		{`0.5]`, 3, false, None},
		{`1e+9`, 4, false, None},
		{`01`, 1, true, None},
		{`-`, 1, false, EOF},
		{`-x`, 1, false, Number},
		{`1.`, 2, false, EOF},
		{`1.e`, 2, false, Number},
		{`1e`, 2, false, EOF},
		{`1e+}`, 3, false, Number},
	} {
		end, integral, err := Num([]byte(c.in), 0)
		require.Equal(t, [3]any{c.end, c.integral, c.err}, [3]any{end, integral, err}, c.in)
	}
}

func TestLitAndWS(t *testing.T) {
	for _, c := range []struct {
		in  string
		end int
		err Err
	}{
		{`true,`, 4, None}, {`false`, 5, None}, {`null`, 4, None},
		{`nul`, 3, EOF}, {`nux`, 0, Literal}, {`trux`, 0, Literal},
	} {
		end, err := Lit([]byte(c.in), 0)
		require.Equal(t, [2]any{c.end, c.err}, [2]any{end, err}, c.in)
	}
	require.Equal(t, 4, WS([]byte(" \t\r\nx"), 0))
	require.Equal(t, 2, WS([]byte("  "), 0))
	require.Equal(t, "invalid \\u escape in a string", UEscape.String())
	require.Equal(t, "", EOF.String())
}

// A string or number the scanners accept whole is one encoding/json
// accepts, and the other way round.
func FuzzScalars(f *testing.F) {
	for _, s := range []string{`"a\u00e9\n"`, `-0.5e+3`, `"\x"`, `01`, `1.`, `true`, `nul`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := []byte(s)
		if len(d) == 0 {
			return
		}
		var end int
		var err Err
		switch c := d[0]; {
		case c == '"':
			end, _, err = Str(d, 0)
		case c == '-' || c >= '0' && c <= '9':
			end, _, err = Num(d, 0)
		case c == 't' || c == 'f' || c == 'n':
			end, err = Lit(d, 0)
		default:
			return
		}
		whole := err == None && WS(d, end) == len(d)
		if whole != json.Valid(d) {
			t.Fatalf("%q: scanners say whole=%v (end %d, err %d), encoding/json says %v", s, whole, end, err, json.Valid(d))
		}
	})
}

// strRef is Str as it was written before StrASCII: one byte at a time.
func strRef(d []byte, i int) (end int, esc bool, err Err) {
	i++
	for i < len(d) {
		for i < len(d) && plain[d[i]] {
			i++
		}
		if i >= len(d) {
			break
		}
		switch c := d[i]; {
		case c == '"':
			return i + 1, esc, None
		case c == '\\':
			esc = true
			i++
			if i >= len(d) {
				return len(d), esc, EOF
			}
			switch d[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+4 >= len(d) {
					return len(d), esc, EOF
				}
				for k := 1; k <= 4; k++ {
					if Unhex(d[i+k]) < 0 {
						return i + k, esc, UEscape
					}
				}
				i += 5
			default:
				return i, esc, Escape
			}
		default:
			return i, esc, Control
		}
	}
	return len(d), esc, EOF
}

func TestStrASCII(t *testing.T) {
	for _, c := range []struct {
		in    string
		end   int
		ascii bool
	}{
		{`"abcdefghijklmnop"`, 18, true},
		{`"abcdefghijklmnopé"x`, 20, false},
		{`"é"`, 4, false},
		{`"abcdefgh\u00e9ijklmnop" `, 24, true}, // escapes are ASCII text
		{`"abcdefg"é`, 9, true},                 // bytes after the quote do not count
		{`"abcdefghijklmnopqrstuvw"`, 25, true},
	} {
		end, _, ascii, err := StrASCII([]byte(c.in), 0)
		require.Equal(t, [3]any{c.end, c.ascii, None}, [3]any{end, ascii, err}, c.in)
	}
	// every position of a special byte inside an 8-byte word
	for k := 0; k < 16; k++ {
		for _, sp := range []string{`"`, `\n`, "\x1f", "\x00", `\x`, "\x80"} {
			in := []byte(`"` + "aaaaaaaaaaaaaaaa"[:k] + sp + `aaaaaaaaaaaaaaaaaaaa"`)
			we, wesc, werr := strRef(in, 0)
			e, esc, _, err := StrASCII(in, 0)
			require.Equal(t, [3]any{we, wesc, werr}, [3]any{e, esc, err}, "%q", in)
		}
	}
}

// StrASCII (eight bytes at a time) agrees with the byte-at-a-time scanner
// on every input, and ascii says whether the body has a byte >= 0x80.
func FuzzStrASCII(f *testing.F) {
	for _, s := range []string{`"abcdefghij\"klmno"`, `"a\u00e9\n"`, "\"abcdefgh\x01\"", `"abcdefghé"`, `"abcdefgh\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := []byte(`"` + s)
		we, wesc, werr := strRef(d, 0)
		e, esc, ascii, err := StrASCII(d, 0)
		if e != we || esc != wesc || err != werr {
			t.Fatalf("%q: StrASCII %d %v %d, byte at a time %d %v %d", d, e, esc, err, we, wesc, werr)
		}
		if err == None {
			want := true
			for _, c := range d[1 : e-1] {
				if c >= 0x80 {
					want = false
				}
			}
			if ascii != want {
				t.Fatalf("%q: ascii %v", d, ascii)
			}
		}
	})
}
