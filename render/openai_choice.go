package render

import (
	"fmt"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// OpenAIToolChoice returns the Chat Completions "tool_choice" that forces
// tool t: {"type":"function","function":{"name":…}}, or
// {"type":"custom","custom":{"name":…}} for a freeform tool.
func OpenAIToolChoice(t toolnexus.Tool) []byte {
	if t.Freeform != nil {
		return append(jsonx.AppendString([]byte(`{"type":"custom","custom":{"name":`), t.Name), "}}"...)
	}
	return append(jsonx.AppendString([]byte(`{"type":"function","function":{"name":`), t.Name), "}}"...)
}

// OpenAIResponsesToolChoice returns the Responses "tool_choice" that
// forces tool t: {"type":"function","name":…}, or {"type":"custom",
// "name":…} for a freeform tool.
func OpenAIResponsesToolChoice(t toolnexus.Tool) []byte {
	typ := `{"type":"function","name":`
	if t.Freeform != nil {
		typ = `{"type":"custom","name":`
	}
	return append(jsonx.AppendString([]byte(typ), t.Name), '}')
}

// OpenAIAllowedTools returns the Chat Completions "tool_choice" that lets
// the model use only tools (all tools stay in "tools", which keeps the
// prompt cache): {"type":"allowed_tools","allowed_tools":{"mode":mode,
// "tools":[{"type":"function","function":{"name":…}},…]}} (a freeform
// tool as {"type":"custom","custom":{"name":…}}). mode is "auto" or
// "required"; anything else, or no tools, is an error.
func OpenAIAllowedTools(mode string, tools []toolnexus.Tool) ([]byte, error) {
	if err := checkAllowed(mode, len(tools)); err != nil {
		return nil, err
	}
	dst := []byte(`{"type":"allowed_tools","allowed_tools":{"mode":`)
	dst = jsonx.AppendString(dst, mode)
	dst = append(dst, `,"tools":[`...)
	for i := range tools {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, OpenAIToolChoice(tools[i])...)
	}
	return append(dst, "]}}"...), nil
}

// OpenAIResponsesAllowedTools is [OpenAIAllowedTools] for the Responses
// API: {"type":"allowed_tools","mode":mode,"tools":[{"type":"function",
// "name":…},…]} (a freeform tool as {"type":"custom","name":…}).
func OpenAIResponsesAllowedTools(mode string, tools []toolnexus.Tool) ([]byte, error) {
	if err := checkAllowed(mode, len(tools)); err != nil {
		return nil, err
	}
	dst := []byte(`{"type":"allowed_tools","mode":`)
	dst = jsonx.AppendString(dst, mode)
	dst = append(dst, `,"tools":[`...)
	for i := range tools {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, OpenAIResponsesToolChoice(tools[i])...)
	}
	return append(dst, "]}"...), nil
}

func checkAllowed(mode string, n int) error {
	if mode != "auto" && mode != "required" {
		return fmt.Errorf(`render: allowed_tools mode: must be "auto" or "required", got %q`, mode)
	}
	if n == 0 {
		return fmt.Errorf("render: allowed_tools tools: must name at least one tool")
	}
	return nil
}
