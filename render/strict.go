package render

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// OpenAI strict-mode limits, from the Structured Outputs guide, "Supported
// schemas" (https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas).
// A schema over a limit is an error wrapping [ErrSchemaLimit].
const (
	// StrictMaxDepth is the deepest object nesting allowed: the root object
	// is level 1, an object property of it level 2, and so on (arrays do
	// not add a level; $defs are counted from level 1 each).
	StrictMaxDepth = 10
	// StrictMaxProperties is the most object properties allowed in one
	// schema, counted over every object including $defs.
	StrictMaxProperties = 5000
	// StrictMaxEnumValues is the most enum values allowed in one schema.
	StrictMaxEnumValues = 1000
	// StrictMaxStringLength is the most characters allowed in property
	// names, $defs names, enum values and const values together.
	StrictMaxStringLength = 120000
	// StrictLargeEnum and StrictLargeEnumLength: a string enum with more
	// than StrictLargeEnum values may total at most StrictLargeEnumLength
	// characters.
	StrictLargeEnum       = 250
	StrictLargeEnumLength = 15000
)

// strictFormats are the string formats strict mode supports; others are
// dropped from the rendered copy (Execute still enforces them).
var strictFormats = map[string]bool{
	"date-time": true, "time": true, "date": true, "duration": true, "email": true,
	"hostname": true, "ipv4": true, "ipv6": true, "uuid": true,
}

// strictKept are the keywords copied unchanged into a strict schema.
var strictKept = map[string]bool{
	"type": true, "title": true, "description": true, "enum": true, "const": true,
	"pattern": true, "minLength": true, "maxLength": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minItems": true, "maxItems": true,
}

// strictRejected are the keywords whose meaning strict mode cannot keep.
var strictRejected = map[string]bool{
	"allOf": true, "not": true, "if": true, "then": true, "else": true,
	"dependentRequired": true, "dependentSchemas": true, "dependencies": true,
	"patternProperties": true, "propertyNames": true, "unevaluatedProperties": true,
	"unevaluatedItems": true, "contains": true, "minContains": true, "maxContains": true,
	"prefixItems": true,
}

var strictCache rewriteCache

// jsonTypes are the JSON Schema type names.
var jsonTypes = map[string]bool{
	"string": true, "number": true, "integer": true, "boolean": true, "array": true, "object": true, "null": true,
}

// strictSchema returns a strict-mode copy of the schema in, following the
// rules documented on [OpenAIStrict]. The input is never modified.
func strictSchema(in []byte) (json.RawMessage, error) {
	tree, err := jsonx.Parse(in)
	if err != nil {
		return nil, &SchemaError{Msg: "the schema is not valid JSON: " + err.Error(), Err: ErrUnsupportedSchema}
	}
	root, ok := tree.(*jsonx.Object)
	if !ok || !hasType(root, "object") {
		return nil, &SchemaError{Msg: `the root must be {"type":"object",…}`, Err: ErrUnsupportedSchema}
	}
	for _, k := range [...]string{"anyOf", "oneOf"} {
		if _, ok := root.Get(k); ok {
			return nil, notStrict("/"+k, "strict mode does not allow "+k+" at the root")
		}
	}
	s := &strictor{}
	out, err := s.node(root, "", 0)
	if err != nil {
		return nil, err
	}
	switch {
	case s.props > StrictMaxProperties:
		return nil, overLimit("", fmt.Sprintf("%d object properties, more than the strict-mode limit of %d", s.props, StrictMaxProperties))
	case s.enums > StrictMaxEnumValues:
		return nil, overLimit("", fmt.Sprintf("%d enum values, more than the strict-mode limit of %d", s.enums, StrictMaxEnumValues))
	case s.strLen > StrictMaxStringLength:
		return nil, overLimit("", fmt.Sprintf("%d characters of property names, enum and const values, more than the strict-mode limit of %d", s.strLen, StrictMaxStringLength))
	}
	return jsonx.Marshal(out), nil
}

func notStrict(path, msg string) error {
	return &SchemaError{Path: path, Msg: msg, Err: ErrNotStrict}
}

func overLimit(path, msg string) error {
	return &SchemaError{Path: path, Msg: msg, Err: ErrSchemaLimit}
}

func hasType(o *jsonx.Object, want string) bool {
	t, _ := o.Get("type")
	switch t := t.(type) {
	case string:
		return t == want
	case []any:
		for _, e := range t {
			if e == want {
				return true
			}
		}
	}
	return false
}

type strictor struct {
	props, enums, strLen int
}

