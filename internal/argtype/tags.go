package argtype

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
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
