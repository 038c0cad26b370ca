package toolnexus

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus/internal/jsonx"
)

func schemaString(t *testing.T, s json.RawMessage, err error) string {
	t.Helper()
	require.NoError(t, err)
	require.True(t, json.Valid(s))
	return string(s)
}

func TestSchemaWeather(t *testing.T) {
	s, err := SchemaFor[weatherArgs]()
	assert.Equal(t, `{"type":"object","properties":{"city":{"type":"string","description":"City name","minLength":1},"unit":{"type":"string","enum":["celsius","fahrenheit"]},"days":{"type":"integer","maximum":14,"minimum":1}},"required":["city"],"additionalProperties":false}`,
		schemaString(t, s, err))
	p, err := SchemaFor[*weatherArgs]()
	assert.Equal(t, string(s), schemaString(t, p, err), "a pointer type reflects as its element")
}

type address struct {
	Street string `json:"street"`
	Zip    string `json:"zip,omitempty" validate:"omitempty,len=5,numeric"`
}

type base struct {
	ID      string `json:"id" validate:"uuid"`
	Created time.Time
}

type kitchenSink struct {
	base
	Name     string            `json:"name" jsonschema_description:"Display name" validate:"min=2,max=40"`
	Email    string            `json:"email,omitempty" validate:"omitempty,email"`
	Site     string            `json:"site,omitzero" validate:"omitempty,url"`
	Score    float64           `json:"score" validate:"gt=0,lte=1"`
	Level    int               `json:"level,omitempty" jsonschema:"enum=1,enum=2,enum=3,default=2"`
	Color    string            `json:"color,omitempty" jsonschema:"enum=red,enum=green" validate:"omitempty,oneof=red green"`
	Home     address           `json:"home"`
	Work     *address          `json:"work,omitempty"`
	Tags     []string          `json:"tags,omitempty" validate:"omitempty,max=5,dive,min=1"`
	Labels   map[string]string `json:"labels,omitempty"`
	Extra    json.RawMessage   `json:"extra,omitempty"`
	Any      any               `json:"any,omitempty"`
	Forced   string            `json:"forced,omitempty" jsonschema:"required,pattern=^[a-z]+$"`
	Skipped  string            `json:"-"`
	Hidden   string            `json:"hidden,omitempty" jsonschema:"-"`
	internal string            // unexported: never a property
}

func TestSchemaKitchenSink(t *testing.T) {
	_ = kitchenSink{internal: "unexported fields never become properties"}
	s, err := SchemaFor[kitchenSink]()
	want := `{"type":"object","properties":{` +
		`"id":{"type":"string","format":"uuid"},` +
		`"Created":{"type":"string","format":"date-time"},` +
		`"name":{"type":"string","description":"Display name","maxLength":40,"minLength":2},` +
		`"email":{"type":"string","format":"email"},` +
		`"site":{"type":"string","format":"uri"},` +
		`"score":{"type":"number","maximum":1,"exclusiveMinimum":0},` +
		`"level":{"type":"integer","enum":[1,2,3],"default":2},` +
		`"color":{"type":"string","enum":["red","green"]},` +
		`"home":{"type":"object","properties":{"street":{"type":"string"},"zip":{"type":"string","maxLength":5,"minLength":5}},"required":["street"],"additionalProperties":false},` +
		`"work":{"type":"object","properties":{"street":{"type":"string"},"zip":{"type":"string","maxLength":5,"minLength":5}},"required":["street"],"additionalProperties":false},` +
		`"tags":{"type":"array","items":{"type":"string","minLength":1},"maxItems":5},` +
		`"labels":{"type":"object","additionalProperties":{"type":"string"}},` +
		`"extra":{},` +
		`"any":{},` +
		`"forced":{"type":"string","pattern":"^[a-z]+$"}},` +
		`"required":["id","Created","name","score","home","forced"],"additionalProperties":false}`
	assert.Equal(t, want, schemaString(t, s, err))
}

