package render

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
	"github.com/toolnexus/toolnexus/render/rendertest"
)

// strictInstance builds arguments a model obeying the strict schema could
// send: null for every nullable property, the smallest valid value for the
// rest.
func strictInstance(t *testing.T, root *jsonx.Object, v any) any {
	t.Helper()
	o := v.(*jsonx.Object)
	if ref, ok := o.Get("$ref"); ok {
		target, err := resolveRef(root, ref.(string))
		require.NoError(t, err, "unresolvable $ref %v", ref)
		return strictInstance(t, root, target)
	}
	if a, ok := o.Get("anyOf"); ok {
		for _, alt := range a.([]any) {
			if hasType(alt.(*jsonx.Object), "null") {
				return nil
			}
		}
		return strictInstance(t, root, a.([]any)[0])
	}
	if hasType(o, "null") {
		return nil
	}
	if e, ok := o.Get("enum"); ok {
		return e.([]any)[0]
	}
	typ, _ := o.Get("type")
	switch typ {
	case "object":
		out := &jsonx.Object{}
		p, _ := o.Get("properties")
		po := p.(*jsonx.Object)
		for i, name := range po.Keys {
			out.Set(name, strictInstance(t, root, po.Vals[i]))
		}
		return out
	case "array":
		n := 0
		if m, ok := o.Get("minItems"); ok {
			fmt.Sscan(string(m.(json.Number)), &n)
		}
		it, _ := o.Get("items")
		arr := []any{}
		for range n {
			arr = append(arr, strictInstance(t, root, it))
		}
		return arr
	case "string":
		if f, _ := o.Get("format"); f == "date-time" {
			return "2026-11-30T12:00:00Z"
		}
		n := 1
		if m, ok := o.Get("minLength"); ok {
			fmt.Sscan(string(m.(json.Number)), &n)
		}
		return strings.Repeat("a", n)
	case "integer", "number":
		if m, ok := o.Get("minimum"); ok {
			return m
		}
		return json.Number("1")
	case "boolean":
		return true
	}
	require.FailNow(t, "strictInstance: unhandled schema", "%s", jsonx.Marshal(o))
	return nil
}

// TestStrictNullsExecute renders every case in strict mode, builds the
// arguments a strict-mode model sends with null for every optional
// property (at every level), and executes them through a Registry: each
// call must succeed. It proves strict mode and Execute agree.
func TestStrictNullsExecute(t *testing.T) {
	reg := toolnexus.NewRegistry()
	require.NoError(t, reg.Add(rendertest.Tools()...))
	tools := reg.Tools()
	rendered, err := OpenAIWith(tools, OpenAIOptions{Strict: true, Fallback: true})
	require.NoError(t, err)
	nulls := 0
	for _, r := range rendered {
		if !*r.Function.Strict {
			continue
		}
		tree, err := jsonx.Parse(r.Function.Parameters)
		require.NoError(t, err)
		args := jsonx.Marshal(strictInstance(t, tree.(*jsonx.Object), tree))
		nulls += bytes.Count(args, []byte("null"))
		res := reg.Execute(context.Background(), r.Function.Name, args)
		assert.False(t, res.IsError, "%s(%s): error result %q", r.Function.Name, args, res.Output)
	}
	require.GreaterOrEqual(t, nulls, 15, "only %d null arguments were sent; the test is not exercising optional properties", nulls)
}

