package einotool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"
)

// emptyObject is the input schema of a tool that declares none.
var emptyObject = json.RawMessage(`{"type":"object"}`)

// paramsOf decodes an input schema into eino's ParamsOneOf. Keywords
// jsonschema.Schema has no field for are kept in its Extras, at every
// level, so they reach the model; the error names the first place
// (a JSON pointer) where what eino would marshal still differs from the
// schema: a keyword whose value the field cannot hold as given.
func paramsOf(raw json.RawMessage) (*schema.ParamsOneOf, error) {
	if raw == nil {
		raw = emptyObject
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("eino's jsonschema.Schema cannot decode the input schema: %w", err)
	}
	if err := keepExtras(&s, raw); err != nil {
		return nil, err
	}
	back, err := json.Marshal(&s)
	if err != nil {
		return nil, err
	}
	if at, ok := differ(raw, back); ok {
		return nil, fmt.Errorf("eino's jsonschema.Schema cannot carry the input schema at %q", at)
	}
	return schema.NewParamsOneOfByJSONSchema(&s), nil
}

// known are the keywords jsonschema.Schema has a field for.
var known = func() map[string]bool {
	m := map[string]bool{"type": true}
	t := reflect.TypeFor[jsonschema.Schema]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			m[name] = true
		}
	}
	return m
}()

// keepExtras puts in s.Extras the keywords of raw (a schema object) that
// s has no field for, and does the same in every subschema s holds.
func keepExtras(s *jsonschema.Schema, raw json.RawMessage) error {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return nil // true or false
	}
	for k, v := range obj {
		if known[k] {
			continue
		}
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			return err
		}
		if s.Extras == nil {
			s.Extras = map[string]any{}
		}
		s.Extras[k] = x
	}
	one := func(key string, sub *jsonschema.Schema) error {
		if sub == nil || obj[key] == nil {
			return nil
		}
		return keepExtras(sub, obj[key])
	}
	list := func(key string, subs []*jsonschema.Schema) error {
		var raws []json.RawMessage
		if json.Unmarshal(obj[key], &raws) != nil || len(raws) != len(subs) {
			return nil
		}
		for i, sub := range subs {
			if err := keepExtras(sub, raws[i]); err != nil {
				return err
			}
		}
		return nil
	}
	named := func(key string, get func(string) *jsonschema.Schema) error {
		var raws map[string]json.RawMessage
		if json.Unmarshal(obj[key], &raws) != nil {
			return nil
		}
		for name, r := range raws {
			if sub := get(name); sub != nil {
				if err := keepExtras(sub, r); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, err := range []error{
		one("not", s.Not), one("if", s.If), one("then", s.Then), one("else", s.Else),
		one("items", s.Items), one("contains", s.Contains),
		one("additionalProperties", s.AdditionalProperties), one("propertyNames", s.PropertyNames),
		one("contentSchema", s.ContentSchema),
		list("allOf", s.AllOf), list("anyOf", s.AnyOf), list("oneOf", s.OneOf), list("prefixItems", s.PrefixItems),
		named("properties", func(n string) *jsonschema.Schema {
			if s.Properties == nil {
				return nil
			}
			sub, _ := s.Properties.Get(n)
			return sub
		}),
		named("patternProperties", func(n string) *jsonschema.Schema { return s.PatternProperties[n] }),
		named("dependentSchemas", func(n string) *jsonschema.Schema { return s.DependentSchemas[n] }),
		named("$defs", func(n string) *jsonschema.Schema { return s.Definitions[n] }),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// differ reports the JSON pointer of the first place (keys in sorted order) where the JSON
// documents a and b differ, comparing numbers by their text and objects
// regardless of key order. An empty object and true are the same schema,
// and eino's type writes {} as true.
func differ(a, b []byte) (string, bool) {
	va, err := decode(a)
	if err != nil {
		return "", true
	}
	vb, err := decode(b)
	if err != nil {
		return "", true
	}
	return diff("", va, vb)
}

func decode(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

func diff(at string, a, b any) (string, bool) {
	if isTrue(a) && isTrue(b) {
		return "", false
	}
	if _, ok := a.(map[string]any); ok && b == true {
		b = map[string]any{}
	}
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok {
			return at, true
		}
		for _, k := range slices.Sorted(maps.Keys(a)) {
			bv, ok := bm[k]
			if !ok {
				return at + "/" + escape(k), true
			}
			if p, d := diff(at+"/"+escape(k), a[k], bv); d {
				return p, true
			}
		}
		for _, k := range slices.Sorted(maps.Keys(bm)) {
			if _, ok := a[k]; !ok {
				return at + "/" + escape(k), true
			}
		}
		return "", false
	case []any:
		bl, ok := b.([]any)
		if !ok || len(bl) != len(a) {
			return at, true
		}
		for i := range a {
			if p, d := diff(at+"/"+strconv.Itoa(i), a[i], bl[i]); d {
				return p, true
			}
		}
		return "", false
	default:
		if a != b {
			return at, true
		}
		return "", false
	}
}

// isTrue reports whether v is the schema that accepts everything: true or {}.
func isTrue(v any) bool {
	if m, ok := v.(map[string]any); ok {
		return len(m) == 0
	}
	return v == true
}

func escape(key string) string {
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}
