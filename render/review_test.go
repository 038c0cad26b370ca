package render

// Regression tests for the defects an adversarial review found: duplicate
// propertyOrdering for Gemini, strict schemas marked strict that could not
// be valid, invalid UTF-8 or JSON copied into output, unchecked names, and
// garbled strict-mode messages.

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
	"github.com/toolnexus/toolnexus/render/rendertest"
)

func oneTool(name, schema string) []toolnexus.Tool {
	return []toolnexus.Tool{{Name: name, InputSchema: json.RawMessage(schema)}}
}

// noDuplicateKeys fails when any object in the JSON text b repeats a key.
func noDuplicateKeys(t *testing.T, b []byte) {
	t.Helper()
	tree, err := jsonx.Parse(b)
	if err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, b)
	}
	if p, ok := duplicateKey(tree, ""); ok {
		t.Fatalf("output repeats the key at %s:\n%s", p, b)
	}
}

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
			if got != want {
				t.Errorf("\n got %s\nwant %s", got, want)
			}
		})
	}
	_, err := Gemini(oneTool("g", `{"type":"object","properties":{"a":{"type":"string"}},"propertyOrdering":"a"}`))
	if !errors.Is(err, ErrUnsupportedSchema) || !strings.Contains(err.Error(), `/propertyOrdering: propertyOrdering is not an array`) {
		t.Errorf("non-array propertyOrdering: %v", err)
	}
}

