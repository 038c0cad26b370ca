package render

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus"
)

func TestGeminiPropertyOrderingFromInput(t *testing.T) {
	props := `"properties":{"b":{"type":"string"},"a":{"type":"string"}}`
	for _, c := range []struct {
		name, order string
		opt         bool
		want        string // the propertyOrdering member of the output, "" for none
	}{
		{"option replaces bogus names", `["zz"]`, true, `"propertyOrdering":["b","a"]`},
		{"option keeps input order first", `["a","zz","a"]`, true, `"propertyOrdering":["a","b"]`},
		{"option without input", ``, true, `"propertyOrdering":["b","a"]`},
		{"no option drops bogus names", `["zz"]`, false, ``},
		{"no option keeps real names once", `["a","zz","a",3]`, false, `"propertyOrdering":["a"]`},
		{"no option keeps a full list", `["a","b"]`, false, `"propertyOrdering":["a","b"]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := `{"type":"object",` + props
			if c.order != "" {
				in = `{"type":"object","propertyOrdering":` + c.order + `,` + props
			}
			in += `,"required":["a"]}`
			got := geminiParams(t, in, GeminiOptions{PropertyOrdering: c.opt})
			noDuplicateKeys(t, []byte(got))
			want := `{"type":"OBJECT","properties":{"b":{"type":"STRING"},"a":{"type":"STRING"}},` + c.want + `,"required":["a"]}`
			if c.want == "" {
				want = strings.Replace(want, `},,"required"`, `},"required"`, 1)
			}
			assert.Equal(t, want, got, "\n got %s\nwant %s", got, want)
		})
	}
	_, err := Gemini(oneTool("g", `{"type":"object","properties":{"a":{"type":"string"}},"propertyOrdering":"a"}`))
	if assert.ErrorIs(t, err, ErrUnsupportedSchema, "non-array propertyOrdering: %v", err) {
		assert.Contains(t, err.Error(), `/propertyOrdering: propertyOrdering is not an array`, "non-array propertyOrdering: %v", err)
	}
}

func TestGeminiSchemaMessages(t *testing.T) {
	for _, c := range []struct{ schema, msg string }{
		{`{"type":"object","properties":{"a":{"type":"array","items":[{"type":"string"}]}}}`, `/properties/a/items: "items" is an array of schemas`},
		{`{"type":"object","properties":{"a":"x"}}`, `/properties/a: a schema must be an object or a boolean, not the string "x"`},
		{`{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"integer"}}}`, `/properties/a: the key appears more than once`},
		{`{"type":"object","properties":{"a":{"$ref":"#/$defs/a%20b"}},"$defs":{"a%20b":{"type":"string"}}}`, `there is no member "a b"`},
		{"{\"type\":\"object\",\"properties\":{\"\xff\":{\"type\":\"string\"}}}", `the schema is not valid UTF-8`},
		{`{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}`, `/properties/a/$ref: the $ref "#/$defs/A" starts a cycle of references that never reaches a schema`},
	} {
		_, err := Gemini(oneTool("g", c.schema))
		assert.False(t, !errors.Is(err, ErrUnsupportedSchema) || !strings.Contains(err.Error(), `render.Gemini: tool "g": `+c.msg) && !strings.Contains(err.Error(), c.msg), "%s:\n err = %v\nwant %q", c.schema, err, c.msg)
	}
	got := geminiParams(t, `{"type":"object","properties":{"a":{"$ref":"#/$defs/a%20b"},"b":{"$ref":"#/$defs/x~1y"}},"$defs":{"a b":{"type":"string"},"x/y":{"type":"integer"}}}`, GeminiOptions{})
	want := `{"type":"OBJECT","properties":{"a":{"type":"STRING"},"b":{"type":"INTEGER"}}}`
	assert.Equal(t, want, got, "escaped refs:\n got %s\nwant %s", got, want)
}

func TestGeminiRewrites(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
		opts           GeminiOptions
	}{
		{"nullable via anyOf", `{"type":"object","properties":{"a":{"anyOf":[{"type":"integer"},{"type":"null"}]}}}`,
			`{"type":"OBJECT","properties":{"a":{"nullable":true,"anyOf":[{"type":"INTEGER"}]}}}`, GeminiOptions{}},
		{"several types", `{"type":"object","properties":{"a":{"type":["string","integer","null"],"description":"d"}}}`,
			`{"type":"OBJECT","properties":{"a":{"nullable":true,"anyOf":[{"type":"STRING"},{"type":"INTEGER"}],"description":"d"}}}`, GeminiOptions{}},
		{"enum only, null inside", `{"type":"object","properties":{"a":{"enum":["x",null]}}}`,
			`{"type":"OBJECT","properties":{"a":{"type":"STRING","nullable":true,"enum":["x"]}}}`, GeminiOptions{}},
		{"bool enum", `{"type":"object","properties":{"a":{"enum":[true],"description":"Flag."}}}`,
			`{"type":"OBJECT","properties":{"a":{"type":"BOOLEAN","description":"Flag. Allowed values: true."}}}`, GeminiOptions{}},
		{"nullable any", `{"type":"object","properties":{"a":{"type":"null"},"b":{"description":"Payload","nullable":true}}}`,
			`{"type":"OBJECT","properties":{"a":{"type":"NULL"},"b":{"type":"STRING","nullable":true,"description":"Payload. Any JSON value."}}}`, GeminiOptions{}},
		{"root ref and sibling description", `{"type":"object","properties":{"p":{"$ref":"#/$defs/P","description":"outer"}},"required":["p","gone"],"$defs":{"P":{"type":"object","description":"inner","properties":{"x":{"type":"string","format":"uri"}}}}}`,
			`{"type":"OBJECT","properties":{"p":{"type":"OBJECT","description":"outer","properties":{"x":{"type":"STRING","description":"Format: uri."}}}},"required":["p"],"description":"Must include the key gone."}`, GeminiOptions{}},
		{"recursion depth 1", `{"type":"object","properties":{"n":{"$ref":"#/$defs/N"}},"$defs":{"N":{"type":"object","description":"A node","properties":{"next":{"$ref":"#/$defs/N"}}}}}`,
			`{"type":"OBJECT","properties":{"n":{"type":"OBJECT","description":"A node","properties":{"next":{"type":"OBJECT","description":"A node"}}}}}`, GeminiOptions{RecursionDepth: 1}},
		{"self reference #", `{"type":"object","properties":{"sub":{"$ref":"#"},"v":{"type":"string"}}}`,
			`{"type":"OBJECT","properties":{"sub":{"type":"OBJECT","properties":{"sub":{"type":"OBJECT"},"v":{"type":"STRING"}}},"v":{"type":"STRING"}}}`, GeminiOptions{RecursionDepth: 1}},
		{"array without items", `{"type":"object","properties":{"a":{"type":"array","maxItems":3}}}`,
			`{"type":"OBJECT","properties":{"a":{"type":"ARRAY","maxItems":3,"items":{"type":"STRING","description":"Any JSON value."}}}}`, GeminiOptions{}},
		{"map and empty object", `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"integer"},"properties":{}}},"required":["m"]}`,
			`{"type":"OBJECT","properties":{"m":{"type":"OBJECT","description":"Each value must be of type integer."}},"required":["m"]}`, GeminiOptions{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := geminiParams(t, c.in, c.opts)
			assert.Equal(t, c.want, got, "\n got %s\nwant %s", got, c.want)
		})
	}
}

func TestGeminiPropertyOrdering(t *testing.T) {
	in := `{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"object","properties":{"y":{"type":"integer"},"b":{"type":"integer"}}},"one":{"type":"object","properties":{"x":{"type":"string"}}}},"required":["z"]}`
	want := `{"type":"OBJECT","properties":{"z":{"type":"STRING"},"a":{"type":"OBJECT","properties":{"y":{"type":"INTEGER"},"b":{"type":"INTEGER"}},"propertyOrdering":["y","b"]},"one":{"type":"OBJECT","properties":{"x":{"type":"STRING"}}}},"propertyOrdering":["z","a","one"],"required":["z"]}`
	got := geminiParams(t, in, GeminiOptions{PropertyOrdering: true})
	assert.Equal(t, want, got, "\n got %s\nwant %s", got, want)
	got = geminiParams(t, in, GeminiOptions{})
	assert.NotContains(t, got, "propertyOrdering", "propertyOrdering without the option: %s", got)
}

func TestGeminiNoParameters(t *testing.T) {
	for _, s := range []string{``, `{"type":"object"}`, `{"type":"object","properties":{}}`, `{"type":"object","additionalProperties":{"type":"string"}}`} {
		out, err := Gemini([]toolnexus.Tool{{Name: "t", InputSchema: json.RawMessage(s)}})
		require.NoError(t, err)
		b, _ := json.Marshal(out)
		want := `[{"functionDeclarations":[{"name":"t","description":""}]}]`
		assert.Equal(t, want, string(b), "%q: %s, want %s", s, b, want)
	}
}

func TestGeminiErrors(t *testing.T) {
	for _, c := range []struct{ schema, msg string }{
		{`{"type":"object","properties":{"a":{"$ref":"#/$defs/Missing"}}}`, `/properties/a/$ref: the $ref "#/$defs/Missing" does not resolve`},
		{`{"type":"object","properties":{"a":false}}`, `/properties/a: the boolean schema false cannot be expressed`},
		{`{"type":"array"}`, `the root must be`},
		{`nope`, `not valid JSON`},
	} {
		_, err := Gemini([]toolnexus.Tool{{Name: "g", InputSchema: json.RawMessage(c.schema)}})
		if assert.ErrorIs(t, err, ErrUnsupportedSchema, "%s: err = %v, want %q", c.schema, err, c.msg) {
			assert.Contains(t, err.Error(), `render.Gemini: tool "g": `, "%s: err = %v, want %q", c.schema, err, c.msg)
			assert.Contains(t, err.Error(), c.msg, "%s: err = %v, want %q", c.schema, err, c.msg)
		}
	}
}

func TestGeminiNames(t *testing.T) {
	for _, name := range []string{"1tool", "-x"} {
		_, err := Gemini([]toolnexus.Tool{{Name: name}})
		if assert.ErrorIs(t, err, ErrUnsupportedName, "%s: err = %v", name, err) {
			assert.Contains(t, err.Error(), `render.Gemini: tool "`+name+`": gemini tool names must match ^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$`, "%s: err = %v", name, err)
		}
	}
	_, err := Gemini([]toolnexus.Tool{{Name: "_ok-1"}, {Name: "ok"}})
	assert.NoError(t, err, "valid names rejected")
}
