package toolnexus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	jschema "github.com/toolnexus/toolnexus/schema"
)

func TestIntegralNumbersAreIntegers(t *testing.T) {
	type a struct {
		N int   `json:"n"`
		U uint8 `json:"u,omitempty"`
		L []int `json:"l,omitempty"`
	}
	r := NewRegistry()
	require.NoError(t, Register(r, "i", "", func(_ context.Context, x a) (string, error) {
		return fmt.Sprint(x.N, " ", x.U, " ", x.L), nil
	}))
	ctx := context.Background()
	res := r.Execute(ctx, "i", json.RawMessage(`{"n":30.0,"u":1e2,"l":[2.000,-0.0,5E0]}`))
	require.False(t, res.IsError, res.Output)
	assert.Equal(t, `30 100 [2 0 5]`, res.Output)
	res = r.Execute(ctx, "i", json.RawMessage(`{"n":30.5}`))
	assert.Equal(t, `invalid arguments for "i": "n" must be an integer, got 30.5`, res.Output)
	res = r.Execute(ctx, "i", json.RawMessage(`{"n":1,"u":2.56e2}`))
	assert.Equal(t, `invalid arguments for "i": "u" must be an integer between 0 and 255, got 2.56e2`, res.Output)
}

func TestEveryProblemInOneMessage(t *testing.T) {
	type a struct {
		City  string `json:"city"`
		Email string `json:"email,omitempty" validate:"omitempty,email"`
		Start int    `json:"start,omitempty"`
		End   int    `json:"end,omitempty" validate:"omitempty,gtfield=Start"`
	}
	r := NewRegistry()
	require.NoError(t, Register(r, "e", "", noop[a]))
	res := r.Execute(context.Background(), "e", json.RawMessage(`{"email":"nope","start":5,"end":2}`))
	assert.Equal(t, `invalid arguments for "e": "email" must be an email address, got "nope"; "city" is required; "end" must be greater than "start"`, res.Output)
}

func TestEmptyHandlerErrorText(t *testing.T) {
	type none struct{}
	r := NewRegistry()
	require.NoError(t, Register(r, "quiet", "", func(context.Context, none) (string, error) { return "", errors.New("") }))
	require.NoError(t, r.Add(Tool{Name: "rawquiet", Handler: HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "", errors.New("") })}))
	for _, name := range []string{"quiet", "rawquiet"} {
		res := r.Execute(context.Background(), name, nil)
		assert.True(t, res.IsError)
		assert.Equal(t, `tool "`+name+`" failed without an error message`, res.Output)
	}
}

func TestQuotedValuesAreBounded(t *testing.T) {
	type a struct {
		N int8    `json:"n,omitempty"`
		F float32 `json:"f,omitempty"`
		S string  `json:"s,omitempty" jsonschema:"format=email"`
	}
	r := NewRegistry()
	require.NoError(t, Register(r, "b", "", noop[a]))
	big := strings.Repeat("9", 512<<10)
	for _, args := range []string{`{"n":` + big + `}`, `{"f":` + big + `e99}`, `{"n":1.` + big + `}`, `{"s":"` + big + `"}`} {
		res := r.Execute(context.Background(), "b", json.RawMessage(args))
		assert.True(t, res.IsError)
		assert.Less(t, len(res.Output), 300, res.Output[:min(len(res.Output), 300)])
	}
	res := r.Execute(context.Background(), "b", json.RawMessage(`{"n":`+big+`}`))
	assert.Equal(t, `invalid arguments for "b": "n" must be an integer between -128 and 127, got `+strings.Repeat("9", 64)+`…`, res.Output)
}

func TestKeywordsShownAreEnforced(t *testing.T) {
	type a struct {
		Kind string   `json:"kind" jsonschema_extras:"const=fixed"`
		Tags []string `json:"tags,omitempty" jsonschema:"uniqueItems=true"`
		IDs  []int    `json:"ids,omitempty" validate:"omitempty,unique"`
	}
	r := NewRegistry()
	require.NoError(t, Register(r, "k", "", noop[a]))
	tool, _ := r.Get("k")
	assert.Equal(t, `{"type":"object","properties":{"kind":{"type":"string","const":"fixed"},"tags":{"type":"array","items":{"type":"string"},"uniqueItems":true},"ids":{"type":"array","items":{"type":"integer"},"uniqueItems":true}},"required":["kind"],"additionalProperties":false}`, string(tool.InputSchema))
	ctx := context.Background()
	assert.Equal(t, "ok", r.Execute(ctx, "k", json.RawMessage(`{"kind":"fixed","tags":["a","b"],"ids":[1,2]}`)).Output)
	assert.Equal(t, `invalid arguments for "k": "kind" must be "fixed"; "tags" must not contain duplicates (items 0 and 1 are equal); "ids" must not contain duplicates (items 0 and 1 are equal)`,
		r.Execute(ctx, "k", json.RawMessage(`{"kind":"other","tags":["a","a"],"ids":[1,1.0]}`)).Output)
}

