package render

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
	jschema "github.com/toolnexus/toolnexus/schema"
)

// prop renders {"type":"object","properties":{"a":<schema>}} and returns
// the rewritten "a".
func prop(t *testing.T, schema string, opts GeminiOptions) string {
	t.Helper()
	out := geminiParams(t, `{"type":"object","properties":{"a":`+schema+`}}`, opts)
	var p struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &p), "%s", out)
	return string(p.Properties["a"])
}

func TestGeminiHints(t *testing.T) {
	long := strings.Repeat("x", 70)
	for _, c := range []struct{ name, in, want string }{
		{"exclusiveMinimum", `{"type":"integer","exclusiveMinimum":0}`, `{"type":"INTEGER","description":"Must be greater than 0."}`},
		{"exclusiveMaximum", `{"type":"number","exclusiveMaximum":1}`, `{"type":"NUMBER","description":"Must be less than 1."}`},
		{"multipleOf", `{"type":"number","multipleOf":0.5}`, `{"type":"NUMBER","description":"Must be a multiple of 0.5."}`},
		{"uniqueItems", `{"type":"array","items":{"type":"string"},"uniqueItems":true}`, `{"type":"ARRAY","items":{"type":"STRING"},"description":"Items must be unique."}`},
		{"uniqueItems false", `{"type":"array","items":{"type":"string"},"uniqueItems":false}`, `{"type":"ARRAY","items":{"type":"STRING"}}`},
		{"format email", `{"type":"string","format":"email"}`, `{"type":"STRING","description":"Format: email."}`},
		{"format uuid", `{"type":"string","format":"uuid"}`, `{"type":"STRING","description":"Format: uuid."}`},
		{"format kept", `{"type":"string","format":"date-time"}`, `{"type":"STRING","format":"date-time"}`},
		{"format unchecked", `{"type":"string","format":"int64"}`, `{"type":"STRING"}`},
		{"base64", `{"type":"string","contentEncoding":"base64","description":"Blob"}`, `{"type":"STRING","description":"Blob. Base64-encoded."}`},
		{"base64 after format", `{"contentEncoding":"base64","type":"string","format":"email"}`, `{"type":"STRING","description":"Format: email. Base64-encoded."}`},
		{"other encodings carry no rule", `{"type":"string","contentEncoding":"7bit","contentMediaType":"text/plain"}`, `{"type":"STRING"}`},
		{"map values", `{"type":"object","additionalProperties":{"type":"integer","description":"n"}}`, `{"type":"OBJECT","description":"Each value must be of type integer."}`},
		{"other properties", `{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":{"type":"boolean"}}`,
			`{"type":"OBJECT","properties":{"x":{"type":"STRING"}},"description":"Any other property must be of type boolean."}`},
		{"additionalProperties false", `{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":false}`, `{"type":"OBJECT","properties":{"x":{"type":"STRING"}}}`},
		{"additionalProperties true", `{"type":"object","additionalProperties":true}`, `{"type":"OBJECT"}`},
		{"dependentRequired", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"}},"dependentRequired":{"a":["b","c"],"b":["c"],"c":[]}}`,
			`{"type":"OBJECT","properties":{"a":{"type":"STRING"},"b":{"type":"STRING"},"c":{"type":"STRING"}},"description":"If a is given, b and c must be given too. If b is given, c must be given too."}`},
		{"required keys not properties", `{"type":"object","additionalProperties":{"type":"string"},"required":["k","j","k"],"description":"Labels"}`,
			`{"type":"OBJECT","description":"Labels. Each value must be of type string. Must include the keys k and j."}`},
		{"required key beside properties", `{"type":"object","properties":{"x":{"type":"string"}},"required":["x","y"]}`,
			`{"type":"OBJECT","properties":{"x":{"type":"STRING"}},"required":["x"],"description":"Must include the key y."}`},
		{"annotations carry no rule", `{"type":"string","$comment":"c","examples":["x"],"deprecated":true,"readOnly":true,"title":"T"}`, `{"type":"STRING","title":"T"}`},
		{"after the description", `{"type":"integer","description":"Count","exclusiveMinimum":0}`, `{"type":"INTEGER","description":"Count. Must be greater than 0."}`},
		{"fixed order, not key order", `{"multipleOf":2,"exclusiveMaximum":10,"exclusiveMinimum":0,"type":"integer","description":"N."}`,
			`{"type":"INTEGER","description":"N. Must be greater than 0. Must be less than 10. Must be a multiple of 2."}`},
		{"after the enum note", `{"type":"integer","enum":[2,4],"multipleOf":2}`, `{"type":"INTEGER","description":"Allowed values: 2, 4. Must be a multiple of 2."}`},
		{"any value", `{"exclusiveMinimum":0}`, `{"type":"STRING","description":"Any JSON value. Must be greater than 0."}`},
		{"value cut", `{"type":"object","properties":{"b":{"type":"string"}},"dependentRequired":{"b":["` + long + `"]}}`,
			`{"type":"OBJECT","properties":{"b":{"type":"STRING"}},"description":"If b is given, ` + long[:63] + `… must be given too."}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := prop(t, c.in, GeminiOptions{})
			assert.Equal(t, c.want, got, "\n got %s\nwant %s", got, c.want)
		})
	}
}

// TestGeminiHintsThroughRef: a description beside a $ref replaces the
// target's own description but keeps the sentences the rewrite added.
func TestGeminiHintsThroughRef(t *testing.T) {
	defs := `"$defs":{"Score":{"type":"number","description":"A score.","exclusiveMinimum":0},"Level":{"type":"integer","enum":[1,2]},"Any":{"description":"x"}}`
	for _, c := range []struct{ in, want string }{
		{`{"$ref":"#/$defs/Score","description":"Quality"}`, `{"type":"NUMBER","description":"Quality. Must be greater than 0."}`},
		{`{"$ref":"#/$defs/Score"}`, `{"type":"NUMBER","description":"A score. Must be greater than 0."}`},
		{`{"$ref":"#/$defs/Level","description":"Log level."}`, `{"type":"INTEGER","description":"Log level. Allowed values: 1, 2."}`},
		{`{"$ref":"#/$defs/Any","description":"Payload"}`, `{"type":"STRING","description":"Payload. Any JSON value."}`},
		{`{"$ref":"#/$defs/Score","description":""}`, `{"type":"NUMBER","description":"Must be greater than 0."}`},
	} {
		got := geminiParams(t, `{"type":"object","properties":{"a":`+c.in+`},`+defs+`}`, GeminiOptions{})
		want := `{"type":"OBJECT","properties":{"a":` + c.want + `}}`
		assert.Equal(t, want, got, "%s:\n got %s\nwant %s", c.in, got, want)
	}
}

func TestGeminiHintSentenceCut(t *testing.T) {
	var names []string
	props := []string{`"a":{"type":"string"}`}
	for i := range 20 {
		n := "name" + strings.Repeat("_", 10) + string(rune('a'+i))
		names = append(names, `"`+n+`"`)
		props = append(props, `"`+n+`":{"type":"string"}`)
	}
	got := prop(t, `{"type":"object","properties":{`+strings.Join(props, ",")+`},"dependentRequired":{"a":[`+strings.Join(names, ",")+`]}}`, GeminiOptions{})
	var o struct{ Description string }
	require.NoError(t, json.Unmarshal([]byte(got), &o))
	n := len([]rune(o.Description))
	assert.Equal(t, hintMax, n, "description of %d runes: %q", n, o.Description)
	assert.True(t, strings.HasSuffix(o.Description, "…."), "description of %d runes: %q", n, o.Description)
	assert.True(t, strings.HasPrefix(o.Description, "If a is given, name__________a, "), "description of %d runes: %q", n, o.Description)
}

func TestCutHint(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 3, "abc"}, {"abcd", 3, "ab…"}, {"äöüß", 3, "äö…"}, {"", 1, ""},
	} {
		got := cutHint(c.in, c.n)
		assert.Equal(t, c.want, got, "cutHint(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
	}
}

// TestGeminiHintFormatsEnforced pins geminiFormats to the formats Execute
// checks: each compiles under the engine's strict format assertion, and a
// format without a hint does not.
func TestGeminiHintFormatsEnforced(t *testing.T) {
	opts := &jschema.Options{AssertFormat: true, Strict: true}
	for f := range assertedFormats {
		_, err := jschema.Compile([]byte(`{"type":"string","format":"`+f+`"}`), opts)
		assert.NoError(t, err, "format %q has a hint but Execute does not check it", f)
	}
	_, err := jschema.Compile([]byte(`{"type":"string","format":"int64"}`), opts)
	assert.Error(t, err, `format "int64" is checked by Execute but gets no hint`)
}

// TestGeminiHintTypedTool: the newcomer's case — validate:"gt=0" is
// enforced by Execute and now shown to a Gemini model.
func TestGeminiHintTypedTool(t *testing.T) {
	type args struct {
		N    int      `json:"n" validate:"gt=0"`
		Tags []string `json:"tags,omitempty" validate:"omitempty,unique"`
		Mail string   `json:"mail,omitempty" validate:"omitempty,email"`
	}
	tool, err := toolnexus.NewTool("count", "Count", func(context.Context, args) (string, error) { return "ok", nil })
	require.NoError(t, err)
	got := geminiParams(t, string(tool.InputSchema), GeminiOptions{})
	for _, want := range []string{
		`"n":{"type":"INTEGER","description":"Must be greater than 0."}`,
		`"description":"Items must be unique."`,
		`"mail":{"type":"STRING","description":"Format: email."}`,
	} {
		assert.Contains(t, got, want, "missing %s in\n%s", want, got)
	}
	reg := toolnexus.NewRegistry()
	require.NoError(t, reg.Add(tool))
	for _, a := range []string{`{"n":0}`, `{"n":1,"tags":["x","x"]}`, `{"n":1,"mail":"nope"}`} {
		r := reg.Execute(context.Background(), "count", json.RawMessage(a))
		assert.True(t, r.IsError, "Execute(%s) accepted what the hint forbids: %s", a, r.Output)
	}
	r := reg.Execute(context.Background(), "count", json.RawMessage(`{"n":1,"tags":["x"],"mail":"a@b.c"}`))
	assert.False(t, r.IsError, "Execute refused valid arguments: %s", r.Output)
}

func TestGeminiRefuseHidden(t *testing.T) {
	for _, c := range []struct{ schema, path, msg string }{
		{`{"allOf":[{"type":"string"}]}`, "/properties/a/allOf", `"allOf" is enforced by Execute`},
		{`{"type":"string","not":{"const":"x"}}`, "/properties/a/not", `"not" is enforced`},
		{`{"then":{"type":"string"},"if":{"type":"string"}}`, "/properties/a/then", `"then" is enforced`},
		{`{"type":"array","contains":{"type":"string"}}`, "/properties/a/contains", `"contains"`},
		{`{"type":"array","prefixItems":[{"type":"string"}]}`, "/properties/a/prefixItems", `"prefixItems"`},
		{`{"type":"object","patternProperties":{"^x":{"type":"string"}}}`, "/properties/a/patternProperties", `"patternProperties"`},
		{`{"type":"object","propertyNames":{"maxLength":3}}`, "/properties/a/propertyNames", `"propertyNames"`},
		{`{"type":"object","dependentSchemas":{"x":{"required":["y"]}}}`, "/properties/a/dependentSchemas", `"dependentSchemas"`},
		{`{"type":"object","unevaluatedProperties":false}`, "/properties/a/unevaluatedProperties", `"unevaluatedProperties"`},
		{`{"type":"object","additionalProperties":{"type":"string","maxLength":3}}`, "/properties/a/additionalProperties", `can only show its type`},
		{`{"type":"object","additionalProperties":{"anyOf":[{"type":"string"}]}}`, "/properties/a/additionalProperties", `can only show its type`},
		{`{"oneOf":[{"type":"integer"},{"type":"number"}]}`, "/properties/a/oneOf", `exactly one must match`},
		{`{"oneOf":[{"type":"object","properties":{"x":{"type":"string"}}},{"type":"object","properties":{"y":{"type":"string"}}}]}`, "/properties/a/oneOf", `exactly one`},
		{`{"$ref":"#"}`, "/properties/a/properties/a/properties/a/properties/a/$ref", `the recursive $ref "#" is cut after 3 levels`},
	} {
		in := `{"type":"object","properties":{"a":` + c.schema + `}}`
		_, err := GeminiWith(oneTool("g", in), GeminiOptions{RefuseHidden: true})
		var se *SchemaError
		if !assert.False(t, !errors.As(err, &se) || !errors.Is(err, ErrHiddenRule) || se.Tool != "g" || se.Renderer != "render.Gemini" || se.Path != c.path || !strings.Contains(se.Msg, c.msg), "%s:\n err = %v\nwant %s: …%s…", c.schema, err, c.path, c.msg) {
			continue
		}
		// Without the option the same schema renders (cached separately).
		_, err = Gemini(oneTool("g", in))
		assert.NoError(t, err, "%s without RefuseHidden", c.schema)
	}
	// Hinted, kept or rule-free keywords pass and render as without it.
	for _, s := range []string{
		`{"type":"integer","exclusiveMinimum":0,"multipleOf":2}`,
		`{"type":"string","format":"email","pattern":"^a","$comment":"c"}`,
		`{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":false,"dependentRequired":{"x":[]}}`,
		`{"type":"object","additionalProperties":{"type":"string","description":"v"}}`,
		`{"oneOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]}`,
		`{"type":"array","items":{"type":"string"},"minContains":1,"else":{}}`,
	} {
		in := `{"type":"object","properties":{"a":` + s + `}}`
		got, want := geminiParams(t, in, GeminiOptions{RefuseHidden: true}), geminiParams(t, in, GeminiOptions{})
		assert.Equal(t, want, got, "%s: RefuseHidden changed the output:\n got %s\nwant %s", s, got, want)
	}
	// A root without properties gets no "parameters": its rules are refused,
	// a bare object is not.
	for _, c := range []struct {
		schema  string
		refused bool
	}{
		{`{"type":"object","additionalProperties":{"type":"integer"}}`, true},
		{`{"type":"object","required":["k"]}`, true},
		{`{"type":"object","minProperties":1}`, true},
		{`{"type":"object","description":"d","title":"T","additionalProperties":false}`, false},
		{`{"type":"object","properties":{}}`, false},
	} {
		out, err := GeminiWith(oneTool("g", c.schema), GeminiOptions{RefuseHidden: true})
		var se *SchemaError
		assert.False(t, c.refused != (errors.As(err, &se) && errors.Is(err, ErrHiddenRule) && se.Path == "" && strings.Contains(se.Msg, "the root has no properties")), "%s: err = %v, refused want %v", c.schema, err, c.refused)
		if !c.refused {
			if assert.NoError(t, err, "%s: %v, parameters %s", c.schema, err, out[0].FunctionDeclarations[0].Parameters) {
				assert.False(t, out[0].FunctionDeclarations[0].Parameters != nil, "%s: %v, parameters %s", c.schema, err, out[0].FunctionDeclarations[0].Parameters)
			}
		}
	}
	// JSONSchema sends every keyword: the option has no effect there.
	_, err := GeminiWith(oneTool("g", `{"type":"object","properties":{"a":{"not":{}}}}`), GeminiOptions{JSONSchema: true, RefuseHidden: true})
	assert.NoError(t, err, "JSONSchema with RefuseHidden")
}

// FuzzGeminiRefuseHidden: RefuseHidden only ever refuses — whenever it
// renders, the bytes equal the rendering without it, and an error other
// than ErrHiddenRule is the same error either way; hinted output stays
// valid UTF-8 JSON inside Gemini's rules.
func FuzzGeminiRefuseHidden(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1e400,"multipleOf":0.5,"description":"d"}}}`)
	f.Add(`{"type":"object","properties":{"a":{"type":"object","additionalProperties":{"type":"string"},"dependentRequired":{"x":["y","z"]}}}}`)
	f.Add(`{"type":"object","properties":{"a":{"oneOf":[{"type":"string","format":"email"},{"type":"integer"}],"allOf":[{}]}}}`)
	f.Add(`{"type":"object","properties":{"a":{"$ref":"#"},"b":{"enum":[1,"\u00e4\u00e4\u00e4\u00e4\u00e4\u00e4\u00e4\u00e4\u00e4\u00e4\u00e4\u00e4\u00e4"],"uniqueItems":true}}}`)
	f.Add(`{"type":"object","properties":{"a":{"if":{},"then":{},"not":{},"contains":{},"prefixItems":[]}}}`)
	f.Add(`{"type":"object","properties":{"a":{"$ref":"#/$defs/S","description":"q"}},"$defs":{"S":{"type":"integer","description":"s","enum":[1],"multipleOf":1}}}`)
	f.Fuzz(func(t *testing.T, s string) {
		in := []byte(s)
		plain, perr := geminiSchema(in, 2, false, false)
		strict, serr := geminiSchema(in, 2, false, true)
		switch {
		case serr == nil:
			require.NoError(t, perr, "RefuseHidden changed the output of %s:\n%s\n%s (%v)", s, strict, plain, perr)
			require.Equal(t, string(plain), string(strict), "RefuseHidden changed the output of %s:\n%s\n%s (%v)", s, strict, plain, perr)
		case errors.Is(serr, ErrHiddenRule):
		default:
			require.Error(t, perr, "%s: error %v with RefuseHidden, %v without", s, serr, perr)
			require.EqualError(t, perr, serr.Error(), "%s: error %v with RefuseHidden, %v without", s, serr, perr)
		}
		if perr == nil && plain != nil {
			tree, err := jsonx.Parse(plain)
			require.NoError(t, err, "output is not UTF-8 JSON: %q", plain)
			require.True(t, utf8.Valid(plain), "output is not UTF-8 JSON: %q", plain)
			errs := checkGeminiNode(tree, "")
			require.Empty(t, errs, "output breaks the rules for %s:\n%s\n%v", s, plain, errs)
		}
	})
}
