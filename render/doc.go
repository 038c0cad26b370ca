// Package render turns a list of tools into the tool definitions each
// provider's API expects. Renderers are pure functions of a []toolnexus.Tool:
// they never touch a Registry, never modify their input, import no provider
// SDK, and give byte-identical output for the same input (prompt caches
// depend on it).
//
// # Renderers
//
//	OpenAI(tools)                      Chat Completions: [{"type":"function","function":{"name","description","parameters"}}]
//	OpenAIStrict / OpenAIWith          the same in strict mode (rewritten schemas, "strict":true)
//	OpenAIResponses / ...With          Responses API: [{"type":"function","name","description","parameters","strict"}]
//	Anthropic(tools)                   Messages API: [{"name","description","input_schema"}]
//	Gemini / GeminiWith                Gemini: [{"functionDeclarations":[{"name","description","parameters"}]}]
//	MCP(tools)                         MCP tools/list: [{"name","title"?,"description","inputSchema","annotations"?}]
//
// Conventions shared by every renderer (checked for each one by the
// [github.com/toolnexus/toolnexus/render/rendertest] case list):
//   - the order of the slice is kept; pass Registry.Tools() for name order
//   - an empty or nil list renders as [] (Gemini: one empty wrapper, see
//     its doc)
//   - a description "" is emitted as "", never null
//   - a nil InputSchema is emitted as {"type":"object"} (Gemini omits
//     "parameters" for a tool without arguments)
//   - schema bytes prepared at registration are copied, never re-marshalled
//   - the output is always valid JSON and valid UTF-8: names and
//     descriptions are escaped as encoding/json does, and a schema that is
//     not a valid UTF-8 JSON object (only in a hand-built slice; a Registry
//     refuses it) is an error where the renderer has an error result, and
//     {"type":"object"} where it has none (OpenAI, OpenAIResponses, MCP;
//     see [CheckSchemas])
//   - a tool name the provider rejects is an error wrapping
//     [ErrUnsupportedName] where the renderer has an error result
//
// # Provider names
//
// Each provider API has one name across render, package exec and the
// toolnexus command's --format:
//
//   - OpenAI Chat Completions: render [OpenAI], [OpenAIStrict],
//     [OpenAIWith]; exec Executor.OpenAIChat, OpenAIChatJSON,
//     OpenAIChatStream, NewOpenAIChatFeed; --format openai-chat (alias
//     openai).
//   - OpenAI Responses: render [OpenAIResponses], [OpenAIResponsesWith];
//     exec Executor.Responses, ResponsesJSON, ResponsesStream,
//     NewResponsesFeed; --format openai-responses (alias responses).
//   - Anthropic Messages: render [Anthropic], [AnthropicWith]; exec
//     Executor.Anthropic, AnthropicJSON, AnthropicStream,
//     NewAnthropicFeed; --format anthropic.
//   - Gemini: render [Gemini], [GeminiWith]; exec Executor.Gemini,
//     GeminiJSON, GeminiStream, NewGeminiFeed; --format gemini.
//   - MCP: render [MCP]; package mcp serves and loads; --format mcp.
//
// In render, plain "OpenAI" means Chat Completions; everywhere else the two
// OpenAI APIs are told apart as OpenAIChat / openai-chat and Responses /
// OpenAIResponses / openai-responses. The command also accepts openai and
// responses as aliases.
//
// # Per-provider schema rules
//
// OpenAI (non-strict), Anthropic and MCP send the tool's schema bytes as
// they are. OpenAI strict mode and Gemini's "parameters" accept only a
// subset of JSON Schema, so those renderers rewrite a copy of each schema
// (the registry's bytes never change): see [OpenAIStrict] and [Gemini] for
// the exact rules. Constraints a provider cannot express are dropped from
// its copy only; Registry.Execute still enforces them for typed tools. A
// schema that cannot be rendered is a *[SchemaError] naming the renderer,
// the tool and the JSON Pointer of the offending node.
//
// Rewritten schemas are cached by their input bytes (at most 1024 per
// rewrite, then the cache is emptied), so rendering the same tool list for
// every request costs one map lookup per tool after the first.
//
// # Output
//
// Each result type implements json.Marshaler and also offers AppendJSON,
// which writes the same bytes straight into a buffer. With the rewrite
// caches warm, rendering allocates one slice for the whole list (Gemini
// one more for its wrapper), AppendJSON into a buffer with room allocates
// nothing, and MarshalJSON allocates its output once; json.Marshal of the
// value also re-scans that output (docs/performance.md has the cost). To
// put the bytes into a provider SDK's request without the SDK reordering
// the schema keys, see the README's provider sections and the interop
// module.
package render

// Files: one per provider API, each holding its entry types with their
// methods, its renderers and its rules.
//
//	openai.go            OpenAI Chat Completions, and what both OpenAI APIs share (OpenAIOptions, the root rule)
//	openai_responses.go  OpenAI Responses (custom, namespace and tool_search entries, Defer)
//	openai_strict.go     OpenAI strict mode: the schema rewrite and its limits (also used by AnthropicWith)
//	anthropic.go         Anthropic Messages (options, input examples, tool search)
//	gemini.go            Gemini: declarations, options, names, toolConfig
//	gemini_schema.go     Gemini's "parameters" rewrite: every rule listed on Gemini, with its hints
//	mcp.go               MCP tools/list
//	shared.go            errors, name and schema checks, the $ref resolver, the rewrite cache, output helpers