type contact struct {
	Email string `json:"email,omitempty"`
	Phone string `json:"phone,omitempty"`
}

func (contact) JSONSchemaExtend(s *jsonschema.Schema) {
	s.OneOf = []*jsonschema.Schema{{Required: []string{"email"}}, {Required: []string{"phone"}}}
}

func TestOneOfIsEnforced(t *testing.T) {
	r := NewRegistry()
	require.NoError(t, Register(r, "c", "", noop[contact]))
	tool, _ := r.Get("c")
	assert.Contains(t, string(tool.InputSchema), `"oneOf":[{"required":["email"]},{"required":["phone"]}]`)
	ctx := context.Background()
	assert.Equal(t, "ok", r.Execute(ctx, "c", json.RawMessage(`{"email":"a@b.c"}`)).Output)
	assert.Equal(t, `invalid arguments for "c": arguments must match exactly one of 2 alternatives (oneOf), matches alternatives 1 and 2`,
		r.Execute(ctx, "c", json.RawMessage(`{"email":"a@b.c","phone":"1"}`)).Output)
}

func TestDefaultsApplied(t *testing.T) {
	type inner struct {
		Mode string `json:"mode,omitempty" jsonschema:"default=fast"`
	}
	type a struct {
		Unit  string `json:"unit,omitempty" jsonschema:"default=celsius"`
		Days  int    `json:"days,omitempty" jsonschema:"default=3"`
		Inner inner  `json:"inner"`
	}
	if out, changed, _ := mustCompile(t, `{"properties":{"a":{"default":1}}}`).ApplyDefaults([]byte(`{}`)); !changed {
		t.Skipf("the schema engine's ApplyDefaults is not implemented yet (got %s)", out)
	}
	r := NewRegistry()
	require.NoError(t, Register(r, "d", "", func(_ context.Context, x a) (string, error) {
		return fmt.Sprint(x.Unit, " ", x.Days, " ", x.Inner.Mode), nil
	}))
	ctx := context.Background()
	assert.Equal(t, "celsius 3 fast", r.Execute(ctx, "d", json.RawMessage(`{"inner":{}}`)).Output)
	assert.Equal(t, "celsius 3 fast", r.Execute(ctx, "d", json.RawMessage(`{"unit":null,"days":null,"inner":{"mode":null}}`)).Output, "null for an optional property (OpenAI strict mode) gets the default")
	assert.Equal(t, "kelvin 1 slow", r.Execute(ctx, "d", json.RawMessage(`{"unit":"kelvin","days":1,"inner":{"mode":"slow"}}`)).Output)

	type bad struct {
		Days int `json:"days,omitempty" jsonschema:"default=0,minimum=1"`
	}
	err := Register(r, "bad", "", noop[bad])
	require.ErrorIs(t, err, ErrInvalidSchema)
	assert.Contains(t, err.Error(), `struct bad: schema /properties/days: keyword "default": default 0 does not match its own schema`)
	type unparsed struct {
		Days int `json:"days,omitempty" jsonschema:"default=x"`
	}
	err = Register(r, "bad", "", noop[unparsed])
	require.ErrorIs(t, err, ErrInvalidSchema)
	assert.Contains(t, err.Error(), `field unparsed.Days: jsonschema default=x: "x" is not an integer (invopop/jsonschema would drop it)`)
}

// stamp decodes itself and describes itself; its decode error must reach
// the model without Go names.
type stamp struct{ v string }

func (s *stamp) UnmarshalJSON(b []byte) error {
	if string(b) != `"now"` {
		return errors.New("stamp.UnmarshalJSON: not a stamp")
	}
	s.v = "now"
	return nil
}

func (stamp) JSONSchema() *jsonschema.Schema { return &jsonschema.Schema{Type: "string"} }

func TestDecodeErrorNamesFieldNotGo(t *testing.T) {
	type a struct {
		When stamp `json:"when"`
	}
	r := NewRegistry()
	require.NoError(t, Register(r, "s", "", noop[a]))
	res := r.Execute(context.Background(), "s", json.RawMessage(`{"when":"later"}`))
	assert.Equal(t, `invalid arguments for "s": "when" is not valid: not a stamp`, res.Output)
}