// refsStandAlone fails when a node of the strict schema b holds "$ref"
// beside another key (strict mode forbids $ref siblings).
func refsStandAlone(t *testing.T, b []byte) {
	t.Helper()
	tree, err := jsonx.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case *jsonx.Object:
			if _, ok := x.Get("$ref"); ok && len(x.Keys) > 1 {
				t.Errorf("$ref with siblings %v in %s", x.Keys, b)
			}
			for _, e := range x.Vals {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(tree)
}

func strictParamsOf(t *testing.T, schema string) string {
	t.Helper()
	out, err := OpenAIStrict(oneTool("t", schema))
	if err != nil {
		t.Fatalf("OpenAIStrict: %v", err)
	}
	b := out[0].Function.Parameters
	noDuplicateKeys(t, b)
	refsStandAlone(t, b)
	// Every $ref of the output resolves inside the output.
	root, _ := jsonx.Parse(b)
	for _, ref := range findRefs(root) {
		if _, err := resolveRef(root, ref); err != nil {
			t.Errorf("output $ref %q does not resolve: %v\n%s", ref, err, b)
		}
	}
	return string(b)
}

func findRefs(v any) []string {
	var refs []string
	switch x := v.(type) {
	case *jsonx.Object:
		for i, k := range x.Keys {
			if s, ok := x.Vals[i].(string); ok && k == "$ref" {
				refs = append(refs, s)
			}
			refs = append(refs, findRefs(x.Vals[i])...)
		}
	case []any:
		for _, e := range x {
			refs = append(refs, findRefs(e)...)
		}
	}
	return refs
}

func TestStrictRefsAndValues(t *testing.T) {
	obj := `{"type":"object","properties":{"v":{"type":"integer"}},"required":["v"]}`
	strictObj := `{"type":"object","properties":{"v":{"type":"integer"}},"required":["v"],"additionalProperties":false}`
	for _, c := range []struct{ name, in, want string }{
		{"percent-encoded ref",
			`{"type":"object","properties":{"a":{"$ref":"#/$defs/a%20b"}},"required":["a"],"$defs":{"a b":` + obj + `}}`,
			`{"type":"object","properties":{"a":{"$ref":"#/$defs/a%20b"}},"required":["a"],"additionalProperties":false,"$defs":{"a b":` + strictObj + `}}`},
		{"~0 and ~1 escapes",
			`{"type":"object","properties":{"a":{"$ref":"#/$defs/x~1y"},"b":{"$ref":"#/$defs/m~0n"}},"required":["a","b"],"$defs":{"x/y":` + obj + `,"m~n":` + obj + `}}`,
			`{"type":"object","properties":{"a":{"$ref":"#/$defs/x~1y"},"b":{"$ref":"#/$defs/m~0n"}},"required":["a","b"],"additionalProperties":false,"$defs":{"x/y":` + strictObj + `,"m~n":` + strictObj + `}}`},
		{"description beside an optional $ref is inlined",
			`{"type":"object","properties":{"a":{"$ref":"#/$defs/N","description":"the n","default":{}}},"$defs":{"N":` + obj + `}}`,
			`{"type":["object","null"],"description":"the n","properties":{"v":{"type":"integer"}},"required":["v"],"additionalProperties":false}`},
		{"escaped $ref key",
			`{"type":"object","properties":{"a":{"\u0024ref":"#/$defs/N"}},"required":["a"],"$defs":{"N":` + obj + `}}`,
			`{"type":"object","properties":{"a":{"$ref":"#/$defs/N"}},"required":["a"],"additionalProperties":false,"$defs":{"N":` + strictObj + `}}`},
		{"dropped annotation beside a $ref",
			`{"type":"object","properties":{"a":{"$ref":"#/$defs/N","default":{"v":1},"$comment":"x"}},"required":["a"],"$defs":{"N":` + obj + `}}`,
			`{"type":"object","properties":{"a":{"$ref":"#/$defs/N"}},"required":["a"],"additionalProperties":false,"$defs":{"N":` + strictObj + `}}`},
		{"recursive description is referenced inside its own inlining",
			`{"type":"object","properties":{"up":{"$ref":"#","description":"parent"}}}`,
			`{"type":["object","null"],"description":"parent","properties":{"up":{"anyOf":[{"$ref":"#"},{"type":"null"}]}},"required":["up"],"additionalProperties":false}`},
		{"optional const null",
			`{"type":"object","properties":{"n":{"const":null},"e":{"enum":["x","x",null]},"s":{"type":"string","enum":["a","a"]}}}`,
			`{"type":"object","properties":{"n":{"const":null},"e":{"enum":["x",null]},"s":{"type":["string","null"],"enum":["a",null]}},"required":["n","e","s"],"additionalProperties":false}`},
		{"ref into a nested $defs that stays in place",
			`{"type":"object","properties":{"a":{"type":"object","properties":{},"$defs":{"X":{"type":"string"}}},"b":{"$ref":"#/properties/a/$defs/X"}},"required":["b"]}`,
			`{"type":"object","properties":{"a":{"type":["object","null"],"properties":{},"required":[],"additionalProperties":false,"$defs":{"X":{"type":"string"}}},"b":{"$ref":"#/properties/a/$defs/X"}},"required":["a","b"],"additionalProperties":false}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := strictParamsOf(t, c.in)
			if strings.HasPrefix(c.name, "description") || strings.HasPrefix(c.name, "recursive") {
				// compare the rewritten property only
				root, _ := jsonx.Parse([]byte(got))
				p, _ := root.(*jsonx.Object).Get("properties")
				po := p.(*jsonx.Object)
				got = string(jsonx.Marshal(po.Vals[0]))
			}
			if got != c.want {
				t.Errorf("\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestStrictCasesKeepRefsAlone checks the shared case list in strict mode
// with the same output rules as the review cases.
func TestStrictCasesKeepRefsAlone(t *testing.T) {
	out, err := OpenAIWith(rendertest.Tools(), OpenAIOptions{Strict: true, Fallback: true})
	if err != nil {
		t.Fatal(err)
	}
	strict := 0
	for _, tl := range out {
		if *tl.Function.Strict {
			strict++
			noDuplicateKeys(t, tl.Function.Parameters)
			refsStandAlone(t, tl.Function.Parameters)
		}
	}
	if strict < 5 {
		t.Fatalf("only %d case tools are strict", strict)
	}
}

func TestStrictRejectsInvalidSchemas(t *testing.T) {
	obj := `{"type":"object","properties":{"v":{"type":"integer"}},"required":["v"]}`
	for _, c := range []struct {
		name, schema string
		is           error
		path, msg    string
	}{
		{"dangling ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/Nope"}},"$defs":{"N":` + obj + `}}`,
			ErrUnsupportedSchema, "/properties/a/$ref", `the $ref "#/$defs/Nope" does not resolve inside the schema: there is no member "Nope"`},
		{"dangling percent-encoded ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/a%20b"}},"required":["a"],"$defs":{"a%20b":` + obj + `}}`,
			ErrUnsupportedSchema, "/properties/a/$ref", `there is no member "a b"`},
		{"bad percent escape", `{"type":"object","properties":{"a":{"$ref":"#/$defs/a%zzb"}},"required":["a"]}`,
			ErrUnsupportedSchema, "/properties/a/$ref", `not validly percent-encoded`},
		{"bad tilde escape", `{"type":"object","properties":{"a":{"$ref":"#/$defs/a~2b"}},"required":["a"],"$defs":{"a~2b":` + obj + `}}`,
			ErrUnsupportedSchema, "/properties/a/$ref", `not followed by 0 or 1`},
		{"cycle of references", `{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"required":["a"],"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}`,
			ErrUnsupportedSchema, "/$defs/A/$ref", `the $ref "#/$defs/B" starts a cycle of references that never reaches a schema (#/$defs/B → #/$defs/A → #/$defs/B)`},
		{"self reference", `{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"required":["a"],"$defs":{"A":{"$ref":"#/$defs/A"}}}`,
			ErrUnsupportedSchema, "/$defs/A/$ref", `the $ref "#/$defs/A" starts a cycle of references that never reaches a schema (#/$defs/A → #/$defs/A)`},
		{"cycle outside $defs", `{"type":"object","properties":{"a":{"$ref":"#/x/A"}},"required":["a"],"x":{"A":{"$ref":"#/x/B"},"B":{"$ref":"#/x/A"}}}`,
			ErrUnsupportedSchema, "/properties/a/$ref", `the $ref "#/x/A" starts a cycle of references that never reaches a schema (#/x/A → #/x/B → #/x/A)`},
		{"type beside a $ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/N","type":"object"}},"$defs":{"N":` + obj + `}}`,
			ErrNotStrict, "/properties/a/type", `strict mode allows no keywords beside $ref, and "type" beside the $ref "#/$defs/N"`},
		{"$defs beside an optional $ref into them", `{"type":"object","properties":{"a":{"$ref":"#/properties/a/$defs/X","$defs":{"X":` + obj + `}}}}`,
			ErrNotStrict, "/properties/a/$defs", `strict mode allows no keywords beside $ref`},
		{"ref to an optional $ref property", `{"type":"object","properties":{"a":{"$ref":"#/$defs/N"},"b":{"$ref":"#/properties/a"}},"required":["b"],"$defs":{"N":` + obj + `}}`,
			ErrNotStrict, "/properties/b/$ref", `the $ref "#/properties/a" points into a part of the schema that strict mode rewrites or drops`},
		{"ref into a oneOf", `{"type":"object","properties":{"u":{"oneOf":[` + obj + `,{"type":"string"}]},"b":{"$ref":"#/properties/u/oneOf/0"}},"required":["u","b"]}`,
			ErrNotStrict, "/properties/b/$ref", `points into a part of the schema that strict mode rewrites or drops`},
		{"ref into a default", `{"type":"object","properties":{"a":{"type":"string","default":` + obj + `},"b":{"$ref":"#/properties/a/default"}},"required":["a","b"]}`,
			ErrNotStrict, "/properties/b/$ref", `points into a part of the schema`},
		{"duplicate property", `{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"integer"}},"required":["a"]}`,
			ErrUnsupportedSchema, "/properties/a", `the key appears more than once in its object`},
		{"duplicate keyword", `{"type":"object","properties":{"a":{"type":"string","type":"integer"}}}`,
			ErrUnsupportedSchema, "/properties/a/type", `more than once`},
		{"object enum value", `{"type":"object","properties":{"e":{"enum":["x",{"k":1}]}},"required":["e"]}`,
			ErrNotStrict, "/properties/e/enum/1", `the value {"k":1} is an object; strict mode enum and const values must be strings, numbers, booleans or null`},
		{"array const", `{"type":"object","properties":{"c":{"const":[1,2]}},"required":["c"]}`,
			ErrNotStrict, "/properties/c/const", `the value [1,2] is an array;`},
		{"false schema", `{"type":"object","properties":{"a":false}}`,
			ErrNotStrict, "/properties/a", `the boolean schema false (no value is valid) cannot be expressed`},
		{"true schema", `{"type":"object","properties":{"a":true}}`,
			ErrNotStrict, "/properties/a", `the boolean schema true (any value is valid) cannot be expressed`},
		{"number as schema", `{"type":"object","properties":{"a":5}}`,
			ErrUnsupportedSchema, "/properties/a", `a schema must be an object or a boolean, not the number 5`},
		{"tuple items", `{"type":"object","properties":{"a":{"type":"array","items":[{"type":"string"}]}},"required":["a"]}`,
			ErrNotStrict, "/properties/a/items", `"items" is an array of schemas (the tuple form of drafts before 2020-12), which strict mode does not support`},
		{"invalid UTF-8", "{\"type\":\"object\",\"description\":\"\xff\"}",
			ErrUnsupportedSchema, "", `the schema is not valid UTF-8`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := OpenAIStrict(oneTool("t", c.schema))
			var se *SchemaError
			if !errors.As(err, &se) || !errors.Is(err, c.is) {
				t.Fatalf("err = %v, want a *SchemaError wrapping %v", err, c.is)
			}
			if se.Tool != "t" || se.Renderer != "render.OpenAIStrict" || se.Path != c.path || !strings.Contains(se.Msg, c.msg) {
				t.Errorf("got  %+v\nwant path %q, message containing %q", se, c.path, c.msg)
			}
			if strings.Contains(err.Error(), "[") && strings.Contains(err.Error(), " 97 ") {
				t.Errorf("bytes printed as numbers: %v", err)
			}
			fb, err := OpenAIWith(oneTool("t", c.schema), OpenAIOptions{Strict: true, Fallback: true})
			if c.is == ErrUnsupportedSchema {
				if err == nil {
					t.Fatalf("Fallback rendered an invalid schema: %s", fb[0].Function.Parameters)
				}
				return
			}
			if err != nil || *fb[0].Function.Strict || string(fb[0].Function.Parameters) != c.schema {
				t.Fatalf("Fallback: %v", err)
			}
		})
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
		if !errors.Is(err, ErrUnsupportedSchema) || !strings.Contains(err.Error(), `render.Gemini: tool "g": `+c.msg) && !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s:\n err = %v\nwant %q", c.schema, err, c.msg)
		}
	}
	got := geminiParams(t, `{"type":"object","properties":{"a":{"$ref":"#/$defs/a%20b"},"b":{"$ref":"#/$defs/x~1y"}},"$defs":{"a b":{"type":"string"},"x/y":{"type":"integer"}}}`, GeminiOptions{})
	if want := `{"type":"OBJECT","properties":{"a":{"type":"STRING"},"b":{"type":"INTEGER"}}}`; got != want {
		t.Errorf("escaped refs:\n got %s\nwant %s", got, want)
	}
}

func TestPassThroughNeverEmitsInvalidJSON(t *testing.T) {
	for _, bad := range []string{
		"{\"type\":\"object\",\"description\":\"\xff\"}",
		`{"type":"object",`,
		`"just a string"`,
		`{"type":"object"} trailing`,
	} {
		tools := []toolnexus.Tool{{Name: "ok", InputSchema: json.RawMessage(`{"type":"object"}`)}, {Name: "bad", Description: "d\xfe", InputSchema: json.RawMessage(bad)}}
		outputs := map[string][]byte{
			"OpenAI":          OpenAI(tools).AppendJSON(nil),
			"OpenAIResponses": OpenAIResponses(tools).AppendJSON(nil),
			"MCP":             MCP(tools).AppendJSON(nil),
		}
		for name, b := range outputs {
			if !utf8.Valid(b) || !json.Valid(b) {
				t.Errorf("%s(%q) emitted invalid output: %q", name, bad, b)
			}
			if bytes.Contains(bytes.ReplaceAll(b, openAIEmptySchema, nil), []byte(bad)) {
				t.Errorf("%s copied the bad schema %q", name, bad)
			}
		}
		if p := OpenAI(tools)[1].Function.Parameters; string(p) != `{"type":"object","properties":{}}` {
			t.Errorf("OpenAI substitute = %s", p)
		}
		for name, err := range map[string]error{
			"CheckSchemas":  CheckSchemas(tools),
			"OpenAIWith":    second(OpenAIWith(tools, OpenAIOptions{})),
			"ResponsesWith": second(OpenAIResponsesWith(tools, OpenAIOptions{})),
			"Anthropic":     second(Anthropic(tools)),
			"GeminiJSON":    second(GeminiWith(tools, GeminiOptions{JSONSchema: true})),
			"Gemini":        second(Gemini(tools)),
			"Strict":        second(OpenAIStrict(tools)),
		} {
			var se *SchemaError
			if !errors.As(err, &se) || !errors.Is(err, ErrUnsupportedSchema) || se.Tool != "bad" {
				t.Errorf("%s(%q): err = %v, want a *SchemaError for tool bad", name, bad, err)
			}
		}
	}
	if err := CheckSchemas(rendertest.Tools()); err != nil {
		t.Errorf("CheckSchemas refused a case schema: %v", err)
	}
}

func second[T any](_ T, err error) error { return err }

func TestProviderNameRules(t *testing.T) {
	long := strings.Repeat("a", 65)
	for _, name := range []string{"", "a b", "na\xffme", long, "a.b", "a:b", "é"} {
		tools := []toolnexus.Tool{{Name: name}}
		for rname, err := range map[string]error{
			"Anthropic":     second(Anthropic(tools)),
			"OpenAIStrict":  second(OpenAIStrict(tools)),
			"OpenAIWith":    second(OpenAIWith(tools, OpenAIOptions{})),
			"ResponsesWith": second(OpenAIResponsesWith(tools, OpenAIOptions{Strict: true})),
		} {
			if !errors.Is(err, ErrUnsupportedName) {
				t.Errorf("%s(%q): err = %v, want ErrUnsupportedName", rname, name, err)
			}
		}
		b := OpenAI(tools).AppendJSON(nil)
		if !utf8.Valid(b) || !json.Valid(b) {
			t.Errorf("OpenAI(%q) emitted %q", name, b)
		}
	}
	for _, name := range []string{"", "a b", "na\xffme", long, "1x", "-x", ".x", "é", "a/b"} {
		_, err := Gemini([]toolnexus.Tool{{Name: name}})
		if !errors.Is(err, ErrUnsupportedName) || !strings.HasPrefix(err.Error(), "render.Gemini: tool ") {
			t.Errorf("Gemini(%q): err = %v", name, err)
		}
	}
	for _, name := range []string{"a.b:c-d_e", "_x", strings.Repeat("a", 64)} {
		if _, err := Gemini([]toolnexus.Tool{{Name: name}}); err != nil {
			t.Errorf("Gemini(%q) refused a valid name: %v", name, err)
		}
	}
	if _, err := Anthropic([]toolnexus.Tool{{Name: "Ab_-9"}}); err != nil {
		t.Errorf("Anthropic refused a valid name: %v", err)
	}
}