func TestStrictNullSpecificCalls(t *testing.T) {
	reg := toolnexus.NewRegistry()
	require.NoError(t, reg.Add(rendertest.Tools()...))
	ctx := context.Background()
	for _, c := range []struct {
		tool, args string
		wantErr    string // "" for success
		wantOut    string
	}{
		{"get_weather", `{"city":"Paris","unit":null,"days":null}`, "", `{"city":"Paris"}`},
		{"get_weather", `{"city":"Paris","unit":"celsius","days":null}`, "", `{"city":"Paris","unit":"celsius"}`},
		{"get_weather", `{"city":"Paris","unit":"null","days":null}`, `"unit" must be one of`, ""},
		{"get_weather", `{"city":null,"unit":null,"days":null}`, `city`, ""},
		{"ship", `{"from":{"street":"a","zip":null,"note":null},"to":{"street":"b","zip":null,"note":null}}`, "", `{"from":{"street":"a"},"to":{"street":"b"}}`},
		{"set_mode", `{"level":2,"mode":"fast","priority":null,"ratio":null}`, "", `{"level":2,"mode":"fast"}`},
		{"set_mode", `{"level":"2","mode":"fast","priority":null,"ratio":null}`, `level`, ""},
		{"make_tree", `{"name":"root","kids":[{"name":"a","kids":null}]}`, "", `{"name":"root","kids":[{"name":"a"}]}`},
		{"place_order", `{"items":[{"sku":"a","qty":2,"gift":null}],"notes":null}`, "", `{"items":[{"sku":"a","qty":2}]}`},
		// A constraint the Gemini copy drops (minimum) is still enforced.
		{"place_order", `{"items":[{"sku":"a","qty":0,"gift":null}],"notes":null}`, "qty", ""},
		{"set_mode", `{"level":4,"mode":"fast","priority":null,"ratio":null}`, "level", ""},
		{"set_mode", `{"level":1,"mode":"fast","priority":null,"ratio":0.7}`, "ratio", ""},
	} {
		res := reg.Execute(ctx, c.tool, json.RawMessage(c.args))
		if c.wantErr == "" {
			assert.False(t, res.IsError, "%s(%s) = %q (error %v), want %q", c.tool, c.args, res.Output, res.IsError, c.wantOut)
			assert.Equal(t, c.wantOut, res.Output, "%s(%s) = %q (error %v), want %q", c.tool, c.args, res.Output, res.IsError, c.wantOut)
			continue
		}
		assert.True(t, res.IsError, "%s(%s) = %q (error %v), want an error mentioning %q", c.tool, c.args, res.Output, res.IsError, c.wantErr)
		assert.Contains(t, res.Output, c.wantErr, "%s(%s) = %q (error %v), want an error mentioning %q", c.tool, c.args, res.Output, res.IsError, c.wantErr)
	}
}