func mustCompile(t *testing.T, schema string) *jschema.Validator {
	t.Helper()
	v, err := jschema.Compile([]byte(schema), nil)
	require.NoError(t, err)
	return v
}

func noop[A any](context.Context, A) (string, error) { return "ok", nil }

func TestHostileArguments(t *testing.T) {
	type item struct {
		N int8 `json:"n"`
	}
	type args struct {
		Items  []item         `json:"items,omitempty"`
		Keys   map[int]string `json:"keys,omitempty"`
		Blob   []byte         `json:"blob,omitempty"`
		S      *string        `json:"s,omitempty" jsonschema:"nullable"`
		Mult   int            `json:"mult,omitempty" jsonschema:"multipleOf=5"`
		Mail   string         `json:"mail,omitempty" jsonschema:"format=email"`
		Pick   string         `json:"pick,omitempty" validate:"omitempty,oneof='a b' c"`
		Sport  string         `json:"sport,omitempty" validate:"omitempty,oneof=dive swim"`
		Counts map[string]int `json:"counts,omitempty" validate:"omitempty,dive,keys,min=2,endkeys,max=3"`
		Emails []struct {
			S string `json:"s" validate:"email"`
		} `json:"emails,omitempty"`
		Bag map[string]string `json:"bag,omitempty"`
	}
	r := NewRegistry()
	require.NoError(t, Register(r, "h", "", func(_ context.Context, a args) (string, error) { return "ok", nil }))
	tool, _ := r.Get("h")
	schema := string(tool.InputSchema)
	assert.Contains(t, schema, `"pick":{"type":"string","enum":["a b","c"]}`)
	assert.Contains(t, schema, `"sport":{"type":"string","enum":["dive","swim"]}`)
	assert.Contains(t, schema, `"counts":{"type":"object","additionalProperties":{"type":"integer","maximum":3}}`)
	assert.Contains(t, schema, `"emails":{"type":"array","items":{"type":"object","properties":{"s":{"type":"string","format":"email"}}`, "no dive: the validator skips the items, but the checker enforces the keyword")
	ctx := context.Background()
	for _, c := range []struct{ args, want string }{
		{`{"items":[{"n":1},{"n":300}]}`, `"items[1].n" must be an integer between -128 and 127, got 300`},
		{`{"keys":{"abc":"x"}}`, `"keys.abc": the keys of this object must be integers, got "abc"`},
		{`{"blob":"not base64!"}`, `"blob" must be a base64 string, got a string that is not valid base64`},
		{`{"s":null}`, `ok`},
		{`{"mult":3}`, `"mult" must be a multiple of 5`},
		{`{"mail":"nope"}`, `"mail" must be an email address, got "nope"`},
		{`{"pick":"a b"}`, `ok`},
		{`{"pick":"a"}`, `"pick" must be one of ["a b", "c"]`},
		{`{"sport":"run"}`, `"sport" must be one of [dive swim]`},
		{`{"counts":{"ab":1}}`, `ok`},
		{`{"counts":{"ab":9}}`, `"counts.ab" must be at most 3`},
		{`{"counts":{"a":1}}`, `"counts.a" must have at least 2 characters`},
		{`{"emails":[{"s":"nope"}]}`, `"emails[0].s" must be an email address, got "nope"`},
		{"\u00a0null", `arguments are not valid JSON (send one JSON object)`},
		{`not json`, `arguments are not valid JSON (send one JSON object)`},
		{`nul`, `arguments are not valid JSON (send one JSON object)`},
		{`tru`, `arguments are not valid JSON (send one JSON object)`},
		{`5x`, `arguments are not valid JSON (send one JSON object)`},
		{`[1] x`, `arguments are not valid JSON (send one JSON object)`},
	} {
		res := r.Execute(ctx, "h", json.RawMessage(c.args))
		got := strings.TrimPrefix(res.Output, `invalid arguments for "h": `)
		assert.Equal(t, c.want, got, "args %s", c.args)
	}
}

func TestCrossFieldRuleNamesJSONField(t *testing.T) {
	type span struct {
		Start int `json:"start"`
		End   int `json:"end" validate:"gtfield=Start"`
	}
	r := NewRegistry()
	require.NoError(t, Register(r, "span", "", noop[span]))
	res := r.Execute(context.Background(), "span", json.RawMessage(`{"start":5,"end":2}`))
	assert.Equal(t, `invalid arguments for "span": "end" must be greater than "start"`, res.Output)
}

