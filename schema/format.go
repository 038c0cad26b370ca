package schema

import (
	"net/netip"
	"regexp"
	"strings"

	"golang.org/x/net/idna"
)

// formats are the format values asserted with Options.AssertFormat. Each
// function gets the decoded string and must not keep it.
var formats = map[string]func(string) bool{
	"date-time": isDateTime,
	"date":      isDate,
	"time":      isTime,
	"duration":  isDuration,
	"email":     isEmail,
	"hostname":  isHostname,
	"ipv4":      isIPv4,
	"ipv6":      isIPv6,
	"uri":       isURI,
	"uuid":      isUUID,
}

// formatWords name each format in messages: `"when" must be <words>, got "x"`.
var formatWords = map[string]string{
	"date-time": "an RFC 3339 date-time (e.g. 2026-01-02T15:04:05Z)",
	"date":      "a date (YYYY-MM-DD)",
	"time":      "an RFC 3339 time with offset (e.g. 15:04:05Z)",
	"duration":  "an ISO 8601 duration (e.g. P1DT2H30M)",
	"email":     "an email address",
	"hostname":  "a host name",
	"ipv4":      "an IPv4 address",
	"ipv6":      "an IPv6 address",
	"uri":       "an absolute URI",
	"uuid":      "a UUID",
}

func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, len(s) > 0
}

func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	y, ok1 := digits(s[:4])
	m, ok2 := digits(s[5:7])
	d, ok3 := digits(s[8:])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 {
		return false
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
	if m == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days = 29
	}
	return d <= days
}

func isTime(s string) bool {
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return false
	}
	h, ok1 := digits(s[:2])
	m, ok2 := digits(s[3:5])
	sec, ok3 := digits(s[6:8])
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || sec > 60 {
		return false
	}
	rest := s[8:]
	if rest[0] == '.' {
		i := 1
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 1 {
			return false
		}
		rest = rest[i:]
	}
	off := 0
	switch {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := digits(rest[1:3])
		om, ok2 := digits(rest[4:])
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return false
		}
		off = oh*60 + om
		if rest[0] == '-' {
			off = -off
		}
	default:
		return false
	}
	if sec == 60 {
		utc := ((h*60+m-off)%1440 + 1440) % 1440
		return utc == 23*60+59
	}
	return true
}

func isDateTime(s string) bool {
	return len(s) > 11 && (s[10] == 'T' || s[10] == 't') && isDate(s[:10]) && isTime(s[11:])
}

// durationRE is RFC 3339 Appendix A (ISO 8601 durations), ASCII digits.
var durationRE = regexp.MustCompile(`^P(?:(?:[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?|[0-9]+M(?:[0-9]+D)?|[0-9]+D)` +
	`(?:T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S))?` +
	`|T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S)|[0-9]+W)$`)

func isDuration(s string) bool { return durationRE.MatchString(s) }

func isEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if local[0] == '"' {
		if len(local) < 2 || local[len(local)-1] != '"' {
			return false
		}
		for i := 1; i < len(local)-1; i++ {
			c := local[i]
			switch {
			case c == '\\':
				i++
				if i >= len(local)-1 {
					return false
				}
			case c == '"' || c < 0x20 || c > 0x7e:
				return false
			}
		}
	} else {
		if strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
			return false
		}
		for i := 0; i < len(local); i++ {
			c := local[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || strings.IndexByte("!#$%&'*+-/=?^_`{|}~", c) >= 0) {
				return false
			}
		}
	}
	if strings.HasPrefix(domain, "[") && strings.HasSuffix(domain, "]") {
		lit := domain[1 : len(domain)-1]
		if v6, ok := strings.CutPrefix(lit, "IPv6:"); ok {
			return isIPv6(v6)
		}
		return isIPv4(lit)
	}
	return isHostname(domain)
}

func isIPv4(s string) bool {
	if strings.Count(s, ".") != 3 {
		return false
	}
	for range 4 {
		part := s
		if i := strings.IndexByte(s, '.'); i >= 0 {
			part, s = s[:i], s[i+1:]
		}
		v, ok := digits(part)
		if !ok || len(part) > 3 || len(part) > 1 && part[0] == '0' || v > 255 {
			return false
		}
	}
	return true
}

func isIPv6(s string) bool {
	if !strings.Contains(s, ":") || strings.ContainsAny(s, "%[]") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] == ' ' {
			return false
		}
	}
	if i := strings.LastIndexByte(s, ':'); strings.Contains(s[i:], ".") && !isIPv4(s[i+1:]) {
		return false
	}
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is6()
}

var hostProfile = idna.New(idna.ValidateForRegistration(), idna.CheckHyphens(true), idna.CheckJoiners(true), idna.BidiRule())

