package argtype

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// cutDive splits a validate tag at its first "dive" rule: the rules for
// the field and the rules for its items; found reports whether it has one.
func cutDive(tag string) (pre, post string, found bool) {
	if !strings.Contains(tag, "dive") {
		return tag, "", false
	}
	for start := 0; start <= len(tag); {
		end := strings.IndexByte(tag[start:], ',')
		if end < 0 {
			end = len(tag)
		} else {
			end += start
		}
		if strings.TrimSpace(tag[start:end]) == "dive" {
			pre = tag[:max(start-1, 0)]
			if end < len(tag) {
				post = tag[end+1:]
			}
			return pre, post, true
		}
		start = end + 1
	}
	return tag, "", false
}

func hasTagWord(tag, word string) bool {
	if !strings.Contains(tag, word) {
		return false
	}
	for {
		p, rest, more := strings.Cut(tag, ",")
		if strings.TrimSpace(p) == word {
			return true
		}
		if !more {
			return false
		}
		tag = rest
	}
}

// checkRequiredRule refuses validate:"required" where validator's meaning
// (not the zero value) contradicts the schema, which can only say that the
// key must be present: false, 0 or an all-zero object would be shown as
// valid and refused. On a string it is shown as minLength 1; on a pointer,
// slice, map or interface it means "present and not null", which the
// schema says already.
func checkRequiredRule(t reflect.Type, sf reflect.StructField) error {
	ft := sf.Type
	where := place{owner: t, field: sf.Name} // "Args.Field", formatted only in a message
	const already = "the property is already required (its json tag has no omitempty)"
	switch k := ft.Kind(); {
	case k == reflect.Bool:
		return fmt.Errorf("field %s: validate \"required\" on a bool refuses false, which the schema allows; %s: drop the rule, or use *bool to require the key while allowing false", where, already)
	case k >= reflect.Int && k <= reflect.Float64:
		return fmt.Errorf("field %s: validate \"required\" on a number refuses 0, which the schema allows; %s: drop the rule, use *%s to require the key while allowing 0, or state the bound (min=1, gt=0, ne=0)", where, already, ft)
	case k == reflect.Struct && !isStdType(ft) && !implements(ft, schemaHookType):
		return fmt.Errorf("field %s: validate \"required\" on a struct refuses an object whose fields are all zero, which the schema allows; %s: drop the rule, or use *%s", where, already, ft)
	}
	return nil
}

// checkSchemaTag rejects a `jsonschema` tag written as prose: an entry with
// no "=" that is not one of invopop's bare words. invopop drops such entries
// silently, losing the description.
func checkSchemaTag(t reflect.Type, sf reflect.StructField, tag string) error {
	if tag == "" {
		return nil
	}
	for rest, more := tag, true; more; {
		var part string
		part, rest, more = cutUnescaped(rest)
		p := strings.TrimSpace(part)
		if p != "" && p != part && strings.Contains(p, "=") && strings.TrimLeft(part, " \t") != part {
			return fmt.Errorf("field %s.%s: jsonschema tag entry %q starts with a space, which invopop/jsonschema reads as an unknown key and drops; remove the space after the comma",
				typeName(t), sf.Name, part)
		}
		if p == "" || knownBareSchemaWs[p] {
			continue
		}
		if key, val, ok := strings.Cut(p, "="); ok {
			if err := checkSchemaKey(t, sf, key, val); err != nil {
				return err
			}
			continue
		}
		if strings.Contains(tag, "=") {
			return fmt.Errorf("field %s.%s: jsonschema tag entry %q is not key=value; escape commas inside values as \\, (invopop splits the tag on commas)",
				typeName(t), sf.Name, p)
		}
		return fmt.Errorf("field %s.%s: jsonschema tag entry %q is not key=value; write jsonschema:\"description=%s\"",
			typeName(t), sf.Name, p, strings.ReplaceAll(tag, `"`, `\"`))
	}
	return nil
}

