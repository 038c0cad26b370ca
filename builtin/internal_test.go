package builtin

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/textcap"
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
		"64:ff9b::a00:1":   "NAT64",
		"64:ff9b::808:808": "NAT64",
		"64:ff9b:1::1":     "NAT64",
		"2002:7f00:1::1":   "6to4",
		"2002:808:808::1":  "6to4",
		"::127.0.0.1":      "IPv4-compatible IPv6",
		"::8.8.8.8":        "IPv4-compatible IPv6",
		"fec0::1":          "site-local",
		"::ffff:0:a00:1":   "IPv4-translated IPv6",
		"feff::1":          "site-local",
		"64:ff9c::1":       "",
		"2003::1":          "",
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
	for addr, want := range map[string]string{
		"0.0.0.0:80":             "0.0.0.0 is an unspecified address",
		"[64:ff9b::7f00:1]:80":   "64:ff9b::7f00:1 is a NAT64 address",
		"[::a00:1]:80":           "::a00:1 is an IPv4-compatible IPv6 address",
		"[fe80::1%eth0]:80":      "fe80::1 is a link-local address",
		"[2002:a00:1::1]:443":    "2002:a00:1::1 is a 6to4 address",
		"[fec0::2]:443":          "fec0::2 is a site-local address",
		"100.64.0.1:80":          "100.64.0.1 is a shared (carrier-grade NAT) address",
		"255.255.255.255:80":     "255.255.255.255 is a broadcast address",
		"[ff0e::1]:80":           "ff0e::1 is a multicast address",
		"[::ffff:169.254.0.1]:1": "169.254.0.1 is a link-local address",
	} {
		if err := checkDialAddr("tcp", addr, nil); err == nil || err.Error() != want {
			t.Errorf("checkDialAddr(%s) = %v, want %q", addr, err, want)
		}
	}
}

// An address of one of this host's interfaces is refused even when it is
// public.
func TestCheckDialAddrOwnInterface(t *testing.T) {
	saved := interfaceAddrs
	t.Cleanup(func() { interfaceAddrs = saved })
	interfaceAddrs = func() ([]net.Addr, error) {
		return []net.Addr{
			&net.IPNet{IP: net.ParseIP("203.0.113.7"), Mask: net.CIDRMask(24, 32)},
			&net.IPNet{IP: net.ParseIP("2001:db8::7"), Mask: net.CIDRMask(64, 128)},
		}, nil
	}
	for addr, want := range map[string]string{
		"203.0.113.7:80":          "203.0.113.7 is an address of this host",
		"[::ffff:203.0.113.7]:80": "203.0.113.7 is an address of this host",
		"[2001:db8::7]:443":       "2001:db8::7 is an address of this host",
		"203.0.113.8:80":          "",
		"[2001:db8::8]:443":       "",
	} {
		err := checkDialAddr("tcp", addr, nil)
		if got := fmt.Sprint(err); (want == "" && err != nil) || (want != "" && got != want) {
			t.Errorf("checkDialAddr(%s) = %v, want %q", addr, err, want)
		}
	}
	interfaceAddrs = func() ([]net.Addr, error) { return nil, errors.New("no netlink") }
	if err := checkDialAddr("tcp", "8.8.8.8:53", nil); err == nil || err.Error() != "cannot list this host's addresses to check 8.8.8.8: no netlink" {
		t.Errorf("checkDialAddr without interfaces: %v", err)
	}
}

func TestCapText(t *testing.T) {
	if got := textcap.HeadTail("short", 10); got != "short" {
		t.Errorf("short: %q", got)
	}
	s := strings.Repeat("ab", 50) // 100 bytes
	got := textcap.HeadTail(s, 60)
	// The note is sized for a 3-digit count: 33 bytes, leaving 27: head 13, tail 14.
	want := s[:13] + "\n\n[... 73 bytes truncated ...]\n\n" + s[86:]
	if got != want {
		t.Errorf("capText = %q, want %q", got, want)
	}
	// The result never passes the cap, note included (it used to be 1058
	// bytes for a cap of 1024), and the count is exact.
	for _, max := range []int{MinOutputBytes, 1024, 1025, 4096} {
		for _, n := range []int{max + 1, max + 7, 3 * max, 100000, 12345678} {
			in := strings.Repeat("x", n)
			got := textcap.HeadTail(in, max)
			if len(got) > max {
				t.Errorf("textcap.HeadTail(%d bytes, %d) is %d bytes", n, max, len(got))
			}
			m := regexp.MustCompile(`\n\n\[\.\.\. (\d+) bytes truncated \.\.\.\]\n\n`).FindStringSubmatch(got)
			if m == nil {
				t.Fatalf("no note in textcap.HeadTail(%d bytes, %d)", n, max)
			}
			cut, _ := strconv.Atoi(m[1])
			if kept := len(got) - len(m[0]); kept+cut != n {
				t.Errorf("textcap.HeadTail(%d bytes, %d): kept %d + cut %d != %d", n, max, kept, cut, n)
			}
			if len(got) < max-8 {
				t.Errorf("textcap.HeadTail(%d bytes, %d) is only %d bytes", n, max, len(got))
			}
		}
	}
	// Cuts fall on rune boundaries.
	u := strings.Repeat("é", 500) // 1000 bytes, 2 per rune
	got = textcap.HeadTail(u, MinOutputBytes+1)
	if !utf8.ValidString(got) || len(got) > MinOutputBytes+1 {
		t.Errorf("capText cut a rune or passed the cap: %q", got)
	}
	head, tail, _ := strings.Cut(got, "\n\n[")
	_, tail, _ = strings.Cut(tail, "]\n\n")
	if head != strings.Repeat("é", len(head)/2) || tail != strings.Repeat("é", len(tail)/2) || len(head) < 230 || len(tail) < 230 {
		t.Errorf("head %q, tail %q", head, tail)
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
	tools, err := Tools(&Options{Workspace: t.TempDir(), MaxOutputBytes: 10, BashTimeout: time.Hour})
	if err != nil || len(tools) != 10 {
		t.Fatalf("Tools: %v, %d tools", err, len(tools))
	}
	for _, c := range []struct {
		in   Options
		want Options
	}{
		{Options{}, Options{MaxOutputBytes: toolnexus.DefaultMaxOutputBytes, BashTimeout: DefaultBashTimeout, Timeout: DefaultTimeout,
			MaxPatternSize: DefaultMaxPatternSize, MaxFetchBytes: DefaultMaxFetchBytes, UserAgent: "toolnexus-webfetch/1"}},
		{Options{MaxOutputBytes: 10, BashTimeout: time.Hour, Timeout: -1, MaxPatternSize: 5, MaxFetchBytes: 7, UserAgent: "x"},
			Options{MaxOutputBytes: MinOutputBytes, BashTimeout: MaxBashTimeout, Timeout: -1, MaxPatternSize: 5, MaxFetchBytes: 7, UserAgent: "x"}},
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
