package toolnexus

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net"
	"net/netip"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// Every Go type tells the truth (issue 10 point 4): a type that decodes
// from JSON its own way is advertised as the JSON it accepts.

type stdArgs struct {
	T  time.Time       `json:"t"`
	N  json.Number     `json:"n"`
	R  json.RawMessage `json:"r"`
	IP netip.Addr      `json:"ip"`
	P  netip.Prefix    `json:"p"`
	NI net.IP          `json:"ni"`
	BI *big.Int        `json:"bi"`
	BF *big.Float      `json:"bf"`
	BR *big.Rat        `json:"br"`
	B  []byte          `json:"b"`
}

func TestStandardTypesSchema(t *testing.T) {
	s, err := SchemaFor[stdArgs]()
	require.NoError(t, err)
	props := map[string]json.RawMessage{}
	var root struct {
		Properties json.RawMessage `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(s, &root))
	require.NoError(t, json.Unmarshal(root.Properties, &props))
	want := map[string]string{
		"t":  `{"type":"string","format":"date-time"}`,
		"n":  `{"type":"number"}`,
		"r":  `{}`,
		"ip": `{"type":"string","anyOf":[{"format":"ipv4"},{"format":"ipv6"}]}`,
		"p":  `{"type":"string","pattern":"^[0-9A-Fa-f.:]+/[0-9]{1,3}$"}`,
		"ni": `{"type":"string","anyOf":[{"format":"ipv4"},{"format":"ipv6"}]}`,
		"bi": `{"type":"integer"}`,
		"bf": `{"type":"string","pattern":"^[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?$"}`,
		"br": `{"type":"string","pattern":"^[-+]?[0-9]+(/[0-9]+|\\.[0-9]+)?$"}`,
		"b":  `{"type":"string","contentEncoding":"base64"}`,
	}
	for k, w := range want {
		assert.Equal(t, w, string(props[k]), "property %q", k)
	}
}

func TestStandardTypesDecode(t *testing.T) {
	r := NewRegistry()
	var got stdArgs
	require.NoError(t, Register(r, "std", "", func(_ context.Context, a stdArgs) (string, error) { got = a; return "ok", nil }))
	ctx := context.Background()
	good := `{"t":"2026-01-02T15:04:05Z","n":12.5,"r":[1,{"a":null}],"ip":"10.0.0.1","p":"10.0.0.0/8","ni":"::1","bi":123456789012345678901234567890,"bf":"3.25","br":"1/3","b":"aGk="}`
	res := r.Execute(ctx, "std", json.RawMessage(good))
	require.Equal(t, "ok", res.Output)
	assert.Equal(t, "12.5", got.N.String())
	assert.Equal(t, `[1,{"a":null}]`, string(got.R))
	assert.Equal(t, "10.0.0.1", got.IP.String())
	assert.Equal(t, "10.0.0.0/8", got.P.String())
	assert.Equal(t, "123456789012345678901234567890", got.BI.String())
	assert.Equal(t, "1/3", got.BR.String())
	assert.Equal(t, "hi", string(got.B))

	for _, c := range []struct{ args, want string }{
		{`{"n":"12"}`, `"n" must be a number, got a string`},
		{`{"ip":"10.0.0.300"}`, `"ip" must be an IPv4 or IPv6 address, got "10.0.0.300"`},
		{`{"ni":"nope"}`, `"ni" must be an IPv4 or IPv6 address, got "nope"`},
		{`{"p":"10.0.0.0/99"}`, `"p" must be an IP network prefix in CIDR notation, e.g. 10.0.0.0/8 or 2001:db8::/32, got "10.0.0.0/99"`},
		{`{"bi":"12"}`, `"bi" must be an integer, got a string`},
		{`{"bi":1.5}`, `"bi" must be an integer, got 1.5`},
		{`{"br":"1/0"}`, `"br" must be a rational number written as a string: a fraction such as "1/3" or a decimal such as "0.25", got "1/0"`},
	} {
		// the good arguments with one value replaced
		obj := map[string]json.RawMessage{}
		require.NoError(t, json.Unmarshal([]byte(good), &obj))
		bad := map[string]json.RawMessage{}
		require.NoError(t, json.Unmarshal([]byte(c.args), &bad))
		for k, v := range bad {
			obj[k] = v
		}
		b, _ := json.Marshal(obj)
		res := r.Execute(ctx, "std", b)
		assert.Equal(t, `invalid arguments for "std": `+c.want, res.Output, c.args)
		for _, leak := range []string{"Unmarshal", "Parse", "netip", "big.", "Go "} {
			assert.NotContains(t, res.Output, leak, c.args)
		}
	}
}

type withDuration struct {
	Wait time.Duration `json:"wait"`
}

type withURL struct {
	Site url.URL `json:"site"`
}

// celsius decodes itself and has no schema of its own.
type celsius float64

func (c *celsius) UnmarshalText(b []byte) error { return nil }

type withCelsius struct {
	Temp celsius `json:"temp"`
}

type embedsTime struct {
	time.Time
}

type withEmbedsTime struct {
	When embedsTime `json:"when"`
}

func TestTypesThatCannotTellTheTruthAreRefused(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{Register(NewRegistry(), "t", "", noop[withDuration]), `field withDuration.Wait (time.Duration): a JSON number would arrive as nanoseconds; declare it as a string holding a Go duration ("90s", "1h30m") and parse it with time.ParseDuration, or as an integer number of seconds`},
		{Register(NewRegistry(), "t", "", noop[withURL]), `field withURL.Site (url.URL): encoding/json decodes url.URL from an object of its Go fields, not from a URL string; declare it as a string with jsonschema:"format=uri" (or validate:"url") and parse it with url.Parse`},
		{Register(NewRegistry(), "t", "", noop[withCelsius]), `field withCelsius.Temp (toolnexus.celsius): the type decodes JSON itself (UnmarshalText), so its fields do not describe its JSON form; give it a method JSONSchema() *jsonschema.Schema that describes the JSON it accepts, or use a plain type`},
		{Register(NewRegistry(), "t", "", noop[withEmbedsTime]), `field withEmbedsTime.When (toolnexus.embedsTime): the type decodes JSON itself (UnmarshalJSON, promoted from an embedded field), so its fields do not describe its JSON form; give it a method JSONSchema() *jsonschema.Schema that describes the JSON it accepts, or use a plain type`},
	} {
		require.Error(t, c.err, c.want)
		assert.ErrorIs(t, c.err, ErrInvalidSchema)
		assert.Contains(t, c.err.Error(), c.want)
	}
}

// priority is the usual Go enum type: its schema comes from a method.
type priority string

func (priority) JSONSchema() *jsonschema.Schema {
	max := uint64(6)
	return &jsonschema.Schema{Type: "string", Enum: []any{"low", "high"}, MaxLength: &max}
}

type level int

func (level) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Minimum: "1", Maximum: "5"}
}

func TestJSONSchemaMethodIsEnforced(t *testing.T) {
	type args struct {
		P priority `json:"p"`
		L level    `json:"l,omitempty"`
	}
	r := NewRegistry()
	require.NoError(t, Register(r, "m", "", func(_ context.Context, a args) (string, error) { return string(a.P), nil }))
	tool, _ := r.Get("m")
	assert.Equal(t, `{"type":"object","properties":{"p":{"type":"string","enum":["low","high"],"maxLength":6},"l":{"type":"integer","maximum":5,"minimum":1}},"required":["p"],"additionalProperties":false}`, string(tool.InputSchema))
	ctx := context.Background()
	assert.Equal(t, "high", r.Execute(ctx, "m", json.RawMessage(`{"p":"high","l":5}`)).Output)
	assert.Equal(t, `invalid arguments for "m": "p" must be one of [low high]; "l" must be at most 5`,
		r.Execute(ctx, "m", json.RawMessage(`{"p":"medium","l":99}`)).Output)
}

func TestRequiredOnBoolOrNumberIsRefused(t *testing.T) {
	type b struct {
		On bool `json:"on" validate:"required"`
	}
	type n struct {
		Count int `json:"count" validate:"required"`
	}
	err := Register(NewRegistry(), "t", "", noop[b])
	require.ErrorIs(t, err, ErrInvalidSchema)
	assert.Contains(t, err.Error(), `field b.On: validate "required" on a bool refuses false, which the schema allows; the property is already required (its json tag has no omitempty): drop the rule, or use *bool to require the key while allowing false`)
	err = Register(NewRegistry(), "t", "", noop[n])
	require.ErrorIs(t, err, ErrInvalidSchema)
	assert.Contains(t, err.Error(), `field n.Count: validate "required" on a number refuses 0, which the schema allows; the property is already required (its json tag has no omitempty): drop the rule, use *int to require the key while allowing 0, or state the bound (min=1, gt=0, ne=0)`)
}

// validate:"required" on a string means not empty: shown as minLength 1. On
// a slice (validator: not nil) it means present and not null, which the
// schema already says.
func TestRequiredOnStringAndSliceIsShown(t *testing.T) {
	type a struct {
		S string   `json:"s" validate:"required"`
		L []string `json:"l" validate:"required"`
	}
	s, err := SchemaFor[a]()
	require.NoError(t, err)
	assert.Equal(t, `{"type":"object","properties":{"s":{"type":"string","minLength":1},"l":{"type":"array","items":{"type":"string"}}},"required":["s","l"],"additionalProperties":false}`, string(s))
}

func TestSchemaTagSpaceAfterComma(t *testing.T) {
	type a struct {
		S string `json:"s" jsonschema:"minLength=2, maxLength=5"`
	}
	err := Register(NewRegistry(), "sp", "", noop[a])
	require.ErrorIs(t, err, ErrInvalidSchema)
	assert.Contains(t, err.Error(), `field a.S: jsonschema tag entry " maxLength=5" starts with a space, which invopop/jsonschema reads as an unknown key and drops; remove the space after the comma`)
}

type pair[K comparable, V any] struct {
	Key  K              `json:"key"`
	Val  V              `json:"val"`
	Next *pair[K, V]    `json:"next,omitempty"`
	Meta map[string]int `json:"meta,omitempty"`
}

type genericHolder struct {
	P pair[string, *url.Userinfo] `json:"-"`
	Q pair[string, int]           `json:"q"`
}

func TestGenericDefsNamesResolve(t *testing.T) {
	s, err := SchemaFor[pair[string, netip.Addr]]()
	require.NoError(t, err)
	var doc struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(s, &doc))
	require.NotEmpty(t, doc.Defs)
	for name := range doc.Defs {
		for _, c := range name {
			ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
			assert.True(t, ok, "$defs name %q has %q", name, c)
		}
	}
	for _, ref := range refsIn(string(s)) {
		name := strings.TrimPrefix(ref, "#/$defs/")
		_, ok := doc.Defs[name]
		assert.True(t, ok, "$ref %q does not resolve", ref)
	}
	_, err = SchemaFor[genericHolder]()
	require.NoError(t, err)
}

func refsIn(s string) []string {
	var out []string
	for {
		i := strings.Index(s, `"$ref":"`)
		if i < 0 {
			return out
		}
		s = s[i+8:]
		j := strings.IndexByte(s, '"')
		out = append(out, s[:j])
		s = s[j:]
	}
}

