package argtype

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
)

// applyValidate maps validator rules to JSON Schema keywords so the model
// sees the rules Execute will hold it to. Rules after "dive" apply to the
// items of a slice (or the values of a map). Keywords already set by a
// jsonschema tag, or by an earlier rule, are kept when they are at least as
// strict as the rule and tightened to the rule otherwise (a bound moves in,
// an enum keeps only the values a oneof allows), so that what the model is
// shown implies every rule Execute holds it to. A oneof that allows none of
// an enum's values is an error.
//
// A rule no keyword can carry (eq, alpha, a cross-field rule, a rule of
// the form a|b, ...) that the validator will hold the model to is shown as
// a sentence added to the description (ruleHint); names maps a Go field
// name of the enclosing struct to its JSON name, for cross-field rules.
func applyValidate(s *jsonschema.Schema, t reflect.Type, tag string, enforced bool, names func(string) string) error {
	ptr := t.Kind() == reflect.Pointer
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	pre, post, dive := cutDive(tag)
	for rule := range strings.SplitSeq(pre, ",") {
		if rule = strings.TrimSpace(rule); rule == "" || ptr && rule == "required" {
			continue // on a pointer: present and not null, which the schema says already
		}
		if err := applyRule(s, t, rule, enforced, names); err != nil {
			return err
		}
	}
	if !dive {
		return nil
	}
	// keys ... endkeys rules apply to map keys, which have no schema here.
	if firstRule(post) == "keys" {
		rules := splitRules(post)
		end := slices.Index(rules, "endkeys")
		if end < 0 {
			return nil
		}
		post = strings.Join(rules[end+1:], ",")
	}
	var item *jsonschema.Schema
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		item = s.Items
	case reflect.Map:
		item = s.AdditionalProperties
		if item == jsonschema.FalseSchema && len(s.PatternProperties) == 1 {
			for _, v := range s.PatternProperties {
				item = v // integer keys: the values' schema is the one pattern's
			}
		}
	}
	if item != nil && item != jsonschema.TrueSchema && item != jsonschema.FalseSchema {
		return applyValidate(item, t.Elem(), post, enforced, names)
	}
	return nil
}

// applyRule shows one rule in s as its row of validatorRules says.
func applyRule(s *jsonschema.Schema, t reflect.Type, rule string, enforced bool, names func(string) string) error {
	if rule == "" {
		return nil
	}
	name, param, _ := strings.Cut(rule, "=")
	spec := validatorRules[name]
	if strings.Contains(rule, "|") || spec == nil || spec.schema == nil {
		if enforced {
			addHint(s, ruleHint(rule, name, param, names))
		}
		return nil
	}
	if !enforced && spec.enforcedOnly {
		return nil
	}
	if name == "oneof" && len(s.Enum) > 0 && len(enumWithin(s.Enum, param)) == 0 {
		return fmt.Errorf("validate rule %s allows none of the jsonschema enum %v; make them agree", rule, s.Enum)
	}
	kind := t.Kind()
	spec.schema(s, ruleFacts{
		kind:   kind,
		isNum:  kind >= reflect.Int && kind <= reflect.Float64,
		isInt:  kind >= reflect.Int && kind <= reflect.Uintptr,
		isStr:  kind == reflect.String,
		isList: kind == reflect.Slice || kind == reflect.Array,
		isMap:  kind == reflect.Map,
	}, name, param)
	return nil
}

// enumWithin returns the values of enum that the oneof parameter lists,
// compared in their text form.
func enumWithin(enum []any, param string) []any {
	allowed := oneofValues(param)
	var out []any
	for _, v := range enum {
		if slices.Contains(allowed, fmt.Sprint(v)) {
			out = append(out, v)
		}
	}
	return out
}

// checkValidateTags makes go-playground/validator parse and run every
// `validate` tag now, on a zero value of each struct type and on a non-zero
// sample of each field: validator panics on an unknown rule, a rule that
// does not fit the field's type or a bad parameter, at the first validation
// that reaches it, which must be a registration error, not a failed call
// later. Cross-field rules (eqfield=, required_if=, ...) are left to the
// zero-value pass, since a lone field has no siblings.
func checkValidateTags(structs []*walkedStruct) error {
	structs = slices.Clone(structs)
	slices.SortFunc(structs, func(a, b *walkedStruct) int { return strings.Compare(a.t.String(), b.t.String()) })
	for _, s := range structs {
		t := s.t
		// Each field alone first, so that a problem names its field.
		for _, f := range s.fields {
			tag := standaloneRules(f.validate)
			if tag == "" {
				continue
			}
			v := sampleValue(f.typ, 0)
			if p := tryValidate(func() { _ = validate().Var(v.Interface(), tag) }); p != nil {
				return fmt.Errorf("field %s.%s: validate tag %q: %s", typeName(t), f.goName, f.validate, tagProblem(p, tag, f.typ, v))
			}
		}
		if p := tryValidate(func() { _ = validate().Struct(reflect.New(t).Interface()) }); p != nil {
			return fmt.Errorf("struct %s: a validate tag that refers to other fields: %s", typeName(t), tagProblem(p, "", nil, reflect.Value{}))
		}
	}
	return nil
}