func TestStrictErrors(t *testing.T) {
	var mapTool toolnexus.Tool
	for _, c := range rendertest.Cases() {
		if c.Name == "map_field" {
			mapTool = c.Tool
		}
	}
	_, err := OpenAIStrict([]toolnexus.Tool{mapTool})
	var se *SchemaError
	require.ErrorAs(t, err, &se, "err = %v, want a *SchemaError wrapping ErrNotStrict", err)
	require.ErrorIs(t, err, ErrNotStrict, "err = %v, want a *SchemaError wrapping ErrNotStrict", err)
	assert.Equal(t, "tag", se.Tool, "SchemaError = %+v", se)
	assert.Equal(t, "/properties/labels/additionalProperties", se.Path, "SchemaError = %+v", se)
	assert.Equal(t, "render.OpenAIStrict", se.Renderer, "SchemaError = %+v", se)
	want := `render.OpenAIStrict: tool "tag": /properties/labels/additionalProperties: a free-form map (additionalProperties is a schema) cannot be made strict`
	assert.EqualError(t, err, want, "message\n got %s\nwant %s", err, want)
	_, err = OpenAIResponsesWith([]toolnexus.Tool{mapTool}, OpenAIOptions{Strict: true})
	if assert.ErrorIs(t, err, ErrNotStrict, "Responses strict: %v", err) {
		assert.Contains(t, err.Error(), `render.OpenAIResponsesWith: tool "tag"`, "Responses strict: %v", err)
	}

	raw := func(schema string) []toolnexus.Tool {
		return []toolnexus.Tool{{Name: "t", InputSchema: json.RawMessage(schema)}}
	}
	nest := func(levels int) string {
		s := `{"type":"string"}`
		for range levels {
			s = `{"type":"object","properties":{"a":` + s + `},"required":["a"]}`
		}
		return s
	}
	props := func(n int) string {
		var b strings.Builder
		b.WriteString(`{"type":"object","properties":{`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"p%d":{"type":"integer"}`, i)
		}
		b.WriteString(`}}`)
		return b.String()
	}
	enum := func(n, width int) string {
		var b strings.Builder
		b.WriteString(`{"type":"object","properties":{"e":{"type":"string","enum":[`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"%0*d"`, width, i)
		}
		b.WriteString(`]}},"required":["e"]}`)
		return b.String()
	}
	for _, c := range []struct {
		name, schema string
		is           error
		msg          string
	}{
		{"any", `{"type":"object","properties":{"v":{}}}`, ErrNotStrict, `/properties/v: a schema with no type (any JSON value) cannot be made strict`},
		{"open object", `{"type":"object","additionalProperties":true}`, ErrNotStrict, `/additionalProperties: additionalProperties:true`},
		{"allOf", `{"type":"object","properties":{"v":{"allOf":[{"type":"string"}]}}}`, ErrNotStrict, `/properties/v/allOf: "allOf" is not supported`},
		{"two types", `{"type":"object","properties":{"v":{"type":["string","integer"]}}}`, ErrNotStrict, `/properties/v/type: the type ["string","integer"] lists more than one`},
		{"array of any", `{"type":"object","properties":{"v":{"type":"array"}}}`, ErrNotStrict, `/properties/v: an array without "items"`},
		{"remote ref", `{"type":"object","properties":{"v":{"$ref":"https://x/s.json"}}}`, ErrNotStrict, `is not local`},
		{"root anyOf", `{"type":"object","anyOf":[{"type":"object"}]}`, ErrUnsupportedSchema, `/anyOf: OpenAI refuses anyOf at the root of the input schema`},
		{"name with slash", `{"type":"object","properties":{"a/b":{}}}`, ErrNotStrict, `/properties/a~1b:`},
		{"10 levels ok", nest(10), nil, ""},
		{"11 levels", nest(11), ErrSchemaLimit, `11 levels of object nesting, more than the strict-mode limit of 10`},
		{"5000 properties ok", props(5000), nil, ""},
		{"5001 properties", props(5001), ErrSchemaLimit, `5001 object properties, more than the strict-mode limit of 5000`},
		{"1000 enum values ok", enum(1000, 4), nil, ""},
		{"1001 enum values", enum(1001, 4), ErrSchemaLimit, `1001 enum values, more than the strict-mode limit of 1000`},
		{"long large enum", enum(251, 60), ErrSchemaLimit, `an enum of 251 values totalling 15060 characters`},
		{"not JSON", `{"type":"object",`, ErrUnsupportedSchema, `not valid JSON`},
		{"not an object root", `{"type":"string"}`, ErrUnsupportedSchema, `the root must be`},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := OpenAIStrict(raw(c.schema))
			if c.is == nil {
				require.NoError(t, err, "unexpected error")
				require.True(t, *out[0].Function.Strict, "strict is false")
				return
			}
			require.ErrorIs(t, err, c.is, "err = %v\nwant %v containing %q", err, c.is, c.msg)
			require.Contains(t, err.Error(), c.msg, "err = %v\nwant %v containing %q", err, c.is, c.msg)
			require.Contains(t, err.Error(), `tool "t"`, "err = %v\nwant %v containing %q", err, c.is, c.msg)
			// Fallback renders limit and strictness failures non-strict,
			// as OpenAIWith without Strict does (an object root without
			// properties gets "properties":{}); invalid schemas, and a
			// root combinator OpenAI refuses even outside strict mode,
			// still fail.
			fb, err := OpenAIWith(raw(c.schema), OpenAIOptions{Strict: true, Fallback: true})
			if c.is == ErrUnsupportedSchema {
				require.Error(t, err, "Fallback accepted an invalid schema")
				return
			}
			require.NoError(t, err, "Fallback: %v, %+v", err, fb)
			require.False(t, *fb[0].Function.Strict, "Fallback: %v, %+v", err, fb)
			plain, err := OpenAIWith(raw(c.schema), OpenAIOptions{})
			require.NoError(t, err)
			require.Equal(t, string(plain[0].Function.Parameters), string(fb[0].Function.Parameters), "Fallback: %v, %+v", err, fb)
		})
	}
}

func TestStrictLongStrings(t *testing.T) {
	long := strings.Repeat("x", 60001)
	s := `{"type":"object","properties":{"` + long + `":{"type":"string"},"b":{"type":"string","enum":["` + long + `"]}},"required":["b"]}`
	_, err := OpenAIStrict([]toolnexus.Tool{{Name: "t", InputSchema: json.RawMessage(s)}})
	require.ErrorIs(t, err, ErrSchemaLimit, "err = %v", err)
	require.Contains(t, err.Error(), "120003 characters", "err = %v", err)
}

// TestStrictRefAndConst covers the nullable forms not in the case list: a
// $ref property, a const and an anyOf.
func TestStrictRefAndConst(t *testing.T) {
	s := `{"type":"object","properties":{"n":{"$ref":"#/$defs/N"},"c":{"const":"x"},"u":{"anyOf":[{"type":"string"},{"type":"integer"}]},"k":{"type":"string","default":"a","format":"uri"}},"$defs":{"N":{"type":"object","properties":{"v":{"type":"integer"}}}}}`
	out, err := OpenAIStrict([]toolnexus.Tool{{Name: "t", InputSchema: json.RawMessage(s)}})
	require.NoError(t, err)
	want := `{"type":"object","properties":{` +
		`"n":{"anyOf":[{"$ref":"#/$defs/N"},{"type":"null"}]},` +
		`"c":{"enum":["x",null]},` +
		`"u":{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]},` +
		`"k":{"type":["string","null"],"description":"Format: uri."}},` +
		`"required":["n","c","u","k"],"additionalProperties":false,` +
		`"$defs":{"N":{"type":"object","properties":{"v":{"type":["integer","null"]}},"required":["v"],"additionalProperties":false}}}`
	got := string(out[0].Function.Parameters)
	assert.Equal(t, want, got, "strict schema\n got %s\nwant %s", got, want)
}

