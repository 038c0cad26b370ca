package render

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
)

func TestAnthropicRootRules(t *testing.T) {
	for _, c := range []struct {
		schema, msg string
	}{
		{`{"type":"object","anyOf":[{"required":["a"]},{"required":["b"]}]}`, `/anyOf: Anthropic refuses anyOf at the root`},
		{`{"oneOf":[{"type":"object"}],"type":"object"}`, `/oneOf: Anthropic refuses oneOf`},
		{` { "allOf" : [ ] , "type" : "object" } `, `/allOf: Anthropic refuses allOf`},
		{`{"type":"string"}`, `/type: Anthropic requires "type":"object"`},
		{`{"properties":{"type":"object"}}`, `/type: Anthropic requires "type":"object"`},
		{`[1]`, `schema root: the schema is not a JSON object`},
		{`{"type":"object"`, `schema root: the schema is not valid JSON`},
	} {
		_, err := Anthropic([]toolnexus.Tool{{Name: "ok"}, {Name: "bad", InputSchema: json.RawMessage(c.schema)}})
		if assert.ErrorIs(t, err, ErrUnsupportedSchema, "%s: err = %v, want %q", c.schema, err, c.msg) {
			assert.Contains(t, err.Error(), `render.Anthropic: tool "bad": `+c.msg, "%s: err = %v, want %q", c.schema, err, c.msg)
		}
	}
	// Nested composition and keys that merely contain the words are fine.
	ok := `{"type":"object","properties":{"anyOf":{"type":"string"},"x":{"anyOf":[{"type":"string"}]}},"description":"\"anyOf\":"}`
	_, err := Anthropic([]toolnexus.Tool{{Name: "t", InputSchema: json.RawMessage(ok)}})
	assert.NoError(t, err, "nested anyOf rejected")
}

// TestAnthropicRootKeysEscaped: the root rules read keys as the API's JSON
// parser does, so a key spelled with \u escapes is the keyword it spells.
func TestAnthropicRootKeysEscaped(t *testing.T) {
	_, err := Anthropic([]toolnexus.Tool{{Name: "t", InputSchema: json.RawMessage(`{"\u0074ype":"object","properties":{}}`)}})
	require.NoError(t, err)
	_, err = Anthropic([]toolnexus.Tool{{Name: "t", InputSchema: json.RawMessage(`{"type":"object","\u006fneOf":[{"type":"object"}]}`)}})
	require.ErrorIs(t, err, ErrUnsupportedSchema)
	require.EqualError(t, err, `render.Anthropic: tool "t": /oneOf: Anthropic refuses oneOf at the root of the input schema; make the root one object schema (for example one optional property per alternative, checked by the handler)`)
}

// TestAnthropicWithEmptyExamples: a tool whose own InputExamples is an
// empty, non-nil list renders "input_examples":[] with and without
// options, so AnthropicWith(tools, AnthropicOptions{}) is Anthropic(tools).
func TestAnthropicWithEmptyExamples(t *testing.T) {
	tools := []toolnexus.Tool{{Name: "t", InputExamples: []json.RawMessage{}}}
	plain, err := Anthropic(tools)
	require.NoError(t, err)
	with, err := AnthropicWith(tools, AnthropicOptions{})
	require.NoError(t, err)
	require.Equal(t, `[{"name":"t","description":"","input_schema":{"type":"object"},"input_examples":[]}]`, string(plain.AppendJSON(nil)))
	require.Equal(t, string(plain.AppendJSON(nil)), string(with.AppendJSON(nil)))
}

// TestAnthropicStrictRecursion: Anthropic's strict mode takes no
// recursive schema: Strict refuses one naming the $ref, and Fallback
// sends it without strict, schema and examples unchanged.
func TestAnthropicStrictRecursion(t *testing.T) {
	schema := `{"type":"object","properties":{"name":{"type":"string"},"child":{"$ref":"#"}},"required":["name"]}`
	tools := []toolnexus.Tool{{Name: "node", InputSchema: json.RawMessage(schema),
		InputExamples: []json.RawMessage{json.RawMessage(`{"name":"a","child":{"name":"b"}}`)}}}
	_, err := AnthropicWith(tools, AnthropicOptions{Strict: true})
	require.ErrorIs(t, err, ErrNotStrict)
	require.EqualError(t, err, `render.AnthropicWith: tool "node": /properties/child/$ref: the $ref "#" makes the schema recursive, which this strict mode does not support (set Fallback to send such a tool without strict)`)
	out, err := AnthropicWith(tools, AnthropicOptions{Strict: true, Fallback: true})
	require.NoError(t, err)
	require.False(t, out[0].Strict)
	require.Equal(t, schema, string(out[0].InputSchema))
	require.Equal(t, `{"name":"a","child":{"name":"b"}}`, string(out[0].InputExamples[0]))
}
