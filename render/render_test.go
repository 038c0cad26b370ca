package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render/rendertest"
)

// TestRegistryBytesUntouched renders a Registry's tools with every renderer
// and option set and checks that the schema bytes the Registry holds are
// exactly what they were before.
func TestRegistryBytesUntouched(t *testing.T) {
	reg := toolnexus.NewRegistry()
	if err := reg.Add(rendertest.Tools()...); err != nil {
		t.Fatal(err)
	}
	before := map[string][]byte{}
	for _, tl := range reg.Tools() {
		before[tl.Name] = bytes.Clone(tl.InputSchema)
	}
	tools := reg.Tools()
	for _, p := range providers {
		for range 2 { // the second round is served from the rewrite caches
			out, err := p.render(tools)
			if err != nil {
				t.Fatalf("%s: %v", p.dir, err)
			}
			for i := range out { // scribble: the output must not alias the registry
				out[i] = 0
			}
		}
	}
	if _, err := OpenAIWith(tools, OpenAIOptions{Strict: true, Fallback: true}); err != nil {
		t.Fatal(err)
	}
	for _, tl := range reg.Tools() {
		if !bytes.Equal(tl.InputSchema, before[tl.Name]) {
			t.Errorf("%s: registry schema changed:\nbefore %s\nafter  %s", tl.Name, before[tl.Name], tl.InputSchema)
		}
	}
	if len(before) != len(rendertest.Cases()) {
		t.Fatalf("%d tools in the registry", len(before))
	}
}

