// Package genkittool plugs a toolnexus registry into Firebase Genkit for Go
// (github.com/firebase/genkit/go, packages genkit and ai) as Genkit's own
// tools, and turns Genkit tools into toolnexus tools.
//
// # Registry tools in Genkit
//
// [Define] registers each tool of a [toolnexus.Registry] in a *genkit.Genkit
// and returns the [ai.Tool] values for ai.WithTools. Genkit's generate loop
// (genkit.Generate) then runs every tool call through Registry.Execute, so
// the registry's argument checking, approvals, timeouts, output caps and
// hooks apply. What maps to what:
//
//   - the tool's name, description and input schema become the
//     [ai.ToolDefinition] the model is sent (ai.ModelRequest.Tools); the
//     schema is decoded into Genkit's map[string]any with numbers kept as
//     written (json.Number);
//   - a bad call is not Genkit's aborted generation (a native Genkit tool
//     validates its input itself and ends the run with an error such as
//     "data did not match expected schema: - city: Invalid type"): Genkit
//     checks nothing before the registry, and the registry's
//     message, naming the JSON field and the rule, is the tool response's
//     output, so the model reads it and retries; a failing or panicking
//     handler or a timeout is answered the same way;
//   - a pending request (a tool with Tool.NeedsApproval and no approver, a
//     question) is a Genkit tool interrupt (ToolContext.Interrupt): the
//     generation ends with the tool request in resp.Interrupts(), whose
//     Metadata["interrupt"] is the [toolnexus.PendingRequest]
//     (ai.InterruptAs[toolnexus.PendingRequest] reads it). Resume with
//     ai.WithToolRestarts(tool.Restart(part, nil)) and the answer in the
//     context (toolnexus.WithAnswer), or answer it yourself with
//     ai.WithToolResponses(tool.Respond(part, output, nil)). An approver
//     attached to the context passed to genkit.Generate
//     (toolnexus.WithApprover) decides without an interrupt;
//   - a structured result (Result.Structured) is the tool response's output
//     as that JSON value, any other result its text (Result.Text); content
//     parts with media become the response's content
//     ([ai.MultipartToolResponse]): images, audio and files as media parts
//     (data: URLs for bytes), resource links as resource parts.
//
// What Genkit cannot carry: the order of the schema's object keys (Genkit
// holds a schema as a Go map, which marshals its keys sorted; the keywords
// and values are all kept); an error flag on a tool response (Genkit's
// ai.ToolResponse has none, so a failed call is its message text only); the
// call id (Genkit does not hand a tool its ai.ToolRequest.Ref, so an
// approver gets CallID ""); a file part's name; content parts of a call
// resumed after an interrupt (Genkit keeps only the output then). The tools
// are read from the registry once, at Define: a tool added later is not
// defined, one removed later answers as an unknown tool. A tool call runs in
// a Genkit trace span as Genkit's own tools do, without Genkit's action
// metrics.
//
// # Genkit tools in a registry
//
// [FromTool] makes an [ai.Tool] (genkit.DefineTool, ai.NewTool, a plugin's
// tools) a [toolnexus.Tool]: the registry checks its calls against the
// tool's input schema with its own messages, renders it for any provider
// (package render), and runs it with ai.Tool.RunRawMultipart. A Genkit
// interrupt cannot be resumed through a registry: it is an error result.
//
// # Building
//
// Genkit v1.4.0 imports github.com/google/dotprompt/go, which compiles only
// with github.com/invopop/jsonschema v0.13.0, while toolnexus requires
// v0.14.0 (the two hold different ordered-map types in
// jsonschema.Schema.Properties). A program importing genkittool must add
//
//	replace github.com/invopop/jsonschema => github.com/invopop/jsonschema v0.13.0
//
// to its go.mod, as this module's go.mod does (a dependency's replace
// directives do not apply to its importers). toolnexus reflects the same
// input schemas under v0.13.0, except that v0.13.0 splits a
// jsonschema_extras value at an escaped comma, so such a tag is refused at
// registration.
package genkittool
