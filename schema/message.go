package schema

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxQuoted bounds every value quoted in a message, in bytes.
const maxQuoted = 64

// cut shortens s to at most maxQuoted bytes (on a rune boundary) plus "…".
func cut(s string) string { return cutN(s, maxQuoted) }

func cutN(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// quote is strconv.Quote of the cut, valid-UTF-8 form of s.
func quote(s string) string {
	return strconv.Quote(strings.ToValidUTF8(cut(s), "\uFFFD"))
}

// subject names an instance location in a message: `"days"`, or
// "arguments" for the root.
func subject(path string) string {
	if path == "" {
		return "arguments"
	}
	return quote(path)
}

// enumList formats allowed strings for a message: space-separated, or as
// JSON strings when a value is empty or holds a space.
func enumList(vals []string) string {
	q := false
	for _, v := range vals {
		if v == "" || strings.ContainsAny(v, " \t\n\"") {
			q = true
		}
	}
	if !q {
		return strings.Join(vals, " ")
	}
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = strconv.Quote(v)
	}
	return strings.Join(out, ", ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "y") {
		return strconv.Itoa(n) + " " + word[:len(word)-1] + "ies" // property → properties
	}
	return strconv.Itoa(n) + " " + word + "s"
}

var typeNames = [...]struct {
	bit  uint8
	name string
}{
	{tObject, "an object"}, {tArray, "an array"}, {tString, "a string"}, {tInteger, "an integer"},
	{tNumber, "a number"}, {tBool, "a boolean"}, {tNull, "null"},
}

// typeWords lists the allowed types: "a string", "a string or null".
func typeWords(t uint8, root bool) string {
	if t&tNumber != 0 {
		t &^= tInteger
	}
	var w []string
	for _, tn := range typeNames {
		if t&tn.bit != 0 {
			name := tn.name
			if root && tn.bit == tObject {
				name = "a JSON object"
			}
			w = append(w, name)
		}
	}
	switch len(w) {
	case 0:
		return "nothing"
	case 1:
		return w[0]
	}
	return strings.Join(w[:len(w)-1], ", ") + " or " + w[len(w)-1]
}

func typeParam(t uint8) string {
	if t&tNumber != 0 {
		t &^= tInteger
	}
	var w []string
	for _, tn := range typeNames {
		if t&tn.bit != 0 {
			w = append(w, strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(tn.name, "an "), "a "), "JSON "))
		}
	}
	return strings.Join(w, " ")
}