func TestEmptyLists(t *testing.T) {
	for _, c := range []struct {
		name string
		got  any
		want string
	}{
		{"OpenAI", OpenAI(nil), `[]`},
		{"OpenAIResponses", OpenAIResponses(nil), `[]`},
		{"Anthropic", must(Anthropic(nil)), `[]`},
		{"MCP", MCP(nil), `[]`},
		{"Gemini", must(Gemini(nil)), `[{"functionDeclarations":[]}]`},
		{"GeminiJSONSchema", must(GeminiWith(nil, GeminiOptions{JSONSchema: true})), `[{"functionDeclarations":[]}]`},
	} {
		b, err := json.Marshal(c.got)
		if err != nil || string(b) != c.want {
			t.Errorf("%s(nil) = %s, %v; want %s", c.name, b, err, c.want)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestAppendJSONMatchesMarshal checks that the direct bytes path and
// json.Marshal agree (encoding/json re-compacts MarshalJSON output, so this
// also proves the output is compact, valid JSON), and that AppendJSON
// appends to what is already in dst.
func TestAppendJSONMatchesMarshal(t *testing.T) {
	tools := rendertest.Tools()
	type appender interface {
		json.Marshaler
		AppendJSON([]byte) []byte
	}
	strict := must(OpenAIStrict(tools[:5]))
	rstrict := must(OpenAIResponsesWith(tools, OpenAIOptions{Strict: true, Fallback: true}))
	for name, v := range map[string]appender{
		"OpenAI": OpenAI(tools), "OpenAIStrict": strict, "OpenAIResponses": OpenAIResponses(tools),
		"OpenAIResponsesStrict": rstrict, "Anthropic": must(Anthropic(tools)), "Gemini": must(Gemini(tools)),
		"MCP": MCP(tools),
	} {
		m, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		a := v.AppendJSON([]byte("prefix"))
		if string(a) != "prefix"+string(m) {
			t.Errorf("%s: AppendJSON and json.Marshal differ:\n%s\n%s", name, a, m)
		}
	}
}

func TestMCPAnnotationsMatchEncodingJSON(t *testing.T) {
	yes, no := true, false
	for _, a := range []*toolnexus.Annotations{
		{}, {Title: "T <x>"}, {ReadOnlyHint: true}, {DestructiveHint: &no}, {DestructiveHint: &yes, IdempotentHint: true},
		{Title: "all", ReadOnlyHint: true, DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &yes},
	} {
		want, _ := json.Marshal(a)
		if got := appendAnnotations(nil, a); string(got) != string(want) {
			t.Errorf("annotations %+v: got %s, want %s", a, got, want)
		}
	}
}

func TestAnthropicRootRules(t *testing.T) {
	for _, c := range []struct {
		schema, msg string
	}{
		{`{"type":"object","anyOf":[{"required":["a"]},{"required":["b"]}]}`, `/anyOf: Anthropic does not support anyOf at the top level`},
		{`{"oneOf":[{"type":"object"}],"type":"object"}`, `/oneOf: Anthropic does not support oneOf`},
		{` { "allOf" : [ ] , "type" : "object" } `, `/allOf: Anthropic does not support allOf`},
		{`{"type":"string"}`, `/type: input_schema must have "type":"object"`},
		{`{"properties":{"type":"object"}}`, `/type: input_schema must have "type":"object"`},
		{`[1]`, `schema root: the schema is not a JSON object`},
		{`{"type":"object"`, `schema root: the schema is not valid JSON`},
	} {
		_, err := Anthropic([]toolnexus.Tool{{Name: "ok"}, {Name: "bad", InputSchema: json.RawMessage(c.schema)}})
		if !errors.Is(err, ErrUnsupportedSchema) || !strings.Contains(err.Error(), `render.Anthropic: tool "bad": `+c.msg) {
			t.Errorf("%s: err = %v, want %q", c.schema, err, c.msg)
		}
	}
	// Nested composition and keys that merely contain the words are fine.
	ok := `{"type":"object","properties":{"anyOf":{"type":"string"},"x":{"anyOf":[{"type":"string"}]}},"description":"\"anyOf\":"}`
	if _, err := Anthropic([]toolnexus.Tool{{Name: "t", InputSchema: json.RawMessage(ok)}}); err != nil {
		t.Errorf("nested anyOf rejected: %v", err)
	}
}

func geminiParams(t *testing.T, schema string, opts GeminiOptions) string {
	t.Helper()
	out, err := GeminiWith([]toolnexus.Tool{{Name: "t", InputSchema: json.RawMessage(schema)}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return string(out[0].FunctionDeclarations[0].Parameters)
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
			`{"type":"OBJECT","properties":{"p":{"type":"OBJECT","description":"outer","properties":{"x":{"type":"STRING"}}}},"required":["p"]}`, GeminiOptions{}},
		{"recursion depth 1", `{"type":"object","properties":{"n":{"$ref":"#/$defs/N"}},"$defs":{"N":{"type":"object","description":"A node","properties":{"next":{"$ref":"#/$defs/N"}}}}}`,
			`{"type":"OBJECT","properties":{"n":{"type":"OBJECT","description":"A node","properties":{"next":{"type":"OBJECT","description":"A node"}}}}}`, GeminiOptions{RecursionDepth: 1}},
		{"self reference #", `{"type":"object","properties":{"sub":{"$ref":"#"},"v":{"type":"string"}}}`,
			`{"type":"OBJECT","properties":{"sub":{"type":"OBJECT","properties":{"sub":{"type":"OBJECT"},"v":{"type":"STRING"}}},"v":{"type":"STRING"}}}`, GeminiOptions{RecursionDepth: 1}},
		{"array without items", `{"type":"object","properties":{"a":{"type":"array","maxItems":3}}}`,
			`{"type":"OBJECT","properties":{"a":{"type":"ARRAY","maxItems":3,"items":{"type":"STRING","description":"Any JSON value."}}}}`, GeminiOptions{}},
		{"map and empty object", `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"integer"},"properties":{}}},"required":["m"]}`,
			`{"type":"OBJECT","properties":{"m":{"type":"OBJECT"}},"required":["m"]}`, GeminiOptions{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := geminiParams(t, c.in, c.opts); got != c.want {
				t.Errorf("\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestGeminiPropertyOrdering(t *testing.T) {
	in := `{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"object","properties":{"y":{"type":"integer"},"b":{"type":"integer"}}},"one":{"type":"object","properties":{"x":{"type":"string"}}}},"required":["z"]}`
	want := `{"type":"OBJECT","properties":{"z":{"type":"STRING"},"a":{"type":"OBJECT","properties":{"y":{"type":"INTEGER"},"b":{"type":"INTEGER"}},"propertyOrdering":["y","b"]},"one":{"type":"OBJECT","properties":{"x":{"type":"STRING"}}}},"propertyOrdering":["z","a","one"],"required":["z"]}`
	if got := geminiParams(t, in, GeminiOptions{PropertyOrdering: true}); got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	if got := geminiParams(t, in, GeminiOptions{}); strings.Contains(got, "propertyOrdering") {
		t.Errorf("propertyOrdering without the option: %s", got)
	}
}

func TestGeminiNoParameters(t *testing.T) {
	for _, s := range []string{``, `{"type":"object"}`, `{"type":"object","properties":{}}`, `{"type":"object","additionalProperties":{"type":"string"}}`} {
		out, err := Gemini([]toolnexus.Tool{{Name: "t", InputSchema: json.RawMessage(s)}})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(out)
		if want := `[{"functionDeclarations":[{"name":"t","description":""}]}]`; string(b) != want {
			t.Errorf("%q: %s, want %s", s, b, want)
		}
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
		if !errors.Is(err, ErrUnsupportedSchema) || !strings.Contains(err.Error(), `render.Gemini: tool "g": `) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: err = %v, want %q", c.schema, err, c.msg)
		}
	}
}

func TestGeminiNames(t *testing.T) {
	for _, name := range []string{"1tool", "-x"} {
		_, err := Gemini([]toolnexus.Tool{{Name: name}})
		if !errors.Is(err, ErrUnsupportedName) || !strings.Contains(err.Error(), `render.Gemini: tool "`+name+`": Gemini function names must start with a letter or an underscore`) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	if _, err := Gemini([]toolnexus.Tool{{Name: "_ok-1"}, {Name: "ok"}}); err != nil {
		t.Errorf("valid names rejected: %v", err)
	}
}

// TestRewriteCacheIsByContent shows that the rewrite cache cannot serve a
// stale answer: the same buffer with new contents renders the new schema.
func TestRewriteCacheIsByContent(t *testing.T) {
	buf := []byte(`{"type":"object","properties":{"a":{"type":"string"}}}`)
	tools := []toolnexus.Tool{{Name: "t", InputSchema: buf}}
	first := must(OpenAIStrict(tools))
	if !strings.Contains(string(first[0].Function.Parameters), `"a"`) {
		t.Fatal(string(first[0].Function.Parameters))
	}
	copy(buf, `{"type":"object","properties":{"b":{"type":"string"}}}`)
	second := must(OpenAIStrict(tools))
	if !strings.Contains(string(second[0].Function.Parameters), `"b"`) {
		t.Fatalf("stale cache entry: %s", second[0].Function.Parameters)
	}
}

// TestEntryMarshalJSON checks that each entry marshals to exactly its bytes
// inside the list, the form SDK raw-JSON routes take.
func TestEntryMarshalJSON(t *testing.T) {
	tools := rendertest.Tools()
	var parts []string
	join := func(open, close string) string { return open + strings.Join(parts, ",") + close }
	check := func(name string, list json.Marshaler, want string) {
		t.Helper()
		b, err := json.Marshal(list)
		if err != nil || string(b) != want {
			t.Errorf("%s: entries joined differ from the list:\n%s\n%s", name, want, b)
		}
		parts = parts[:0]
	}
	entry := func(v json.Marshaler) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, string(b))
	}
	oa := OpenAI(tools)
	for _, e := range oa {
		entry(e)
	}
	check("OpenAI", oa, join("[", "]"))
	rs := must(OpenAIResponsesWith(tools, strictFallback))
	for _, e := range rs {
		entry(e)
	}
	check("OpenAIResponses", rs, join("[", "]"))
	an := must(Anthropic(tools))
	for _, e := range an {
		entry(e)
	}
	check("Anthropic", an, join("[", "]"))
	mc := MCP(tools)
	for _, e := range mc {
		entry(e)
	}
	check("MCP", mc, join("[", "]"))
	ge := must(Gemini(tools))
	for _, e := range ge[0].FunctionDeclarations {
		entry(e)
	}
	check("Gemini", ge, join(`[{"functionDeclarations":[`, `]}]`))
	b, _ := json.Marshal(ge[0])
	if want, _ := json.Marshal(ge); "["+string(b)+"]" != string(want) {
		t.Errorf("GeminiTool.MarshalJSON: %s", b)
	}
}