// Reproducers from an adversarial review of the core, kept as regression tests.

type SelfEmbed struct {
	*SelfEmbed
	X int `json:"x,omitempty"`
}

type recUnm struct {
	Kids []recUnm `json:"kids,omitempty"`
}

func (r *recUnm) UnmarshalJSON(b []byte) error {
	type plain recUnm
	return json.Unmarshal(b, (*plain)(r))
}

type hasRecUnm struct {
	R recUnm `json:"r"`
}

type recText struct {
	Kids []recText `json:"kids,omitempty"`
}

func (r *recText) UnmarshalText([]byte) error { return nil }

type hasRecText struct {
	R recText `json:"r"`
}

func TestHostileTypesNeverCrash(t *testing.T) {
	err := Register(NewRegistry(), "s", "", noop[SelfEmbed])
	require.ErrorIs(t, err, ErrInvalidSchema)
	assert.Contains(t, err.Error(), "struct SelfEmbed embeds itself")

	// Recursive types that decode themselves: refused (no schema of their
	// own), never a crash.
	for name, reg := range map[string]func(*Registry) error{
		"UnmarshalJSON": func(r *Registry) error { return Register(r, "u", "", noop[hasRecUnm]) },
		"UnmarshalText": func(r *Registry) error { return Register(r, "u", "", noop[hasRecText]) },
	} {
		err := reg(NewRegistry())
		require.ErrorIs(t, err, ErrInvalidSchema, name)
		assert.Contains(t, err.Error(), "the type decodes JSON itself ("+name+")", name)
	}
}