func TestRequiredOnPointerMeansNonNil(t *testing.T) {
	type args struct {
		S *string `json:"s" validate:"required"`
	}
	r := NewRegistry()
	require.NoError(t, Register(r, "p", "", func(_ context.Context, a args) (string, error) { return "[" + *a.S + "]", nil }))
	assert.Equal(t, "[]", r.Execute(context.Background(), "p", json.RawMessage(`{"s":""}`)).Output)
	assert.Equal(t, `invalid arguments for "p": "s" must be a string, got null`, r.Execute(context.Background(), "p", json.RawMessage(`{"s":null}`)).Output)
}

func TestDuplicateKeysRefused(t *testing.T) {
	type a struct {
		City string         `json:"city"`
		Tags map[string]int `json:"tags,omitempty"`
	}
	r := NewRegistry()
	require.NoError(t, Register(r, "d", "", noop[a]))
	ctx := context.Background()
	assert.Equal(t, `invalid arguments for "d": "city" is given more than once`, r.Execute(ctx, "d", json.RawMessage(`{"city":"a","city":"b"}`)).Output)
	assert.Equal(t, `invalid arguments for "d": "tags.x" is given more than once`, r.Execute(ctx, "d", json.RawMessage(`{"city":"a","tags":{"x":1,"x":2}}`)).Output)
}

// TestDeepArgumentsWithDefaults: a tool with defaults, called with 4 Mi
// levels of nesting, gets an error result; applying defaults used to
// recurse once per level and end the process with a stack overflow.
func TestDeepArgumentsWithDefaults(t *testing.T) {
	type args struct {
		Q    string `json:"q,omitempty" jsonschema:"default=x"`
		Unit string `json:"unit,omitempty" jsonschema:"default=celsius"`
	}
	r := NewRegistryWith(&Options{MaxArgumentBytes: 16 << 20})
	require.NoError(t, Register(r, "d", "", func(_ context.Context, a args) (string, error) { return a.Q + a.Unit, nil }))
	n := 4 << 20
	deep := `{"extra":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`
	res := r.Execute(context.Background(), "d", json.RawMessage(deep))
	require.True(t, res.IsError, res.Output)
	assert.Contains(t, res.Output, "nested more than")
	res = r.Execute(context.Background(), "d", json.RawMessage(`{}`))
	assert.Equal(t, "xcelsius", res.Output)
}

type modeArgs struct {
	Path string `json:"path" validate:"required"`
	Mode string `json:"mode,omitempty" jsonschema:"default=soft,enum=soft,enum=hard"`
}

