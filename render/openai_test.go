package render

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus"
)

// OpenAI answers an object schema without "properties" with 400 "object
// schema missing properties"; both OpenAI renderers add "properties":{}.
func TestOpenAIRootGetsProperties(t *testing.T) {
	tools := []toolnexus.Tool{
		{Name: "none"},
		{Name: "bare", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "desc", InputSchema: json.RawMessage(`{"type":"object","description":"d","additionalProperties":false}`)},
		{Name: "has", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)},
	}
	want := []string{
		`{"type":"object","properties":{}}`,
		`{"type":"object","properties":{}}`,
		`{"type":"object","description":"d","additionalProperties":false,"properties":{}}`,
		`{"type":"object","properties":{"a":{"type":"string"}}}`,
	}
	chat := OpenAI(tools)
	resp := OpenAIResponses(tools)
	chatW, err := OpenAIWith(tools, OpenAIOptions{})
	require.NoError(t, err)
	respW, err := OpenAIResponsesWith(tools, OpenAIOptions{})
	require.NoError(t, err)
	for i, w := range want {
		for name, got := range map[string]json.RawMessage{
			"OpenAI": chat[i].Function.Parameters, "OpenAIResponses": resp[i].Parameters,
			"OpenAIWith": chatW[i].Function.Parameters, "OpenAIResponsesWith": respW[i].Parameters,
		} {
			assert.Equal(t, w, string(got), "%s %s: got %s, want %s", name, tools[i].Name, got, w)
		}
	}
	assert.Equal(t, `{"type":"object"}`, string(tools[1].InputSchema), "input modified: %s", tools[1].InputSchema)
}

func TestOpenAIRootCombinatorIsAnError(t *testing.T) {
	for _, kw := range []string{"oneOf", "anyOf", "allOf"} {
		tools := []toolnexus.Tool{{Name: "pick", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"` + kw + `":[{"required":["a"]},{"required":["b"]}]}`)}}
		for name, render := range map[string]func() error{
			"OpenAIWith":          func() error { _, err := OpenAIWith(tools, OpenAIOptions{}); return err },
			"OpenAIResponsesWith": func() error { _, err := OpenAIResponsesWith(tools, OpenAIOptions{}); return err },
			"CheckSchemas":        func() error { return CheckSchemas(append(oneTool("ok", `{"type":"object"}`), tools...)) },
		} {
			err := render()
			var se *SchemaError
			require.ErrorAs(t, err, &se, "%s %s: got %v", name, kw, err)
			require.Equal(t, "pick", se.Tool, "%s %s: got %v", name, kw, err)
			require.Equal(t, "/"+kw, se.Path, "%s %s: got %v", name, kw, err)
			require.ErrorIs(t, err, ErrUnsupportedSchema, "%s %s: got %v", name, kw, err)
			require.Equal(t, "render."+name, se.Renderer, "%s %s: got %v", name, kw, err)
			assert.Contains(t, err.Error(), "OpenAI refuses "+kw+" at the root of the input schema", "%s: %v", name, err)
		}
		want := `render.CheckSchemas: tool "pick": /` + kw + `: OpenAI refuses ` + kw + ` at the root of the input schema; ` +
			`make the root one object schema (for example one optional property per alternative, checked by the handler)`
		err := CheckSchemas(tools)
		assert.EqualError(t, err, want, "CheckSchemas: %v\nwant %s", err, want)
		first := append(oneTool("pick", `{"type":"object","`+kw+`":[{"required":["a"]}]}`), oneTool("broken", `{"type":`)...)
		err = CheckSchemas(first)
		assert.ErrorContains(t, err, `tool "pick": /`+kw, "CheckSchemas of [root %s, broken bytes] = %v, want the first tool's error", kw, err)
		nested := oneTool("nested", `{"type":"object","properties":{"p":{"`+kw+`":[{"type":"string"},{"type":"integer"}]}}}`)
		assert.NoError(t, CheckSchemas(nested), "CheckSchemas refused %s below the root", kw)
	}
}

type genItem[T any] struct {
	V    T           `json:"v"`
	Next *genItem[T] `json:"next,omitempty"`
}

type genArgs struct {
	A genItem[string]                `json:"a"`
	C genItem[toolnexus.Annotations] `json:"c,omitempty"`
	D genItem[[]genArgsIn]           `json:"d,omitempty"`
}

type genArgsIn struct {
	X int `json:"x"`
}

// Generic instantiations give $defs names that every $ref resolves to, in
// every renderer (strict and Gemini rewrite $refs).
func TestGenericDefsRenderEverywhere(t *testing.T) {
	tool, err := toolnexus.NewTool("gen", "", func(context.Context, genArgs) (string, error) { return "", nil })
	require.NoError(t, err)
	tools := []toolnexus.Tool{tool}
	_, err = OpenAIStrict(tools)
	assert.NoError(t, err, "OpenAIStrict")
	_, err = Gemini(tools)
	assert.NoError(t, err, "Gemini")
	_, err = Anthropic(tools)
	assert.NoError(t, err, "Anthropic")
}