func TestSchemaAndRuntimeAgree(t *testing.T) {
	type dashComma struct {
		X string `json:"-,"`
	}
	type badName struct {
		X string `json:"it's"`
	}
	type twoSame struct {
		DA
		DB
	}
	type withUnm struct{ recUnm }
	type stringer struct {
		R fmt.Stringer `json:"r,omitempty"`
	}
	type typeOverride struct {
		S string `json:"s" jsonschema:"type=integer"`
	}
	type constTag struct {
		S string `json:"s" jsonschema:"const=x"`
	}
	type minLenOnInt struct {
		N int `json:"n" jsonschema:"minLength=2"`
	}
	type inner struct{ Q int }
	type embedUnexportedPtr struct {
		*inner
		W int `json:"w"`
	}
	type badBoolOneof struct {
		B bool `json:"b,omitempty" validate:"omitempty,min=1"`
	}
	type optionalWithoutOmitempty struct {
		Days *int `json:"days,omitempty" validate:"min=1"`
	}
	type badParam struct {
		N int `json:"n,omitempty" validate:"omitempty,gt=abc"`
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{Register(NewRegistry(), "t", "", noop[dashComma]), `a property named "-" (json:"-,") is not supported`},
		{Register(NewRegistry(), "t", "", noop[badName]), `json name "it's" is not one encoding/json accepts`},
		{Register(NewRegistry(), "t", "", noop[twoSame]), `JSON property "V" is declared by 2 fields at the same depth`},
		{Register(NewRegistry(), "t", "", noop[withUnm]), `has its own UnmarshalJSON or UnmarshalText`},
		{Register(NewRegistry(), "t", "", noop[stringer]), `interface types with methods cannot be decoded from JSON`},
		{Register(NewRegistry(), "t", "", noop[typeOverride]), `jsonschema type=integer contradicts the Go type string (string)`},
		{Register(NewRegistry(), "t", "", noop[constTag]), `jsonschema key "const" is not one invopop/jsonschema knows`},
		{Register(NewRegistry(), "t", "", noop[minLenOnInt]), `jsonschema key "minLength" does not apply to a number field`},
		{Register(NewRegistry(), "t", "", noop[embedUnexportedPtr]), `embedded field inner is a pointer to an unexported struct`},
		{Register(NewRegistry(), "t", "", noop[badBoolOneof]), `validate tag "omitempty,min=1": rule "min" does not apply to a Go bool; remove it or use a rule for that type`},
		{Register(NewRegistry(), "t", "", noop[badParam]), `validate tag "omitempty,gt=abc": rule "gt" cannot read its parameter "abc" as a number for a Go int; fix the parameter`},
		{Register(NewRegistry(), "t", "", noop[optionalWithoutOmitempty]), `field optionalWithoutOmitempty.Days is optional (json omitempty/omitzero) but its validate rules "min=1" also run when the model leaves it out (on the zero value); start the tag with omitempty: validate:"omitempty,min=1"`},
	} {
		require.Error(t, c.err, c.want)
		assert.ErrorIs(t, c.err, ErrInvalidSchema)
		assert.Contains(t, c.err.Error(), c.want)
	}
}

