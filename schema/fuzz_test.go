package schema

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"
)

// FuzzCompileValidate feeds arbitrary bytes as schema and instance: no
// panic, no hang, and the lexer agrees with encoding/json on what is JSON.
func FuzzCompileValidate(f *testing.F) {
	f.Add([]byte(weather), []byte(`{"city":"Paris","days":3}`))
	f.Add([]byte(bulkSchema), bulkInstance())
	f.Add([]byte(`{"$defs":{"a":{"items":{"$ref":"#/$defs/a"}}},"$ref":"#/$defs/a","uniqueItems":true}`), []byte(`[[],[[]],[]]`))
	f.Add([]byte(`{"enum":[{"a":[1,2.0]},"x\u00e9"],"const":1e400}`), []byte(`{"a":[1e0,2]}`))
	f.Add([]byte(`{"$id":"https://x/r","$dynamicAnchor":"n","properties":{"k":{"$dynamicRef":"#n"}},"$defs":{"t":{"$id":"t","$dynamicAnchor":"n","items":{"$dynamicRef":"#n"},"unevaluatedItems":false}}}`), []byte(`{"k":{"k":[]}}`))
	f.Add([]byte(`{"patternProperties":{"^a":{"minLength":2}},"propertyNames":{"maxLength":3},"default":1}`), []byte(`{"ab":"\ud83d\ude00","a\n":null}`))
	f.Fuzz(func(t *testing.T, schema, instance []byte) {
		for _, o := range []*Options{nil, {AssertFormat: true, Strict: true, RejectDuplicateKeys: true, NullAsAbsent: true, MaxDepth: 64}} {
			v, err := Compile(schema, o)
			if err != nil {
				_, ok := err.(*SchemaError)
				require.True(t, ok, "Compile error %T", err)
				continue
			}
			verr := v.Validate(instance)
			require.False(t, verr == nil && !json.Valid(instance), "Validate accepts invalid JSON %q", instance)
			if verr != nil {
				ps := verr.(*ValidationError).Problems
				require.NotEmpty(t, ps, "ValidationError without problems")
				for _, p := range ps {
					require.NotEqual(t, "", p.Message, "empty problem %+v", p)
					require.NotEqual(t, "", p.Keyword, "empty problem %+v", p)
				}
				require.False(t, json.Valid(instance) && ps[0].Keyword == "syntax", "syntax problem %q on valid JSON %q", ps[0].Message, instance)
			}
			out, changed, err := v.ApplyDefaults(instance)
			require.False(t, err == nil && changed && !json.Valid(out), "ApplyDefaults made invalid JSON %q", out)
		}
	})
}

// gen builds schemas and instances from fuzz bytes.
type gen struct {
	b []byte
	i int
}

func (g *gen) n(k int) int {
	if g.i >= len(g.b) || k <= 1 {
		return 0
	}
	v := int(g.b[g.i]) % k
	g.i++
	return v
}

var (
	genStrings = []string{"", "a", "ab", "abc", "é", "A1", "b", "10", "a<b", "😀", "&&"} // json.Marshal escapes <, &
	genNumbers = []any{json.Number("0"), json.Number("1"), json.Number("2"), json.Number("1.5"), json.Number("2.0"), json.Number("-3"), json.Number("10"), json.Number("1e2"), json.Number("0.1"),
		json.Number("12345678901234567890.5"), json.Number("1e400"), json.Number("-0.0")}
	genKeys     = []string{"a", "b", "c", "A", "a<"}
	genPatterns = []string{"^a", "b$", "^[a-c]+$", "\\d", "^.{2}$"}
)

func (g *gen) value(depth int) any {
	k := g.n(8)
	if depth > 2 && k >= 5 {
		k = 0
	}
	switch k {
	case 0:
		return nil
	case 1:
		return g.n(2) == 1
	case 2, 3:
		return genNumbers[g.n(len(genNumbers))]
	case 4:
		return genStrings[g.n(len(genStrings))]
	case 5, 6:
		a := []any{}
		for range g.n(4) {
			a = append(a, g.value(depth+1))
		}
		return a
	}
	m := map[string]any{}
	for range g.n(4) {
		m[genKeys[g.n(len(genKeys))]] = g.value(depth + 1)
	}
	return m
}

func (g *gen) schemas(depth, max int) []any {
	var a []any
	for range 1 + g.n(max) {
		a = append(a, g.schema(depth+1))
	}
	return a
}

