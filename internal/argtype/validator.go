package argtype

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/go-playground/validator/v10"
)

// validate returns the shared validator. It is configured once, before its
// first use, as validator requires.
func validate() *validator.Validate {
	validatorOnce.Do(func() {
		validatorInst = validator.New(validator.WithRequiredStructEnabled())
	})
	return validatorInst
}

// validationErrors maps validator failures to problems named by JSON path.
func validationErrors(root reflect.Type, err error) []*Problem {
	var verrs validator.ValidationErrors
	if !errors.As(err, &verrs) {
		return []*Problem{{Rule: "validate", Msg: "arguments failed validation: " + stripGo(err.Error())}}
	}
	out := make([]*Problem, 0, len(verrs))
	for _, fe := range verrs {
		path, parent := jsonPath(root, fe.StructNamespace())
		param := fe.Param()
		if strings.HasSuffix(fe.Tag(), "field") && param != "" && !strings.Contains(param, ".") {
			param = jsonFieldName(parent, param) // eqfield=Start → "start"
		}
		out = append(out, &Problem{Path: path, Rule: fe.Tag(), Param: param,
			Msg: ruleMessage(path, param, fe)})
		if len(out) == MaxProblems {
			break
		}
	}
	return out
}

// jsonPath converts a validator namespace of Go field names
// ("Args.Stops[2].City", "Args.Counts[ab]") into a JSON path
// ("stops[2].city", "counts.ab"). It also returns the struct type holding
// the last field, to translate cross-field rule parameters.
func jsonPath(root reflect.Type, ns string) (string, reflect.Type) {
	parts := strings.Split(ns, ".")
	if len(parts) > 0 {
		parts = parts[1:] // the root type name
	}
	t := root
	parent := root
	var b strings.Builder
	for _, part := range parts {
		name, rest, _ := strings.Cut(part, "[")
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		sf, ok := reflect.StructField{}, false
		if t.Kind() == reflect.Struct {
			sf, ok = t.FieldByName(name)
		}
		if !ok {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(part)
			continue
		}
		parent = t
		t = sf.Type
		jname, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if sf.Anonymous && jname == "" {
			et := sf.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				continue // embedded: its fields are promoted
			}
		}
		if jname == "" {
			jname = sf.Name
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(jname)
		for rest != "" { // "2]", "ab]", "1][0]"
			key, after, _ := strings.Cut(rest, "]")
			for t.Kind() == reflect.Pointer {
				t = t.Elem()
			}
			if t.Kind() == reflect.Map {
				b.WriteByte('.')
				b.WriteString(key)
			} else {
				b.WriteString("[" + key + "]")
			}
			if t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
				t = t.Elem()
			}
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return b.String(), parent
}

// jsonFieldName returns the JSON name of Go field goName in struct t, or
// goName when there is none.
func jsonFieldName(t reflect.Type, goName string) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return goName
	}
	sf, ok := t.FieldByName(goName)
	if !ok {
		return goName
	}
	if jname, _, _ := strings.Cut(sf.Tag.Get("json"), ","); jname != "" && jname != "-" {
		return jname
	}
	return goName
}

func ruleMessage(path, param string, fe validator.FieldError) string {
	p := fmt.Sprintf("%q", path)
	k := fe.Kind()
	for k == reflect.Pointer {
		k = reflect.Invalid
	}
	isStr := fe.Kind() == reflect.String
	isList := fe.Kind() == reflect.Slice || fe.Kind() == reflect.Array || fe.Kind() == reflect.Map
	unit := ""
	if isStr {
		unit = " characters"
	} else if isList {
		unit = " items"
	}
	if param == "1" {
		unit = strings.TrimSuffix(unit, "s")
	}
	switch fe.Tag() {
	case "required", "required_if", "required_unless", "required_with", "required_without":
		// The property is present (the checker reports missing ones) but
		// holds its zero value, which validator's required refuses.
		switch fe.Kind() {
		case reflect.String:
			return p + " must not be empty"
		case reflect.Slice, reflect.Map, reflect.Array:
			return p + " must not be empty"
		case reflect.Bool:
			return p + " must be true"
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
			reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
			return p + " must not be 0"
		}
		return p + " is required"
	case "oneof":
		return fmt.Sprintf("%s must be one of [%s]", p, enumList(oneofValues(param)))
	case "min", "gte":
		if isStr || isList {
			return fmt.Sprintf("%s must have at least %s%s", p, param, unit)
		}
		return fmt.Sprintf("%s must be at least %s", p, param)
	case "max", "lte":
		if isStr || isList {
			return fmt.Sprintf("%s must have at most %s%s", p, param, unit)
		}
		return fmt.Sprintf("%s must be at most %s", p, param)
	case "gt":
		if isStr || isList {
			return fmt.Sprintf("%s must have more than %s%s", p, param, unit)
		}
		return fmt.Sprintf("%s must be greater than %s", p, param)
	case "lt":
		if isStr || isList {
			return fmt.Sprintf("%s must have fewer than %s%s", p, param, unit)
		}
		return fmt.Sprintf("%s must be less than %s", p, param)
	case "len":
		if isStr || isList {
			return fmt.Sprintf("%s must have exactly %s%s", p, param, unit)
		}
		return fmt.Sprintf("%s must be exactly %s", p, param)
	case "eq":
		return fmt.Sprintf("%s must be %s", p, param)
	case "ne":
		return fmt.Sprintf("%s must not be %s", p, param)
	case "email":
		return p + " must be a valid email address"
	case "url", "uri", "http_url":
		return p + " must be a valid URL"
	case "uuid", "uuid3", "uuid4", "uuid5", "uuid_rfc4122", "uuid4_rfc4122":
		return p + " must be a valid UUID"
	case "alpha":
		return p + " must contain only letters"
	case "alphanum":
		return p + " must contain only letters and digits"
	case "numeric", "number":
		return p + " must contain only digits"
	case "unique":
		return p + " must not contain duplicates"
	case "eqfield":
		return fmt.Sprintf("%s must equal %q", p, param)
	case "nefield":
		return fmt.Sprintf("%s must differ from %q", p, param)
	case "gtfield":
		return fmt.Sprintf("%s must be greater than %q", p, param)
	case "gtefield":
		return fmt.Sprintf("%s must be at least %q", p, param)
	case "ltfield":
		return fmt.Sprintf("%s must be less than %q", p, param)
	case "ltefield":
		return fmt.Sprintf("%s must be at most %q", p, param)
	case "ip", "ipv4", "ipv6", "hostname", "hostname_rfc1123", "datetime", "json", "base64":
		return fmt.Sprintf("%s must be a valid %s%s", p, fe.Tag(), suffixParam(param))
	}
	if param != "" {
		return fmt.Sprintf("%s failed the rule %s=%s", p, fe.Tag(), param)
	}
	return fmt.Sprintf("%s failed the rule %s", p, fe.Tag())
}

func suffixParam(p string) string {
	if p == "" {
		return ""
	}
	return " (" + p + ")"
}

// enumList formats allowed values for a message: space-separated, or as
// JSON strings when a value is empty or holds a space.
func enumList(vals []string) string {
	quote := false
	for _, v := range vals {
		if v == "" || strings.ContainsAny(v, " \t\n") {
			quote = true
		}
	}
	if !quote {
		return strings.Join(vals, " ")
	}
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}