type x1 struct {
	DA
	DB
}

type DA struct{ V int }

type DB struct{ V int }

type D3 struct{ V int }

type shadow struct {
	x1
	D3
}

type T1 struct {
	Foo string `json:"Name"`
}

type T2 struct{ Name string }

type taggedWins struct {
	T1
	T2
}

func TestEmbeddedDominanceLikeEncodingJSON(t *testing.T) {
	r := NewRegistry()
	require.NoError(t, Register(r, "shadow", "", func(_ context.Context, a shadow) (string, error) { return fmt.Sprint(a.D3.V), nil }))
	assert.Equal(t, "7", r.Execute(context.Background(), "shadow", json.RawMessage(`{"V":7}`)).Output)
	require.NoError(t, Register(r, "tagged", "", func(_ context.Context, a taggedWins) (string, error) { return a.Foo + "|" + a.T2.Name, nil }))
	assert.Equal(t, "x|", r.Execute(context.Background(), "tagged", json.RawMessage(`{"Name":"x"}`)).Output)
}

func TestValidatorSkippedOnlyWhenMirrored(t *testing.T) {
	// The schema shows presence, oneof, bounds, lengths and required (not
	// empty, on a string) and the engine enforces them; the validator runs
	// only for other rules.
	for _, c := range []struct {
		typ  any
		need bool
	}{
		{weatherArgs{}, false},
		{tripArgs{}, false},
		{kitchenSink{}, true}, // numeric
		{struct {
			S string   `json:"s" validate:"required"`
			L []string `json:"l" validate:"required,dive,min=1"`
		}{}, false},
		{struct {
			M map[string]int `json:"m" validate:"min=1"`
		}{}, true},
		{struct { // formats the schema shows and the engine asserts
			E string `json:"e" validate:"email"`
			U string `json:"u" validate:"uuid"`
		}{}, false},
		{struct { // a jsonschema format takes the place of the rule's
			E string `json:"e" jsonschema:"format=hostname" validate:"email"`
		}{}, true},
	} {
		info, err := typeInfoFor(reflect.TypeOf(c.typ))
		require.NoError(t, err)
		assert.Equal(t, c.need, info.NeedValidator, "%T", c.typ)
	}
	type zeros struct {
		S string   `json:"s" validate:"required"`
		L []string `json:"l" validate:"required,dive,min=1"`
	}
	r := NewRegistry()
	require.NoError(t, Register(r, "z", "", noop[zeros]))
	res := r.Execute(context.Background(), "z", json.RawMessage(`{"s":"","l":[""]}`))
	assert.Equal(t, `invalid arguments for "z": "s" must have at least 1 character; "l[0]" must have at least 1 character`, res.Output)
	assert.Equal(t, "ok", r.Execute(context.Background(), "z", json.RawMessage(`{"s":"x","l":[]}`)).Output, "required on a slice: present and not null, as validator means it")
	assert.Equal(t, "ok", r.Execute(context.Background(), "z", json.RawMessage(`{"s":"x","l":["x"]}`)).Output)
}

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
		`"home":{"type":"object","properties":{"street":{"type":"string"},"zip":{"type":"string","description":"It must contain only digits.","maxLength":5,"minLength":5}},"required":["street"],"additionalProperties":false},` +
		`"work":{"type":"object","properties":{"street":{"type":"string"},"zip":{"type":"string","description":"It must contain only digits.","maxLength":5,"minLength":5}},"required":["street"],"additionalProperties":false},` +
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
		`toolnexus: tool "s": invalid input schema: field badRule.N: validate tag "min=1,bogus_rule": there is no rule "bogus_rule"; check its spelling against go-playground/validator's list of rules`})
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

