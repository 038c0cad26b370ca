package argtype

import (
	"encoding/json"
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
// jsonschema tag are kept.
func applyValidate(s *jsonschema.Schema, t reflect.Type, tag string, enforced bool) {
	ptr := t.Kind() == reflect.Pointer
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	pre, post := splitDive(tag)
	for _, rule := range splitRules(pre) {
		if ptr && rule == "required" {
			continue // on a pointer: present and not null, which the schema says already
		}
		applyRule(s, t, rule, enforced)
	}
	if post == "" && !hasDive(tag) {
		return
	}
	// keys ... endkeys rules apply to map keys, which have no schema here.
	if rules := splitRules(post); len(rules) > 0 && rules[0] == "keys" {
		end := slices.Index(rules, "endkeys")
		if end < 0 {
			return
		}
		post = strings.Join(rules[end+1:], ",")
	}
	var item *jsonschema.Schema
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		item = s.Items
	case reflect.Map:
		item = s.AdditionalProperties
	}
	if item != nil && item != jsonschema.TrueSchema && item != jsonschema.FalseSchema {
		applyValidate(item, t.Elem(), post, enforced)
	}
}

func applyRule(s *jsonschema.Schema, t reflect.Type, rule string, enforced bool) {
	if rule == "" || strings.Contains(rule, "|") {
		return
	}
	name, param, _ := strings.Cut(rule, "=")
	if !enforced && (strings.HasPrefix(name, "hostname") || name == "unique") {
		return // neither the validator (no dive) nor the checker would enforce it
	}
	kind := t.Kind()
	isNum := kind >= reflect.Int && kind <= reflect.Float64
	isInt := kind >= reflect.Int && kind <= reflect.Uintptr
	isStr := kind == reflect.String
	isList := kind == reflect.Slice || kind == reflect.Array
	isMap := kind == reflect.Map
	u := func() *uint64 {
		n, err := strconv.ParseUint(param, 10, 64)
		if err != nil {
			return nil
		}
		return &n
	}
	num := func() json.Number {
		if _, err := strconv.ParseFloat(param, 64); err != nil {
			return ""
		}
		return json.Number(param)
	}
	switch name {
	case "oneof":
		if len(s.Enum) > 0 {
			return
		}
		for _, v := range oneofValues(param) {
			if kind == reflect.Bool {
				if b, err := strconv.ParseBool(v); err == nil {
					s.Enum = append(s.Enum, b)
				}
				continue
			}
			if isNum {
				if _, err := strconv.ParseFloat(v, 64); err == nil {
					s.Enum = append(s.Enum, json.Number(v))
				}
				continue
			}
			s.Enum = append(s.Enum, v)
		}
	case "min", "max", "len", "gte", "lte", "gt", "lt":
		switch {
		case isNum:
			n := num()
			if n == "" {
				return
			}
			setNum := func(dst *json.Number) {
				if *dst == "" {
					*dst = n
				}
			}
			switch name {
			case "min", "gte":
				setNum(&s.Minimum)
			case "max", "lte":
				setNum(&s.Maximum)
			case "len":
				setNum(&s.Minimum)
				setNum(&s.Maximum)
			case "gt":
				setNum(&s.ExclusiveMinimum)
			case "lt":
				setNum(&s.ExclusiveMaximum)
			}
			_ = isInt
		case isStr || isList || isMap:
			v := u()
			if v == nil {
				return
			}
			lo, hi := &s.MinLength, &s.MaxLength
			if isList {
				lo, hi = &s.MinItems, &s.MaxItems
			} else if isMap {
				lo, hi = &s.MinProperties, &s.MaxProperties
			}
			set := func(dst **uint64, n uint64) {
				if *dst == nil {
					*dst = &n
				}
			}
			switch name {
			case "min", "gte":
				set(lo, *v)
			case "max", "lte":
				set(hi, *v)
			case "len":
				set(lo, *v)
				set(hi, *v)
			case "gt":
				set(lo, *v+1)
			case "lt":
				if *v > 0 {
					set(hi, *v-1)
				}
			}
		}
	case "required":
		if isStr && s.MinLength == nil {
			one := uint64(1)
			s.MinLength = &one // validator's required on a string: not empty
		}
	case "email":
		setFormat(s, isStr, "email")
	case "url", "uri", "http_url":
		setFormat(s, isStr, "uri")
	case "uuid", "uuid3", "uuid4", "uuid5", "uuid_rfc4122", "uuid4_rfc4122":
		setFormat(s, isStr, "uuid")
	case "ipv4":
		setFormat(s, isStr, "ipv4")
	case "ipv6":
		setFormat(s, isStr, "ipv6")
	case "hostname", "hostname_rfc1123":
		setFormat(s, isStr, "hostname")
	case "datetime":
		// validator's datetime takes a Go layout; no JSON Schema keyword matches it exactly.
	case "unique":
		if isList {
			s.UniqueItems = true
		}
	}
}

