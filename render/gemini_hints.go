package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// ErrHiddenRule is the sentinel cause of the *SchemaError
// [GeminiWith] returns with GeminiOptions.RefuseHidden for a schema
// keyword Execute enforces that Gemini's "parameters" can neither keep nor
// state as a description hint (allOf, not, if/then/else, …; the list is on
// [Gemini]).
var ErrHiddenRule = errors.New("schema rule cannot be shown to the model")

// geminiFormats are the formats Execute asserts (package schema, with
// AssertFormat) that Gemini drops; each gets the hint "Format: f.".
// date-time is kept as a Gemini format. Other formats carry no rule in
// Execute and are dropped without a hint.
var geminiFormats = map[string]bool{
	"date": true, "time": true, "duration": true, "email": true, "hostname": true,
	"ipv4": true, "ipv6": true, "uri": true, "uuid": true,
}

// geminiHidden are the keywords Execute enforces that Gemini drops without
// a hint: GeminiOptions.RefuseHidden refuses them. "then" and "else" count
// only beside an "if", and contains also covers minContains/maxContains.
var geminiHidden = map[string]bool{
	"allOf": true, "not": true, "if": true, "then": true, "else": true,
	"contains": true, "prefixItems": true, "patternProperties": true,
	"propertyNames": true, "dependentSchemas": true,
	"unevaluatedProperties": true, "unevaluatedItems": true, "$dynamicRef": true,
}

// base64Hint states contentEncoding base64, which a typed tool's []byte
// field carries and its decoder holds the model to, where a rendering
// drops the keyword.
const base64Hint = "Base64-encoded."

// hintValueMax is the most runes a value quoted in a hint keeps; a longer
// one is cut and ends with "…".
const hintValueMax = 64

// hintMax is the most runes one hint sentence keeps (a dependentRequired
// list, say); a longer one is cut and ends with "…".
const hintMax = 200

// geminiHints collects the rules of one schema node that Gemini drops but
// Execute enforces, to be stated in its description.
type geminiHints struct {
	format                   string
	base64                   bool // contentEncoding base64 (a []byte field: the typed decoder holds it)
	exMin, exMax, multipleOf string
	unique                   bool
	values                   string   // additionalProperties: the values' type sentence
	keys                     []string // required names that are not properties
	depends                  []string // dependentRequired sentences, in key order
}