// TestValidateRuleStricterThanSchemaTag: a validate rule and a jsonschema tag
// (or two validate rules) on the same keyword are shown as the stricter of
// the two, which is what Execute holds the model to; a oneof and an enum
// with no value in common cannot be shown and are refused at registration.
func TestValidateRuleStricterThanSchemaTag(t *testing.T) {
	type args struct {
		N    int      `json:"n" jsonschema:"minimum=1,maximum=100" validate:"min=5,max=200"`
		S    string   `json:"s" jsonschema:"enum=a,enum=b" validate:"oneof=a c"`
		Word string   `json:"word,omitempty" validate:"omitempty,min=3,len=5"`
		List []string `json:"list,omitempty" jsonschema:"maxItems=4" validate:"omitempty,max=2"`
	}
	tool, err := NewTool("t", "", func(_ context.Context, a args) (string, error) { return fmt.Sprint(a), nil })
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object","properties":{
		"n":{"type":"integer","minimum":5,"maximum":100},
		"s":{"type":"string","enum":["a"]},
		"word":{"type":"string","minLength":5,"maxLength":5},
		"list":{"type":"array","items":{"type":"string"},"maxItems":2}},
		"required":["n","s"],"additionalProperties":false}`, string(tool.InputSchema))
	r := NewRegistry()
	require.NoError(t, r.Add(tool))
	res := r.Execute(context.Background(), "t", json.RawMessage(`{"n":2,"s":"b","word":"abcd","list":["x","y","z"]}`))
	assert.True(t, res.IsError)
	assert.Equal(t, `invalid arguments for "t": "n" must be at least 5; "s" must be one of [a]; "word" must have exactly 5 characters; "list" must have at most 2 items`, res.Output)
	res = r.Execute(context.Background(), "t", json.RawMessage(`{"n":100,"s":"a","word":"abcde","list":["x","y"]}`))
	assert.False(t, res.IsError, res.Output)

	type disjoint struct {
		S string `json:"s" jsonschema:"enum=a,enum=b" validate:"oneof=c d"`
	}
	_, err = NewTool("d", "", func(context.Context, disjoint) (string, error) { return "", nil })
	require.ErrorIs(t, err, ErrInvalidSchema)
	assert.Contains(t, err.Error(), `validate rule oneof=c d allows none of the jsonschema enum [a b]`)
}

// TestRulesWithoutKeywordAreShown: a validate rule no JSON Schema keyword
// carries (eq, ne, alpha, a cross-field rule, a|b, ...) is still shown to
// the model, as a sentence in the property's description, and Execute
// holds the model to it.
func TestRulesWithoutKeywordAreShown(t *testing.T) {
	type args struct {
		Mode  string `json:"mode" jsonschema:"description=How to run" validate:"eq=fast"`
		Code  string `json:"code" validate:"alpha"`
		N     int    `json:"n" validate:"ne=3"`
		Start int    `json:"start"`
		End   int    `json:"end" validate:"gtfield=Start"`
		Kind  string `json:"kind,omitempty"`
		Alt   string `json:"alt,omitempty" validate:"omitempty,startswith=ab|endswith=yz"`
	}
	tool, err := NewTool("t", "", func(context.Context, args) (string, error) { return "ran", nil })
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object","properties":{
		"mode":{"type":"string","description":"How to run. It must be fast."},
		"code":{"type":"string","description":"It must contain only letters."},
		"n":{"type":"integer","description":"It must not be 3."},
		"start":{"type":"integer"},
		"end":{"type":"integer","description":"It must be greater than the \"start\" property."},
		"kind":{"type":"string"},
		"alt":{"type":"string","description":"It must pass the validate rule \"startswith=ab|endswith=yz\"."}},
		"required":["mode","code","n","start","end"],"additionalProperties":false}`, string(tool.InputSchema))
	r := NewRegistry()
	require.NoError(t, r.Add(tool))
	res := r.Execute(context.Background(), "t", json.RawMessage(`{"mode":"slow","code":"a1","n":3,"start":5,"end":5,"kind":"pro","alt":"zz"}`))
	assert.True(t, res.IsError)
	for _, field := range []string{`"mode"`, `"code"`, `"n"`, `"end"`, `"alt"`} {
		assert.Contains(t, res.Output, field)
	}
	res = r.Execute(context.Background(), "t", json.RawMessage(`{"mode":"fast","code":"ab","n":4,"start":1,"end":2,"kind":"pro","alt":"abc"}`))
	assert.Equal(t, "ran", res.Output)
}

