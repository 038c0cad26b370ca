package toolnexus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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

func noop[A any](context.Context, A) (string, error) { return "ok", nil }

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
		{Register(NewRegistry(), "t", "", noop[badBoolOneof]), `invalid validate tag: Bad field type bool`},
		{Register(NewRegistry(), "t", "", noop[badParam]), `invalid validate tag`},
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

func TestGoexitAndInvalidUTF8(t *testing.T) {
	type none struct{}
	r := NewRegistry()
	require.NoError(t, Register(r, "goexit", "", func(context.Context, none) (string, error) {
		runtime.Goexit()
		return "", nil
	}))
	require.NoError(t, Register(r, "badutf8", "", func(context.Context, none) (string, error) {
		return "", errors.New("\xffbad")
	}))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res := r.Execute(ctx, "goexit", nil)
	assert.Equal(t, `tool "goexit" failed: internal error`, res.Output)
	assert.EqualError(t, res.Err, `tool "goexit": the handler called runtime.Goexit`)
	res = r.Execute(context.Background(), "badutf8", nil)
	assert.Equal(t, "\uFFFDbad", res.Output)
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
		{kitchenSink{}, true}, // uuid, email, url, numeric
		{struct {
			S string   `json:"s" validate:"required"`
			L []string `json:"l" validate:"required,dive,min=1"`
		}{}, false},
		{struct {
			M map[string]int `json:"m" validate:"min=1"`
		}{}, true},
	} {
		info, err := typeInfoFor(reflect.TypeOf(c.typ))
		require.NoError(t, err)
		assert.Equal(t, c.need, info.needValidator, "%T", c.typ)
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

func TestRequiredOnPointerMeansNonNil(t *testing.T) {
	type args struct {
		S *string `json:"s" validate:"required"`
	}
	r := NewRegistry()
	require.NoError(t, Register(r, "p", "", func(_ context.Context, a args) (string, error) { return "[" + *a.S + "]", nil }))
	assert.Equal(t, "[]", r.Execute(context.Background(), "p", json.RawMessage(`{"s":""}`)).Output)
	assert.Equal(t, `invalid arguments for "p": "s" must be a string, got null`, r.Execute(context.Background(), "p", json.RawMessage(`{"s":null}`)).Output)
}