func isHostname(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for rest := s; ; {
		label, tail, more := strings.Cut(rest, ".")
		rest = tail
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
		if len(label) >= 4 && label[2] == '-' && label[3] == '-' {
			if !strings.EqualFold(label[:2], "xn") {
				return false
			}
			u, err := hostProfile.ToUnicode(strings.ToLower(label))
			if err != nil || !contextO(u) {
				return false
			}
		}
		if !more {
			return true
		}
	}
}

// contextO applies the CONTEXTO rules of RFC 5892 Appendix A, which the
// idna package does not check.
func contextO(label string) bool {
	rs := []rune(label)
	for _, r := range rs {
		switch r {
		case 0x0640, 0x07FA, 0x302E, 0x302F, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303B:
			return false // DISALLOWED exceptions (RFC 5892 section 2.6)
		}
	}
	hasArabic, hasExt := false, false
	for i, r := range rs {
		switch {
		case r == 0x00B7: // MIDDLE DOT: between two 'l'
			if i == 0 || i == len(rs)-1 || rs[i-1] != 'l' || rs[i+1] != 'l' {
				return false
			}
		case r == 0x0375: // GREEK KERAIA: followed by Greek
			if i == len(rs)-1 || !isGreek(rs[i+1]) {
				return false
			}
		case r == 0x05F3 || r == 0x05F4: // GERESH, GERSHAYIM: after Hebrew
			if i == 0 || !(rs[i-1] >= 0x0590 && rs[i-1] <= 0x05FF) {
				return false
			}
		case r == 0x30FB: // KATAKANA MIDDLE DOT: with Hiragana, Katakana or Han
			ok := false
			for _, q := range rs {
				if q != 0x30FB && (q >= 0x3040 && q <= 0x30FF || q >= 0x4E00 && q <= 0x9FFF || q >= 0x3400 && q <= 0x4DBF) {
					ok = true
				}
			}
			if !ok {
				return false
			}
		case r >= 0x0660 && r <= 0x0669:
			hasArabic = true
		case r >= 0x06F0 && r <= 0x06F9:
			hasExt = true
		}
	}
	return !(hasArabic && hasExt)
}

func isGreek(r rune) bool { return r >= 0x0370 && r <= 0x03FF || r >= 0x1F00 && r <= 0x1FFF }

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		c := s[i]
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
		} else if unhex(c) < 0 {
			return false
		}
	}
	return true
}

// URI character classes (RFC 3986).
func isUnreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

func isSubDelim(c byte) bool { return strings.IndexByte("!$&'()*+,;=", c) >= 0 }

// uriChars checks s against unreserved / pct-encoded / sub-delims / extra.
func uriChars(s, extra string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isUnreserved(c) || isSubDelim(c) || strings.IndexByte(extra, c) >= 0:
		case c == '%':
			if i+2 >= len(s) || unhex(s[i+1]) < 0 || unhex(s[i+2]) < 0 {
				return false
			}
			i += 2
		default:
			return false
		}
	}
	return true
}

func isURI(s string) bool {
	colon := strings.IndexByte(s, ':')
	if colon <= 0 {
		return false
	}
	for i := 0; i < colon; i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	rest := s[colon+1:]
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		if !uriChars(rest[i+1:], ":@/?") {
			return false
		}
		rest = rest[:i]
	}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		if !uriChars(rest[i+1:], ":@/?") {
			return false
		}
		rest = rest[:i]
	}
	if auth, ok := strings.CutPrefix(rest, "//"); ok {
		path := ""
		if i := strings.IndexByte(auth, '/'); i >= 0 {
			auth, path = auth[:i], auth[i:]
		}
		if i := strings.IndexByte(auth, '@'); i >= 0 {
			if !uriChars(auth[:i], ":") {
				return false
			}
			auth = auth[i+1:]
		}
		host, port := auth, ""
		if strings.HasPrefix(auth, "[") {
			end := strings.IndexByte(auth, ']')
			if end < 0 {
				return false
			}
			host, port = auth[1:end], auth[end+1:]
			if !isIPv6(host) && !(len(host) > 1 && (host[0] == 'v' || host[0] == 'V') && strings.Contains(host, ".")) {
				return false
			}
		} else {
			if i := strings.IndexByte(auth, ':'); i >= 0 {
				host, port = auth[:i], auth[i:]
			}
			if !uriChars(host, "") {
				return false
			}
		}
		if port != "" {
			if port[0] != ':' {
				return false
			}
			for i := 1; i < len(port); i++ {
				if port[i] < '0' || port[i] > '9' {
					return false
				}
			}
		}
		return uriChars(path, ":@/")
	}
	return uriChars(rest, ":@/")
}
