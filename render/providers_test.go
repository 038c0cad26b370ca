package render

import (
	"encoding/json"
	"fmt"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render/rendertest"
)

// provider adapts one renderer (or one option set of a renderer) to the
// shared checks; dir is its folder under testdata/golden.
type provider struct {
	dir     string
	render  rendertest.Renderer
	extract rendertest.Extract
	strict  bool // golden files follow OpenAI strict rules
	gemini  bool // golden files follow Gemini "parameters" rules
}

var strictFallback = OpenAIOptions{Strict: true, Fallback: true}

var providers = []provider{
	{dir: "openai", render: func(ts []toolnexus.Tool) ([]byte, error) { return json.Marshal(OpenAI(ts)) }, extract: extractChat},
	{dir: "openai_strict", strict: true, render: func(ts []toolnexus.Tool) ([]byte, error) {
		r, err := OpenAIWith(ts, strictFallback)
		if err != nil {
			return nil, err
		}
		return json.Marshal(r)
	}, extract: extractChat},
	{dir: "openai_responses", render: func(ts []toolnexus.Tool) ([]byte, error) { return json.Marshal(OpenAIResponses(ts)) }, extract: extractResponses},
	{dir: "openai_responses_strict", strict: true, render: func(ts []toolnexus.Tool) ([]byte, error) {
		r, err := OpenAIResponsesWith(ts, strictFallback)
		if err != nil {
			return nil, err
		}
		return json.Marshal(r)
	}, extract: extractResponses},
	{dir: "anthropic", render: func(ts []toolnexus.Tool) ([]byte, error) {
		r, err := Anthropic(ts)
		if err != nil {
			return nil, err
		}
		return json.Marshal(r)
	}, extract: extractAnthropic},
	{dir: "gemini", gemini: true, render: func(ts []toolnexus.Tool) ([]byte, error) {
		r, err := Gemini(ts)
		if err != nil {
			return nil, err
		}
		return json.Marshal(r)
	}, extract: extractGemini},
	{dir: "gemini_jsonschema", render: func(ts []toolnexus.Tool) ([]byte, error) {
		r, err := GeminiWith(ts, GeminiOptions{JSONSchema: true})
		if err != nil {
			return nil, err
		}
		return json.Marshal(r)
	}, extract: extractGemini},
	{dir: "mcp", render: func(ts []toolnexus.Tool) ([]byte, error) { return json.Marshal(MCP(ts)) }, extract: extractMCP},
}

// The extractors read with encoding/json into pointer fields, so a missing
// or null description stays nil.

func extractChat(out []byte) ([]rendertest.Decl, error) {
	var v []struct {
		Type     string `json:"type"`
		Function struct {
			Name        string          `json:"name"`
			Description *string         `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return nil, err
	}
	ds := make([]rendertest.Decl, len(v))
	for i, e := range v {
		if e.Type != "function" {
			return nil, fmt.Errorf("entry %d: type %q, want function", i, e.Type)
		}
		ds[i] = rendertest.Decl{Name: e.Function.Name, Description: e.Function.Description, Schema: e.Function.Parameters}
	}
	return ds, nil
}

func extractResponses(out []byte) ([]rendertest.Decl, error) {
	var v []struct {
		Type        string          `json:"type"`
		Name        string          `json:"name"`
		Description *string         `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
		Strict      *bool           `json:"strict"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return nil, err
	}
	ds := make([]rendertest.Decl, len(v))
	for i, e := range v {
		if e.Type != "function" || e.Strict == nil {
			return nil, fmt.Errorf("entry %d: type %q strict %v: want function with an explicit strict", i, e.Type, e.Strict)
		}
		ds[i] = rendertest.Decl{Name: e.Name, Description: e.Description, Schema: e.Parameters}
	}
	return ds, nil
}

func extractAnthropic(out []byte) ([]rendertest.Decl, error) {
	var v []struct {
		Name        string          `json:"name"`
		Description *string         `json:"description"`
		InputSchema json.RawMessage `json:"input_schema"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return nil, err
	}
	ds := make([]rendertest.Decl, len(v))
	for i, e := range v {
		if e.InputSchema == nil {
			return nil, fmt.Errorf("entry %d: no input_schema (Anthropic rejects it)", i)
		}
		ds[i] = rendertest.Decl{Name: e.Name, Description: e.Description, Schema: e.InputSchema}
	}
	return ds, nil
}

func extractGemini(out []byte) ([]rendertest.Decl, error) {
	var v []struct {
		FunctionDeclarations []struct {
			Name                 string          `json:"name"`
			Description          *string         `json:"description"`
			Parameters           json.RawMessage `json:"parameters"`
			ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
		} `json:"functionDeclarations"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return nil, err
	}
	if len(v) != 1 || v[0].FunctionDeclarations == nil {
		return nil, fmt.Errorf("want exactly one tool with a functionDeclarations array, got %s", out)
	}
	var ds []rendertest.Decl
	for i, e := range v[0].FunctionDeclarations {
		if e.Parameters != nil && e.ParametersJSONSchema != nil {
			return nil, fmt.Errorf("declaration %d has both parameters and parametersJsonSchema", i)
		}
		s := e.Parameters
		if s == nil {
			s = e.ParametersJSONSchema
		}
		ds = append(ds, rendertest.Decl{Name: e.Name, Description: e.Description, Schema: s})
	}
	return ds, nil
}

func extractMCP(out []byte) ([]rendertest.Decl, error) {
	var v []struct {
		Name        string          `json:"name"`
		Description *string         `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return nil, err
	}
	ds := make([]rendertest.Decl, len(v))
	for i, e := range v {
		ds[i] = rendertest.Decl{Name: e.Name, Description: e.Description, Schema: e.InputSchema}
	}
	return ds, nil
}
