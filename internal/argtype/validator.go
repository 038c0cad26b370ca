package argtype

import (
	"errors"
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