// tryValidate runs f and returns what it panicked with, nil if it did not.
func tryValidate(f func()) (p any) {
	defer func() { p = recover() }()
	f()
	return nil
}

// tagProblem words validator's panic p for the rules tag on a field of type
// t holding the sample v: which rule is wrong, why, and the fix. The rule is
// found by running each rule of the tag alone; with no tag only the panic's
// sense is worded.
func tagProblem(p any, tag string, t reflect.Type, v reflect.Value) string {
	text := fmt.Sprint(p)
	rule := ""
	for _, r := range strings.Split(tag, ",") {
		if r = strings.TrimSpace(r); r == "" || structuralRule(r) {
			continue
		}
		if tryValidate(func() { _ = validate().Var(v.Interface(), r) }) != nil {
			rule = r
			break
		}
	}
	name, param, _ := strings.Cut(rule, "=")
	kind := "this type"
	if t != nil {
		kind = "a Go " + t.String()
	}
	switch {
	case strings.Contains(text, "can't dive on a non slice or map"):
		return fmt.Sprintf(`rule "dive" applies only to slices, arrays and maps, not to %s; remove "dive" and write the rules after it for the field itself`, kind)
	case strings.HasPrefix(text, "Undefined validation function"):
		undefined := text
		if i := strings.Index(text, "'"); i >= 0 {
			undefined, _, _ = strings.Cut(text[i+1:], "'")
		}
		if strings.TrimSpace(undefined) != undefined {
			return fmt.Sprintf("there is no rule %q; write the rules separated by commas without spaces", undefined)
		}
		return fmt.Sprintf("there is no rule %q; check its spelling against go-playground/validator's list of rules", undefined)
	case strings.HasPrefix(text, "Invalid validation tag"):
		return "the tag is malformed (an empty rule, a stray comma or \"|\"); write rules as name or name=param separated by commas"
	case strings.HasPrefix(text, "Bad field type") && rule != "":
		return fmt.Sprintf("rule %q does not apply to %s; remove it or use a rule for that type", name, kind)
	case strings.Contains(text, "strconv.") && rule != "":
		return fmt.Sprintf("rule %q cannot read its parameter %q as a number for %s; fix the parameter", name, param, kind)
	case rule != "":
		return fmt.Sprintf("rule %q is refused by the validator (%s); fix or remove it", rule, text)
	}
	return fmt.Sprintf("the validator refuses it (%s); fix the rule it names", text)
}

// standaloneRules drops the rules that refer to other fields.
func standaloneRules(tag string) string {
	var keep []string
	for _, r := range strings.Split(tag, ",") {
		name, _, _ := strings.Cut(strings.TrimSpace(r), "=")
		if strings.Contains(name, "field") || strings.HasPrefix(name, "required_") || strings.HasPrefix(name, "excluded_") ||
			strings.HasPrefix(name, "skip_unless") || strings.Contains(r, "|") {
			continue
		}
		keep = append(keep, r)
	}
	return strings.Join(keep, ",")
}

// sampleValue returns a non-zero value of t (one item for lists and maps)
// so that rules after omitempty and dive are exercised.
func sampleValue(t reflect.Type, depth int) reflect.Value {
	v := reflect.New(t).Elem()
	if depth > 3 {
		return v
	}
	switch t.Kind() {
	case reflect.Pointer:
		p := reflect.New(t.Elem())
		p.Elem().Set(sampleValue(t.Elem(), depth+1))
		return p
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1)
	case reflect.Slice:
		s := reflect.MakeSlice(t, 1, 1)
		s.Index(0).Set(sampleValue(t.Elem(), depth+1))
		return s
	case reflect.Map:
		m := reflect.MakeMapWithSize(t, 1)
		m.SetMapIndex(sampleValue(t.Key(), depth+1), sampleValue(t.Elem(), depth+1))
		return m
	}
	return v
}

// paramRules are the mirrored rules that take a parameter; any other
// written with one is left to the validator.
var paramRules = map[string]bool{"oneof": true, "min": true, "max": true, "len": true, "gt": true, "gte": true, "lt": true, "lte": true}