func TestRequiredRuleMatchesExecute(t *testing.T) {
	// The schema's required list and Execute's missing-property errors agree.
	r := NewRegistry()
	require.NoError(t, Register(r, "sink", "", func(context.Context, kitchenSink) (string, error) { return "", nil }))
	res := r.Execute(context.Background(), "sink", json.RawMessage(`{}`))
	assert.Equal(t, `invalid arguments for "sink": "id" is required; "Created" is required; "name" is required; "score" is required; "home" is required; "forced" is required`, res.Output)
	res = r.Execute(context.Background(), "sink", json.RawMessage(`{"id":"2f1b5a5e-8d7e-4d47-9b1f-3c2a1e0f9a11","Created":"2026-11-30T10:00:00Z","name":"Al","score":0.5,"home":{"street":"Main"},"forced":"abc"}`))
	assert.False(t, res.IsError, res.Output)
	res = r.Execute(context.Background(), "sink", json.RawMessage(`{"id":"nope","Created":"yesterday","name":"A","score":0,"home":{"zip":"12"},"forced":"abc","work":{"street":"x","zip":"abcde"},"tags":["a",""],"email":"x"}`))
	assert.Equal(t, `invalid arguments for "sink": "id" must be a UUID, got "nope"; "Created" must be a date-time string (RFC 3339, e.g. 2026-01-02T15:04:05Z), got "yesterday"; "name" must have at least 2 characters; "score" must be greater than 0; "home.zip" must have exactly 5 characters; "home.street" is required; "tags[1]" must have at least 1 character; "email" must be an email address, got "x"`, res.Output)
	res = r.Execute(context.Background(), "sink", json.RawMessage(`{"id":"nope","Created":"2026-11-30T10:00:00Z","name":"A","score":0,"home":{"street":"s","zip":"12"},"forced":"abc","work":{"street":"x","zip":"abcde"},"tags":["a",""],"email":"x"}`))
	// The schema's keywords first (in document order), then the validator's other rules.
	assert.Equal(t, `invalid arguments for "sink": "id" must be a UUID, got "nope"; "name" must have at least 2 characters; "score" must be greater than 0; "home.zip" must have exactly 5 characters; "tags[1]" must have at least 1 character; "email" must be an email address, got "x"; "work.zip" must contain only digits`, res.Output)
}

type node struct {
	Name     string  `json:"name" validate:"required"`
	Children []node  `json:"children,omitempty"`
	Parent   *node   `json:"parent,omitempty"`
	Edges    []*edge `json:"edges,omitempty"`
}

type edge struct {
	To *node `json:"to"`
}

