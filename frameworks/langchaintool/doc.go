// Package langchaintool plugs a toolnexus registry into tmc/langchaingo
// (github.com/tmc/langchaingo, pinned at v0.1.14), and loads langchaingo's
// own tools into a registry. Every call runs through the registry (with
// package exec), so its argument checking, messages, approvals, timeouts,
// output caps and hooks apply.
//
// langchaingo has two tool shapes, and the package maps both:
//
//   - llms.Tool (an llms.FunctionDefinition), passed with llms.WithTools to
//     llms.Model.GenerateContent: [Definitions] gives the registry's tools
//     with their exact input schema as Parameters (a json.RawMessage), and
//     [Execute] runs the llms.ToolCall values of the reply through the
//     registry and returns the llms.ToolCallResponse messages to append.
//   - tools.Tool (Name, Description, Call(ctx, input string)), which the
//     agents of package agents call with one text input: [Tools] gives the
//     registry's tools in that shape, taking the JSON arguments as the text
//     and stating the input schema in the description.
//   - The reverse: [FromTools] turns a langchaingo tools.Tool into a
//     toolnexus.Tool whose one argument "input" the registry checks.
//
// A bad call (unknown tool, invalid arguments, a failing or panicking
// handler, a timeout) never aborts langchaingo's run: it is the text the
// model reads next, exec.ErrorPrefix followed by the registry's message,
// e.g.
//
//	error: invalid arguments for "get_weather": "unit" must be one of [celsius fahrenheit]
//
// # What cannot be carried
//
//   - Error flag: llms.ToolCallResponse and a tools.Tool's observation are
//     text alone, so a failure is marked by the "error: " prefix.
//   - Rich results: they are text alone too; content parts (images, audio,
//     files) become the stand-ins of toolnexus.Result.Text and a structured
//     result its JSON text.
//   - The input schema in agents: agents.OpenAIFunctionsAgent declares every
//     tool with one string parameter "__arg1" and agents.OneShotZeroAgent
//     with none, so the model sees the schema only in the description
//     [Tools] writes, and the registry checks what arrives.
//   - Approvals: langchaingo has no interrupt or confirmation step. An
//     exec.Options.Approver (or the registry's Options.Approver) decides;
//     without one, a call of a tool with NeedsApproval is a pending request
//     whose text the model reads, and the tool does not run.
//   - Parameters as a map: llms/googleai and llms/googleai/vertex accept
//     only a map[string]any as FunctionDefinition.Parameters, and refuse the
//     json.RawMessage of [Definitions].
//   - Progress and log events (toolnexus.ReportProgress, toolnexus.Log)
//     reach exec.Options.OnEvent only; langchaingo's callbacks have no
//     place for them.
package langchaintool
