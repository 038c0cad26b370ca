package render

import (
	"fmt"

	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// Freeform tools (toolnexus.NewFreeform) are rendered by [OpenAI],
// [OpenAIWith], [OpenAIResponses] and [OpenAIResponsesWith] as OpenAI
// custom tools, whose calls carry raw text:
//
//	Chat:      {"type":"custom","custom":{"name":…,"description":…,"format":F}}
//	Responses: {"type":"custom","name":…,"description":…,"format":F}
//
// with F {"type":"text"}, or for a grammar {"type":"grammar","grammar":
// {"definition":…,"syntax":"lark"|"regex"}} (Chat) and {"type":"grammar",
// "syntax":…,"definition":…} (Responses). Strict does not apply to them.
// Sources: OpenAI function-calling guide, "Custom tools"; openai-go types
// ChatCompletionCustomToolParam and responses.CustomToolParam. The other
// renderers show a freeform tool as a function with
// toolnexus.FreeformSchema, which runs the same handler.

// appendCustom appends a Chat custom tool entry.
func (t OpenAITool) appendCustom(dst []byte) []byte {
	dst = append(dst, `{"type":"custom","custom":{"name":`...)
	dst = jsonx.AppendString(dst, t.Function.Name)
	dst = append(dst, `,"description":`...)
	dst = jsonx.AppendString(dst, t.Function.Description)
	dst = append(dst, `,"format":`...)
	if f := t.Format; f != nil && f.Type == "grammar" {
		dst = append(dst, `{"type":"grammar","grammar":{"definition":`...)
		dst = jsonx.AppendString(dst, f.Definition)
		dst = append(dst, `,"syntax":`...)
		dst = jsonx.AppendString(dst, f.Syntax)
		dst = append(dst, "}}"...)
	} else {
		dst = append(dst, `{"type":"text"}`...)
	}
	return append(dst, "}}"...)
}

// appendOther appends a Responses entry that is not a function.
func (t OpenAIResponsesTool) appendOther(dst []byte) []byte {
	dst = append(dst, `{"type":`...)
	dst = jsonx.AppendString(dst, t.Type)
	switch t.Type {
	case "tool_search":
		dst = append(dst, `,"execution":"client","description":`...)
		dst = jsonx.AppendString(dst, t.Description)
		dst = append(dst, `,"parameters":`...)
		return append(appendSchema(dst, t.Parameters), '}')
	case "namespace":
		dst = append(dst, `,"name":`...)
		dst = jsonx.AppendString(dst, t.Name)
		dst = append(dst, `,"description":`...)
		dst = jsonx.AppendString(dst, t.Description)
		dst = append(dst, `,"tools":`...)
		return append(t.Tools.AppendJSON(dst), '}')
	}
	dst = append(dst, `,"name":`...)
	dst = jsonx.AppendString(dst, t.Name)
	dst = append(dst, `,"description":`...)
	dst = jsonx.AppendString(dst, t.Description)
	dst = append(dst, `,"format":`...)
	if f := t.Format; f != nil && f.Type == "grammar" {
		dst = append(dst, `{"type":"grammar","syntax":`...)
		dst = jsonx.AppendString(dst, f.Syntax)
		dst = append(dst, `,"definition":`...)
		dst = jsonx.AppendString(dst, f.Definition)
		dst = append(dst, '}')
	} else {
		dst = append(dst, `{"type":"text"}`...)
	}
	if t.DeferLoading {
		dst = append(dst, `,"defer_loading":true`...)
	}
	return append(dst, '}')
}

// Defer marks the function and custom entries named (inside namespaces
// too, by their shown name) with "defer_loading":true: the model sees them
// only once a tool search loads them. The Responses API needs a
// tool_search entry in the same list ([OpenAIToolSearch]). A name that
// matches no entry is an error naming it; nothing is marked then.
func (ts OpenAIResponsesTools) Defer(names ...string) error {
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = false
	}
	var mark func(ts OpenAIResponsesTools, apply bool)
	mark = func(ts OpenAIResponsesTools, apply bool) {
		for i := range ts {
			switch ts[i].Type {
			case "namespace":
				mark(ts[i].Tools, apply)
			case "", "function", "custom":
				if _, ok := want[ts[i].Name]; ok {
					want[ts[i].Name] = true
					if apply {
						ts[i].DeferLoading = true
					}
				}
			}
		}
	}
	mark(ts, false)
	for _, n := range names {
		if !want[n] {
			return fmt.Errorf("render: Defer: no function or custom tool named %q", n)
		}
	}
	mark(ts, true)
	return nil
}

// ToolSearchSchema is the parameters of the client-executed tool search
// tool: one required string "query", the words to look for in tool names
// and descriptions.
const ToolSearchSchema = `{"type":"object","properties":{"query":{"type":"string","description":"Words to look for in tool names and descriptions"}},"required":["query"],"additionalProperties":false}`

// OpenAIToolSearch returns the Responses entry of a client-executed tool
// search, {"type":"tool_search","execution":"client","description":…,
// "parameters":[ToolSearchSchema]}; "" gives a default description. The
// model then emits tool_search_call items for the host to answer.
// Source: OpenAI tool search guide; openai-go responses.ToolSearchToolParam.
func OpenAIToolSearch(description string) OpenAIResponsesTool {
	if description == "" {
		description = defaultToolSearchDescription
	}
	return OpenAIResponsesTool{Type: "tool_search", Description: description, Parameters: []byte(ToolSearchSchema)}
}