// mirrored reports whether every rule of a validate tag on a field of type t
// is enforced by the checker with the validator's own semantics (the mirror
// column of validatorRules), so the validator need not run for it. Types
// that decode themselves, map sizes and keys/endkeys keep the validator.
func mirrored(tag string, t reflect.Type, ownFormat bool) bool {
	ptr := t.Kind() == reflect.Pointer
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	pre, post, dive := cutDive(tag)
	if isStdType(t) || implements(t, jsonUnmarshaler) || implements(t, textUnmarshaler) {
		return false
	}
	kind, jsonType := t.Kind(), jsonTypeOf(t)
	f := ruleFacts{
		kind:      kind,
		ptr:       ptr,
		isNum:     kind >= reflect.Int && kind <= reflect.Float64,
		isInt:     kind >= reflect.Int && kind <= reflect.Uintptr,
		isStr:     kind == reflect.String && jsonType == "string",
		isList:    (kind == reflect.Slice || kind == reflect.Array) && jsonType == "array",
		ownFormat: ownFormat,
	}
	for rule := range strings.SplitSeq(pre, ",") {
		if pre == "" {
			break
		}
		if rule == "" || strings.TrimSpace(rule) != rule {
			return false // validator reads "" or " min" as an undefined rule and panics
		}
		name, param, hasParam := strings.Cut(rule, "=")
		spec := validatorRules[name]
		if spec == nil || spec.mirror == nil || !spec.mirror(f, name, param) || hasParam && !paramRules[name] {
			return false
		}
	}
	if dive {
		if !f.isList || strings.HasPrefix(strings.TrimSpace(post), "keys") {
			return false
		}
		return mirrored(post, t.Elem(), ownFormat)
	}
	return true
}

// structuralRule reports whether rule shapes how validator reads a tag;
// such a rule says nothing of the value and gets no hint.
func structuralRule(rule string) bool {
	switch rule {
	case "omitempty", "omitnil", "omitzero", "required", "structonly", "nostructlevel", "dive", "keys", "endkeys", "-":
		return true
	}
	return false
}

// ruleHint is the sentence that shows a rule no keyword carries, "" for a
// structural rule: "It must equal the \"start\" property.", "Required when
// \"kind\" is pro.", "It must pass the validate rule \"startswith=ab\"."
func ruleHint(rule, name, param string, names func(string) string) string {
	if structuralRule(rule) {
		return ""
	}
	field := func(goName string) string {
		if names != nil {
			if n := names(goName); n != "" {
				return strconv.Quote(n)
			}
		}
		return strconv.Quote(goName)
	}
	fieldList := func(sep string) string {
		fs := strings.Fields(param)
		for i := range fs {
			fs[i] = field(fs[i])
		}
		return strings.Join(fs, sep)
	}
	if strings.Contains(rule, "|") {
		return fmt.Sprintf("It must pass the validate rule %q.", rule)
	}
	switch name {
	case "eqfield", "eqcsfield":
		return "It must equal the " + field(param) + " property."
	case "nefield", "necsfield":
		return "It must differ from the " + field(param) + " property."
	case "gtfield", "gtcsfield":
		return "It must be greater than the " + field(param) + " property."
	case "gtefield", "gtecsfield":
		return "It must be at least the " + field(param) + " property."
	case "ltfield", "ltcsfield":
		return "It must be less than the " + field(param) + " property."
	case "ltefield", "ltecsfield":
		return "It must be at most the " + field(param) + " property."
	case "required_if", "required_unless", "excluded_if", "excluded_unless":
		fs := strings.Fields(param)
		var conds []string
		for i := 0; i+1 < len(fs); i += 2 {
			conds = append(conds, field(fs[i])+" is "+fs[i+1])
		}
		verb, when := "Required", " when "
		if strings.HasPrefix(name, "excluded") {
			verb = "Must be left out"
		}
		if strings.HasSuffix(name, "unless") {
			when = " unless "
		}
		return verb + when + strings.Join(conds, " and ") + "."
	case "required_with", "required_with_all", "required_without", "required_without_all",
		"excluded_with", "excluded_with_all", "excluded_without", "excluded_without_all":
		verb, rest, _ := strings.Cut(name, "_")
		verb = map[string]string{"required": "Required", "excluded": "Must be left out"}[verb]
		which, state := "any", "given"
		if strings.HasSuffix(rest, "_all") {
			which = "all"
		}
		if strings.HasPrefix(rest, "without") {
			state = "missing"
		}
		be := " is "
		if which == "all" {
			be = " are "
		}
		return verb + " when " + which + " of " + fieldList(", ") + be + state + "."
	}
	if spec := validatorRules[name]; spec != nil && spec.message != nil {
		return spec.message(ruleMsg{p: "It", param: param, tag: name}) + "."
	}
	return fmt.Sprintf("It must pass the validate rule %q.", rule)
}

// addHint appends a sentence to s's description once.
func addHint(s *jsonschema.Schema, hint string) {
	if hint == "" || strings.Contains(s.Description, hint) {
		return
	}
	if s.Description == "" {
		s.Description = hint
		return
	}
	d := strings.TrimRight(s.Description, " ")
	if !strings.HasSuffix(d, ".") && !strings.HasSuffix(d, "!") && !strings.HasSuffix(d, "?") {
		d += "."
	}
	s.Description = d + " " + hint
}
