// Package einotool plugs a toolnexus registry into cloudwego/eino
// (github.com/cloudwego/eino, v0.7.36) as eino's own tools, and turns eino
// tools into toolnexus tools.
//
// # Registry tools in eino
//
// [Tools] returns a registry's tools as eino tool.BaseTool values, for
// compose.ToolsNodeConfig.Tools: the react agent of flow/agent/react, an
// adk.ChatModelAgent, or a ToolsNode in a graph.
//
//	tools, err := einotool.Tools(reg, nil)
//	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
//		Name: "assistant", Description: "...", Model: chatModel,
//		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: tools}},
//	})
//
// What maps to what:
//
//   - Tool.Name and Tool.Description are schema.ToolInfo's Name and Desc;
//     Tool.InputSchema is its ParamsOneOf (schema.NewParamsOneOfByJSONSchema
//     of the schema decoded into github.com/eino-contrib/jsonschema's
//     Schema). What eino's chat models marshal for the model is the
//     registry's schema as JSON (same keywords and values; key order and
//     spacing may differ). Keywords that type has no field for are kept
//     in its Extras.
//   - tool.InvokableTool.InvokableRun is [toolnexus.Registry.Execute] of
//     the call. Every Result is a tool result: a failed call (invalid
//     arguments, a handler error, a panic, a timeout, a denied approval)
//     is the registry's message as the tool message's content, with a nil
//     error, so the run goes on and the model can retry; eino would end
//     the run on an error.
//   - A pending Result ([toolnexus.PendingFrom]: an approval no approver
//     decided, a question) is eino's tool interrupt (tool.Interrupt) with
//     the [toolnexus.PendingRequest] as its info; the run is resumed with
//     a [toolnexus.Answer] as the resume data of that interrupt's ID.
//     Options.Approver decides approvals in the process instead, with the
//     eino tool call ID (compose.GetToolCallID) as the call ID.
//   - Result.Content is, with Options.Multimodal, the parts of the
//     schema.ToolResult of a tool.EnhancedInvokableTool; otherwise the
//     tool result is Result.Text() (which holds Result.Structured's JSON).
//   - Timeouts, output and media caps and concurrency limits are the
//     registry's (toolnexus.Options, Tool.Timeout, Tool.MaxConcurrent);
//     eino has none of them.
//
// What cannot be carried:
//
//   - An input schema keyword whose value eino's jsonschema.Schema field
//     cannot hold as written ("const": null, "default": null, a boolean
//     "exclusiveMinimum", an array "items", a number written differently
//     after a round trip such as an enum value 1e2): [Tools] fails and
//     names the tool and the JSON pointer. An empty subschema {} is sent
//     as true, its equivalent. Options.Names leaves such a tool out.
//   - Tool.Title, Annotations, OutputSchema, InputExamples and Freeform
//     have no place in schema.ToolInfo and are not sent.
//   - A file part's name, and resource links and embedded resources as
//     such: these become text (Part.Summary) in a multimodal result.
//   - Progress and log events of a running tool: eino has no channel for
//     them (attach toolnexus.WithEvents to the run's context to see them).
//   - The per-call tool.Option values eino passes: toolnexus tools take none.
//
// # eino tools in a registry
//
// [FromTool] returns an eino tool.InvokableTool as a [toolnexus.Tool]
// whose arguments are checked against the JSON Schema eino gives the model
// (toolnexus.CheckArguments) before the eino tool runs; add it to a
// Registry, then render it (render.OpenAI, ...) or serve it over MCP.
package einotool