// sentences returns the hints in their fixed order, one sentence each.
func (h *geminiHints) sentences() []string {
	var s []string
	if h.format != "" {
		s = append(s, "Format: "+h.format+".")
	}
	if h.base64 {
		s = append(s, base64Hint)
	}
	if h.exMin != "" {
		s = append(s, "Must be greater than "+h.exMin+".")
	}
	if h.exMax != "" {
		s = append(s, "Must be less than "+h.exMax+".")
	}
	if h.multipleOf != "" {
		s = append(s, "Must be a multiple of "+h.multipleOf+".")
	}
	if h.unique {
		s = append(s, "Items must be unique.")
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
func (h *geminiHints) apply(out *jsonx.Object) {
	for _, s := range h.sentences() {
		addSentence(out, s)
	}
}

// addSentence appends the sentence s to the description of out, creating
// it when there is none.
func addSentence(out *jsonx.Object, s string) {
	if d, ok := out.Get("description"); ok {
		if desc, _ := d.(string); desc != "" {
			s = sentence(desc, s)
		}
	}
	out.Set("description", s)
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

// dropped records the hint for the keyword k (value v, at JSON Pointer p)
// of the node o, which Gemini does not take. With refuse, a keyword
// Execute enforces that no hint can state is an error wrapping
// ErrHiddenRule.
func (g *geminiRewriter) dropped(o *jsonx.Object, k string, v any, p string, h *geminiHints) error {
	switch k {
	case "exclusiveMinimum":
		h.exMin = hintNumber(v)
	case "exclusiveMaximum":
		h.exMax = hintNumber(v)
	case "multipleOf":
		h.multipleOf = hintNumber(v)
	case "uniqueItems":
		h.unique = v == true
	case "contentEncoding":
		h.base64 = v == "base64"
	case "additionalProperties":
		return g.valuesHint(o, v, p, h)
	case "dependentRequired":
		return g.dependsHint(v, p, h)
	case "then", "else":
		if _, ok := o.Get("if"); ok && g.refuse {
			return hidden(p, k)
		}
	default:
		if geminiHidden[k] && g.refuse {
			return hidden(p, k)
		}
	}
	return nil
}

func hidden(p, k string) error {
	return &SchemaError{Path: p, Msg: fmt.Sprintf("%q is enforced by Execute but Gemini's \"parameters\" cannot show it (use GeminiOptions.JSONSchema)", k), Err: ErrHiddenRule}
}

// valuesHint states the type of an additionalProperties schema: "Each
// value must be of type integer." (an object without properties, a map) or
// "Any other property must be of type integer.". false and true carry no
// hint: an object's properties are the whole list the model is shown, and
// Execute refuses other keys anyway. With refuse, a value schema with more
// than one type, description and title is refused.
func (g *geminiRewriter) valuesHint(o *jsonx.Object, v any, p string, h *geminiHints) error {
	vo, ok := v.(*jsonx.Object)
	if !ok || len(vo.Keys) == 0 {
		return nil // true, false, {}
	}
	typ := ""
	plain := true
	for i, k := range vo.Keys {
		switch k {
		case "type":
			if s, ok := vo.Vals[i].(string); ok && jsonTypes[strings.ToLower(s)] {
				typ = strings.ToLower(s)
			} else {
				plain = false
			}
		case "description", "title":
		default:
			plain = false
		}
	}
	if g.refuse && (!plain || typ == "") {
		return &SchemaError{Path: p, Msg: `the schema of "additionalProperties" is enforced by Execute but Gemini's "parameters" can only show its type (use GeminiOptions.JSONSchema)`, Err: ErrHiddenRule}
	}
	if typ == "" {
		return nil
	}
	if po, ok := o.Get("properties"); ok {
		if po, ok := po.(*jsonx.Object); ok && len(po.Keys) > 0 {
			h.values = "Any other property must be of type " + typ + "."
			return nil
		}
	}
	h.values = "Each value must be of type " + typ + "."
	return nil
}

// dependsHint states dependentRequired, one sentence per property in key
// order: "If a is given, b and c must be given too.".
func (g *geminiRewriter) dependsHint(v any, p string, h *geminiHints) error {
	do, ok := v.(*jsonx.Object)
	if !ok {
		return nil // Execute cannot compile it either
	}
	for i, name := range do.Keys {
		arr, _ := do.Vals[i].([]any)
		var names []string
		for _, e := range arr {
			if s, ok := e.(string); ok {
				names = append(names, cutHint(s, hintValueMax))
			}
		}
		if len(names) == 0 {
			continue
		}
		h.depends = append(h.depends, capSentence("If "+cutHint(name, hintValueMax)+" is given, "+joinAnd(names)+" must be given too."))
	}
	return nil
}

// disjointTypes reports whether the rewritten alternatives alts each have
// one type no other has, so that at most one can match and anyOf means
// oneOf. INTEGER and NUMBER overlap.
func disjointTypes(alts []any) bool {
	seen := map[any]bool{}
	for _, a := range alts {
		t, ok := a.(*jsonx.Object).Get("type")
		if !ok || seen[t] {
			return false
		}
		seen[t] = true
	}
	return !(seen["INTEGER"] && seen["NUMBER"])
}

// joinAnd lists names as "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	n := len(names)
	if n == 1 {
		return names[0]
	}
	return strings.Join(names[:n-1], ", ") + " and " + names[n-1]
}

// capSentence cuts a sentence longer than hintMax runes to hintMax, ending
// it with "…." so the next sentence still follows a full stop.
func capSentence(s string) string {
	if utf8.RuneCountInString(s) > hintMax {
		return cutHint(s, hintMax-1) + "."
	}
	return s
}

// rootRules reports whether out, the rewritten root in without properties,
// states a rule: a keyword other than type and title, or a description
// with hints.
func rootRules(in, out *jsonx.Object) bool {
	for i, k := range out.Keys {
		switch k {
		case "type", "title":
		case "description":
			if d, _ := in.Get("description"); d != out.Vals[i] {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// addedText returns the sentences the rewrite appended to the description
// of the schema target in its rewritten form out ("" when none).
func addedText(target any, out *jsonx.Object) string {
	d, _ := out.Get("description")
	rendered, _ := d.(string)
	orig := ""
	if to, ok := target.(*jsonx.Object); ok {
		if d, ok := to.Get("description"); ok {
			orig, _ = d.(string)
		}
	}
	if orig == "" || rendered == orig {
		if orig == "" {
			return rendered
		}
		return ""
	}
	base := strings.TrimRight(orig, " ")
	if rest, ok := strings.CutPrefix(rendered, base); ok {
		rest = strings.TrimPrefix(rest, ".")
		return strings.TrimPrefix(rest, " ")
	}
	return ""
}
