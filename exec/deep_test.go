package exec

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// maxDepth is the nesting depth of valid JSON, counted byte by byte.
func maxDepth(b []byte) int {
	depth, most, inStr := 0, 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{' || c == '[':
			depth++
			most = max(most, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return most
}

func TestDeepSpans(t *testing.T) {
	cases := []struct {
		in    string
		spans [][2]int
		valid bool
	}{
		{`[]`, nil, true},
		{` {"a":[1,{"b":[]}]} `, nil, true}, // depth 4: within the limit
		{`[[[[[]]]]]`, [][2]int{{1, 9}}, true},
		{`{"a":[[[[]]]],"b":[1],"c":{"d":[[[[0]]]]}}`, [][2]int{{5, 13}, {26, 41}}, true},
		{`[[[[[]]]]] x`, nil, false},
		{`[[[[[]]]]`, nil, false},
		{`{"a" [[[[[]]]]]}`, nil, false},
		{`[[[[[1,]]]]]`, nil, false},
		{`"\x"`, nil, false},
		{``, nil, false},
	}
	for _, c := range cases {
		spans, valid := deepSpans([]byte(c.in), 2, 4)
		if valid != c.valid || !reflect.DeepEqual(spans, c.spans) {
			t.Errorf("deepSpans(%q, 2, 4) = %v, %v; want %v, %v", c.in, spans, valid, c.spans, c.valid)
		}
	}
	// A million levels: no recursion, no stack overflow.
	n := 1_000_000
	spans, valid := deepSpans([]byte(strings.Repeat("[", n)+strings.Repeat("]", n)), deepCutDepth, MaxReplyDepth)
	if !valid || len(spans) != 1 || spans[0] != [2]int{deepCutDepth - 1, 2*n - deepCutDepth + 1} {
		t.Errorf("a million levels: %v, %v", spans, valid)
	}
}

// FuzzDeepSpans holds deepSpans to encoding/json's idea of valid JSON and
// checks that cutting its spans leaves valid JSON no deeper than the
// limit, with small limits so that the fuzzer reaches them.
func FuzzDeepSpans(f *testing.F) {
	for _, s := range []string{`[]`, `[[[[[]]]]]`, `{"a":[[[[]]]],"b":[1],"c":{"d":[[[[0]]]]}}`,
		`[{"x":"\"[[[[[","y":[[[[["]"]]]]]}]`, `[1,-0.5e3,true,false,null,"\u00e9"]`, `{"a":{}} `, `[[[[[]]]]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		const cutAt, limit = 2, 4
		spans, valid := deepSpans(raw, cutAt, limit)
		if valid != json.Valid(raw) {
			t.Fatalf("deepSpans(%q) valid = %v, json.Valid %v", raw, valid, !valid)
		}
		if !valid {
			return
		}
		var out []byte
		prev := 0
		for _, s := range spans {
			if s[0] < prev || s[1] <= s[0] || raw[s[0]] != '[' && raw[s[0]] != '{' {
				t.Fatalf("deepSpans(%q): bad span %v", raw, s)
			}
			out = append(append(out, raw[prev:s[0]]...), `"cut"`...)
			prev = s[1]
		}
		out = append(out, raw[prev:]...)
		if !json.Valid(out) || maxDepth(out) > limit {
			t.Fatalf("deepSpans(%q): cut %q is invalid or deeper than %d", raw, out, limit)
		}
		if len(spans) == 0 && maxDepth(raw) > limit {
			t.Fatalf("deepSpans(%q): depth %d but nothing cut", raw, maxDepth(raw))
		}
	})
}
