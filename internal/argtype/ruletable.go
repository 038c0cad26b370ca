package argtype

import (
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"

	"github.com/go-playground/validator/v10"
	"github.com/invopop/jsonschema"
)

// ruleSpec is one row of the validator rules table: what a
// go-playground/validator rule shows in the schema, whether the checker
// enforces it with the validator's own semantics, and the message of its
// failure. The validator check itself is the rule's name, run by the
// validator when the rule is not mirrored.
type ruleSpec struct {
	// keywords are the schema engine's keywords whose failures Execute
	// reports under this rule's name (validator's words where they exist).
	keywords []string
	// schema maps the rule onto keywords of s; nil: no keyword matches it.
	// Keywords already set (by a jsonschema tag) are kept.
	schema func(s *jsonschema.Schema, f ruleFacts, name, param string)
	// enforcedOnly: shown only when a check enforces it (neither the
	// validator without dive nor the checker would hold it otherwise).
	enforcedOnly bool
	// mirror reports whether the checker enforces the rule exactly, so the
	// validator need not run for it; nil: never.
	mirror func(f ruleFacts, name, param string) bool
	// message words a failure; nil: "failed the rule name=param".
	message func(m ruleMsg) string
}

// ruleFacts describes the Go type (pointers removed) a rule sits on.
type ruleFacts struct {
	kind                               reflect.Kind
	ptr                                bool // the field was a pointer
	isNum, isInt, isStr, isList, isMap bool
	ownFormat                          bool // a jsonschema format= took the rule's format's place
}

// ruleMsg is what a failure message is made of.
type ruleMsg struct {
	p, param, tag string       // quoted JSON path, rule parameter, rule name
	kind          reflect.Kind // kind of the failing value
	sized         bool         // string, list or map: bounds count characters or items
	unit          string       // " characters", " items" or "" (singular when param is "1")
}

