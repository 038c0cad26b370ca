package interop

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3/responses"
)

// requireKnown fails unless raw decodes into a value of type T (an SDK
// param type) and every object key in raw is a field of the SDK type at
// that place: unknown fields are refused. A union (a struct of ",inline"
// variant pointers) accepts an object that one variant accepts whole.
func requireKnown[T any](t *testing.T, what string, raw []byte) {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: does not decode into %T: %v\n%s", what, v, err, raw)
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if err := known(doc, reflect.TypeOf(v), "$"); err != nil {
		t.Fatalf("%s: %T: %v\n%s", what, v, err, raw)
	}
}

func known(doc any, typ reflect.Type, path string) error {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	switch typ.Kind() {
	case reflect.Slice:
		arr, ok := doc.([]any)
		if !ok {
			return nil
		}
		for i, e := range arr {
			if err := known(e, typ.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Struct:
	default:
		return nil // leaves, maps and any: every value
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil
	}
	fields := map[string]reflect.Type{}
	var variants []reflect.Type
	extras := false // a field tagged api:"extrafields" takes any other key (a JSON Schema's keywords)
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		extras = extras || f.Tag.Get("api") == "extrafields"
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		switch {
		case strings.Contains(opts, "inline"):
			variants = append(variants, f.Type)
		case name == "-" || !f.IsExported():
		case name != "":
			fields[name] = f.Type
		}
	}
	if strings.HasPrefix(typ.Name(), "Opt[") {
		return nil // param.Opt[T]: a leaf
	}
	if len(fields) == 0 && len(variants) > 0 {
		var errs []string
		for _, v := range variants {
			err := known(doc, v, path)
			if err == nil {
				return nil
			}
			errs = append(errs, err.Error())
		}
		return fmt.Errorf("%s: no variant of %s takes it (%s)", path, typ.Name(), strings.Join(errs, "; "))
	}
	for k, val := range obj {
		ft, ok := fields[k]
		if !ok && extras {
			continue
		}
		if !ok {
			return fmt.Errorf("%s: unknown field %q for %s", path, k, typ.Name())
		}
		if err := known(val, ft, path+"."+k); err != nil {
			return err
		}
	}
	return nil
}

func TestRequireKnownRefusesUnknown(t *testing.T) {
	type inner struct {
		A string `json:"a"`
	}
	type outer struct {
		In []inner `json:"in"`
	}
	if err := known(map[string]any{"in": []any{map[string]any{"a": "x"}}}, reflect.TypeOf(outer{}), "$"); err != nil {
		t.Fatal(err)
	}
	err := known(map[string]any{"in": []any{map[string]any{"b": "x"}}}, reflect.TypeOf(outer{}), "$")
	if err == nil || !strings.Contains(err.Error(), `$.in[0]: unknown field "b"`) {
		t.Fatalf("err = %v", err)
	}
	// A real SDK type: a custom tool has no "strict"; a namespace's
	// tools union takes neither variant with a stray key.
	var doc any
	json.Unmarshal([]byte(`{"type":"custom","name":"x","strict":true}`), &doc)
	if err := known(doc, reflect.TypeOf(responses.CustomToolParam{}), "$"); err == nil || !strings.Contains(err.Error(), `unknown field "strict"`) {
		t.Errorf("custom tool with strict: %v", err)
	}
	json.Unmarshal([]byte(`{"type":"namespace","name":"n","description":"d","tools":[{"type":"function","name":"f","bogus":1}]}`), &doc)
	if err := known(doc, reflect.TypeOf(responses.NamespaceToolParam{}), "$"); err == nil || !strings.Contains(err.Error(), "no variant") {
		t.Errorf("namespace with a stray key: %v", err)
	}
}
