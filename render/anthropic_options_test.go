package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/golden"
)

func anthropicOptionTools() []toolnexus.Tool {
	return []toolnexus.Tool{
		{Name: "weather", Description: "Weather for a city",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}`)},
		{Name: "search", Description: "Search the web",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`)},
	}
}

// TestAnthropicWithGolden pins every option's bytes in
// testdata/anthropic_options.json (indented there; compacting it gives the
// output exactly).
func TestAnthropicWithGolden(t *testing.T) {
	out, err := AnthropicWith(anthropicOptionTools(), AnthropicOptions{
		Strict:        true,
		CacheLast:     true,
		Defer:         []string{"search"},
		InputExamples: map[string][]json.RawMessage{"weather": {json.RawMessage(`{ "city": "Paris", "days": 3 }`), json.RawMessage(`{"city":"Oslo"}`)}},
	})
	require.NoError(t, err)
	b, _ := json.Marshal(out)
	var ind bytes.Buffer
	require.NoError(t, json.Indent(&ind, b, "", "  "), "indent:\n%s", b)
	ind.WriteByte('\n')
	want := golden.Check(t, "testdata/anthropic_options.json", ind.Bytes())
	var compact bytes.Buffer
	require.NoError(t, json.Compact(&compact, want))
	assert.Equal(t, string(compact.Bytes()), string(b), "compacted golden differs from output:\n%s\n%s", compact.Bytes(), b)
	// The fields land on the tools they name, and nowhere else.
	for _, c := range []struct{ sub, in string }{
		{`"strict":true`, "both"},
		{`"input_examples":[{"city":"Paris","days":3},{"city":"Oslo"}]`, "weather"},
		{`"defer_loading":true`, "search"},
		{`"cache_control":{"type":"ephemeral"}`, "search"},
	} {
		w, s := strings.Contains(string(out[0].AppendJSON(nil)), c.sub), strings.Contains(string(out[1].AppendJSON(nil)), c.sub)
		assert.Equal(t, (c.in != "search"), w, "%s: on weather %v, on search %v, want on %s", c.sub, w, s, c.in)
		assert.Equal(t, (c.in != "weather"), s, "%s: on weather %v, on search %v, want on %s", c.sub, w, s, c.in)
	}
}

func TestAnthropicWithNoOptionsEqualsAnthropic(t *testing.T) {
	plain, err := Anthropic(anthropicOptionTools())
	require.NoError(t, err)
	with, err := AnthropicWith(anthropicOptionTools(), AnthropicOptions{})
	require.NoError(t, err)
	a, _ := json.Marshal(plain)
	b, _ := json.Marshal(with)
	assert.Equal(t, string(a), string(b), "AnthropicWith without options:\n%s\nAnthropic:\n%s", b, a)
}

func TestAnthropicWithStrictErrors(t *testing.T) {
	tools := append(anthropicOptionTools(), toolnexus.Tool{Name: "free",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}}`)})
	_, err := AnthropicWith(tools, AnthropicOptions{Strict: true})
	require.ErrorIs(t, err, ErrNotStrict, "err = %v, want ErrNotStrict naming tool free and /properties/m", err)
	require.Contains(t, err.Error(), `render.AnthropicWith: tool "free": /properties/m`, "err = %v, want ErrNotStrict naming tool free and /properties/m", err)
	// The same violation is reported as OpenAI strict reports it.
	_, oerr := OpenAIStrict(tools)
	if assert.Error(t, oerr, "Anthropic %q and OpenAI %q strict errors differ", err, oerr) {
		assert.False(t, strings.TrimPrefix(err.Error(), "render.AnthropicWith") != strings.TrimPrefix(oerr.Error(), "render.OpenAIStrict"), "Anthropic %q and OpenAI %q strict errors differ", err, oerr)
	}
	out, err := AnthropicWith(tools, AnthropicOptions{Strict: true, Fallback: true})
	require.NoError(t, err)
	assert.True(t, out[0].Strict, "fallback: strict %v %v, schema %s", out[0].Strict, out[2].Strict, out[2].InputSchema)
	assert.False(t, out[2].Strict, "fallback: strict %v %v, schema %s", out[0].Strict, out[2].Strict, out[2].InputSchema)
	assert.True(t, bytes.Equal(out[2].InputSchema, tools[2].InputSchema), "fallback: strict %v %v, schema %s", out[0].Strict, out[2].Strict, out[2].InputSchema)
	assert.NotContains(t, string(out[2].AppendJSON(nil)), `"strict"`, "fallback tool renders strict: %s", out[2].AppendJSON(nil))
}

func TestAnthropicWithOptionErrors(t *testing.T) {
	for _, c := range []struct {
		opts AnthropicOptions
		want string
	}{
		{AnthropicOptions{Defer: []string{"nope"}}, `render.AnthropicWith: Defer: no tool named "nope"`},
		{AnthropicOptions{InputExamples: map[string][]json.RawMessage{"nope": {json.RawMessage(`{}`)}}}, `render.AnthropicWith: InputExamples: no tool named "nope"`},
		{AnthropicOptions{InputExamples: map[string][]json.RawMessage{"search": {json.RawMessage(`{}`), json.RawMessage(`["q"]`)}}}, `render.AnthropicWith: tool "search": input_examples[1]: not a JSON object`},
		{AnthropicOptions{InputExamples: map[string][]json.RawMessage{"search": {json.RawMessage(`{"q":`)}}}, `render.AnthropicWith: tool "search": input_examples[0]: not valid JSON`},
		{AnthropicOptions{InputExamples: map[string][]json.RawMessage{"search": {json.RawMessage("{\"q\":\"\xff\"}")}}}, `render.AnthropicWith: tool "search": input_examples[0]: not valid UTF-8`},
	} {
		_, err := AnthropicWith(anthropicOptionTools(), c.opts)
		assert.EqualError(t, err, c.want, "err = %v, want %q", err, c.want)
	}
	_, err := AnthropicWith([]toolnexus.Tool{{Name: "bad name"}}, AnthropicOptions{})
	assert.ErrorIs(t, err, ErrUnsupportedName, "bad name: %v", err)
	_, err = AnthropicWith(oneTool("t", `{"type":"string"}`), AnthropicOptions{Strict: true})
	assert.ErrorIs(t, err, ErrUnsupportedSchema, "non-object root with Strict: %v", err)
	out, err := AnthropicWith(nil, AnthropicOptions{CacheLast: true})
	if assert.NoError(t, err, "empty list: %v", out) {
		assert.Empty(t, out, "empty list: %v %v", out, err)
	}
}
