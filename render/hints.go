package render

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// This file holds the description hints: the sentences a rewrite appends
// to a node's description for a rule Execute enforces that the provider's
// copy of the schema drops (Gemini's "parameters", the strict modes).

// assertedFormats are the formats Execute asserts (package schema, with
// AssertFormat); a rewrite that drops one states it with the hint
// "Format: f.". Other formats carry no rule in Execute and are dropped
// without a hint.
var assertedFormats = map[string]bool{
	"date": true, "time": true, "duration": true, "email": true, "hostname": true,
	"ipv4": true, "ipv6": true, "uri": true, "uuid": true,
}

// hintValueMax is the most runes a value quoted in a hint keeps; a longer
// one is cut and ends with "…".
const hintValueMax = 64

// hintMax is the most runes one hint sentence keeps (a dependentRequired
// list, say); a longer one is cut and ends with "…".
const hintMax = 200

// ruleHints collects the rules of one schema node that a provider's copy
// drops but Execute enforces, to be stated in its description.
type ruleHints struct {
	format  string
	base64  bool                    // contentEncoding base64 (a []byte field: the typed decoder holds it)
	bounds  [len(boundHints)]string // the value of each dropped boundHints keyword, "" when kept or absent
	values  string                  // additionalProperties: the values' type sentence
	keys    []string                // required names that are not properties
	depends []string                // dependentRequired sentences, in key order
}

// boundHints are the keywords a hint states by their value, in the order
// the sentences come, each with its sentence around the value.
var boundHints = [...]struct{ keyword, before, after string }{
	{"minimum", "Must be at least ", "."},
	{"exclusiveMinimum", "Must be greater than ", "."},
	{"maximum", "Must be at most ", "."},
	{"exclusiveMaximum", "Must be less than ", "."},
	{"multipleOf", "Must be a multiple of ", "."},
	{"minLength", "At least ", " characters."},
	{"maxLength", "At most ", " characters."},
	{"pattern", "Must match the regular expression ", "."},
	{"minItems", "At least ", " items."},
	{"maxItems", "At most ", " items."},
	{"uniqueItems", "Items must be unique.", ""},
	{"minProperties", "At least ", " properties."},
	{"maxProperties", "At most ", " properties."},
}

// drop records the hint of the dropped keyword k with value v and
// reports whether k is one a hint states (format, contentEncoding or one
// of boundHints). A value Execute could not compile (not a number, say)
// states nothing.
func (h *ruleHints) drop(k string, v any) bool {
	switch k {
	case "format":
		h.format, _ = v.(string)
		h.format = cutHint(h.format, hintValueMax)
		return true
	case "contentEncoding":
		h.base64 = v == "base64"
		return true
	case "uniqueItems":
		if v == true {
			h.bounds[indexBound(k)] = "true"
		}
		return true
	case "pattern":
		if p, ok := v.(string); ok {
			h.bounds[indexBound(k)] = cutHint(p, hintValueMax)
		}
		return true
	}
	if i := indexBound(k); i >= 0 {
		h.bounds[i] = hintNumber(v)
		return true
	}
	return false
}

// indexBound is the index of keyword k in boundHints, -1 when absent.
func indexBound(k string) int {
	for i := range boundHints {
		if boundHints[i].keyword == k {
			return i
		}
	}
	return -1
}

// sentences returns the hints in their fixed order, one sentence each.
func (h *ruleHints) sentences() []string {
	var s []string
	if h.format != "" {
		s = append(s, "Format: "+h.format+".")
	}
	if h.base64 {
		s = append(s, base64Hint)
	}
	for i, v := range h.bounds {
		switch {
		case v == "":
		case boundHints[i].keyword == "uniqueItems":
			s = append(s, boundHints[i].before)
		default:
			after := boundHints[i].after
			if v == "1" { // "At least 1 item.", not "1 items."
				after = strings.Replace(strings.Replace(after, "ies.", "y.", 1), "s.", ".", 1)
			}
			s = append(s, boundHints[i].before+v+after)
		}
	}
	if h.values != "" {
		s = append(s, h.values)
	}
	if n := len(h.keys); n > 0 {
		word := "key "
		if n > 1 {
			word = "keys "
		}
		s = append(s, capSentence("Must include the "+word+joinAnd(h.keys)+"."))
	}
	return append(s, h.depends...)
}

// apply appends the hints to the description of out, creating it when
// there is none.
func (h *ruleHints) apply(out *jsonx.Object) {
	for _, s := range h.sentences() {
		addSentence(out, s)
	}
}

// cutHint shortens s to at most n runes, ending a cut one with "…".
func cutHint(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, r := 0, 0
	for i = range s {
		if r == n-1 {
			break
		}
		r++
	}
	return s[:i] + "…"
}

// hintNumber is the literal of a numeric keyword value, cut; "" when v is
// not a number (Execute cannot compile such a schema).
func hintNumber(v any) string {
	if n, ok := v.(json.Number); ok {
		return cutHint(n.String(), hintValueMax)
	}
	return ""
}

// capSentence cuts a sentence longer than hintMax runes to hintMax, ending
// it with "…." so the next sentence still follows a full stop.
func capSentence(s string) string {
	if utf8.RuneCountInString(s) > hintMax {
		return cutHint(s, hintMax-1) + "."
	}
	return s
}

// joinAnd lists names as "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	n := len(names)
	if n == 1 {
		return names[0]
	}
	return strings.Join(names[:n-1], ", ") + " and " + names[n-1]
}
