package otel

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCut: cut always returns valid UTF-8 of at most max(n, 3) bytes, s
// itself when s is valid and fits, else a prefix of s followed by "…".
func FuzzCut(f *testing.F) {
	f.Add("héllo wörld", 5)
	f.Add("\xff\xfe abc", 4)
	f.Add("ééé", 3)
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = n % 300
		if n < 0 {
			n = -n
		}
		got := cut(s, n)
		if !utf8.ValidString(got) {
			t.Fatalf("cut(%q, %d) = %q: invalid UTF-8", s, n, got)
		}
		if len(got) > max(n, 3) {
			t.Fatalf("cut(%q, %d) = %q: %d bytes", s, n, got, len(got))
		}
		fixed := strings.ToValidUTF8(s, "\uFFFD")
		if len(s) <= n && utf8.ValidString(s) {
			if got != s {
				t.Fatalf("cut(%q, %d) = %q, want s", s, n, got)
			}
			return
		}
		if got == s {
			return // invalid bytes and all fit only if s is valid
		}
		prefix := strings.TrimSuffix(got, "…")
		if utf8.ValidString(s) && !strings.HasPrefix(s, prefix) {
			t.Fatalf("cut(%q, %d) = %q: not a prefix", s, n, got)
		}
		if !strings.HasPrefix(strings.ReplaceAll(fixed, "\uFFFD", ""), strings.ReplaceAll(prefix, "\uFFFD", "")) {
			t.Fatalf("cut(%q, %d) = %q: not a prefix of the repaired text", s, n, got)
		}
	})
}
