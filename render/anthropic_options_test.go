package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

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
		InputExamples: map[string][]json.RawMessage{"weather": {json.RawMessage(`{ "city": "Paris", "days": 3 }`), json.RawMessage(`{"city":"Oslo","days":null}`)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(out)
	var ind bytes.Buffer
	if err := json.Indent(&ind, b, "", "  "); err != nil {
		t.Fatalf("indent: %v\n%s", err, b)
	}
	ind.WriteByte('\n')
	want := golden.Check(t, "testdata/anthropic_options.json", ind.Bytes())
	var compact bytes.Buffer
	if err := json.Compact(&compact, want); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(compact.Bytes(), b) {
		t.Errorf("compacted golden differs from output:\n%s\n%s", compact.Bytes(), b)
	}
	// The fields land on the tools they name, and nowhere else.
	for _, c := range []struct{ sub, in string }{
		{`"strict":true`, "both"},
		{`"input_examples":[{"city":"Paris","days":3},{"city":"Oslo","days":null}]`, "weather"},
		{`"defer_loading":true`, "search"},
		{`"cache_control":{"type":"ephemeral"}`, "search"},
	} {
		w, s := strings.Contains(string(out[0].AppendJSON(nil)), c.sub), strings.Contains(string(out[1].AppendJSON(nil)), c.sub)
		if w != (c.in != "search") || s != (c.in != "weather") {
			t.Errorf("%s: on weather %v, on search %v, want on %s", c.sub, w, s, c.in)
		}
	}
}

func TestAnthropicWithNoOptionsEqualsAnthropic(t *testing.T) {
	plain, err := Anthropic(anthropicOptionTools())
	if err != nil {
		t.Fatal(err)
	}
	with, err := AnthropicWith(anthropicOptionTools(), AnthropicOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(plain)
	b, _ := json.Marshal(with)
	if !bytes.Equal(a, b) {
		t.Errorf("AnthropicWith without options:\n%s\nAnthropic:\n%s", b, a)
	}
}

func TestAnthropicWithStrictErrors(t *testing.T) {
	tools := append(anthropicOptionTools(), toolnexus.Tool{Name: "free",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}}`)})
	_, err := AnthropicWith(tools, AnthropicOptions{Strict: true})
	if !errors.Is(err, ErrNotStrict) || !strings.Contains(err.Error(), `render.AnthropicWith: tool "free": /properties/m`) {
		t.Fatalf("err = %v, want ErrNotStrict naming tool free and /properties/m", err)
	}
	// The same violation is reported as OpenAI strict reports it.
	_, oerr := OpenAIStrict(tools)
	if oerr == nil || strings.TrimPrefix(err.Error(), "render.AnthropicWith") != strings.TrimPrefix(oerr.Error(), "render.OpenAIStrict") {
		t.Errorf("Anthropic %q and OpenAI %q strict errors differ", err, oerr)
	}
	out, err := AnthropicWith(tools, AnthropicOptions{Strict: true, Fallback: true})
	if err != nil {
		t.Fatal(err)
	}
	if !out[0].Strict || out[2].Strict || !bytes.Equal(out[2].InputSchema, tools[2].InputSchema) {
		t.Errorf("fallback: strict %v %v, schema %s", out[0].Strict, out[2].Strict, out[2].InputSchema)
	}
	if strings.Contains(string(out[2].AppendJSON(nil)), `"strict"`) {
		t.Errorf("fallback tool renders strict: %s", out[2].AppendJSON(nil))
	}
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
		if _, err := AnthropicWith(anthropicOptionTools(), c.opts); err == nil || err.Error() != c.want {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
	if _, err := AnthropicWith([]toolnexus.Tool{{Name: "bad name"}}, AnthropicOptions{}); !errors.Is(err, ErrUnsupportedName) {
		t.Errorf("bad name: %v", err)
	}
	if _, err := AnthropicWith(oneTool("t", `{"type":"string"}`), AnthropicOptions{Strict: true}); !errors.Is(err, ErrUnsupportedSchema) {
		t.Errorf("non-object root with Strict: %v", err)
	}
	if out, err := AnthropicWith(nil, AnthropicOptions{CacheLast: true}); err != nil || len(out) != 0 {
		t.Errorf("empty list: %v %v", out, err)
	}
}
