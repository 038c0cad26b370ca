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
// What each provider API accepts beyond JSON Schema (tool name and
// property key patterns, most tools per request, description limits, the
// schema root, the strict-mode subsets and their limits) is one table,
// [Profiles], each rule with its source; every renderer and package exec
// read it there. OpenAI (non-strict), Anthropic and MCP send the tool's
// schema bytes as they are. The strict modes and Gemini's "parameters"
// accept only a subset of JSON Schema, so those renderers rewrite a copy
// of each schema (the registry's bytes never change): see [OpenAIStrict],
// AnthropicOptions.Strict and [Gemini] for the exact rules. A rule a
// provider's copy cannot keep but Execute enforces is stated in the
// description as a hint; Registry.Execute still enforces it for typed
// tools. A property key a provider refuses is an error, or renamed in its
// copy with the renderer's RenameKeys option (exec maps the arguments
// back, [RestoreKeys]). A schema that cannot be rendered is a
// *[SchemaError] naming the renderer, the tool and the JSON Pointer of
// the offending node; a list over the most tools per request wraps
// [ErrTooManyTools]. [Check] runs the same checks at registration.
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

// Files: the profile table, then one file per provider API, each holding
// its entry types with their methods, its renderers and its wire shapes.
// Adding a provider is a profile in profiles.go and its file here (and
// its file in package exec).
//
//	profiles.go          the profile table: every provider rule with its source; Check
//	keys.go              renaming refused property keys, and mapping arguments back (RestoreKeys)
//	hints.go             the description hints stating rules a provider's copy drops
//	openai.go            OpenAI Chat Completions, and what both OpenAI APIs share (OpenAIOptions)
//	openai_responses.go  OpenAI Responses (custom, namespace and tool_search entries, Defer)
//	openai_strict.go     the strict rewrite, under a profile's StrictRules (OpenAI and Anthropic)
//	anthropic.go         Anthropic Messages (options, input examples, tool search)
//	gemini.go            Gemini: declarations, options, names, toolConfig
//	gemini_schema.go     Gemini's "parameters" rewrite: every rule listed on Gemini
//	mcp.go               MCP tools/list
//	shared.go            errors, name and schema checks, the $ref resolver, the rewrite cache, output helpers
