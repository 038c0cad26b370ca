package interop

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render"
)

type tripArgs struct {
	City string `json:"city" validate:"required"`
	Days int    `json:"days,omitempty" validate:"omitempty,min=1,max=14"`
}

func (tripArgs) InputExamples() []tripArgs {
	return []tripArgs{{City: "Paris"}, {City: "Oslo", Days: 3}}
}

// TestAnthropicInputExamplesMethodSDK: examples from an InputExamples
// method, plain and strict (Anthropic's strict mode keeps optional
// properties optional, so the examples are unchanged), decode into
// anthropic.ToolParam with no unknown field and as the values given.
func TestAnthropicInputExamplesMethodSDK(t *testing.T) {
	tool, err := toolnexus.NewTool("plan_trip", "Plan a trip", func(context.Context, tripArgs) (string, error) { return "ok", nil })
	if err != nil {
		t.Fatal(err)
	}
	for _, strict := range []bool{false, true} {
		rendered, err := render.AnthropicWith([]toolnexus.Tool{tool}, render.AnthropicOptions{Strict: strict})
		if err != nil {
			t.Fatal(err)
		}
		raw := rendered[0].AppendJSON(nil)
		requireKnown[anthropic.ToolParam](t, "plan_trip", raw)
		var p anthropic.ToolParam
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		ex, _ := json.Marshal(p.InputExamples)
		want := `[{"city":"Paris"},{"city":"Oslo","days":3}]`
		if string(ex) != want {
			t.Errorf("strict %v: SDK input_examples %s, want %s", strict, ex, want)
		}
	}
}
