package render

// ToolSearchName is the name of the Anthropic client-side tool search
// tool ([AnthropicToolSearch]), under which exec answers its calls when
// exec.Options.ToolSearch is set.
const ToolSearchName = "tool_search"

// AnthropicToolSearch returns the Anthropic tool of a client-side tool
// search, {"name":"tool_search","description":…,"input_schema":
// [ToolSearchSchema]}; "" gives a default description. Render it, not
// deferred, next to tools rendered with "defer_loading":true
// (AnthropicOptions.Defer): the model calls it with {"query":"…"} and exec
// answers with tool_reference blocks naming the deferred tools that
// match, which the API then loads. Source: Anthropic docs, "Tool search
// tool", custom tool search (tool_reference blocks in a tool_result);
// anthropic-sdk-go ToolReferenceBlockParam.
func AnthropicToolSearch(description string) AnthropicTool {
	if description == "" {
		description = defaultToolSearchDescription
	}
	return AnthropicTool{Name: ToolSearchName, Description: description, InputSchema: []byte(ToolSearchSchema)}
}

const defaultToolSearchDescription = "Search the deferred tools by name and description and load the ones that match."