// validatorRules is the rules table, by rule name.
var validatorRules = func() map[string]*ruleSpec {
	m := map[string]*ruleSpec{}
	add := func(spec *ruleSpec, names ...string) {
		for _, n := range names {
			m[n] = spec
		}
	}
	add(&ruleSpec{keywords: []string{"enum"}, schema: schemaOneof, mirror: func(f ruleFacts, _, _ string) bool { return f.isStr || f.isInt && f.kind != reflect.Uintptr },
		message: func(m ruleMsg) string {
			return fmt.Sprintf("%s must be one of [%s]", m.p, enumList(oneofValues(m.param)))
		}}, "oneof")
	bound := func(sized, plain string) func(m ruleMsg) string {
		return func(m ruleMsg) string {
			if m.sized {
				return fmt.Sprintf("%s must have "+sized+" %s%s", m.p, m.param, m.unit)
			}
			return fmt.Sprintf("%s must be "+plain+" %s", m.p, m.param)
		}
	}
	add(&ruleSpec{keywords: []string{"minimum", "minLength", "minItems", "minProperties"},
		schema: schemaBound, mirror: mirrorBound, message: bound("at least", "at least")}, "min")
	add(&ruleSpec{schema: schemaBound, mirror: mirrorBound, message: bound("at least", "at least")}, "gte")
	add(&ruleSpec{keywords: []string{"maximum", "maxLength", "maxItems", "maxProperties"},
		schema: schemaBound, mirror: mirrorBound, message: bound("at most", "at most")}, "max")
	add(&ruleSpec{schema: schemaBound, mirror: mirrorBound, message: bound("at most", "at most")}, "lte")
	add(&ruleSpec{keywords: []string{"exclusiveMinimum"},
		schema: schemaBound, mirror: mirrorBound, message: bound("more than", "greater than")}, "gt")
	add(&ruleSpec{keywords: []string{"exclusiveMaximum"},
		schema: schemaBound, mirror: mirrorBound, message: bound("fewer than", "less than")}, "lt")
	add(&ruleSpec{schema: schemaBound, mirror: mirrorBound, message: bound("exactly", "exactly")}, "len")
	required := func(m ruleMsg) string {
		// The property is present (the checker reports missing ones) but
		// holds its zero value, which validator's required refuses.
		switch m.kind {
		case reflect.String, reflect.Slice, reflect.Map, reflect.Array:
			return m.p + " must not be empty"
		case reflect.Bool:
			return m.p + " must be true"
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
			reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
			return m.p + " must not be 0"
		}
		return m.p + " is required"
	}
	add(&ruleSpec{
		schema: func(s *jsonschema.Schema, f ruleFacts, _, _ string) {
			if f.isStr && s.MinLength == nil {
				one := uint64(1)
				s.MinLength = &one // validator's required on a string: not empty
			}
		},
		// On a string: not empty (minLength 1). On a pointer, slice or
		// map: not nil, that is present and not null, which the schema
		// says. Numbers, bools and structs are refused at registration.
		mirror:  func(f ruleFacts, _, _ string) bool { return f.ptr || f.isStr || f.isList || f.kind == reflect.Map },
		message: required,
	}, "required")
	add(&ruleSpec{message: required}, "required_if", "required_unless", "required_with", "required_without")
	// Formats are shown as a format that the schema engine asserts, unless a
	// jsonschema format= took its place.
	format := func(f, word string, mirrored bool) *ruleSpec {
		spec := &ruleSpec{
			schema: func(s *jsonschema.Schema, fs ruleFacts, _, _ string) {
				if fs.isStr && s.Format == "" {
					s.Format = f
				}
			},
			message: func(m ruleMsg) string { return m.p + " must be a valid " + word },
		}
		if mirrored {
			spec.mirror = func(fs ruleFacts, _, _ string) bool { return fs.isStr && !fs.ownFormat }
		}
		return spec
	}
	add(format("email", "email address", true), "email")
	add(format("uri", "URL", true), "url", "uri")
	add(format("uri", "URL", false), "http_url")
	add(format("uuid", "UUID", true), "uuid")
	add(format("uuid", "UUID", false), "uuid3", "uuid4", "uuid5", "uuid_rfc4122", "uuid4_rfc4122")
	validNamed := func(m ruleMsg) string {
		return fmt.Sprintf("%s must be a valid %s%s", m.p, m.tag, suffixParam(m.param))
	}
	for _, f := range []string{"ipv4", "ipv6"} {
		spec := format(f, "", true)
		spec.message = validNamed
		add(spec, f)
	}
	host := format("hostname", "", false)
	host.message, host.enforcedOnly = validNamed, true
	add(host, "hostname", "hostname_rfc1123")
	// validator's datetime takes a Go layout; no JSON Schema keyword matches it exactly.
	add(&ruleSpec{message: validNamed}, "ip", "datetime", "json", "base64")
	add(&ruleSpec{
		keywords: []string{"uniqueItems"},
		schema: func(s *jsonschema.Schema, f ruleFacts, _, _ string) {
			if f.isList {
				s.UniqueItems = true
			}
		},
		enforcedOnly: true,
		message:      func(m ruleMsg) string { return m.p + " must not contain duplicates" },
	}, "unique")
	add(&ruleSpec{mirror: func(ruleFacts, string, string) bool { return true }}, "omitempty")
	// The checker's own rules, named for the keywords they report.
	add(&ruleSpec{keywords: []string{"additionalProperties"}}, "unknown")
	add(&ruleSpec{keywords: []string{"duplicateKey"}}, "duplicate")
	fixed := func(format string) *ruleSpec {
		return &ruleSpec{message: func(m ruleMsg) string { return fmt.Sprintf(format, m.p, m.param) }}
	}
	add(fixed("%s must be %s"), "eq")
	add(fixed("%s must not be %s"), "ne")
	add(fixed("%s must equal %q"), "eqfield")
	add(fixed("%s must differ from %q"), "nefield")
	add(fixed("%s must be greater than %q"), "gtfield")
	add(fixed("%s must be at least %q"), "gtefield")
	add(fixed("%s must be less than %q"), "ltfield")
	add(fixed("%s must be at most %q"), "ltefield")
	plain := func(text string) *ruleSpec {
		return &ruleSpec{message: func(m ruleMsg) string { return m.p + text }}
	}
	add(plain(" must contain only letters"), "alpha")
	add(plain(" must contain only letters and digits"), "alphanum")
	add(plain(" must contain only digits"), "numeric", "number")
	add(plain(" must contain only Unicode letters"), "alphaunicode")
	add(plain(" must contain only Unicode letters and digits"), "alphanumunicode")
	add(plain(" must contain only ASCII characters"), "ascii")
	add(plain(" must contain only printable ASCII characters"), "printascii")
	add(plain(" must be all lower case"), "lowercase")
	add(plain(" must be all upper case"), "uppercase")
	add(plain(" must be a hexadecimal number"), "hexadecimal")
	add(plain(" must be a hex colour such as #1a2b3c"), "hexcolor")
	add(plain(" must be a phone number in E.164 form such as +14155552671"), "e164")
	add(plain(` must be "true" or "false"`), "boolean")
	add(plain(" must be a semantic version such as 1.2.3"), "semver")
	add(plain(" must be a JSON Web Token"), "jwt")
	add(plain(" must be URL-safe base64"), "base64url")
	add(plain(" must be an IP network in CIDR notation such as 10.0.0.0/8"), "cidr")
	add(plain(" must be a MAC address"), "mac")
	add(plain(" must be a latitude (-90 to 90)"), "latitude")
	add(plain(" must be a longitude (-180 to 180)"), "longitude")
	add(fixed("%s must start with %q"), "startswith")
	add(fixed("%s must end with %q"), "endswith")
	add(fixed("%s must not start with %q"), "startsnotwith")
	add(fixed("%s must not end with %q"), "endsnotwith")
	add(fixed("%s must contain %q"), "contains")
	add(fixed("%s must not contain %q"), "excludes")
	add(fixed("%s must contain at least one of the characters %q"), "containsany")
	add(fixed("%s must not contain any of the characters %q"), "excludesall")
	return m
}()

