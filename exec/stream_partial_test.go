package exec

import (
	"encoding/json"
	"testing"
)

// FuzzPartialArgs: the early check gives the same answer however the
// arguments are split into fragments, and never reports a valid object
// whose first-level keys are all allowed.
func FuzzPartialArgs(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":{"x":[1,{"y":2}]}}`, ` {"a\"b":"c","d":"\\"}`, `[1]`, `"{\"a\":1}"`, `{"zz":1}`, `{"a":"}","zz":0}`} {
		f.Add(s, 3)
	}
	allowed := func(key string) string {
		if key == "a" || key == "b" || key == "d" {
			return ""
		}
		return "unknown " + key
	}
	f.Fuzz(func(t *testing.T, s string, cut int) {
		if cut < 0 || cut > len(s) {
			cut = len(s) / 2
		}
		var whole, split partialArgs
		want := whole.feed(s, allowed)
		got := split.feed(s[:cut], allowed)
		if got == "" {
			got = split.feed(s[cut:], allowed)
		}
		if got != want {
			t.Fatalf("%q cut at %d: %q, whole %q", s, cut, got, want)
		}
		var m map[string]any
		if want != "" && json.Unmarshal([]byte(s), &m) == nil {
			for k := range m {
				if allowed(k) != "" {
					return
				}
			}
			t.Fatalf("%q: reported %q for a valid object of allowed keys", s, want)
		}
	})
}
