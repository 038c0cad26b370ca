package render

import (
	"encoding/json"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// emptySchema is the input schema of a tool whose InputSchema is nil.
var emptySchema = json.RawMessage(`{"type":"object"}`)

func schemaOf(t *toolnexus.Tool) json.RawMessage {
	if len(t.InputSchema) == 0 {
		return emptySchema
	}
	return t.InputSchema
}

// OpenAITool is one entry of the OpenAI Chat Completions "tools" array:
//
//	{"type":"function","function":{"name":…,"description":…,"parameters":{…}}}
//
// Source: OpenAI API reference, Chat Completions, "Create chat completion",
// request body "tools" (ChatCompletionFunctionTool / FunctionDefinition).
type OpenAITool struct {
	Type     string         `json:"type"` // always "function"
	Function OpenAIFunction `json:"function"`
}

// OpenAIFunction is the "function" object of an [OpenAITool].
type OpenAIFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`       // JSON Schema object
	Strict      *bool           `json:"strict,omitempty"` // omitted unless strict mode is asked for
}

// OpenAITools is the Chat Completions "tools" array. Its json.Marshal
// output is exactly the array; nil marshals as [].
type OpenAITools []OpenAITool

// OpenAI renders tools for the OpenAI Chat Completions API: one
// {"type":"function","function":{"name","description","parameters"}} entry
// per tool, in the order given. The parameters are the tool's InputSchema
// bytes, shared, not copied ({"type":"object"} when nil). Rendering
// allocates one slice for the whole list.
func OpenAI(tools []toolnexus.Tool) OpenAITools {
	out := make(OpenAITools, len(tools))
	for i := range tools {
		t := &tools[i]
		out[i] = OpenAITool{Type: "function", Function: OpenAIFunction{
			Name: t.Name, Description: t.Description, Parameters: schemaOf(t),
		}}
	}
	return out
}

// MarshalJSON implements json.Marshaler.
func (ts OpenAITools) MarshalJSON() ([]byte, error) { return ts.AppendJSON(nil), nil }

// AppendJSON appends the JSON array to dst and returns the extended buffer.
func (ts OpenAITools) AppendJSON(dst []byte) []byte {
	dst = append(dst, '[')
	for i := range ts {
		if i > 0 {
			dst = append(dst, ',')
		}
		f := &ts[i].Function
		typ := ts[i].Type
		if typ == "" {
			typ = "function"
		}
		dst = append(dst, `{"type":`...)
		dst = jsonx.AppendString(dst, typ)
		dst = append(dst, `,"function":{"name":`...)
		dst = jsonx.AppendString(dst, f.Name)
		dst = append(dst, `,"description":`...)
		dst = jsonx.AppendString(dst, f.Description)
		dst = append(dst, `,"parameters":`...)
		if len(f.Parameters) == 0 {
			dst = append(dst, emptySchema...)
		} else {
			dst = append(dst, f.Parameters...)
		}
		if f.Strict != nil {
			if *f.Strict {
				dst = append(dst, `,"strict":true`...)
			} else {
				dst = append(dst, `,"strict":false`...)
			}
		}
		dst = append(dst, "}}"...)
	}
	return append(dst, ']')
}