// TestOnePassApprovalSeesDefaults: arguments that take the one-pass path
// with a default applied reach the approver (once) as the full path gives
// them: the default inserted, in Arguments and in the decoded Args.
func TestOnePassApprovalSeesDefaults(t *testing.T) {
	var reqs []ApprovalRequest
	r := NewRegistryWith(&Options{Approver: func(_ context.Context, req ApprovalRequest) Approval {
		reqs = append(reqs, req)
		return Approval{Decision: Approve}
	}})
	ran := 0
	tool, err := NewTool("rm", "", func(_ context.Context, a modeArgs) (string, error) {
		ran++
		return a.Path + " " + a.Mode, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tool.NeedsApproval = true
	if err := r.Add(tool); err != nil {
		t.Fatal(err)
	}
	res := r.Execute(context.Background(), "rm", json.RawMessage(`{"path":"a"}`))
	if res.IsError || res.Output != "a soft" || ran != 1 {
		t.Fatalf("got %+v, ran %d", res, ran)
	}
	if len(reqs) != 1 || string(reqs[0].Arguments) != `{"path":"a","mode":"soft"}` || reqs[0].Args.(modeArgs).Mode != "soft" {
		t.Fatalf("approver got %+v", reqs)
	}
}

type intMapItem struct {
	N int `json:"n" validate:"min=5"`
}

type intMapArgs struct {
	ByID   map[int]intMapItem    `json:"by_id"`
	ByName map[string]intMapItem `json:"by_name,omitempty"`
	Codes  map[int]string        `json:"codes,omitempty" validate:"omitempty,dive,min=2"`
}

// TestIntKeyedMapValuesKeepTheirRules: the values of a map with integer
// keys (patternProperties) are shown and held to their fields' rules as
// the values of a map with string keys are (a dive rule the validator
// holds them to was enforced but not shown), and registering such a type
// leaves invopop's shared FalseSchema as it was (it used to be patched as
// if it were the values' schema: the rules were lost, and concurrent
// registrations wrote the same global).
func TestIntKeyedMapValuesKeepTheirRules(t *testing.T) {
	tool, err := NewTool("items", "Items.", func(context.Context, intMapArgs) (string, error) { return "ran", nil })
	require.NoError(t, err)
	item := `{"type":"object","properties":{"n":{"type":"integer","minimum":5}},"required":["n"],"additionalProperties":false}`
	assert.JSONEq(t, `{"type":"object","properties":{
		"by_id":{"type":"object","patternProperties":{"^[0-9]+$":`+item+`},"additionalProperties":false},
		"by_name":{"type":"object","additionalProperties":`+item+`},
		"codes":{"type":"object","patternProperties":{"^[0-9]+$":{"type":"string","minLength":2}},"additionalProperties":false}},
		"required":["by_id"],"additionalProperties":false}`, string(tool.InputSchema))
	reg := NewRegistry()
	require.NoError(t, reg.Add(tool))
	res := reg.Execute(context.Background(), "items", json.RawMessage(`{"by_id":{"1":{"n":1}}}`))
	assert.True(t, res.IsError)
	assert.Equal(t, `invalid arguments for "items": "by_id.1.n" must be at least 5`, res.Output)
	assert.Equal(t, "", jsonschema.FalseSchema.Type)
	assert.Nil(t, jsonschema.FalseSchema.Properties)
	assert.Nil(t, jsonschema.FalseSchema.Required)
}

type nullableItem struct {
	V string `json:"v" validate:"min=2"`
}

type nullableArgs struct {
	Item  *nullableItem  `json:"item" jsonschema:"nullable"`
	Items []nullableItem `json:"items,omitempty" jsonschema:"nullable"`
}

// TestNullableStructField: a struct (or slice of structs) marked nullable
// takes null and its object, held to the struct's rules. The rules were
// applied to the oneOf wrapper instead, which then refused every value
// ("must be an object, got null"; "unknown property item.v").
func TestNullableStructField(t *testing.T) {
	tool, err := NewTool("n", "N.", func(_ context.Context, a nullableArgs) (string, error) {
		if a.Item == nil {
			return "nil", nil
		}
		return a.Item.V, nil
	})
	require.NoError(t, err)
	item := `{"type":"object","properties":{"v":{"type":"string","minLength":2}},"required":["v"],"additionalProperties":false}`
	assert.JSONEq(t, `{"type":"object","properties":{
		"item":{"oneOf":[`+item+`,{"type":"null"}]},
		"items":{"oneOf":[{"type":"array","items":`+item+`},{"type":"null"}]}},
		"required":["item"],"additionalProperties":false}`, string(tool.InputSchema))
	reg := NewRegistry()
	require.NoError(t, reg.Add(tool))
	for in, want := range map[string]string{
		`{"item":null}`:                            "nil",
		`{"item":{"v":"xy"}}`:                      "xy",
		`{"item":{"v":"xy"},"items":[{"v":"ab"}]}`: "xy",
		`{"item":{"v":"x"}}`:                       `invalid arguments for "n": "item.v" must have at least 2 characters`,
		`{"item":null,"items":[{"v":"a"}]}`:        `invalid arguments for "n": "items[0].v" must have at least 2 characters`,
	} {
		assert.Equal(t, want, reg.Execute(context.Background(), "n", json.RawMessage(in)).Output, in)
	}
}

// caseOpenArgs allows properties of its own schema does not name, so
// "PATH" passes the schema as an extra property; encoding/json would still
// match it to Path case-insensitively, decoding past the pattern shown.
type caseOpenArgs struct {
	Path string `json:"path" jsonschema:"pattern=^/safe"`
}

func (caseOpenArgs) JSONSchemaExtend(s *jsonschema.Schema) {
	s.AdditionalProperties = jsonschema.TrueSchema
}

func TestExtraKeyDiffersOnlyInCase(t *testing.T) {
	reg := NewRegistry()
	var got []string
	require.NoError(t, Register(reg, "open", "Open a path.", func(_ context.Context, a caseOpenArgs) (string, error) {
		got = append(got, a.Path)
		return a.Path, nil
	}))
	for _, args := range []string{`{"path":"/safe","PATH":"/etc/passwd"}`, `{"PATH":"/etc/passwd"}`, `{"path":"/safe","paTh":"/etc"}`} {
		res := reg.Execute(context.Background(), "open", json.RawMessage(args))
		assert.True(t, res.IsError, "%s ran with %q", args, res.Output)
		assert.Contains(t, res.Output, "property names are case-sensitive", args)
	}
	res := reg.Execute(context.Background(), "open", json.RawMessage(`{"path":"/safe/x","other":1}`))
	assert.False(t, res.IsError, res.Output)
	assert.Equal(t, []string{"/safe/x"}, got)
}
