package toolnexus

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckArguments(t *testing.T) {
	calls := 0
	echo := HandlerFunc(func(_ context.Context, args json.RawMessage) (string, error) { calls++; return string(args), nil })
	schema := json.RawMessage(`{"type":"object","properties":{"q":{"type":"string","minLength":2},"n":{"type":"integer","maximum":5},"m":{"type":"object","additionalProperties":{"type":"integer"}}},"required":["q"],"additionalProperties":false}`)
	h, unchecked := CheckArguments("search", schema, echo)
	assert.Equal(t, "", unchecked)
	r := NewRegistry()
	require.NoError(t, r.Add(Tool{Name: "search", InputSchema: schema, Handler: h}))
	ctx := context.Background()
	assert.Equal(t, `{"q":"go","n":null}`, r.Execute(ctx, "search", json.RawMessage(`{"q":"go","n":null}`)).Output, "valid arguments reach the handler unchanged")
	res := r.Execute(ctx, "search", json.RawMessage(`{"q":"g","n":7,"x":1}`))
	assert.Equal(t, `invalid arguments for "search": "q" must have at least 2 characters; "n" must be at most 5; unknown property "x"; allowed: q, n, m`, res.Output)
	assert.ErrorIs(t, res.Err, ErrInvalidArguments)
	res = r.Execute(ctx, "search", json.RawMessage(`{"q":"go","m":{"a":1,"a":2}}`))
	assert.Equal(t, `invalid arguments for "search": "m.a" is given more than once`, res.Output, "duplicate keys in a map are refused (issue 12 point 4)")
	assert.Equal(t, `invalid arguments for "search": arguments are not valid JSON (send one JSON object)`, r.Execute(ctx, "search", json.RawMessage(`nope`)).Output)
	assert.Equal(t, 1, calls)

	// A keyword the engine does not enforce is reported, never refused.
	_, unchecked = CheckArguments("x", json.RawMessage(`{"type":"object","properties":{"e":{"type":"string","format":"idn-email"}}}`), echo)
	assert.Equal(t, `not checked locally: schema /properties/e: keyword "format": format "idn-email" is not checked by the validator`, unchecked)
	// A schema the engine cannot compile leaves every check to the handler.
	h, unchecked = CheckArguments("x", json.RawMessage(`{"type":"object","properties":{"a":{"type":"string","pattern":"(?<=x)"}}}`), echo)
	assert.Contains(t, unchecked, `arguments are not checked locally: schema /properties/a: keyword "pattern"`)
	assert.Equal(t, `{"a":1}`, h.Call(ctx, json.RawMessage(`{"a":1}`)).Output)
}