func TestRecursiveTypeResolves(t *testing.T) {
	s, err := SchemaFor[node]()
	require.NoError(t, err)
	tree, err := jsonx.Parse(s)
	require.NoError(t, err)
	root := tree.(*jsonx.Object)
	defs, ok := root.Get("$defs")
	require.True(t, ok, "recursive types use $defs: %s", s)
	_, hasRef := root.Get("$ref")
	assert.False(t, hasRef, "the root is inline, not a $ref")
	typ, _ := root.Get("type")
	assert.Equal(t, "object", typ)
	// every $ref resolves
	var refs []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case *jsonx.Object:
			for i, k := range x.Keys {
				if k == "$ref" {
					refs = append(refs, x.Vals[i].(string))
				}
				walk(x.Vals[i])
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(root)
	require.NotEmpty(t, refs)
	for _, ref := range refs {
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		require.True(t, ok, ref)
		_, ok = defs.(*jsonx.Object).Get(name)
		assert.True(t, ok, "unresolved %s in %s", ref, s)
	}
	r := NewRegistry()
	require.NoError(t, Register(r, "tree", "", func(_ context.Context, n node) (string, error) {
		return n.Children[0].Edges[0].To.Name, nil
	}))
	res := r.Execute(context.Background(), "tree", json.RawMessage(`{"name":"a","children":[{"name":"b","edges":[{"to":{"name":"c"}}]}]}`))
	assert.Equal(t, "c", res.Output)
	res = r.Execute(context.Background(), "tree", json.RawMessage(`{"name":"a","children":[{"name":"b","edges":[{"to":{"nam":"c"}}]}]}`))
	assert.Equal(t, `invalid arguments for "tree": unknown property "children[0].edges[0].to.nam"; allowed: name, children, parent, edges; "children[0].edges[0].to.name" is required`, res.Output)
}

func TestBadArgumentTypes(t *testing.T) {
	ok := func(context.Context, weatherArgs) (string, error) { return "", nil }
	_ = ok
	cases := []struct {
		err  error
		want string
	}{
		{Register(NewRegistry(), "s", "", func(context.Context, string) (string, error) { return "", nil }),
			`toolnexus: tool "s": invalid input schema: arguments type string must be a struct or a pointer to a struct (a JSON object), not a string`},
		{Register(NewRegistry(), "s", "", func(context.Context, []string) (string, error) { return "", nil }),
			`toolnexus: tool "s": invalid input schema: arguments type []string must be a struct or a pointer to a struct (a JSON object), not a slice (a JSON array)`},
		{Register(NewRegistry(), "s", "", func(context.Context, map[string]int) (string, error) { return "", nil }),
			`toolnexus: tool "s": invalid input schema: arguments type map[string]int must be a struct or a pointer to a struct (a JSON object), not a map`},
		{Register(NewRegistry(), "s", "", func(context.Context, struct{ Done chan int }) (string, error) { return "", nil }),
			`toolnexus: tool "s": invalid input schema: field arguments.Done (chan int): unsupported type (JSON has no chan)`},
		{Register(NewRegistry(), "s", "", func(context.Context, struct{ F func() }) (string, error) { return "", nil }),
			`toolnexus: tool "s": invalid input schema: field arguments.F (func()): unsupported type (JSON has no func)`},
		{Register(NewRegistry(), "s", "", func(context.Context, struct{ Z []complex128 }) (string, error) { return "", nil }),
			`toolnexus: tool "s": invalid input schema: field arguments.Z[] (complex128): unsupported type (JSON has no complex128)`},
		{Register(NewRegistry(), "s", "", func(context.Context, struct {
			Name string `json:"name" jsonschema:"who to greet"`
		}) (string, error) {
			return "", nil
		}), `toolnexus: tool "s": invalid input schema: field arguments.Name: jsonschema tag entry "who to greet" is not key=value; write jsonschema:"description=who to greet"`},
		{Register(NewRegistry(), "s", "", func(context.Context, struct {
			Name string `json:"name" jsonschema:"description=City, country"`
		}) (string, error) {
			return "", nil
		}), `toolnexus: tool "s": invalid input schema: field arguments.Name: jsonschema tag entry "country" is not key=value; escape commas inside values as \, (invopop splits the tag on commas)`},
		{Register(NewRegistry(), "s", "", func(context.Context, struct {
			M map[struct{ A int }]int
		}) (string, error) {
			return "", nil
		}), `toolnexus: tool "s": invalid input schema: field arguments.M (map[struct { A int }]int): unsupported map key type struct { A int } (JSON object keys are strings)`},
	}
	type badRule struct {
		N int `json:"n" validate:"min=1,bogus_rule"`
	}
	cases = append(cases, struct {
		err  error
		want string
	}{Register(NewRegistry(), "s", "", func(context.Context, badRule) (string, error) { return "", nil }),
		`toolnexus: tool "s": invalid input schema: struct badRule: invalid validate tag: Undefined validation function 'bogus_rule' on field 'N'`})
	for _, c := range cases {
		require.Error(t, c.err)
		assert.ErrorIs(t, c.err, ErrInvalidSchema)
		assert.Equal(t, c.want, c.err.Error())
	}
}

func TestJSONSchemaTagRulesAreEnforced(t *testing.T) {
	// Keywords written only in jsonschema tags are held to as the model is told.
	type args struct {
		Color string   `json:"color" jsonschema:"enum=red,enum=green"`
		Level int      `json:"level,omitempty" jsonschema:"minimum=1,maximum=5"`
		Ratio float64  `json:"ratio,omitempty" jsonschema:"exclusiveMinimum=0,exclusiveMaximum=1"`
		Code  string   `json:"code,omitempty" jsonschema:"pattern=^[A-Z]{3}$,minLength=3,maxLength=3"`
		Tags  []string `json:"tags,omitempty" jsonschema:"minItems=1,maxItems=2"`
		Size  int      `json:"size,omitempty" jsonschema:"enum=1,enum=2"`
	}
	r := NewRegistry()
	require.NoError(t, Register(r, "paint", "", func(_ context.Context, a args) (string, error) { return a.Color, nil }))
	ok := r.Execute(context.Background(), "paint", json.RawMessage(`{"color":"red","level":5,"ratio":0.5,"code":"ABC","tags":["x"],"size":2}`))
	assert.Equal(t, "red", ok.Output)
	res := r.Execute(context.Background(), "paint", json.RawMessage(`{"color":"blue","level":6,"ratio":1,"code":"abc","tags":[],"size":3}`))
	assert.Equal(t, `invalid arguments for "paint": "color" must be one of [red green]; "level" must be at most 5; "ratio" must be less than 1; "code" must match the pattern ^[A-Z]{3}$; "tags" must have at least 1 item; "size" must be one of [1 2]`, res.Output)
	res = r.Execute(context.Background(), "paint", json.RawMessage(`{"color":"r\u0065d","code":"ABCD","tags":["a","b","c"]}`))
	assert.Equal(t, `invalid arguments for "paint": "code" must have exactly 3 characters; "code" must match the pattern ^[A-Z]{3}$; "tags" must have at most 2 items`, res.Output)

	type badPattern struct {
		S string `json:"s" jsonschema:"pattern=(?<=x)y"`
	}
	err := Register(r, "bad", "", func(context.Context, badPattern) (string, error) { return "", nil })
	require.ErrorIs(t, err, ErrInvalidSchema)
	assert.Contains(t, err.Error(), `struct badPattern: schema /properties/s: keyword "pattern": pattern "(?<=x)y" is not supported by Go's regexp (RE2)`)
}
