// Package anthropicrunner puts a toolnexus registry under the beta tool
// runner of the Anthropic Go SDK (github.com/anthropics/anthropic-sdk-go/v2,
// anthropic.BetaToolRunner, tools.md) and loads the runner's tools into a
// registry.
//
// [Tools] turns a *toolnexus.Registry into []anthropic.BetaTool for
// client.Beta.Messages.NewToolRunner; [FromBetaTool] turns an
// anthropic.BetaTool (from the SDK's toolrunner package or any other) into a
// toolnexus.Tool.
//
// # What maps to what
//
//   - Tool name, description, input schema: the tool definition the runner
//     sends (BetaToolParam), the input schema as the exact bytes
//     render.Anthropic gives (no map round trip).
//   - Registry.Execute (through package exec): BetaTool.Execute. Bad
//     arguments, an unknown tool, a handler error or panic, a timeout and a
//     denied approval are the error the runner turns into a tool_result with
//     is_error true; its content is "Error: " (the runner's prefix) followed
//     by the registry's message, so one bad call costs only itself and the run
//     goes on.
//   - Result.Content: tool_result text, image and document blocks, as exec
//     shapes them for Anthropic; a part Anthropic cannot take goes as its text
//     stand-in. Result.Structured goes as its JSON text.
//   - Approvals, hooks, logging, progress: exec.Options (Approver, Before,
//     After, Logger, OnEvent, Timeout) given to Tools.
//
// # What cannot be carried
//
//   - The runner has no interrupt or confirmation hook: a call of a tool with
//     Tool.NeedsApproval is decided in the call by exec.Options.Approver (or
//     the registry's Options.Approver); without one it is the registry's
//     pending request, whose text the model reads as the tool_result (the
//     tool does not run), and the runner goes on. A Later decision is the
//     same.
//   - BetaTool.Execute is not given the tool_use id, so
//     ApprovalRequest.CallID and exec's Call.ID are "".
//   - The BetaTool interface carries only a name, a description and an input
//     schema: strict, input_examples, defer_loading, cache_control and
//     allowed_callers (render.AnthropicWith) are not sent. To send them, put
//     render.AnthropicWith's definitions in the runner's Params.Tools
//     (param.Override[anthropic.BetaToolUnionParam]); the runner keeps a
//     definition given there and runs the BetaTool of the same name.
//   - The text of an error result cannot be sent without the runner's
//     "Error: " prefix, and an error result carries no images.
//   - Metadata (pending requests included) never reaches the model, as
//     everywhere in toolnexus; read it in an exec.Options.After hook.
package anthropicrunner
