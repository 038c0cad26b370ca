// Package exec runs a model's tool calls against a [toolnexus.Registry] and
// turns the results into the messages each provider expects next:
//
//   - OpenAI Chat Completions: assistant tool_calls (arguments are a JSON
//     string) → one {"role":"tool","tool_call_id","content"} message per
//     call ([Executor.OpenAIChat], [Executor.OpenAIChatJSON]).
//   - OpenAI Responses: function_call output items → function_call_output
//     input items with the same call_id ([Executor.Responses],
//     [Executor.ResponsesJSON]).
//   - Anthropic Messages: tool_use blocks → ONE user message whose content
//     is the tool_result blocks in tool_use order, is_error on failures
//     ([Executor.Anthropic], [Executor.AnthropicJSON]).
//   - Gemini: functionCall parts → one user content with exactly as many
//     functionResponse parts, response {"output": …} or {"error": …}, ids
//     echoed, calls without ids matched by position ([Executor.Gemini],
//     [Executor.GeminiJSON]).
//   - Any provider: [Call] → [Result] ([Executor.Run], [Executor.RunAll]).
//
// Each provider shape comes as plain Go structs a raw reply can be
// json.Unmarshal'ed into, and as a *JSON function taking the raw bytes.
// The returned structs json.Marshal to byte-stable provider JSON. The
// package imports no provider SDK; see examples/agentloop for loops driven
// by the official OpenAI, Anthropic and Gemini Go clients.
//
// # Provider names
//
// Each provider API has one name across exec, package render and the
// toolnexus command's --format:
//
//   - OpenAI Chat Completions: exec [Executor.OpenAIChat],
//     [Executor.OpenAIChatJSON], [Executor.OpenAIChatStream],
//     [Executor.NewOpenAIChatFeed]; render OpenAI, OpenAIStrict,
//     OpenAIWith; --format openai-chat (alias openai).
//   - OpenAI Responses: exec [Executor.Responses], [Executor.ResponsesJSON],
//     [Executor.ResponsesStream], [Executor.NewResponsesFeed]; render
//     OpenAIResponses, OpenAIResponsesWith; --format openai-responses
//     (alias responses).
//   - Anthropic Messages: exec [Executor.Anthropic],
//     [Executor.AnthropicJSON], [Executor.AnthropicStream],
//     [Executor.NewAnthropicFeed]; render Anthropic, AnthropicWith;
//     --format anthropic.
//   - Gemini: exec [Executor.Gemini], [Executor.GeminiJSON],
//     [Executor.GeminiStream], [Executor.NewGeminiFeed]; render Gemini,
//     GeminiWith; --format gemini.
//
// # Guarantees
//
// Every call gets exactly one result, in call order, whatever happens:
// unknown tool, malformed or truncated arguments, handler error, panic
// (in the tool or a hook), runtime.Goexit in the tool or a hook (as
// t.FailNow does; see [Executor.RunAll] for Concurrency 1), timeout,
// cancellation. Calls run concurrently up to [Options.Concurrency]
// (default [DefaultConcurrency]; 1 is sequential, on the caller's
// goroutine); the id and name sent back are always the call's, whatever a
// hook does.
// Two calls to the same tool in one reply are independent. When the
// context is done, running calls end with a cancellation result, calls not
// yet started get a result wrapping [ErrNotStarted], and the function
// returns promptly. Outputs are valid UTF-8 in every message: invalid bytes
// from a tool become U+FFFD.
//
// # Arguments
//
// Arguments go to [toolnexus.Registry.Execute] as sent, which checks them
// (one JSON object; "", whitespace and null mean {}). One repair is made
// first: arguments that are a JSON string whose content is a JSON object,
// e.g. "{\"city\":\"Paris\"}" sent as a string (encoded twice, a known
// model habit), are unwrapped exactly one level. A string holding anything
// else, or a string holding a string, is an error result.
//
// # Streaming replies
//
// [Executor.OpenAIChatStream], [Executor.ResponsesStream],
// [Executor.AnthropicStream] and [Executor.GeminiStream] read a streamed
// reply (the server-sent-events body of a request with stream: true, or
// Gemini's streamGenerateContent?alt=sse) and start each call the moment
// it is complete, not at the end of the stream: when its name is known and
// the fragments of its arguments form one complete JSON object (Chat,
// Anthropic, Responses; or a Responses call's arguments.done or
// output_item.done event, whichever comes first), with the chunk that
// holds it (Gemini, which sends each call whole). A call whose arguments
// never form an object starts when the reply ends, and gets the
// registry's message for its arguments. The answers keep call order and
// equal, byte for byte, those the non-streaming methods give for the same
// reply sent whole. Hosts that read the stream themselves (to show the
// text as it comes) feed each event's data to an [OpenAIChatFeed],
// [ResponsesFeed], [AnthropicFeed] or [GeminiFeed] and Close it.
//
// A stream that does not finish as its provider finishes one (cut off, an
// error event, a malformed event) gives an error wrapping
// [ErrStreamIncomplete] together with the answers: the calls completed
// before that point ran, and a call whose arguments were still streaming
// never runs on partial arguments; it is answered with an error result.
// One event, and the call data kept from one stream, are limited by
// [Options.MaxStreamBytes] (16 MiB by default; each call counts 512
// bytes besides its data, and each object or array a Vertex call's pieces
// make 256); more is the same error. Started calls wait for one of at
// most [Options.Concurrency] workers without a goroutine of their own.
//
// # Stream shapes
//
// OpenAI-compatible servers send Chat tool calls in more shapes than
// OpenAI does, and every one is read (testdata/streams holds a stream of
// each, naming the producer code it follows):
//   - fragments of parallel calls that interleave, told apart by index;
//   - several calls at one index, each with its own id (older Ollama);
//   - the id repeated on every fragment of its call;
//   - no index at all (Gemini's OpenAI endpoint, mistral.rs): a fragment
//     with an id belongs to that call, one without to the latest call,
//     unless that call is complete and the fragment names a tool;
//   - each call whole in one chunk (Ollama, Gemini's OpenAI endpoint);
//   - the whole arguments sent again after the fragments (vLLM, when its
//     own copy differs in form): what comes for a call after it started
//     must be white space or the same JSON value, else the call's answer
//     says the stream contradicted itself, after the result of the run;
//   - a second tool name, with no id or index, while a call's arguments
//     are not complete: which call the rest belongs to cannot be told, so
//     neither call runs, and both answers say why.
//
// Responses streams whose arguments come only in
// response.function_call_arguments.done, or whose done item comes without
// them, are read alike; a Responses call whose done event holds arguments
// that are not one complete object, or an "incomplete" item, waits for
// the response's end (it may be cut). Anthropic streams whose input comes
// whole in one fragment, or only in content_block_start, are read too; a
// tool_use without fragments starts once the reply goes on past it (the
// next block, or a stop_reason that is not a cut). Freeform (custom) Chat
// calls start when the next call begins or the reply ends. A stream may
// begin with a byte order mark; ctx is checked at every line. A Gemini
// call that Vertex AI streams in pieces (streamFunctionCallArguments: a
// first part with willContinue, then partialArgs by JSON path) runs when
// its last piece arrives; pieces that cannot be put together, or another
// call beginning before the last piece, answer the call with an error.
//
// # Truncated replies
//
// A reply the provider cut at the output-token limit (Chat finish_reason
// "length", Responses status "incomplete" for "max_output_tokens",
// Anthropic stop_reason "max_tokens" or "model_context_window_exceeded",
// Gemini finishReason "MAX_TOKENS"), streamed or whole, never runs a call
// that may be cut: such a call is answered with an error saying the reply
// was cut at the output limit and to call again with shorter arguments
// (its Result.Err wraps [ErrTruncated]). Which calls may be cut: on Chat
// and Responses, whose arguments are the model's own text, a call whose
// arguments do not form one complete JSON object (and a custom tool call
// whose item is "incomplete"); on Anthropic and Gemini, whose whole
// replies hold the arguments the provider parsed (so a cut call may look
// whole), the last call of a whole reply, and in a stream a tool_use whose
// fragments did not complete (Anthropic) or the last call of the chunk
// that carries MAX_TOKENS (Gemini). The calls complete before the cut run
// as usual. A cut reply is a finished one: the methods return no error
// for it.
//
// # Reading replies
//
// The Parse* functions (and so the *JSON methods) read a reply with
// encoding/json into the exported structs, whose UnmarshalJSON methods
// keep a wrongly typed field to its own call (see "Malformed calls"):
// the result is what json.Unmarshal into those structs gives.
//
// # Malformed calls
//
// Only a malformed envelope fails a whole reply: bytes that are not JSON,
// or not one of the accepted top-level shapes (an object or array, with
// tool_calls/choices/output/content/parts/candidates of the right types).
// Bytes that are not JSON are named with the offset of the first bad byte
// and a quoted head of at most 40 bytes (`exec: OpenAI reply: not valid
// JSON at offset 1: invalid character 'o' in literal null; the reply is
// "not json"`). A reply with no call to run that is recognisably another
// provider's fails too, naming that provider and the method that reads it
// (`exec: OpenAI reply: it looks like an Anthropic Messages reply (it has
// "type":"message"); read it with AnthropicJSON or ParseAnthropic`); one in
// the method's own shape, or in no recognisable shape, with no call to run
// is an empty answer and no error.
// Inside the call arrays, the call types' UnmarshalJSON methods read each
// element on its own, so a wrongly typed field costs only its own call:
// that call is answered with an error result wrapping [ErrMalformedCall]
// whose Output names the field (`the tool call could not be read:
// "function.arguments" is a number, want a string holding a JSON
// object`), no hook or tool runs, and the other calls run as usual. A
// string field holding another JSON type keeps that value's JSON text, so
// a numeric id 5 is echoed back as "5". A tool_calls entry that is not an
// object (null included) is such a call with empty id; an element of the
// other arrays that is not an object is not a call and is skipped, as
// text blocks are. One deviation is accepted rather than reported: OpenAI
// Chat and Responses arguments may be the JSON object itself instead of a
// string holding it, as some OpenAI-compatible servers send them.
//
// Two more faults cost only their own call, answered the same way: a
// value nested more than [MaxReplyDepth] (10,000) levels, the limit of
// encoding/json, which would otherwise refuse the whole reply (`"input"
// is nested more than 10000 levels deep`; a reply, or a stream's event,
// with such a value is read once more with that value cut out), and a
// call id over
// [MaxCallIDBytes] (256 bytes), which is still echoed unchanged so that
// the provider can pair the answer with its call.
//
// # Errors sent to the model
//
// The Output of a failed call is written for the model to correct itself
// (see [toolnexus.Registry.Execute]). Anthropic marks it with is_error and
// Gemini with the "error" key; the OpenAI APIs have no flag, so the content
// starts with [ErrorPrefix] ("error: ").
//
// # Rich results
//
// A result with content parts ([toolnexus.Result.Content]) reaches each
// provider in its native shape; a part a provider cannot take goes as its
// text stand-in ([toolnexus.Part.Summary], e.g. "[image: image/png, 12345
// bytes]"). A result without parts other than text keeps the plain string
// shapes above.
//
//   - Anthropic: tool_result "content" is an array of text blocks, image
//     blocks (base64 source for image/jpeg, image/png, image/gif and
//     image/webp data; url source for an http(s) image URL) and document
//     blocks (application/pdf as base64 or url source, text/plain data as
//     a text source; title the file name). Audio and other parts are text
//     blocks holding the stand-in; empty text parts are left out.
//   - OpenAI Responses: function_call_output "output" is an array of
//     input_text, input_image (image_url: a data: URL for image data, or
//     the image URL) and input_file (filename with file_data as a data:
//     URL, or file_url). Audio and other parts are input_text stand-ins.
//   - OpenAI Chat Completions: tool messages take text only, so "content"
//     is [toolnexus.Result.Text]: text parts as they are, every other part
//     as its stand-in, one per line.
//   - Gemini: functionResponse "parts" holds image, audio, file and binary
//     resource data as inlineData (mimeType, base64 data, displayName the
//     part's Name) and URL parts as fileData (fileUri); "response"
//     {"output": …} holds the text parts and the stand-ins of the rest.
//     Which MIME types the model reads is the API's call.
//
// A structured result ([toolnexus.Result.Structured], as typed-output
// tools return) goes as its JSON text to OpenAI and Anthropic, and to
// Gemini as the JSON value itself: {"output": {…}}. Error results are
// always text.
//
// [Options.OnEvent] receives the progress reports and log lines of
// running tools ([toolnexus.ReportProgress], [toolnexus.Log]); they never
// reach the model.
//
// # Hooks and logging
//
// [Options.Before] can rewrite a call's arguments or answer it without
// running the tool (approval, caching, sandboxing); [Options.After] can
// rewrite a result (redaction, truncation). Tool outputs are already cut
// to the registry's [toolnexus.Options.MaxOutputBytes] (32 KiB by
// default), with a note saying how much was cut. [Options.Logger] gets one
// log/slog record per call with the tool name, call id, duration and error
// status, never argument values or outputs unless [Options.LogArguments]
// or [Options.LogOutput] is set.
package exec
