package render

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus"
)

// exampleTools are a tool with its own InputExamples (city required, days
// optional, a nested optional object) and one without.
func exampleTools() []toolnexus.Tool {
	ts := anthropicOptionTools()
	ts[0].InputSchema = json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"},` +
		`"where":{"type":"object","properties":{"lat":{"type":"number"},"lon":{"type":"number"}},"required":["lat"],"additionalProperties":false},` +
		`"stops":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"note":{"type":"string"}},"required":["name"],"additionalProperties":false}}},` +
		`"required":["city"],"additionalProperties":false}`)
	ts[0].InputExamples = []json.RawMessage{json.RawMessage(`{"city": "Paris"}`),
		json.RawMessage(`{"city":"Oslo","days":3,"where":{"lat":59.91},"stops":[{"name":"a"},{"name":"b","note":"x"}]}`)}
	return ts
}

func TestAnthropicInputExamplesFromTool(t *testing.T) {
	tools := exampleTools()
	plain, err := Anthropic(tools)
	require.NoError(t, err)
	with, err := AnthropicWith(tools, AnthropicOptions{})
	require.NoError(t, err)
	wantEx := `,"input_examples":[{"city":"Paris"},{"city":"Oslo","days":3,"where":{"lat":59.91},"stops":[{"name":"a"},{"name":"b","note":"x"}]}]}`
	got := string(plain[0].AppendJSON(nil))
	assert.True(t, strings.HasSuffix(got, wantEx), "Anthropic: %s\nwant suffix %s", got, wantEx)
	a, b := mustMarshal(t, plain), mustMarshal(t, with)
	assert.Equal(t, b, a, "AnthropicWith(tools, {}) differs from Anthropic(tools):\n%s\n%s", b, a)
	assert.NotContains(t, string(plain[1].AppendJSON(nil)), "input_examples", "a tool without examples got some: %s", plain[1].AppendJSON(nil))

	// The option replaces the tool's own examples.
	over, err := AnthropicWith(tools, AnthropicOptions{InputExamples: map[string][]json.RawMessage{"weather": {json.RawMessage(`{"city":"Rome"}`)}}})
	require.NoError(t, err)
	got = string(over[0].AppendJSON(nil))
	assert.True(t, strings.HasSuffix(got, `,"input_examples":[{"city":"Rome"}]}`), "override: %s", got)

	// Strict: Anthropic's strict mode keeps optional properties optional,
	// so the examples are sent as they are.
	strict, err := AnthropicWith(tools, AnthropicOptions{Strict: true})
	require.NoError(t, err)
	wantStrict := wantEx
	got = string(strict[0].AppendJSON(nil))
	assert.True(t, strings.HasSuffix(got, wantStrict), "strict: %s\nwant suffix %s", got, wantStrict)
	assert.True(t, strict[0].Strict, "strict: %s\nwant suffix %s", got, wantStrict)

	// A tool's example that is not a JSON object is an error naming it.
	tools[0].InputExamples = append(tools[0].InputExamples, json.RawMessage(`[1]`))
	_, err = Anthropic(tools)
	assert.EqualError(t, err, `render.Anthropic: tool "weather": input_examples[2]: not a JSON object`, "bad example: %v", err)
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
