package builtin

import (
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestAddrKind(t *testing.T) {
	cases := map[string]string{
		"127.0.0.1":        "loopback",
		"127.8.9.10":       "loopback",
		"::1":              "loopback",
		"::ffff:127.0.0.1": "loopback",
		"10.1.2.3":         "private",
		"172.16.0.1":       "private",
		"172.31.255.255":   "private",
		"192.168.0.10":     "private",
		"fc00::1":          "private",
		"fd12:3456::1":     "private",
		"169.254.169.254":  "link-local",
		"fe80::1":          "link-local",
		"224.0.0.1":        "link-local", // link-local multicast
		"239.1.2.3":        "multicast",
		"ff02::1":          "link-local",
		"0.0.0.0":          "unspecified",
		"0.1.2.3":          "unspecified",
		"::":               "unspecified",
		"100.64.0.1":       "shared (carrier-grade NAT)",
		"100.127.255.254":  "shared (carrier-grade NAT)",
		"255.255.255.255":  "broadcast",
		"8.8.8.8":          "",
		"1.1.1.1":          "",
		"172.32.0.1":       "",
		"100.128.0.1":      "",
		"2001:4860::8888":  "",
		"::ffff:8.8.8.8":   "",
	}
	for addr, want := range cases {
		if got := addrKind(netip.MustParseAddr(addr)); got != want {
			t.Errorf("addrKind(%s) = %q, want %q", addr, got, want)
		}
	}
	if err := checkDialAddr("tcp", "127.0.0.1:80", nil); err == nil || err.Error() != "127.0.0.1 is a loopback address" {
		t.Errorf("checkDialAddr loopback: %v", err)
	}
	if err := checkDialAddr("tcp6", "[::ffff:10.0.0.1]:443", nil); err == nil || err.Error() != "10.0.0.1 is a private address" {
		t.Errorf("checkDialAddr mapped private: %v", err)
	}
	if err := checkDialAddr("tcp", "93.184.215.14:443", nil); err != nil {
		t.Errorf("checkDialAddr public: %v", err)
	}
}

func TestCapText(t *testing.T) {
	if got := capText("short", 10); got != "short" {
		t.Errorf("short: %q", got)
	}
	s := strings.Repeat("ab", 50) // 100 bytes
	got := capText(s, 20)
	want := s[:10] + "\n\n[... 80 bytes truncated ...]\n\n" + s[90:]
	if got != want {
		t.Errorf("capText = %q, want %q", got, want)
	}
	// Cuts fall on rune boundaries.
	u := strings.Repeat("é", 50) // 100 bytes, 2 per rune
	got = capText(u, 21)
	if !utf8.ValidString(got) {
		t.Errorf("capText cut a rune: %q", got)
	}
	head, _, _ := strings.Cut(got, "\n\n[")
	if head != strings.Repeat("é", 5) {
		t.Errorf("head = %q", head)
	}
}

func TestHeadTail(t *testing.T) {
	w := newHeadTail(200) // keeps 100 + 100
	fmt.Fprint(w, "small")
	if got := w.String(); got != "small" {
		t.Errorf("small = %q", got)
	}
	w = newHeadTail(200)
	for i := range 1000 {
		fmt.Fprintf(w, "%04d\n", i) // 5000 bytes in many writes
	}
	got := w.String()
	if !strings.HasPrefix(got, "0000\n0001\n") || !strings.HasSuffix(got, "0998\n0999\n") {
		t.Errorf("head/tail lost: %q", got)
	}
	if !strings.Contains(got, "\n\n[... 4800 bytes of output truncated ...]\n\n") {
		t.Errorf("count wrong: %q", got)
	}
	// Multi-byte runes split at the cut points are dropped whole.
	w = newHeadTail(200)
	fmt.Fprint(w, strings.Repeat("€", 500)) // 3 bytes each
	got = w.String()
	if !utf8.ValidString(got) {
		t.Errorf("invalid UTF-8: %q", got)
	}
	if !strings.Contains(got, "[... 1302 bytes of output truncated ...]") {
		t.Errorf("count with rune trimming: %q", got[90:160])
	}
}

func TestTrimPartialEnd(t *testing.T) {
	for in, want := range map[string]string{
		"abc": "abc", "ab\xe2\x82": "ab", "ab\xe2": "ab", "€": "€", "a€": "a€", "": "",
	} {
		if got := trimPartialEnd(in); got != want {
			t.Errorf("trimPartialEnd(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsBinary(t *testing.T) {
	for in, want := range map[string]bool{
		"text\n": false, "": false, "a\x00b": true, "\xff\xfe": true,
		"é": false, "ab\xc3": false, // a rune cut by the sniff window
	} {
		if got := isBinary([]byte(in)); got != want {
			t.Errorf("isBinary(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestOptionsDefaults(t *testing.T) {
	tools, err := Tools(Options{Workspace: t.TempDir(), MaxOutputBytes: 10, BashTimeout: time.Hour})
	if err != nil || len(tools) != 10 {
		t.Fatalf("Tools: %v, %d tools", err, len(tools))
	}
	for _, c := range []struct {
		in   Options
		want Options
	}{
		{Options{}, Options{MaxOutputBytes: DefaultMaxOutputBytes, BashTimeout: DefaultBashTimeout, MaxFetchBytes: DefaultMaxFetchBytes, UserAgent: "toolnexus-webfetch/1"}},
		{Options{MaxOutputBytes: 10, BashTimeout: time.Hour, MaxFetchBytes: 7, UserAgent: "x"}, Options{MaxOutputBytes: MinOutputBytes, BashTimeout: MaxBashTimeout, MaxFetchBytes: 7, UserAgent: "x"}},
	} {
		ws := t.TempDir()
		c.in.Workspace = ws
		got, err := newEnv(c.in)
		if err != nil {
			t.Fatal(err)
		}
		c.want.Workspace = ws
		if got.opts != c.want {
			t.Errorf("options %+v became %+v, want %+v", c.in, got.opts, c.want)
		}
	}
}