// TestConditionalRequiredOnOptionalField: required_if and its kin on an
// optional field are accepted without omitempty (which would switch them
// off), shown in the description and enforced.
func TestConditionalRequiredOnOptionalField(t *testing.T) {
	type args struct {
		Kind string `json:"kind"`
		Plan string `json:"plan,omitempty" validate:"required_if=Kind pro"`
		Note string `json:"note,omitempty" validate:"excluded_with=Plan"`
	}
	tool, err := NewTool("t", "", func(_ context.Context, a args) (string, error) { return a.Kind + ":" + a.Plan, nil })
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object","properties":{
		"kind":{"type":"string"},
		"plan":{"type":"string","description":"Required when \"kind\" is pro."},
		"note":{"type":"string","description":"Must be left out when any of \"plan\" is given."}},
		"required":["kind"],"additionalProperties":false}`, string(tool.InputSchema))
	r := NewRegistry()
	require.NoError(t, r.Add(tool))
	res := r.Execute(context.Background(), "t", json.RawMessage(`{"kind":"pro"}`))
	assert.True(t, res.IsError)
	assert.Contains(t, res.Output, `"plan"`)
	res = r.Execute(context.Background(), "t", json.RawMessage(`{"kind":"pro","plan":"gold","note":"x"}`))
	assert.True(t, res.IsError)
	assert.Contains(t, res.Output, `"note"`)
	assert.Equal(t, "basic:", r.Execute(context.Background(), "t", json.RawMessage(`{"kind":"basic"}`)).Output)
	assert.Equal(t, "pro:gold", r.Execute(context.Background(), "t", json.RawMessage(`{"kind":"pro","plan":"gold"}`)).Output)

	type mixed struct {
		Kind string `json:"kind"`
		Plan string `json:"plan,omitempty" validate:"required_if=Kind pro,min=3"`
	}
	_, err = NewTool("m", "", func(context.Context, mixed) (string, error) { return "", nil })
	require.ErrorIs(t, err, ErrInvalidSchema, "min=3 would run on the zero value of an optional field")
}

// A nested type with the Go name of another type (two function-local
// types, or pkg.Args inside main.Args) keeps its own schema: invopop files
// types by name, so the last one of a name replaced the others, the root
// included. Found by review.
func TestNestedTypeNamedLikeAnother(t *testing.T) {
	type Args struct {
		Z int `json:"z"`
	}
	type innerArgs = Args
	type Item struct {
		Z int `json:"z"`
	}
	type itemA = Item
	{
		type Args struct {
			Query string    `json:"query" validate:"required"`
			Sub   innerArgs `json:"sub"`
		}
		reg := NewRegistry()
		require.NoError(t, Register(reg, "search", "Search.", func(ctx context.Context, a Args) (string, error) {
			return fmt.Sprintf("query=%s z=%d", a.Query, a.Sub.Z), nil
		}))
		tool, _ := reg.Get("search")
		assert.JSONEq(t, `{"type":"object","properties":{"query":{"type":"string","minLength":1},`+
			`"sub":{"type":"object","properties":{"z":{"type":"integer"}},"required":["z"],"additionalProperties":false}},`+
			`"required":["query","sub"],"additionalProperties":false}`, string(tool.InputSchema))
		res := reg.Execute(context.Background(), "search", json.RawMessage(`{"query":"go","sub":{"z":1}}`))
		assert.False(t, res.IsError, res.Output)
		assert.Equal(t, "query=go z=1", res.Output)
		res = reg.Execute(context.Background(), "search", json.RawMessage(`{"z":1}`))
		assert.True(t, res.IsError, res.Output)

		type Item struct {
			Name string `json:"name"`
		}
		type Node struct {
			Kids []*Node `json:"kids,omitempty"`
			A    itemA   `json:"a"`
			B    Item    `json:"b"`
		}
		require.NoError(t, Register(reg, "tree", "Tree.", func(ctx context.Context, n Node) (string, error) {
			return fmt.Sprintf("a=%d b=%s", n.A.Z, n.B.Name), nil
		}))
		res = reg.Execute(context.Background(), "tree", json.RawMessage(`{"a":{"z":1},"b":{"name":"x"}}`))
		assert.False(t, res.IsError, res.Output)
		assert.Equal(t, "a=1 b=x", res.Output)
		res = reg.Execute(context.Background(), "tree", json.RawMessage(`{"a":{"z":1},"b":{"z":1}}`))
		assert.True(t, res.IsError, res.Output)
	}
}

// reviewByte is a named byte without methods: encoding/json reads a
// []reviewByte as base64, as it reads a []byte.
type reviewByte uint8

// A slice of a named byte type is shown as what Execute takes, a base64
// string (invopop showed an array of integers, which the checker refused).
// Found by review.
func TestNamedByteSliceIsBase64(t *testing.T) {
	type args struct {
		B []reviewByte `json:"b"`
	}
	reg := NewRegistry()
	require.NoError(t, Register(reg, "bytes", "Bytes.", func(ctx context.Context, a args) (string, error) {
		return fmt.Sprint(a.B), nil
	}))
	tool, _ := reg.Get("bytes")
	assert.JSONEq(t, `{"type":"object","properties":{"b":{"type":"string","contentEncoding":"base64"}},"required":["b"],"additionalProperties":false}`,
		string(tool.InputSchema))
	res := reg.Execute(context.Background(), "bytes", json.RawMessage(`{"b":"AQI="}`))
	assert.False(t, res.IsError, res.Output)
	assert.Equal(t, "[1 2]", res.Output)
	res = reg.Execute(context.Background(), "bytes", json.RawMessage(`{"b":[1,2]}`))
	assert.True(t, res.IsError, res.Output)
}

type ownDescribed string

func (ownDescribed) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Title: "Colour", Description: "a colour name", Enum: []any{"red", "blue"}}
}

type withOwnDescribed struct {
	C ownDescribed  `json:"c"`
	P *ownDescribed `json:"p,omitempty"`
	T ownDescribed  `json:"t" jsonschema:"description=the tag's words win"`
}

type diveOnString struct {
	N string `json:"n" validate:"dive,min=1"`
}

// TestRegistrationNamesFieldAndFix: a misused rule is a registration error
// naming the Go field and the fix, not the validator's raw text. (A json tag
// on an unexported field is TestUnexportedTagged in internal/argtype: go vet
// refuses such a field in this package's own source.)
func TestRegistrationNamesFieldAndFix(t *testing.T) {
	_, err := NewTool("d", "d", noop[diveOnString])
	require.EqualError(t, err, `toolnexus: tool "d": invalid input schema: field diveOnString.N: validate tag "dive,min=1": rule "dive" applies only to slices, arrays and maps, not to a Go string; remove "dive" and write the rules after it for the field itself`)
}

// TestOwnSchemaDescriptionKept: the description of a type's own JSONSchema
// reaches the property (invopop dropped it, keeping the title), unless the
// field's tag gives one.
func TestOwnSchemaDescriptionKept(t *testing.T) {
	tool, err := NewTool("c", "d", noop[withOwnDescribed])
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object","properties":{
		"c":{"type":"string","title":"Colour","description":"a colour name","enum":["red","blue"]},
		"p":{"type":"string","title":"Colour","description":"a colour name","enum":["red","blue"]},
		"t":{"type":"string","title":"Colour","description":"the tag's words win","enum":["red","blue"]}},
		"required":["c","t"],"additionalProperties":false}`, string(tool.InputSchema))
}
