package render

import (
	"encoding/json"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render/rendertest"
)

// TestMarshalJSONSizesOnce: every list type's MarshalJSON writes the bytes
// AppendJSON writes, into one buffer allocated once (sized from the
// prepared bytes, never regrown).
func TestMarshalJSONSizesOnce(t *testing.T) {
	tools := rendertest.Tools()
	anth, err := Anthropic(tools)
	if err != nil {
		t.Fatal(err)
	}
	gem, err := Gemini(tools)
	if err != nil {
		t.Fatal(err)
	}
	ns := OpenAIResponses(tools)
	ns = append(ns, OpenAIResponsesTool{Type: "namespace", Name: "ns", Description: "grouped", Tools: OpenAIResponses(tools)})
	for name, v := range map[string]interface {
		json.Marshaler
		AppendJSON([]byte) []byte
	}{
		"OpenAI": OpenAI(tools), "OpenAIResponses": ns, "Anthropic": anth, "Gemini": gem, "MCP": MCP(tools),
		"empty": MCPTools(nil),
	} {
		got, err := v.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if want := v.AppendJSON(nil); string(got) != string(want) {
			t.Errorf("%s: MarshalJSON %s, AppendJSON %s", name, got, want)
		}
		if n := testing.AllocsPerRun(10, func() { _, _ = v.MarshalJSON() }); n != 1 {
			t.Errorf("%s: MarshalJSON made %v allocations, want 1", name, n)
		}
	}
	one := MCP([]toolnexus.Tool{{Name: "t", Title: "T", Description: "d<&>", Annotations: &toolnexus.Annotations{Title: "x"}}})[0]
	if n := testing.AllocsPerRun(10, func() { _, _ = one.MarshalJSON() }); n != 1 {
		t.Errorf("MCPTool.MarshalJSON made %v allocations, want 1", n)
	}
}