func setFormat(s *jsonschema.Schema, isStr bool, f string) {
	if isStr && s.Format == "" {
		s.Format = f
	}
}

// checkValidateTags makes go-playground/validator parse and run every
// `validate` tag now, on a zero value of each struct type and on a non-zero
// sample of each field: validator panics on an unknown rule, a rule that
// does not fit the field's type or a bad parameter, at the first validation
// that reaches it, which must be a registration error, not a failed call
// later. Cross-field rules (eqfield=, required_if=, ...) are left to the
// zero-value pass, since a lone field has no siblings.
func checkValidateTags(objs map[reflect.Type]*objSpec, fields map[reflect.Type][]goField) error {
	types := make([]reflect.Type, 0, len(objs))
	for t := range objs {
		types = append(types, t)
	}
	slices.SortFunc(types, func(a, b reflect.Type) int { return strings.Compare(a.String(), b.String()) })
	try := func(what string, f func()) (err error) {
		defer func() {
			if v := recover(); v != nil {
				err = fmt.Errorf("%s: invalid validate tag: %v", what, v)
			}
		}()
		f()
		return nil
	}
	for _, t := range types {
		if err := try("struct "+typeName(t), func() { _ = validate().Struct(reflect.New(t).Interface()) }); err != nil {
			return err
		}
		for _, f := range fields[t] {
			tag := standaloneRules(f.validate)
			if tag == "" {
				continue
			}
			v := sampleValue(f.typ, 0)
			if err := try("field "+typeName(t)+"."+f.goName, func() { _ = validate().Var(v.Interface(), tag) }); err != nil {
				return err
			}
		}
	}
	return nil
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

// mirrored reports whether every rule of a validate tag on a field of type t
// is enforced by the checker with the validator's own semantics (presence,
// oneof → enum, min/max/len/gt/gte/lt/lte → bounds or lengths, required →
// non-zero), so the validator need not run for it. Formats, cross-field
// rules, map sizes, keys/endkeys and anything else keep the validator.
func mirrored(tag string, t reflect.Type, ownFormat bool) bool {
	ptr := t.Kind() == reflect.Pointer
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	pre, post := splitDive(tag)
	kind := t.Kind()
	isNum := kind >= reflect.Int && kind <= reflect.Float64
	isInt := kind >= reflect.Int && kind <= reflect.Uintptr
	isStr := kind == reflect.String && jsonTypeOf(t) == "string"
	isList := (kind == reflect.Slice || kind == reflect.Array) && jsonTypeOf(t) == "array"
	if isStdType(t) || implements(t, jsonUnmarshaler) || implements(t, textUnmarshaler) {
		return false
	}
	for _, rule := range splitRules(pre) {
		name, param, _ := strings.Cut(rule, "=")
		switch name {
		case "omitempty":
		case "required":
			// On a string: not empty (minLength 1). On a pointer, slice or
			// map: not nil, that is present and not null, which the schema
			// says. Numbers, bools and structs are refused at registration.
			if !ptr && !isStr && !isList && kind != reflect.Map {
				return false
			}
		case "oneof":
			if !isStr && !isInt {
				return false
			}
		case "min", "max", "len", "gte", "lte", "gt", "lt":
			if !isNum && !isStr && !isList {
				return false
			}
			if !isNum {
				n, err := strconv.ParseUint(param, 10, 64)
				if err != nil || (name == "lt" && n == 0) {
					return false
				}
			}
		case "email", "url", "uri", "uuid", "ipv4", "ipv6":
			// Shown as a format (applyRule) that the schema engine asserts,
			// unless a jsonschema format= took its place.
			if !isStr || ownFormat {
				return false
			}
		default:
			return false
		}
	}
	if hasDive(tag) {
		if !isList || strings.HasPrefix(strings.TrimSpace(post), "keys") {
			return false
		}
		return mirrored(post, t.Elem(), ownFormat)
	}
	return true
}