// refsStandAlone fails when a node of the strict schema b holds "$ref"
// beside another key (strict mode forbids $ref siblings).
func refsStandAlone(t *testing.T, b []byte) {
	t.Helper()
	tree, err := jsonx.Parse(b)
	require.NoError(t, err)
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case *jsonx.Object:
			_, ok := x.Get("$ref")
			assert.False(t, ok && len(x.Keys) > 1, "$ref with siblings %v in %s", x.Keys, b)
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
	require.NoError(t, err, "OpenAIStrict")
	b := out[0].Function.Parameters
	noDuplicateKeys(t, b)
	refsStandAlone(t, b)
	// Every $ref of the output resolves inside the output.
	root, _ := jsonx.Parse(b)
	for _, ref := range findRefs(root) {
		_, err := resolveRef(root, ref)
		assert.NoError(t, err, "output $ref %q does not resolve: %v\n%s", ref, err, b)
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
			assert.Equal(t, c.want, got, "\n got %s\nwant %s", got, c.want)
		})
	}
}

// TestStrictCasesKeepRefsAlone checks the shared case list in strict mode
// with the same output rules as the review cases.
func TestStrictCasesKeepRefsAlone(t *testing.T) {
	out, err := OpenAIWith(rendertest.Tools(), OpenAIOptions{Strict: true, Fallback: true})
	require.NoError(t, err)
	strict := 0
	for _, tl := range out {
		if *tl.Function.Strict {
			strict++
			noDuplicateKeys(t, tl.Function.Parameters)
			refsStandAlone(t, tl.Function.Parameters)
		}
	}
	require.GreaterOrEqual(t, strict, 5, "only %d case tools are strict", strict)
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
			require.ErrorAs(t, err, &se, "err = %v, want a *SchemaError wrapping %v", err, c.is)
			require.ErrorIs(t, err, c.is, "err = %v, want a *SchemaError wrapping %v", err, c.is)
			assert.Equal(t, "t", se.Tool, "got  %+v\nwant path %q, message containing %q", se, c.path, c.msg)
			assert.Equal(t, "render.OpenAIStrict", se.Renderer, "got  %+v\nwant path %q, message containing %q", se, c.path, c.msg)
			assert.Equal(t, c.path, se.Path, "got  %+v\nwant path %q, message containing %q", se, c.path, c.msg)
			assert.Contains(t, se.Msg, c.msg, "got  %+v\nwant path %q, message containing %q", se, c.path, c.msg)
			assert.False(t, strings.Contains(err.Error(), "[") && strings.Contains(err.Error(), " 97 "), "bytes printed as numbers: %v", err)
			fb, err := OpenAIWith(oneTool("t", c.schema), OpenAIOptions{Strict: true, Fallback: true})
			if c.is == ErrUnsupportedSchema {
				require.Error(t, err, "Fallback rendered an invalid schema: %+v", fb)
				return
			}
			require.NoError(t, err, "Fallback")
			require.False(t, *fb[0].Function.Strict, "Fallback: %v", err)
			require.Equal(t, c.schema, string(fb[0].Function.Parameters), "Fallback: %v", err)
		})
	}
}

// TestStrictBase64: a []byte field's contentEncoding, which strict mode
// does not take and the typed decoder enforces, is stated in the
// description. Found by a new user: the model was never told to send
// base64.
func TestStrictBase64(t *testing.T) {
	s := `{"type":"object","properties":{"b":{"type":"string","contentEncoding":"base64"},"d":{"description":"Data","contentEncoding":"base64","type":"string"}}}`
	out, err := OpenAIStrict([]toolnexus.Tool{{Name: "t", InputSchema: json.RawMessage(s)}})
	require.NoError(t, err)
	want := `{"type":"object","properties":{` +
		`"b":{"type":["string","null"],"description":"Base64-encoded."},` +
		`"d":{"description":"Data. Base64-encoded.","type":["string","null"]}},` +
		`"required":["b","d"],"additionalProperties":false}`
	got := string(out[0].Function.Parameters)
	assert.Equal(t, want, got, "strict schema\n got %s\nwant %s", got, want)
}
