package render

import (
	"encoding/json"
	"strings"
	"testing"

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
	if err != nil {
		t.Fatal(err)
	}
	with, err := AnthropicWith(tools, AnthropicOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantEx := `,"input_examples":[{"city":"Paris"},{"city":"Oslo","days":3,"where":{"lat":59.91},"stops":[{"name":"a"},{"name":"b","note":"x"}]}]}`
	if got := string(plain[0].AppendJSON(nil)); !strings.HasSuffix(got, wantEx) {
		t.Errorf("Anthropic: %s\nwant suffix %s", got, wantEx)
	}
	if a, b := mustMarshal(t, plain), mustMarshal(t, with); a != b {
		t.Errorf("AnthropicWith(tools, {}) differs from Anthropic(tools):\n%s\n%s", b, a)
	}
	if strings.Contains(string(plain[1].AppendJSON(nil)), "input_examples") {
		t.Errorf("a tool without examples got some: %s", plain[1].AppendJSON(nil))
	}

	// The option replaces the tool's own examples.
	over, err := AnthropicWith(tools, AnthropicOptions{InputExamples: map[string][]json.RawMessage{"weather": {json.RawMessage(`{"city":"Rome"}`)}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(over[0].AppendJSON(nil)); !strings.HasSuffix(got, `,"input_examples":[{"city":"Rome"}]}`) {
		t.Errorf("override: %s", got)
	}

	// Strict: every property the strict schema requires is present, null
	// where the example leaves it out, at every level.
	strict, err := AnthropicWith(tools, AnthropicOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	wantStrict := `,"input_examples":[{"city":"Paris","days":null,"stops":null,"where":null},` +
		`{"city":"Oslo","days":3,"stops":[{"name":"a","note":null},{"name":"b","note":"x"}],"where":{"lat":59.91,"lon":null}}]}`
	if got := string(strict[0].AppendJSON(nil)); !strings.HasSuffix(got, wantStrict) || !strict[0].Strict {
		t.Errorf("strict: %s\nwant suffix %s", got, wantStrict)
	}

	// A tool's example that is not a JSON object is an error naming it.
	tools[0].InputExamples = append(tools[0].InputExamples, json.RawMessage(`[1]`))
	if _, err := Anthropic(tools); err == nil || err.Error() != `render.Anthropic: tool "weather": input_examples[2]: not a JSON object` {
		t.Errorf("bad example: %v", err)
	}
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
