package render_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render"
)

var outTool = toolnexus.Tool{Name: "sum", Description: "adds",
	InputSchema:  json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer"}}}`),
	OutputSchema: json.RawMessage(`{"type":"object","properties":{"sum":{"type":"integer"}},"required":["sum"]}`)}

func TestMCPOutputSchema(t *testing.T) {
	plain := toolnexus.Tool{Name: "p", Description: ""}
	bad := toolnexus.Tool{Name: "b", Description: "", OutputSchema: json.RawMessage(`[1`)}
	got, _ := json.Marshal(render.MCP([]toolnexus.Tool{outTool, plain, bad}))
	want := `[{"name":"sum","description":"adds","inputSchema":{"type":"object","properties":{"a":{"type":"integer"}}},` +
		`"outputSchema":{"type":"object","properties":{"sum":{"type":"integer"}},"required":["sum"]}},` +
		`{"name":"p","description":"","inputSchema":{"type":"object"}},` +
		`{"name":"b","description":"","inputSchema":{"type":"object"}}]`
	require.Equal(t, want, string(got), "got  %s\nwant %s", got, want)
}

func TestGeminiResponseJSONSchema(t *testing.T) {
	ts, err := render.GeminiWith([]toolnexus.Tool{outTool}, render.GeminiOptions{JSONSchema: true})
	require.NoError(t, err)
	got, _ := json.Marshal(ts)
	want := `[{"functionDeclarations":[{"name":"sum","description":"adds",` +
		`"parametersJsonSchema":{"type":"object","properties":{"a":{"type":"integer"}}},` +
		`"responseJsonSchema":{"type":"object","properties":{"sum":{"type":"integer"}},"required":["sum"]}}]}]`
	require.Equal(t, want, string(got), "got  %s\nwant %s", got, want)
	// The OpenAPI-subset mode has no place for it.
	ts, err = render.Gemini([]toolnexus.Tool{outTool})
	require.NoError(t, err)
	require.False(t, ts[0].FunctionDeclarations[0].ResponseJSONSchema != nil, "responseJsonSchema set without JSONSchema")
	bad := outTool
	bad.OutputSchema = json.RawMessage(`"x"`)
	_, err = render.GeminiWith([]toolnexus.Tool{bad}, render.GeminiOptions{JSONSchema: true})
	var se *render.SchemaError
	require.ErrorAs(t, err, &se, "err = %v, want a *SchemaError", err)
	require.ErrorIs(t, err, render.ErrUnsupportedSchema, "err = %v, want a *SchemaError", err)
}
