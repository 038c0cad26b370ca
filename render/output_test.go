package render_test

import (
	"encoding/json"
	"errors"
	"testing"

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
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestGeminiResponseJSONSchema(t *testing.T) {
	ts, err := render.GeminiWith([]toolnexus.Tool{outTool}, render.GeminiOptions{JSONSchema: true})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(ts)
	want := `[{"functionDeclarations":[{"name":"sum","description":"adds",` +
		`"parametersJsonSchema":{"type":"object","properties":{"a":{"type":"integer"}}},` +
		`"responseJsonSchema":{"type":"object","properties":{"sum":{"type":"integer"}},"required":["sum"]}}]}]`
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	// The OpenAPI-subset mode has no place for it.
	ts, err = render.Gemini([]toolnexus.Tool{outTool})
	if err != nil {
		t.Fatal(err)
	}
	if ts[0].FunctionDeclarations[0].ResponseJSONSchema != nil {
		t.Fatal("responseJsonSchema set without JSONSchema")
	}
	bad := outTool
	bad.OutputSchema = json.RawMessage(`"x"`)
	_, err = render.GeminiWith([]toolnexus.Tool{bad}, render.GeminiOptions{JSONSchema: true})
	var se *render.SchemaError
	if !errors.As(err, &se) || !errors.Is(err, render.ErrUnsupportedSchema) {
		t.Fatalf("err = %v, want a *SchemaError", err)
	}
}
