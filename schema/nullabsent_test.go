package schema

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNullAsAbsentExact: an explicit null counts as absent only where every
// subschema that looks at the property agrees it is optional; otherwise the
// null is validated as the value it is, by every subschema.
func TestNullAsAbsentExact(t *testing.T) {
	opts := &Options{NullAsAbsent: true}
	tests := []struct {
		name, schema, in string
		want             string // messages joined with "; "
	}{
		{"optional", `{"properties":{"x":{"type":"string"}}}`, `{"x":null}`, ``},
		{"optional everywhere", `{"properties":{"x":{"type":"string"}},"allOf":[{"properties":{"x":{"minLength":2}}}]}`, `{"x":null}`, ``},
		{"optional, minProperties of its own node", `{"properties":{"x":{"type":"string"}},"minProperties":1}`, `{"x":null}`, `arguments must have at least 1 property`},
		{"required in allOf", `{"properties":{"x":{"type":"string"}},"allOf":[{"required":["x"]}]}`, `{"x":null}`,
			`"x" must be a string, got null`},
		{"required in then", `{"properties":{"x":{"type":"string"},"k":{"type":"string"}},
			"if":{"properties":{"k":{"const":"a"}},"required":["k"]},"then":{"required":["x"]}}`, `{"k":"a","x":null}`,
			`"x" must be a string, got null`},
		{"required through $ref", `{"properties":{"x":{"type":"string"}},"$ref":"#/$defs/r","$defs":{"r":{"required":["x"]}}}`, `{"x":null}`,
			`"x" must be a string, got null`},
		{"dependentRequired in allOf", `{"properties":{"x":{"type":"string"},"y":{}},"allOf":[{"dependentRequired":{"y":["x"]}}]}`, `{"x":null,"y":1}`,
			`"x" must be a string, got null`},
		{"false in its own node", `{"properties":{"x":false}}`, `{"x":null}`, `"x" is not allowed`},
		{"false in allOf", `{"properties":{"x":{"type":"string"}},"allOf":[{"properties":{"x":false}}]}`, `{"x":null}`,
			`"x" must be a string, got null; "x" is not allowed`},
		{"unknown in allOf", `{"properties":{"x":{"type":"string"}},"allOf":[{"properties":{"y":{}},"additionalProperties":false}]}`, `{"x":null}`,
			`"x" must be a string, got null; unknown property "x"; allowed: y`},
		{"patternProperties in allOf", `{"properties":{"x":{"type":"string"}},"allOf":[{"patternProperties":{"^x":{"type":"null"}}}]}`, `{"x":null}`,
			`"x" must be a string, got null`},
		{"propertyNames in allOf", `{"properties":{"x":{"type":"string"}},"allOf":[{"propertyNames":{"maxLength":0}}]}`, `{"x":null}`,
			`"x" must be a string, got null; property name "x" is not allowed by the schema in "propertyNames"`},
		{"maxProperties in anyOf", `{"properties":{"x":{"type":["string","null"]}},"anyOf":[{"maxProperties":0}]}`, `{"x":null}`,
			`arguments must match at least one of 1 alternative (anyOf), matches none: alternative 1: arguments must have at most 0 properties`},
		{"not required", `{"properties":{"x":{"type":"string"}},"not":{"required":["x"]}}`, `{"x":null}`,
			`"x" must be a string, got null; arguments must not match the schema in "not", {"required":["x"]}`},
		{"dependentSchemas key, unevaluatedProperties", `{"properties":{"x":{"type":"string"}},"dependentSchemas":{"x":{"properties":{"y":{}}}},
			"unevaluatedProperties":false}`, `{"x":null,"y":1}`, `unknown property "y" (unevaluatedProperties)`},
		{"nested object", `{"properties":{"o":{"properties":{"x":{"type":"string"}},"allOf":[{"required":["x"]}]}}}`, `{"o":{"x":null}}`,
			`"o.x" must be a string, got null`},
	}
	for _, tc := range tests {
		v := mustCompile(t, tc.schema, opts)
		var msgs []string
		for _, p := range problems(t, v, tc.in) {
			msgs = append(msgs, p.Message)
		}
		got := strings.Join(msgs, "; ")
		assert.Equal(t, tc.want, got, "%s: Validate(%s)\n got %q\nwant %q", tc.name, tc.in, got, tc.want)
	}
}

// TestNullAsAbsentDefaults: ApplyDefaults replaces a null exactly where
// Validate counts it as absent.
func TestNullAsAbsentDefaults(t *testing.T) {
	opts := &Options{NullAsAbsent: true}
	tests := []struct{ schema, in, want string }{
		{`{"properties":{"x":{"type":"string","default":"d"}}}`, `{"x":null}`, `{"x":"d"}`},
		{`{"properties":{"x":{"type":"string","default":"d"}},"allOf":[{"required":["x"]}]}`, `{"x":null}`, `{"x":null}`},
	}
	for _, tc := range tests {
		out, _, err := mustCompile(t, tc.schema, opts).ApplyDefaults([]byte(tc.in))
		if assert.NoError(t, err, "%s: ApplyDefaults(%s) = %s, %v; want %s", tc.schema, tc.in, out, err, tc.want) {
			assert.Equal(t, tc.want, string(out), "%s: ApplyDefaults(%s) = %s, %v; want %s", tc.schema, tc.in, out, err, tc.want)
		}
	}
}