func (g *gen) schema(depth int) any {
	if depth > 3 || g.n(10) == 0 {
		return g.n(4) != 0 // true mostly
	}
	s := map[string]any{}
	for range 1 + g.n(3) {
		num := func() any { return genNumbers[g.n(len(genNumbers))] }
		cnt := func() any { return json.Number([]string{"0", "1", "2", "3"}[g.n(4)]) }
		switch g.n(36) {
		case 0:
			s["type"] = []string{"null", "boolean", "object", "array", "number", "string", "integer"}[g.n(7)]
		case 1:
			s["type"] = []any{"integer", "string", "null"}[:1+g.n(3)]
		case 2:
			s["enum"] = []any{g.value(2), g.value(2), g.value(3)}[:1+g.n(3)]
		case 3:
			s["const"] = g.value(1)
		case 4:
			s["minimum"] = num()
		case 5:
			s["maximum"] = num()
		case 6:
			s["exclusiveMinimum"] = num()
		case 7:
			s["exclusiveMaximum"] = num()
		case 8:
			s["multipleOf"] = []any{json.Number("2"), json.Number("0.5"), json.Number("3"), json.Number("0.1")}[g.n(4)]
		case 9:
			s["minLength"] = cnt()
		case 10:
			s["maxLength"] = cnt()
		case 11:
			s["pattern"] = genPatterns[g.n(len(genPatterns))]
		case 12:
			s["items"] = g.schema(depth + 1)
		case 13:
			s["prefixItems"] = g.schemas(depth, 2)
		case 14:
			s["minItems"] = cnt()
		case 15:
			s["maxItems"] = cnt()
		case 16:
			s["uniqueItems"] = g.n(2) == 1
		case 17:
			s["contains"] = g.schema(depth + 1)
			if g.n(2) == 1 {
				s["minContains"] = cnt()
			}
			if g.n(2) == 1 {
				s["maxContains"] = cnt()
			}
		case 18:
			p := map[string]any{}
			for range 1 + g.n(3) {
				p[genKeys[g.n(len(genKeys))]] = g.schema(depth + 1)
			}
			s["properties"] = p
		case 19:
			s["required"] = []any{"a", "b", "A"}[:1+g.n(3)]
		case 20:
			s["additionalProperties"] = g.schema(depth + 1)
		case 21:
			s["patternProperties"] = map[string]any{genPatterns[g.n(len(genPatterns))]: g.schema(depth + 1)}
		case 22:
			s["propertyNames"] = g.schema(depth + 1)
		case 23:
			s["minProperties"] = cnt()
		case 24:
			s["maxProperties"] = cnt()
		case 25:
			s["dependentRequired"] = map[string]any{genKeys[g.n(4)]: []any{genKeys[g.n(4)]}}
		case 26:
			s["dependentSchemas"] = map[string]any{genKeys[g.n(4)]: g.schema(depth + 1)}
		case 27:
			s["allOf"] = g.schemas(depth, 3)
		case 28:
			s["anyOf"] = g.schemas(depth, 3)
		case 29:
			s["oneOf"] = g.schemas(depth, 3)
		case 30:
			s["not"] = g.schema(depth + 1)
		case 31:
			s["if"] = g.schema(depth + 1)
			s["then"] = g.schema(depth + 1)
			if g.n(2) == 1 {
				s["else"] = g.schema(depth + 1)
			}
		case 32:
			s["$ref"] = "#/$defs/d"
		case 33:
			s["$ref"] = "#"
		case 34:
			s["unevaluatedProperties"] = g.schema(depth + 1)
		case 35:
			s["unevaluatedItems"] = g.schema(depth + 1)
		}
	}
	return s
}

// FuzzDifferential generates a schema from the supported keywords and an
// instance, and checks that github.com/santhosh-tekuri/jsonschema/v6
// gives the same verdict.
func FuzzDifferential(f *testing.F) {
	for _, seed := range []string{"\x12\x00\x05\x01\x02", "\x1b\x02\x04\x00\x03\x07\x05\x02\x01", "\x1c\x03\x00\x01\x02\x04\x05\x06\x07\x08", "\x11\x01\x05\x01\x05\x06", "\x10\x01\x06\x03\x02\x02\x02"} {
		f.Add([]byte(seed), []byte("\x06\x02\x02\x03\x02\x02"))
	}
	f.Fuzz(func(t *testing.T, sb, ib []byte) {
		g := &gen{b: sb}
		root := g.schema(0)
		if m, ok := root.(map[string]any); ok {
			m["$defs"] = map[string]any{"d": g.schema(1)}
		}
		schema, _ := json.Marshal(root)
		instance, _ := json.Marshal((&gen{b: ib}).value(0))

		ours, err := Compile(schema, nil)
		if err != nil && strings.Contains(err.Error(), "loop back") {
			return // both would loop; santhosh reports it at validation
		}
		require.NoError(t, err, "Compile(%s)", schema)
		doc, err := sjs.UnmarshalJSON(bytes.NewReader(schema))
		require.NoError(t, err)
		c := sjs.NewCompiler()
		c.DefaultDraft(sjs.Draft2020)
		require.NoError(t, c.AddResource("mem://s.json", doc))
		theirs, err := c.Compile("mem://s.json")
		if err != nil {
			t.Skipf("santhosh refuses %s: %v", schema, err)
		}
		inst, err := sjs.UnmarshalJSON(bytes.NewReader(instance))
		require.NoError(t, err)
		want := theirs.Validate(inst)
		got := ours.Validate(instance)
		require.Equal(t, (want == nil), (got == nil), "schema %s\ninstance %s\nours: %v\nsanthosh: %v", schema, instance, got, want)
	})
}