// keywordRules maps a schema keyword to its rule name (the keywords column
// of validatorRules).
var keywordRules = func() map[string]string {
	m := map[string]string{}
	for name, spec := range validatorRules {
		for _, k := range spec.keywords {
			m[k] = name
		}
	}
	return m
}()

// KeywordRule returns the rule name Execute reports a failure of the schema
// engine's keyword under: "oneof" for "enum", "min" for "minLength",
// "unknown" for "additionalProperties", ...; keyword itself when the rules
// table names no rule for it.
func KeywordRule(keyword string) string {
	if r, ok := keywordRules[keyword]; ok {
		return r
	}
	return keyword
}

// schemaOneof shows oneof as an enum of the values that fit the type.
func schemaOneof(s *jsonschema.Schema, f ruleFacts, _, param string) {
	if len(s.Enum) > 0 {
		// An enum from a jsonschema tag or an earlier rule keeps the
		// values the oneof allows too (applyRule refuses an empty result).
		if in := enumWithin(s.Enum, param); len(in) > 0 {
			s.Enum = in
		}
		return
	}
	vals := oneofValues(param)
	s.Enum = make([]any, 0, len(vals))
	for _, v := range vals {
		if f.kind == reflect.Bool {
			if b, err := strconv.ParseBool(v); err == nil {
				s.Enum = append(s.Enum, b)
			}
			continue
		}
		if f.isNum {
			if _, err := strconv.ParseFloat(v, 64); err == nil {
				s.Enum = append(s.Enum, json.Number(v))
			}
			continue
		}
		s.Enum = append(s.Enum, v)
	}
}

