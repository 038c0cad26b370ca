package jsonx

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus/internal/jsonlex"
)

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "quote\" back\\", "<a&b>", "tab\tnl\ncr\r", "\x00\x1f", "bad\xffutf8", "ls\u2028ps\u2029", "héllo ✓"} {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		require.Equal(t, string(want), string(AppendString(nil, s)), "string %q", s)
	}
}

func TestParseKeepsOrderAndRoundTrips(t *testing.T) {
	in := `{"z":1,"a":[true,false,null,"x",1.50,{"k":{}}],"m":{"b":2,"a":1}}`
	v, err := Parse([]byte(in))
	require.NoError(t, err)
	require.Equal(t, in, string(Marshal(v)))
	c := Clone(v).(*Object)
	c.Set("z", "changed")
	require.True(t, c.Delete("a"))
	require.Equal(t, in, string(Marshal(v)), "Clone must not share state")
	require.Equal(t, `{"z":"changed","m":{"b":2,"a":1}}`, string(Marshal(c)))
	_, err = Parse([]byte(`{} {}`))
	require.Error(t, err)
}

// TestParseDepth: nesting past MaxDepth is an error, not a stack that
// grows with the input (4 MiB of "[" used to end the process).
func TestParseDepth(t *testing.T) {
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, err := Parse([]byte(ok)); err != nil {
		t.Fatalf("%d levels: %v", MaxDepth, err)
	}
	for _, n := range []int{MaxDepth + 1, 4 << 20} {
		deep := strings.Repeat("[", n) + strings.Repeat("]", n)
		if _, err := Parse([]byte(deep)); !errors.Is(err, ErrTooDeep) {
			t.Errorf("%d levels: err = %v, want ErrTooDeep", n, err)
		}
		deepObj := strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n)
		if _, err := Parse([]byte(deepObj)); !errors.Is(err, ErrTooDeep) {
			t.Errorf("%d object levels: err = %v, want ErrTooDeep", n, err)
		}
	}
}

// FuzzParse: whatever the one-pass parser accepts, encoding/json's token
// stream accepts too, with the same tree (the parser gives up on anything
// else and Parse then takes the token stream).
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"z":1,"a":[true,false,null,"x",1.50,{"k":{}}],"m":{"b":2,"a":1}}`, ` [ ] `, `{}`, `"\ud800x\u00e9\n"`,
		"\"bad\xffutf8\"", `-0.5e+3`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `[1 2]`, `01`, `tru`, `nul`, `{"a":1}x`, `"\u12"`, "\"\x01\"", `{"a":{"a":{"a":[]}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := parser{d: data}
		v, ok := p.value(0)
		if !ok || jsonlex.WS(data, p.i) != len(data) {
			return
		}
		want, err := parseDecoder(data)
		if err != nil {
			t.Fatalf("one pass accepts %q, encoding/json says %v", data, err)
		}
		if !reflect.DeepEqual(v, want) {
			t.Fatalf("%q: one pass %#v, encoding/json %#v", data, v, want)
		}
	})
}

// TestParseValues pins the tree of the one-pass parser: escapes and
// invalid UTF-8 become what encoding/json unquotes them to, numbers keep
// their text, an empty array is not nil.
func TestParseValues(t *testing.T) {
	v, err := Parse([]byte(` {"s":"a\u00e9\ud800\n","b":"x` + "\xff" + `y","n":-1.50e3,"a":[],"o":{},"l":[true,null]} `))
	require.NoError(t, err)
	want := &Object{Keys: []string{"s", "b", "n", "a", "o", "l"},
		Vals: []any{"aé\ufffd\n", "x\ufffdy", json.Number("-1.50e3"), []any{}, &Object{}, []any{true, nil}}}
	require.Equal(t, want, v)
	for _, bad := range []string{``, ` `, `[1,]`, `{"a":1,}`, `{"a" 1}`, `[1 2]`, `01`, `tru`, `{"a":1}x`, "\"\x01\"", `{1:2}`} {
		_, err := Parse([]byte(bad))
		require.Error(t, err, "%q", bad)
	}
}

// FuzzAppendString: AppendString writes what json.Marshal writes for the
// same string.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain text", "quote\" back\\", "<a&b>", "\x00\x1f\t\n", "bad\xffutf8", "ls\u2028ps\u2029", "héllo ✓", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Fatalf("AppendString(%q) = %s, json.Marshal %s", s, got[1:], want)
		}
	})
}
