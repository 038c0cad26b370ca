package render

import (
	"encoding/json"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// OpenAIResponsesTool is one function tool of the OpenAI Responses API
// "tools" array. It is flat (no "function" wrapper):
//
//	{"type":"function","name":…,"description":…,"parameters":{…},"strict":false}
//
// Source: OpenAI API reference, Responses, "Create a model response",
// request body "tools" (FunctionTool;
// https://platform.openai.com/docs/api-reference/responses/create); Go SDK
// type responses.FunctionToolParam.
type OpenAIResponsesTool struct {
	Type        string          `json:"type"`        // "function"; "custom", "namespace", "tool_search": see openai_custom.go, namespace.go
	Name        string          `json:"name"`        // the tool's (or namespace's) name
	Description string          `json:"description"` // the description; "" is rendered as ""
	Parameters  json.RawMessage `json:"parameters"`  // JSON Schema object
	Strict      bool            `json:"strict"`      // always emitted for "function"

	// DeferLoading renders "defer_loading":true on a "function" or
	// "custom" entry: the model sees it only after a tool search finds it
	// (see [OpenAIResponsesTools.Defer]).
	DeferLoading bool `json:"-"`
	// Format is the input format of a "custom" entry.
	Format *toolnexus.Format `json:"-"`
	// Tools are the entries of a "namespace" entry.
	Tools OpenAIResponsesTools `json:"-"`
}

// OpenAIResponsesTools is the Responses API "tools" array of function
// tools. Its json.Marshal output is exactly the array; nil marshals as [].
type OpenAIResponsesTools []OpenAIResponsesTool

// OpenAIResponses renders tools for the OpenAI Responses API, one
// {"type":"function","name","description","parameters","strict":false}
// entry per tool in the order given, with each schema's bytes shared, not
// copied; an object root without "properties" gets "properties":{} as in
// [OpenAI] ({"type":"object","properties":{}} when nil).
//
// "strict" is always explicit because the Responses API, unlike Chat
// Completions, treats an omitted "strict" as "try to make it strict and fall
// back silently" (OpenAI function-calling guide, "Strict mode"). Use
// [OpenAIResponsesWith] with OpenAIOptions{Strict: true} for strict mode.
//
// Like [OpenAI], a schema that is not a valid UTF-8 JSON object is
// replaced by {"type":"object"}, and a root oneOf, anyOf or allOf is sent
// unchanged; [OpenAIResponsesWith] and [CheckSchemas] report both instead.
func OpenAIResponses(tools []toolnexus.Tool) OpenAIResponsesTools {
	out := make(OpenAIResponsesTools, len(tools))
	for i := range tools {
		t := &tools[i]
		out[i] = OpenAIResponsesTool{Type: "function", Name: t.Name, Description: t.Description}
		if t.Freeform != nil {
			out[i].Type, out[i].Format = "custom", t.Freeform
		}
	}
	openAIParamsAll(tools, func(i int, s json.RawMessage) { out[i].Parameters = s })
	return out
}

// OpenAIResponsesWith renders tools for the Responses API with options.
// With Strict each schema is rewritten exactly as [OpenAIStrict] documents
// and "strict" is true (false for a Fallback tool); errors are
// *SchemaError values naming the tool and the JSON path. Either way a name
// outside ^[a-zA-Z0-9_-]{1,64}$ is an error wrapping [ErrUnsupportedName],
// and without Strict a schema that is not a valid UTF-8 JSON object, or
// whose root has oneOf, anyOf or allOf, is a *SchemaError wrapping
// [ErrUnsupportedSchema].
func OpenAIResponsesWith(tools []toolnexus.Tool, opts OpenAIOptions) (OpenAIResponsesTools, error) {
	if !opts.Strict {
		const renderer = "render.OpenAIResponsesWith"
		for i := range tools {
			if err := checkName(renderer, tools[i].Name); err != nil {
				return nil, err
			}
		}
		if err := checkSchemas(tools, renderer); err != nil {
			return nil, err
		}
		if err := checkOpenAIRoots(tools, renderer); err != nil {
			return nil, err
		}
		return OpenAIResponses(tools), nil
	}
	out := make(OpenAIResponsesTools, len(tools))
	for i := range tools {
		t := &tools[i]
		if t.Freeform != nil {
			if err := checkName("render.OpenAIResponsesWith", t.Name); err != nil {
				return nil, err
			}
			out[i] = OpenAIResponsesTool{Type: "custom", Name: t.Name, Description: t.Description, Format: t.Freeform}
			continue
		}
		params, strict, err := strictParams(t, opts, "render.OpenAIResponsesWith")
		if err != nil {
			return nil, err
		}
		out[i] = OpenAIResponsesTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: params, Strict: strict}
	}
	return out, nil
}

// MarshalJSON implements json.Marshaler. The buffer is sized once from
// the prepared bytes (names, descriptions, schemas).
func (ts OpenAIResponsesTools) MarshalJSON() ([]byte, error) { return marshalList(ts), nil }

// AppendJSON appends the JSON array to dst and returns the extended buffer.
func (ts OpenAIResponsesTools) AppendJSON(dst []byte) []byte {
	return appendList(dst, ts)
}

// MarshalJSON implements json.Marshaler with the same bytes the entry has
// inside [OpenAIResponsesTools], so one entry can be handed to an SDK as raw JSON
// (for openai-go: param.Override[responses.FunctionToolParam](t)).
func (t OpenAIResponsesTool) MarshalJSON() ([]byte, error) { return marshalEntry(t), nil }

// AppendJSON appends the entry's JSON object to dst.
func (t OpenAIResponsesTool) AppendJSON(dst []byte) []byte {
	switch t.Type {
	case "custom", "namespace", "tool_search":
		return t.appendOther(dst)
	}
	typ := t.Type
	if typ == "" {
		typ = "function"
	}
	dst = append(dst, `{"type":`...)
	dst = jsonx.AppendString(dst, typ)
	dst = append(dst, `,"name":`...)
	dst = jsonx.AppendString(dst, t.Name)
	dst = append(dst, `,"description":`...)
	dst = jsonx.AppendString(dst, t.Description)
	dst = append(dst, `,"parameters":`...)
	dst = appendOpenAISchema(dst, t.Parameters)
	if t.DeferLoading {
		dst = append(dst, `,"defer_loading":true`...)
	}
	if t.Strict {
		dst = append(dst, `,"strict":true}`...)
	} else {
		dst = append(dst, `,"strict":false}`...)
	}
	return dst
}

// appendOpenAISchema appends raw parameters bytes, {"type":"object","properties":{}}
// when empty.
func appendOpenAISchema(dst []byte, s json.RawMessage) []byte {
	if len(s) == 0 {
		return append(dst, openAIEmptySchema...)
	}
	return append(dst, s...)
}

// appendSchema appends raw schema bytes, {"type":"object"} when empty.
func appendSchema(dst []byte, s json.RawMessage) []byte {
	if len(s) == 0 {
		return append(dst, emptySchema...)
	}
	return append(dst, s...)
}