// schemaBound shows min, max, len, gte, lte, gt and lt as bounds on a
// number or on the length of a string, list or map.
func schemaBound(s *jsonschema.Schema, f ruleFacts, name, param string) {
	switch {
	case f.isNum:
		if _, err := strconv.ParseFloat(param, 64); err != nil {
			return
		}
		n := json.Number(param)
		// setNum keeps a bound already shown when it is at least as strict.
		setNum := func(dst *json.Number, lower bool) {
			if *dst == "" || stricterNumber(n, *dst, lower) {
				*dst = n
			}
		}
		switch name {
		case "min", "gte":
			setNum(&s.Minimum, true)
		case "max", "lte":
			setNum(&s.Maximum, false)
		case "len":
			setNum(&s.Minimum, true)
			setNum(&s.Maximum, false)
		case "gt":
			setNum(&s.ExclusiveMinimum, true)
		case "lt":
			setNum(&s.ExclusiveMaximum, false)
		}
	case f.isStr || f.isList || f.isMap:
		v, err := strconv.ParseUint(param, 10, 64)
		if err != nil {
			return
		}
		lo, hi := &s.MinLength, &s.MaxLength
		if f.isList {
			lo, hi = &s.MinItems, &s.MaxItems
		} else if f.isMap {
			lo, hi = &s.MinProperties, &s.MaxProperties
		}
		// set keeps a count already shown when it is at least as strict.
		set := func(dst **uint64, n uint64, lower bool) {
			if *dst == nil || (lower && n > **dst) || (!lower && n < **dst) {
				*dst = &n
			}
		}
		switch name {
		case "min", "gte":
			set(lo, v, true)
		case "max", "lte":
			set(hi, v, false)
		case "len":
			set(lo, v, true)
			set(hi, v, false)
		case "gt":
			set(lo, v+1, true)
		case "lt":
			if v > 0 {
				set(hi, v-1, false)
			}
		}
	}
}

// stricterNumber reports whether n is a stricter bound than have: greater
// for a lower bound, smaller for an upper one. Both are JSON numbers; a
// bound that does not parse is never stricter.
func stricterNumber(n, have json.Number, lower bool) bool {
	a, ok1 := new(big.Rat).SetString(string(n))
	b, ok2 := new(big.Rat).SetString(string(have))
	if !ok1 || !ok2 {
		return false
	}
	if lower {
		return a.Cmp(b) > 0
	}
	return a.Cmp(b) < 0
}

// mirrorBound: the checker holds bounds on numbers, and on the length of
// strings and lists when the parameter is a count it can express.
//
// A mirrored rule never reaches the validator, so the parameter must be
// one the validator reads too (it panics on any other, which the
// registration probe reports): an integer for integers, lengths and
// counts, a number for floats.
//
// Bounds on a float32 are shown but not mirrored: the checker judges the
// decimal, the rule the float32 it rounds to (0.99999999999 is below 1
// and decodes to 1), so the validator checks the Go value too.
func mirrorBound(f ruleFacts, name, param string) bool {
	if !f.isNum && !f.isStr && !f.isList || f.kind == reflect.Float32 {
		return false
	}
	switch {
	case f.isInt && f.kind >= reflect.Uint:
		if _, err := strconv.ParseUint(param, 10, 64); err != nil {
			return false
		}
	case f.isInt:
		if _, err := strconv.ParseInt(param, 10, 64); err != nil {
			return false
		}
	case f.isNum:
		if _, err := strconv.ParseFloat(param, 64); err != nil {
			return false
		}
	}
	if !f.isNum {
		n, err := strconv.ParseUint(param, 10, 64)
		if err != nil || (name == "lt" && n == 0) {
			return false
		}
	}
	return true
}

// ruleMessage words a validator failure at the quoted JSON path.
func ruleMessage(path, param string, fe validator.FieldError) string {
	m := ruleMsg{p: fmt.Sprintf("%q", path), param: param, tag: fe.Tag(), kind: fe.Kind()}
	switch m.kind {
	case reflect.String:
		m.sized, m.unit = true, " characters"
	case reflect.Slice, reflect.Array, reflect.Map:
		m.sized, m.unit = true, " items"
	}
	if param == "1" {
		m.unit = strings.TrimSuffix(m.unit, "s")
	}
	if spec := validatorRules[m.tag]; spec != nil && spec.message != nil {
		return spec.message(m)
	}
	if param != "" {
		return fmt.Sprintf("%s failed the rule %s=%s", m.p, m.tag, param)
	}
	return fmt.Sprintf("%s failed the rule %s", m.p, m.tag)
}

func suffixParam(p string) string {
	if p == "" {
		return ""
	}
	return " (" + p + ")"
}