// cutUnescaped cuts s at its first comma not escaped by a backslash.
func cutUnescaped(s string) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case ',':
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func hasDive(tag string) bool {
	_, _, found := cutDive(tag)
	return found
}

// firstRule is splitRules(tag)[0], or "" when tag has no rule.
func firstRule(tag string) string {
	for r := range strings.SplitSeq(tag, ",") {
		if r = strings.TrimSpace(r); r != "" {
			return r
		}
	}
	return ""
}

// splitRules splits a validate tag into its rules, honouring the quotes
// oneof allows ('a b').
func splitRules(tag string) []string {
	if tag == "" {
		return nil
	}
	out := make([]string, 0, strings.Count(tag, ",")+1)
	for r := range strings.SplitSeq(tag, ",") {
		if r = strings.TrimSpace(r); r != "" {
			out = append(out, r)
		}
	}
	return out
}

// oneofValues splits a oneof parameter the way validator does: by spaces,
// with 'single quoted' values that may contain spaces.
func oneofValues(param string) []string {
	out := make([]string, 0, strings.Count(param, " ")+1)
	for len(param) > 0 {
		param = strings.TrimLeft(param, " ")
		if param == "" {
			break
		}
		if param[0] == '\'' {
			if end := strings.IndexByte(param[1:], '\''); end >= 0 {
				out = append(out, param[1:1+end])
				param = param[end+2:]
				continue
			}
		}
		v, rest, _ := strings.Cut(param, " ")
		out = append(out, v)
		param = rest
	}
	return out
}

// checkSchemaKey refuses a jsonschema tag key that invopop would drop
// silently (unknown, or meant for another kind of field) and a type= that
// contradicts the Go type: either way the model would be told something
// the runtime does not do.
func checkSchemaKey(t reflect.Type, sf reflect.StructField, key, val string) error {
	ft := sf.Type
	for ft.Kind() == reflect.Pointer {
		ft = ft.Elem()
	}
	if slices.Contains(schemaKeysAny, key) {
		if key == "default" || key == "enum" || key == "example" {
			if err := checkTagValue(jsonTypeOf(ft), val); err != nil {
				return fmt.Errorf("field %s.%s: jsonschema %s=%s: %v (invopop/jsonschema would drop it)", typeName(t), sf.Name, key, val, err)
			}
		}
		if key == "type" {
			want := jsonTypeOf(ft)
			if want != "" && val != want {
				return fmt.Errorf("field %s.%s: jsonschema type=%s contradicts the Go type %s (%s); remove it", typeName(t), sf.Name, val, sf.Type, want)
			}
		}
		return nil
	}
	var allowed []string
	kind := ""
	switch jsonTypeOf(ft) {
	case "string":
		allowed, kind = schemaKeysString, "string"
	case "integer", "number":
		allowed, kind = schemaKeysNumber, "number"
	case "array":
		allowed, kind = schemaKeysArray, "array"
	}
	if slices.Contains(allowed, key) {
		return nil
	}
	all := slices.Concat(schemaKeysString, schemaKeysNumber, schemaKeysArray)
	if slices.Contains(all, key) {
		return fmt.Errorf("field %s.%s: jsonschema key %q does not apply to a %s field (invopop/jsonschema would drop it)", typeName(t), sf.Name, key, orWord(kind, "non-"+key+" "))
	}
	return fmt.Errorf("field %s.%s: jsonschema key %q is not one invopop/jsonschema knows (it would drop it); known keys: %s", typeName(t), sf.Name, key,
		strings.Join(slices.Compact(slices.Sorted(slices.Values(slices.Concat(schemaKeysAny, all)))), ", "))
}

// checkTagValue reports a default=, enum= or example= value that invopop
// cannot parse for a field of JSON type typ.
func checkTagValue(typ, val string) error {
	var err error
	switch typ {
	case "integer":
		_, err = strconv.ParseInt(val, 10, 64)
	case "number":
		_, err = strconv.ParseFloat(val, 64)
	case "boolean":
		_, err = strconv.ParseBool(val)
	default:
		return nil
	}
	if err != nil {
		return fmt.Errorf("%q is not %s", val, map[string]string{"integer": "an integer", "number": "a number", "boolean": "true or false"}[typ])
	}
	return nil
}

