package render

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render/rendertest"
)

// TestMarshalJSONSizesOnce: every list type's MarshalJSON writes the bytes
// AppendJSON writes, into one buffer allocated once (sized from the
// prepared bytes, never regrown).
func TestMarshalJSONSizesOnce(t *testing.T) {
	tools := rendertest.Tools()
	anth, err := Anthropic(tools)
	require.NoError(t, err)
	gem, err := Gemini(tools)
	require.NoError(t, err)
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
		require.NoError(t, err)
		want := v.AppendJSON(nil)
		assert.Equal(t, string(want), string(got), "%s: MarshalJSON %s, AppendJSON %s", name, got, want)
		n := testing.AllocsPerRun(10, func() { _, _ = v.MarshalJSON() })
		assert.Equal(t, 1.0, n, "%s: MarshalJSON made %v allocations, want 1", name, n)
	}
	one := MCP([]toolnexus.Tool{{Name: "t", Title: "T", Description: "d<&>", Annotations: &toolnexus.Annotations{Title: "x"}}})[0]
	n := testing.AllocsPerRun(10, func() { _, _ = one.MarshalJSON() })
	assert.Equal(t, 1.0, n, "MCPTool.MarshalJSON made %v allocations, want 1", n)
}

// TestRenderAllocations: with the rewrite caches warm, OpenAI,
// OpenAIResponses, Anthropic and MCP allocate one slice for the whole list
// (Gemini one more for its wrapper), and AppendJSON into a buffer with
// room allocates nothing.
func TestRenderAllocations(t *testing.T) {
	tools := rendertest.Tools()
	anth, _ := Anthropic(tools)
	gem, _ := Gemini(tools)
	for name, c := range map[string]struct {
		allocs float64
		render func()
		v      interface{ AppendJSON([]byte) []byte }
	}{
		"OpenAI":          {1, func() { _ = OpenAI(tools) }, OpenAI(tools)},
		"OpenAIResponses": {1, func() { _ = OpenAIResponses(tools) }, OpenAIResponses(tools)},
		"MCP":             {1, func() { _ = MCP(tools) }, MCP(tools)},
		"Anthropic":       {1, func() { _, _ = Anthropic(tools) }, anth},
		"Gemini":          {2, func() { _, _ = Gemini(tools) }, gem},
	} {
		require.Equal(t, c.allocs, testing.AllocsPerRun(10, c.render), name+" render")
		buf := c.v.AppendJSON(nil)
		require.Zero(t, testing.AllocsPerRun(10, func() { buf = c.v.AppendJSON(buf[:0]) }), name+" AppendJSON")
	}
}
