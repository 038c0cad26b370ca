package render

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus"
)

func TestAnthropicRootRules(t *testing.T) {
	for _, c := range []struct {
		schema, msg string
	}{
		{`{"type":"object","anyOf":[{"required":["a"]},{"required":["b"]}]}`, `/anyOf: Anthropic does not support anyOf at the top level`},
		{`{"oneOf":[{"type":"object"}],"type":"object"}`, `/oneOf: Anthropic does not support oneOf`},
		{` { "allOf" : [ ] , "type" : "object" } `, `/allOf: Anthropic does not support allOf`},
		{`{"type":"string"}`, `/type: input_schema must have "type":"object"`},
		{`{"properties":{"type":"object"}}`, `/type: input_schema must have "type":"object"`},
		{`[1]`, `schema root: the schema is not a JSON object`},
		{`{"type":"object"`, `schema root: the schema is not valid JSON`},
	} {
		_, err := Anthropic([]toolnexus.Tool{{Name: "ok"}, {Name: "bad", InputSchema: json.RawMessage(c.schema)}})
		if !errors.Is(err, ErrUnsupportedSchema) || !strings.Contains(err.Error(), `render.Anthropic: tool "bad": `+c.msg) {
			t.Errorf("%s: err = %v, want %q", c.schema, err, c.msg)
		}
	}
	// Nested composition and keys that merely contain the words are fine.
	ok := `{"type":"object","properties":{"anyOf":{"type":"string"},"x":{"anyOf":[{"type":"string"}]}},"description":"\"anyOf\":"}`
	if _, err := Anthropic([]toolnexus.Tool{{Name: "t", InputSchema: json.RawMessage(ok)}}); err != nil {
		t.Errorf("nested anyOf rejected: %v", err)
	}
}