func orWord(s, alt string) string {
	if s == "" {
		return strings.TrimSpace(alt)
	}
	return s
}

// jsonTypeOf is the JSON Schema type of a Go type ("" when it has no single
// type: interfaces, custom marshalers).
func jsonTypeOf(t reflect.Type) string {
	switch {
	case isStdType(t):
		return stdTypes[t].schema().Type
	case implements(t, jsonUnmarshaler), implements(t, schemaHookType), implements(t, schemaAliasType):
		return ""
	case implements(t, textUnmarshaler):
		return "string"
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "string"
		}
		return "array"
	case reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return ""
}

// structTags are the tags of a struct field that argument types read, from
// one scan of the tag (reflect.StructTag.Lookup scans it once per key).
type structTags struct {
	json, jsonschema, validate, description, extras string
	hasJSON                                         bool
}

// readTags reads the json, jsonschema, validate, jsonschema_description
// and jsonschema_extras values of tag exactly as tag.Lookup of each would:
// the first entry of a key, the scan stopping where Lookup's stops, and a
// value Lookup cannot unquote counting as absent.
func readTags(tag reflect.StructTag) structTags {
	var out structTags
	var seen uint8 // keys met, in the order of the switch below
	s := string(tag)
	for s != "" {
		i := 0
		for i < len(s) && s[i] == ' ' {
			i++
		}
		s = s[i:]
		if s == "" {
			break
		}
		i = 0
		for i < len(s) && s[i] > ' ' && s[i] != ':' && s[i] != '"' && s[i] != 0x7f {
			i++
		}
		if i == 0 || i+1 >= len(s) || s[i] != ':' || s[i+1] != '"' {
			break
		}
		name := s[:i]
		s = s[i+1:]
		if j := strings.IndexByte(s[1:], '"'); j >= 0 && strings.IndexByte(s[1:1+j], '\\') < 0 {
			i = 1 + j // no escape before the first closing quote
		} else {
			i = 1
			for i < len(s) && s[i] != '"' {
				if s[i] == '\\' {
					i++
				}
				i++
			}
		}
		if i >= len(s) {
			break
		}
		quoted := s[:i+1]
		s = s[i+1:]
		var dst *string
		var bit uint8
		switch name {
		case "json":
			dst, bit = &out.json, 1
		case "jsonschema":
			dst, bit = &out.jsonschema, 2
		case "validate":
			dst, bit = &out.validate, 4
		case "jsonschema_description":
			dst, bit = &out.description, 8
		case "jsonschema_extras":
			dst, bit = &out.extras, 16
		default:
			continue
		}
		if seen&bit != 0 {
			continue
		}
		seen |= bit
		v, ok := unquoteTag(quoted)
		if !ok {
			continue
		}
		*dst = v
		if bit == 1 {
			out.hasJSON = true
		}
	}
	return out
}

// unquoteTag is strconv.Unquote of a double-quoted tag value, without
// copying one that has no escapes.
func unquoteTag(q string) (string, bool) {
	body := q[1 : len(q)-1]
	if strings.IndexByte(body, '\\') < 0 && strings.IndexByte(body, '\n') < 0 && utf8.ValidString(body) {
		return body, true
	}
	v, err := strconv.Unquote(q)
	return v, err == nil
}

// invopopTags is what invopop reads of a field's tags (opts: the json
// tag's options after the name).
func invopopTags(t structTags, opts string) fieldTags {
	ft := fieldTags{schema: t.jsonschema, description: t.description, extras: t.extras != "", required: true}
	for o := range strings.SplitSeq(opts, ",") {
		if o == "omitempty" || o == "omitzero" {
			ft.required = false
		}
	}
	if t.jsonschema != "" {
		for w := range strings.SplitSeq(t.jsonschema, ",") {
			switch w {
			case "required":
				ft.required = true
			case "nullable":
				ft.nullable = true
			}
		}
	}
	return ft
}