// node rewrites one schema node. depth is the object nesting level of the
// node's parent.
func (s *strictor) node(v any, path string, depth int) (*jsonx.Object, error) {
	o, ok := v.(*jsonx.Object)
	if !ok {
		return nil, notStrict(path, fmt.Sprintf("the boolean schema %v (any value or no value) cannot be made strict", jsonx.Marshal(v)))
	}
	for _, k := range o.Keys {
		if strictRejected[k] {
			return nil, notStrict(path+"/"+pointerToken(k), fmt.Sprintf("%q is not supported in strict mode", k))
		}
	}
	var types []string
	if t, ok := o.Get("type"); ok {
		switch t := t.(type) {
		case string:
			types = []string{t}
		case []any:
			for _, e := range t {
				str, ok := e.(string)
				if !ok {
					return nil, &SchemaError{Path: path + "/type", Msg: "type array holds a non-string", Err: ErrUnsupportedSchema}
				}
				types = append(types, str)
			}
		default:
			return nil, &SchemaError{Path: path + "/type", Msg: "type is neither a string nor an array", Err: ErrUnsupportedSchema}
		}
	}
	for _, t := range types {
		if !jsonTypes[t] {
			return nil, &SchemaError{Path: path + "/type", Msg: fmt.Sprintf("%q is not a JSON Schema type", t), Err: ErrUnsupportedSchema}
		}
	}
	nonNull := ""
	for _, t := range types {
		if t == "null" {
			continue
		}
		if nonNull != "" {
			return nil, notStrict(path+"/type", fmt.Sprintf("the type %s lists more than one non-null type; strict mode allows one type plus \"null\"", jsonx.Marshal(o.Vals[indexOf(o, "type")])))
		}
		nonNull = t
	}
	_, hasProps := o.Get("properties")
	isObject := nonNull == "object" || (len(types) == 0 && hasProps)
	if len(types) == 0 && !hasProps {
		typed := false
		for _, k := range [...]string{"$ref", "anyOf", "oneOf", "enum", "const"} {
			if _, ok := o.Get(k); ok {
				typed = true
			}
		}
		if !typed {
			return nil, notStrict(path, "a schema with no type (any JSON value) cannot be made strict")
		}
	}
	if nonNull == "array" {
		if _, ok := o.Get("items"); !ok {
			return nil, notStrict(path, "an array without \"items\" (items of any type) cannot be made strict")
		}
	}
	if isObject {
		depth++
		if depth > StrictMaxDepth {
			return nil, overLimit(path, fmt.Sprintf("%d levels of object nesting, more than the strict-mode limit of %d", depth, StrictMaxDepth))
		}
	}

	out := &jsonx.Object{}
	var props *jsonx.Object
	var defsKey string
	var defs *jsonx.Object
	required := map[string]bool{}
	for i, k := range o.Keys {
		val := o.Vals[i]
		p := path + "/" + pointerToken(k)
		switch {
		case k == "type" && len(types) == 1:
			out.Keys, out.Vals = append(out.Keys, k), append(out.Vals, types[0]) // ["T"] is "T"
		case strictKept[k]:
			if k == "enum" {
				if err := s.countEnum(val, p); err != nil {
					return nil, err
				}
			}
			if k == "const" {
				s.enums++
				if str, ok := val.(string); ok {
					s.strLen += len(str)
				}
			}
			out.Keys, out.Vals = append(out.Keys, k), append(out.Vals, val)
		case k == "format":
			if f, ok := val.(string); ok && strictFormats[f] {
				out.Keys, out.Vals = append(out.Keys, k), append(out.Vals, val)
			}
		case k == "$ref":
			ref, _ := val.(string)
			if ref == "" || ref[0] != '#' {
				return nil, notStrict(p, fmt.Sprintf("the $ref %q is not local (#…); strict mode only follows local references", ref))
			}
			out.Keys, out.Vals = append(out.Keys, k), append(out.Vals, val)
		case k == "items":
			c, err := s.node(val, p, depth)
			if err != nil {
				return nil, err
			}
			out.Keys, out.Vals = append(out.Keys, k), append(out.Vals, c)
		case k == "anyOf" || k == "oneOf":
			arr, ok := val.([]any)
			if !ok {
				return nil, &SchemaError{Path: p, Msg: k + " is not an array", Err: ErrUnsupportedSchema}
			}
			alts := make([]any, len(arr))
			for j, a := range arr {
				c, err := s.node(a, p+"/"+strconv.Itoa(j), depth)
				if err != nil {
					return nil, err
				}
				alts[j] = c
			}
			// oneOf is not in strict mode's subset; anyOf is, and Execute
			// still enforces "exactly one" for typed tools.
			out.Keys, out.Vals = append(out.Keys, "anyOf"), append(out.Vals, alts)
		case k == "properties":
			props, ok = val.(*jsonx.Object)
			if !ok {
				return nil, &SchemaError{Path: p, Msg: "properties is not an object", Err: ErrUnsupportedSchema}
			}
		case k == "required":
			arr, _ := val.([]any)
			for _, r := range arr {
				if name, ok := r.(string); ok {
					required[name] = true
				}
			}
		case k == "additionalProperties":
			switch val {
			case false:
			case true:
				return nil, notStrict(p, "additionalProperties:true (an open object) cannot be made strict")
			default:
				return nil, notStrict(p, "a free-form map (additionalProperties is a schema) cannot be made strict")
			}
		case k == "$defs" || k == "definitions":
			d, ok := val.(*jsonx.Object)
			if !ok {
				return nil, &SchemaError{Path: p, Msg: k + " is not an object", Err: ErrUnsupportedSchema}
			}
			defsKey, defs = k, &jsonx.Object{}
			for j, name := range d.Keys {
				s.strLen += len(name)
				c, err := s.node(d.Vals[j], p+"/"+pointerToken(name), 0)
				if err != nil {
					return nil, err
				}
				defs.Keys, defs.Vals = append(defs.Keys, name), append(defs.Vals, c)
			}
		default:
			// Annotations and constraints strict mode does not take
			// (default, examples, uniqueItems, minProperties, $comment, …)
			// are dropped from the copy; Execute still enforces them.
		}
	}
	if isObject {
		np := &jsonx.Object{}
		names := []string{}
		if props != nil {
			for j, name := range props.Keys {
				s.props++
				s.strLen += len(name)
				pp := path + "/properties/" + pointerToken(name)
				c, err := s.node(props.Vals[j], pp, depth)
				if err != nil {
					return nil, err
				}
				if !required[name] {
					c = nullable(c)
				}
				np.Keys, np.Vals = append(np.Keys, name), append(np.Vals, c)
				names = append(names, name)
			}
		}
		if len(types) == 0 {
			out.Keys = append([]string{"type"}, out.Keys...)
			out.Vals = append([]any{"object"}, out.Vals...)
		}
		out.Keys = append(out.Keys, "properties", "required", "additionalProperties")
		out.Vals = append(out.Vals, np, names, false)
	}
	if defs != nil {
		out.Keys, out.Vals = append(out.Keys, defsKey), append(out.Vals, defs)
	}
	return out, nil
}

