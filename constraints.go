package toolnexus

import (
	"encoding/json"
	"fmt"
	"math"
	"net/mail"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// constraints are the schema keywords Execute enforces itself, so that a
// rule written only in a jsonschema tag (enum=, minimum=, pattern=, ...) is
// held to exactly as the model is told: the schema and the runtime never
// disagree. Rules from `validate` tags are mirrored in the schema and so
// are checked here too (before the validator, with the same wording).
type constraints struct {
	enumStr  []string  // allowed strings (string kinds)
	enumNum  []float64 // allowed numbers (number kinds)
	enumText string    // "a b c" for messages

	min, max     float64 // NaN when absent
	exMin, exMax float64 // NaN when absent

	minLen, maxLen     int // runes; -1 when absent
	minItems, maxItems int // -1 when absent

	nonZero    bool // validate:"required": the zero value ("", 0, false, []) is refused
	pattern    *regexp.Regexp
	format     string  // one of checkedFormats, or ""
	multipleOf float64 // NaN when absent
}

// checkedFormats are the "format" values Execute checks. Other formats are
// shown to the model but not checked.
var checkedFormats = map[string]func(string) bool{
	"date-time": func(v string) bool { _, err := time.Parse(time.RFC3339, v); return err == nil },
	"date":      func(v string) bool { _, err := time.Parse(time.DateOnly, v); return err == nil },
	"email": func(v string) bool {
		a, err := mail.ParseAddress(v)
		return err == nil && a.Address == v
	},
	"uri": func(v string) bool {
		u, err := url.Parse(v)
		return err == nil && u.IsAbs()
	},
	"uuid": func(v string) bool { return uuidRE.MatchString(v) },
	"ipv4": func(v string) bool {
		a, err := netip.ParseAddr(v)
		return err == nil && a.Is4()
	},
	"ipv6": func(v string) bool {
		a, err := netip.ParseAddr(v)
		return err == nil && a.Is6()
	},
}

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

var formatWords = map[string]string{
	"date-time": "an RFC 3339 date-time (e.g. 2026-01-02T15:04:05Z)",
	"date":      "a date (YYYY-MM-DD)",
	"email":     "an email address",
	"uri":       "an absolute URI",
	"uuid":      "a UUID",
	"ipv4":      "an IPv4 address",
	"ipv6":      "an IPv6 address",
}

func newConstraints() *constraints {
	nan := math.NaN()
	return &constraints{min: nan, max: nan, exMin: nan, exMax: nan, multipleOf: nan, minLen: -1, maxLen: -1, minItems: -1, maxItems: -1}
}

// attachConstraints walks the final schema tree alongside the checker
// tables and records the keywords to enforce. It fails on a pattern that
// does not compile (RE2 syntax, as Go's regexp accepts).
//
// enforced reports that the validator reaches values at this place (nested
// struct fields, and the items of a slice or map whose field has dive), the
// way patch decides it; a format the validator checks there is left to it.
func attachConstraints(schema any, spec *valSpec, defs *jsonx.Object, seen map[*objSpec]bool, enforced bool) error {
	o, ok := schema.(*jsonx.Object)
	if !ok || spec == nil || spec == anySpec {
		return nil
	}
	if ref, ok := o.Get("$ref"); ok && defs != nil {
		name := strings.TrimPrefix(fmt.Sprint(ref), "#/$defs/")
		if d, ok := defs.Get(name); ok {
			if dobj, ok := d.(*jsonx.Object); ok {
				o = dobj
			}
		}
	}
	switch spec.kind {
	case kObject:
		if seen[spec.obj] {
			return nil
		}
		seen[spec.obj] = true
		props, _ := o.Get("properties")
		po, _ := props.(*jsonx.Object)
		if po == nil {
			return nil
		}
		for i := range spec.obj.fields {
			f := &spec.obj.fields[i]
			ps, ok := po.Get(f.name)
			if !ok {
				continue
			}
			childEnforced := enforced
			if f.val.kind == kArray || f.val.kind == kMap {
				childEnforced = enforced && hasDive(f.vtag)
			}
			if err := attachConstraints(ps, f.val, defs, seen, childEnforced); err != nil {
				return fmt.Errorf("%s: %w", f.name, err)
			}
			if c := f.val.cons; enforced && c != nil && c.format != "" && validatorChecksFormat(f.vtag, c.format) {
				c.format = "" // the validator checks it (it runs for this type anyway): one check per rule
			}
			if pre, _ := splitDive(f.vtag); hasTagWord(pre, "required") && f.val != anySpec && !f.ptr {
				switch f.val.kind {
				case kString, kInteger, kNumber, kBool, kArray:
					if f.val.cons == nil {
						f.val.cons = newConstraints()
					}
					f.val.cons.nonZero = true
				}
			}
		}
		return nil
	case kArray:
		items, _ := o.Get("items")
		if err := attachConstraints(items, spec.elem, defs, seen, enforced); err != nil {
			return err
		}
	case kMap:
		ap, _ := o.Get("additionalProperties")
		return attachConstraints(ap, spec.elem, defs, seen, enforced)
	}
	c := newConstraints()
	used := false
	num := func(key string, dst *float64) {
		if v, ok := o.Get(key); ok {
			if n, ok := v.(json.Number); ok {
				if f, err := n.Float64(); err == nil {
					*dst = f
					used = true
				}
			}
		}
	}
	count := func(key string, dst *int) {
		if v, ok := o.Get(key); ok {
			if n, ok := v.(json.Number); ok {
				if i, err := strconv.Atoi(string(n)); err == nil && i >= 0 {
					*dst = i
					used = true
				}
			}
		}
	}
	switch spec.kind {
	case kString:
		count("minLength", &c.minLen)
		count("maxLength", &c.maxLen)
		if f, ok := o.Get("format"); ok {
			if fs, _ := f.(string); checkedFormats[fs] != nil {
				c.format = fs
				used = true
			}
		}
		if p, ok := o.Get("pattern"); ok {
			src, _ := p.(string)
			re, err := regexp.Compile(src)
			if err != nil {
				return fmt.Errorf("pattern %q does not compile: %v", src, err)
			}
			c.pattern = re
			used = true
		}
		if e, ok := o.Get("enum"); ok {
			if arr, ok := e.([]any); ok {
				for _, v := range arr {
					if sv, ok := v.(string); ok {
						c.enumStr = append(c.enumStr, sv)
					}
				}
				if len(c.enumStr) > 0 {
					c.enumText = enumList(c.enumStr)
					used = true
				}
			}
		}
	case kInteger, kNumber:
		num("minimum", &c.min)
		num("maximum", &c.max)
		num("exclusiveMinimum", &c.exMin)
		num("exclusiveMaximum", &c.exMax)
		num("multipleOf", &c.multipleOf)
		if e, ok := o.Get("enum"); ok {
			if arr, ok := e.([]any); ok {
				var texts []string
				for _, v := range arr {
					if n, ok := v.(json.Number); ok {
						if f, err := n.Float64(); err == nil {
							c.enumNum = append(c.enumNum, f)
							texts = append(texts, string(n))
						}
					}
				}
				if len(c.enumNum) > 0 {
					c.enumText = strings.Join(texts, " ")
					used = true
				}
			}
		}
	case kArray:
		count("minItems", &c.minItems)
		count("maxItems", &c.maxItems)
	}
	if used {
		spec.cons = c
	}
	return nil
}

// consErr records a broken constraint. Unlike syntax, type, unknown-key and
// missing-property problems, it does not stop decoding: the validator still
// runs, so every problem comes back in one message.
func (s *scanner) consErr(rule, param, msg string) {
	p := s.pathString()
	s.soft++
	s.add(&ArgumentError{Path: p, Rule: rule, Param: param, Msg: fmt.Sprintf("%q %s", p, msg)})
}

// checkString enforces string keywords on the raw (still escaped) body of a
// JSON string.
func (s *scanner) checkString(c *constraints, raw []byte) {
	v := raw
	if hasEscape(raw) {
		v = unescapeKey(raw)
	}
	if c.enumStr != nil {
		found := false
		for _, e := range c.enumStr {
			if string(v) == e {
				found = true
				break
			}
		}
		if !found {
			s.consErr("oneof", c.enumText, "must be one of ["+c.enumText+"]")
			return
		}
	}
	if c.minLen >= 0 || c.maxLen >= 0 {
		n := utf8.RuneCount(v)
		if c.minLen == c.maxLen && n != c.minLen {
			s.consErr("len", strconv.Itoa(c.minLen), "must have exactly "+plural(c.minLen, "character"))
		} else if c.minLen >= 0 && n < c.minLen {
			s.consErr("min", strconv.Itoa(c.minLen), "must have at least "+plural(c.minLen, "character"))
		} else if c.maxLen >= 0 && n > c.maxLen && c.minLen != c.maxLen {
			s.consErr("max", strconv.Itoa(c.maxLen), "must have at most "+plural(c.maxLen, "character"))
		}
	}
	if c.format != "" && !checkedFormats[c.format](string(v)) {
		s.consErr("format", c.format, "must be "+formatWords[c.format]+", got "+quoteShort(string(v)))
	}
	if c.pattern != nil && !c.pattern.Match(v) {
		s.consErr("pattern", c.pattern.String(), "must match the pattern "+c.pattern.String())
	}
}

func (s *scanner) checkNumber(c *constraints, raw []byte) {
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return // out of float range: the decoder reports it
	}
	if c.nonZero && f == 0 {
		s.consErr("required", "", "must not be 0")
		return
	}
	if c.enumNum != nil {
		found := false
		for _, e := range c.enumNum {
			if f == e {
				found = true
				break
			}
		}
		if !found {
			s.consErr("oneof", c.enumText, "must be one of ["+c.enumText+"]")
			return
		}
	}
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	if !math.IsNaN(c.multipleOf) && c.multipleOf > 0 {
		if q := f / c.multipleOf; math.Abs(q-math.Round(q)) > 1e-9 {
			s.consErr("multipleOf", g(c.multipleOf), "must be a multiple of "+g(c.multipleOf))
		}
	}
	switch {
	case !math.IsNaN(c.min) && f < c.min:
		s.consErr("min", g(c.min), "must be at least "+g(c.min))
	case !math.IsNaN(c.exMin) && f <= c.exMin:
		s.consErr("gt", g(c.exMin), "must be greater than "+g(c.exMin))
	}
	switch {
	case !math.IsNaN(c.max) && f > c.max:
		s.consErr("max", g(c.max), "must be at most "+g(c.max))
	case !math.IsNaN(c.exMax) && f >= c.exMax:
		s.consErr("lt", g(c.exMax), "must be less than "+g(c.exMax))
	}
}

func (s *scanner) checkItems(c *constraints, n int) {
	if c.minItems >= 0 && c.minItems == c.maxItems && n != c.minItems {
		s.consErr("len", strconv.Itoa(c.minItems), "must have exactly "+plural(c.minItems, "item"))
	} else if c.minItems >= 0 && n < c.minItems {
		s.consErr("min", strconv.Itoa(c.minItems), "must have at least "+plural(c.minItems, "item"))
	} else if c.maxItems >= 0 && n > c.maxItems && c.minItems != c.maxItems {
		s.consErr("max", strconv.Itoa(c.maxItems), "must have at most "+plural(c.maxItems, "item"))
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// validatorChecksFormat reports whether a validate tag has the rule behind
// a format keyword (see applyRule).
func validatorChecksFormat(vtag, format string) bool {
	pre, _ := splitDive(vtag)
	for _, r := range splitRules(pre) {
		switch {
		case format == "email" && r == "email",
			format == "uri" && (r == "url" || r == "uri" || r == "http_url"),
			format == "uuid" && strings.HasPrefix(r, "uuid"),
			format == "ipv4" && r == "ipv4",
			format == "ipv6" && r == "ipv6":
			return true
		}
	}
	return false
}
