package mcp

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCleanOutput(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text\n\twith tab", "plain text\n\twith tab"},
		{"\x1b[1;31mred\x1b[0m", `\x1b[1;31mred\x1b[0m`},
		{"a\r\nb\rc", "a\nb" + `\r` + "c"},
		{"nul\x00 del\x7f bell\a", `nul\x00 del\x7f bell\x07`},
		{"csi \u009b31m, nbsp \u00a0, é", `csi \u009b31m, nbsp ` + "\u00a0, é"},
		{"bad \xff utf8", "bad \uFFFD utf8"},
		{"", ""},
	}
	for _, c := range cases {
		if got := cleanOutput(c.in, 1000); got != c.want {
			t.Errorf("cleanOutput(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	long := strings.Repeat("ab", 1000)
	got := cleanOutput(long, 100)
	if len(got) > 100 || !strings.HasPrefix(got, "ab") || !strings.Contains(got, "bytes truncated") || !strings.HasSuffix(got, "ab") {
		t.Errorf("cleanOutput(2000 bytes, 100) = %q", got)
	}
}

func FuzzCleanOutput(f *testing.F) {
	f.Add("\x1b[31mred\r\n\u009b", 64)
	f.Add(strings.Repeat("é", 100), 40)
	f.Add("a\rb\xffc", 1)
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max < 1 || max > 1<<16 {
			return
		}
		got := cleanOutput(s, max)
		if len(got) > max {
			t.Fatalf("len %d > max %d", len(got), max)
		}
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8: %q", got)
		}
		for _, r := range got {
			if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) {
				t.Fatalf("control character %U in %q", r, got)
			}
		}
		if max >= 4*len(s)+64 && strings.Contains(got, "truncated ...]") && !strings.Contains(s, "truncated") {
			t.Fatalf("cut although it fits: %q -> %q", s, got)
		}
	})
}
