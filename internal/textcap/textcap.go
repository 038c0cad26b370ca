// Package textcap cuts text to a byte limit on rune boundaries: HeadTail
// is the cut toolnexus.Result.Capped applies to every tool result (and
// the built-in tools to their output), RuneStart a safe place to cut.
package textcap

import (
	"fmt"
	"unicode/utf8"
)

// HeadTail keeps the head and the tail of s when it is longer than max
// bytes, cutting at rune boundaries, with a line between them that says how
// many bytes were cut ("[... N bytes truncated ...]"). The result, note
// included, is at most max bytes; a max too small for the note gives the
// head alone.
func HeadTail(s string, max int) string {
	if len(s) <= max {
		return s
	}
	// The note is sized for the largest count it could carry, len(s).
	room := max - len(note(len(s)))
	if room < 2 {
		return s[:RuneStart(s, max)]
	}
	head := s[:RuneStart(s, room/2)]
	i := len(s) - (room - room/2)
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++ // start the tail at the next rune, keeping it within room
	}
	tail := s[i:]
	return head + note(len(s)-len(head)-len(tail)) + tail
}

// note is the line HeadTail puts between the head and the tail.
func note(cut int) string {
	return fmt.Sprintf("\n\n[... %d bytes truncated ...]\n\n", cut)
}

// RuneStart returns the largest i <= n that starts a rune in s (0 for a
// negative n, len(s) for n past the end).
func RuneStart(s string, n int) int {
	if n >= len(s) {
		return len(s)
	}
	if n < 0 {
		return 0
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}