func (s *strictor) countEnum(val any, path string) error {
	arr, ok := val.([]any)
	if !ok {
		return &SchemaError{Path: path, Msg: "enum is not an array", Err: ErrUnsupportedSchema}
	}
	s.enums += len(arr)
	total := 0
	for _, e := range arr {
		if str, ok := e.(string); ok {
			total += len(str)
		}
	}
	s.strLen += total
	if len(arr) > StrictLargeEnum && total > StrictLargeEnumLength {
		return overLimit(path, fmt.Sprintf("an enum of %d values totalling %d characters; strict mode allows at most %d characters when an enum has more than %d values",
			len(arr), total, StrictLargeEnumLength, StrictLargeEnum))
	}
	return nil
}

func indexOf(o *jsonx.Object, key string) int {
	for i, k := range o.Keys {
		if k == key {
			return i
		}
	}
	return -1
}

// nullable makes the rewritten property schema o also accept null, the way
// strict mode expresses an optional property: "type":"T" becomes
// ["T","null"], null joins an enum, a const becomes a two-value enum, an
// anyOf gains {"type":"null"}, and a $ref is wrapped in an anyOf.
func nullable(o *jsonx.Object) *jsonx.Object {
	if _, ok := o.Get("$ref"); ok {
		return &jsonx.Object{Keys: []string{"anyOf"}, Vals: []any{[]any{o, nullSchema()}}}
	}
	if a, ok := o.Get("anyOf"); ok {
		arr := a.([]any)
		for _, e := range arr {
			if eo, ok := e.(*jsonx.Object); ok && len(eo.Keys) == 1 && hasType(eo, "null") {
				return o
			}
		}
		o.Set("anyOf", append(arr[:len(arr):len(arr)], nullSchema()))
		return o
	}
	if i := indexOf(o, "type"); i >= 0 {
		switch t := o.Vals[i].(type) {
		case string:
			if t != "null" {
				o.Vals[i] = []any{t, "null"}
			}
		case []any:
			if !containsValue(t, "null") {
				o.Vals[i] = append(t[:len(t):len(t)], "null")
			}
		}
	}
	if i := indexOf(o, "enum"); i >= 0 {
		if arr, ok := o.Vals[i].([]any); ok && !containsValue(arr, nil) {
			o.Vals[i] = append(arr[:len(arr):len(arr)], nil)
		}
	}
	if i := indexOf(o, "const"); i >= 0 {
		o.Keys[i], o.Vals[i] = "enum", []any{o.Vals[i], nil}
	}
	return o
}

func nullSchema() *jsonx.Object {
	return &jsonx.Object{Keys: []string{"type"}, Vals: []any{"null"}}
}

func containsValue(arr []any, v any) bool {
	for _, e := range arr {
		if e == v {
			return true
		}
	}
	return false
}
