package toolnexus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
