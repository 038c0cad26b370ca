package mcp

import (
	"strings"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/internal/textcap"
)

// cleanOutput is cleanText(s) cut to at most max bytes, head and tail
// around "[... N bytes truncated ...]" (textcap.HeadTail): a label from a
// server (a tool name, a reason) as a status line shows it.
func cleanOutput(s string, max int) string {
	return textcap.HeadTail(cleanText(s), max)
}

// cleanText makes text a server sent safe to show to a model and on a
// terminal:
//
//   - invalid UTF-8 becomes U+FFFD;
//   - "\r\n" becomes "\n";
//   - every other control character but "\n" and "\t" (C0, DEL, C1: ANSI
//     escape sequences start with ESC or U+009B) is written as an escape
//     the reader can see: "\x1b", "\r", "\x7f", "\u009b".
//
// It runs in time linear in len(s).
func cleanText(s string) string {
	if needsCleaning(s) {
		const hex = "0123456789abcdef"
		var b strings.Builder
		b.Grow(len(s) + len(s)/8)
		start := 0 // s[start:i] is still to be copied
		for i := 0; i < len(s); {
			c := s[i]
			if c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' {
				i++
				continue
			}
			r, n := utf8.DecodeRuneInString(s[i:])
			if r > 0x9f && (r != utf8.RuneError || n > 1) {
				i += n // printable beyond ASCII
				continue
			}
			size := 1
			b.WriteString(s[start:i])
			switch {
			case r == utf8.RuneError && n == 1:
				b.WriteRune(utf8.RuneError)
			case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
				// dropped: the "\n" follows
			case c == '\r':
				b.WriteString(`\r`)
			case c < 0x80: // C0 or DEL
				b.WriteString(`\x`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
			case r <= 0x9f: // C1
				b.WriteString(`\u00`)
				b.WriteByte(hex[r>>4])
				b.WriteByte(hex[r&0xf])
				size = n
			}
			i += size
			start = i
		}
		b.WriteString(s[start:])
		s = b.String()
	}
	return s
}

// needsCleaning reports whether cleanText would change s.
func needsCleaning(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			return true
		}
		// In valid UTF-8, 0xc2 is always a lead byte; U+0080-U+009F are
		// 0xc2 0x80 to 0xc2 0x9f.
		if c == 0xc2 && i+1 < len(s) && s[i+1] < 0xa0 {
			return true
		}
	}
	return false
}
