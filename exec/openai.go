package exec

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolnexus/toolnexus/internal/jsonx"
	"github.com/toolnexus/toolnexus/render"
)

// ErrorPrefix starts the content sent back for a failed call on the two
// OpenAI APIs, whose tool messages have no error flag: the model reads
// "error: " followed by the result Output. Anthropic (is_error) and Gemini
// (response.error) mark failures structurally and get no prefix.
const ErrorPrefix = "error: "

// OpenAIMessage is the part of an OpenAI Chat Completions assistant message
// that matters for tool calls (choices[].message in the response):
//
//	{"role":"assistant","content":null,"tool_calls":[
//	  {"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]}
//
// Fields not listed here are dropped by json.Unmarshal; echo the assistant
// message from the raw reply to keep them. Source: OpenAI API reference,
// Chat Completions, "The chat completion object", choices[].message.tool_calls
// (https://platform.openai.com/docs/api-reference/chat/object).
type OpenAIMessage struct {
	Role string `json:"role"` // "assistant"
	// Content is kept raw: a string, null, or (on some OpenAI-compatible
	// servers) an array of parts. exec does not read it.
	Content   json.RawMessage  `json:"content,omitempty"`
	ToolCalls []OpenAIToolCall `json:"tool_calls,omitempty"` // the calls to run, in order
}

// OpenAIToolCall is one entry of an assistant message's tool_calls.
// Type is "function" (Function is set) or "custom" (Custom is set: the
// call of a freeform tool, see toolnexus.NewFreeform; its text runs the
// tool as {"input":text}, and a custom call of a tool that is not freeform
// is answered with an error result).
type OpenAIToolCall struct {
	ID       string             `json:"id"`       // the call id, echoed as tool_call_id
	Type     string             `json:"type"`     // "function" or "custom"
	Function OpenAIFunctionCall `json:"function"` // set when Type is "function"
	Custom   OpenAICustomCall   `json:"custom"`   // set when Type is "custom"

	problem string // set by UnmarshalJSON for a wrongly typed field
}

// OpenAIFunctionCall is the function of an [OpenAIToolCall]. Arguments is a
// JSON-encoded string; the model "does not always generate valid JSON"
// (OpenAI API reference), so it is checked like any other arguments: a
// malformed or truncated string gives an error result naming the problem.
// Some OpenAI-compatible servers send arguments as the JSON object itself
// rather than a string: [OpenAIFunctionCall.UnmarshalJSON] accepts that and
// keeps the object's JSON text in Arguments.
type OpenAIFunctionCall struct {
	Name      string `json:"name"`      // the tool to run
	Arguments string `json:"arguments"` // the arguments object as JSON text

	problem string // set by UnmarshalJSON for a wrongly typed field
}

// OpenAICustomCall is the custom part of a Chat Completions tool call of
// type "custom": {"name":"run_sql","input":"SELECT 1"}, the raw text the
// model wrote. Source: OpenAI API reference, Chat Completions,
// choices[].message.tool_calls[] "Custom tool call"
// (https://platform.openai.com/docs/api-reference/chat/object).
type OpenAICustomCall struct {
	Name  string `json:"name"`  // the freeform tool to run
	Input string `json:"input"` // the raw text the model wrote
}

// OpenAIToolMessage is the message that answers one tool call:
//
//	{"role":"tool","tool_call_id":"call_1","content":"22C"}
//
// Role is always "tool". Content is the result as text
// ([toolnexus.Result.Text]: images, audio and files become bracketed
// stand-ins such as "[image: image/png, 12345 bytes]", a structured result
// its JSON), valid UTF-8, prefixed with [ErrorPrefix] for failures. json.Marshal output is
// byte-stable. Source: OpenAI API reference, Chat Completions, request body
// messages[] "Tool message"
// (https://platform.openai.com/docs/api-reference/chat/create).
type OpenAIToolMessage struct {
	Role       string `json:"role"`         // always "tool"
	ToolCallID string `json:"tool_call_id"` // the answered call's id
	Content    string `json:"content"`      // the result as text; see above
}

// OpenAIChat runs the tool calls of an OpenAI Chat Completions assistant
// message and returns one tool message per call, in call order, ready to
// append to messages after the assistant message. An empty list gives an
// empty, non-nil slice (JSON []).
//
// The error is nil unless ctx ended before every call finished; the
// messages are complete even then (the calls cut short answer with an
// error saying so), so they can still be sent.
func (e *Executor) OpenAIChat(ctx context.Context, toolCalls []OpenAIToolCall) ([]OpenAIToolMessage, error) {
	if len(toolCalls) == 0 {
		return []OpenAIToolMessage{}, nil
	}
	results := make([]Result, len(toolCalls))
	e.runInto(ctx, len(toolCalls), func(i int) Call { return chatCall(&toolCalls[i]) }, results)
	out := make([]OpenAIToolMessage, len(results))
	for i := range results {
		out[i] = OpenAIToolMessage{Role: "tool", ToolCallID: toolCalls[i].ID, Content: openAIContent(&results[i])}
	}
	return out, e.batchErr(ctx, results)
}

// OpenAIChatJSON is [Executor.OpenAIChat] on raw JSON bytes: an assistant
// message object ({"role":"assistant","tool_calls":[…]}), its bare
// tool_calls array, or a whole chat completion ({"choices":[{"message":…}]},
// whose first choice is used). Bytes that are not one of these give an
// error and no messages; a call with a wrongly typed field is answered with
// an error result instead, and the other calls run (see "Malformed calls"
// in the package doc).
func (e *Executor) OpenAIChatJSON(ctx context.Context, raw []byte) ([]OpenAIToolMessage, error) {
	calls, err := ParseOpenAIChat(raw)
	if err != nil {
		return nil, err
	}
	return e.OpenAIChat(ctx, calls)
}

// ParseOpenAIChat extracts the tool calls from raw JSON bytes in any of
// the forms [Executor.OpenAIChatJSON] accepts.
func ParseOpenAIChat(raw []byte) ([]OpenAIToolCall, error) {
	calls, err := parseReply(raw, fastChat, slowOpenAIChat, markDeepChat)
	if err == nil && hasChatCall(calls) {
		return calls, nil
	}
	if err = otherProvider(raw, chatShape, "OpenAI", err); err != nil {
		return nil, err
	}
	return calls, nil
}

// slowOpenAIChat is ParseOpenAIChat with encoding/json, for whatever the fast path
// gives up on; it also produces the error messages.
func slowOpenAIChat(raw []byte) ([]OpenAIToolCall, error) {
	switch firstByte(raw) {
	case '[':
		var calls []OpenAIToolCall
		if err := json.Unmarshal(raw, &calls); err != nil {
			return nil, fmt.Errorf("exec: OpenAI tool_calls: %w", err)
		}
		return calls, nil
	case '{':
		var m struct {
			OpenAIMessage
			Choices []struct {
				Message OpenAIMessage `json:"message"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("exec: OpenAI assistant message: %w", err)
		}
		if m.Choices != nil {
			if len(m.Choices) == 0 {
				return nil, nil
			}
			return m.Choices[0].Message.ToolCalls, nil
		}
		return m.ToolCalls, nil
	}
	return nil, notReply("OpenAI", raw)
}

func chatCall(tc *OpenAIToolCall) Call {
	c := Call{ID: tc.ID, Name: tc.Function.Name, Arguments: json.RawMessage(tc.Function.Arguments)}
	if tc.problem != "" || tc.Function.problem != "" {
		c.malformed = joinProblems(tc.problem, tc.Function.problem)
	} else if tc.Type == "custom" {
		c = customCall(tc.ID, tc.Custom.Name, tc.Custom.Input)
	} else if tc.Type != "" && tc.Type != "function" {
		c.reject = fmt.Sprintf("tool call type %q is not supported; only function tools can be called", tc.Type)
	}
	return c
}

// customCall is the Call for raw text written for a freeform tool.
func customCall(id, name, input string) Call {
	args := jsonx.AppendString([]byte(`{"input":`), input)
	return Call{ID: id, Name: name, Arguments: append(args, '}'), freeform: true}
}

// NamespaceSeparator joins a namespace and a tool's name in it into the
// registry name: the function_call {"namespace":"crm","name":"lookup"}
// runs the registry tool "crm__lookup" (and only that one), which
// render.OpenAIResponsesNamespace shows inside namespace "crm" as "lookup".
const NamespaceSeparator = "__"

// responsesCall is the Call for a function_call or custom_tool_call item.
func responsesCall(it *ResponsesItem) Call {
	name := it.Name
	if it.Namespace != "" {
		name = it.Namespace + NamespaceSeparator + it.Name
	}
	switch it.Type {
	case "custom_tool_call":
		c := customCall(it.CallID, name, it.Input)
		c.malformed = it.problem
		return c
	case "tool_search_call":
		return Call{ID: it.CallID, Name: toolSearchName, Arguments: json.RawMessage(it.Arguments), malformed: it.problem, search: true, responses: true}
	}
	return Call{ID: it.CallID, Name: name, Arguments: json.RawMessage(it.Arguments), malformed: it.problem}
}

// openAIContent is the content of a tool message or function_call_output.
func openAIContent(r *Result) string {
	if r.IsError {
		return ErrorPrefix + r.Text()
	}
	return r.Text()
}

// ResponsesItem is one item of an OpenAI Responses "output" array, with the
// fields of a function call or a custom tool call:
//
//	{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Paris\"}","status":"completed"}
//	{"type":"custom_tool_call","id":"ctc_1","call_id":"call_2","name":"run_sql","input":"SELECT 1"}
//
//	{"type":"tool_search_call","id":"tsc_1","call_id":"call_3","execution":"client","arguments":{"query":"weather"},"status":"completed"}
//
// A call with a Namespace runs the registry tool Namespace +
// [NamespaceSeparator] + Name. A custom_tool_call runs a freeform tool
// (toolnexus.NewFreeform) with {"input":Input}. A tool_search_call with
// Execution "client" is a tool search (see [ToolSearch]; its arguments
// object is kept as JSON text in Arguments); one the server executed is
// skipped, as are items of other types (message, reasoning, ...). Source:
// OpenAI API reference, Responses, "The response object", output[]
// "Function tool call" (https://platform.openai.com/docs/api-reference/responses/object);
// openai-go responses.ResponseToolSearchCall.
type ResponsesItem struct {
	Type      string `json:"type"`                // "function_call", "custom_tool_call" or "tool_search_call"; others are skipped
	ID        string `json:"id,omitempty"`        // the item's id ("fc_…"), not the call's
	CallID    string `json:"call_id,omitempty"`   // the call id, echoed in the output item
	Name      string `json:"name,omitempty"`      // the tool to run (within Namespace, if set)
	Arguments string `json:"arguments,omitempty"` // function_call, tool_search_call: the arguments object as JSON text
	Input     string `json:"input,omitempty"`     // custom_tool_call: the raw text the model wrote
	Namespace string `json:"namespace,omitempty"` // the namespace of a namespaced tool, or ""
	Status    string `json:"status,omitempty"`    // "completed", "in_progress" or "incomplete"; not acted on
	Execution string `json:"execution,omitempty"` // tool_search_call: "client" (answered here) or "server" (skipped)

	problem string // set by UnmarshalJSON for a wrongly typed field
}

// ResponsesOutput is the input item that answers one function call,
// custom tool call or client-executed tool search call:
//
//	{"type":"function_call_output","call_id":"call_1","output":"22C"}
//	{"type":"custom_tool_call_output","call_id":"call_2","output":"1"}
//	{"type":"tool_search_output","call_id":"call_3","execution":"client","status":"completed","tools":[…]}
//
// Type is "function_call_output", "custom_tool_call_output" for a
// custom_tool_call, or "tool_search_output" for a tool_search_call; CallID
// is the call's call_id; Output is the result as text
// ([toolnexus.Result.Text]), valid UTF-8, prefixed with [ErrorPrefix] for
// failures (for a tool search it is not sent: see [ToolSearch]). Source:
// OpenAI API reference, Responses, request body input[] "Function tool
// call output" (https://platform.openai.com/docs/api-reference/responses/create);
// openai-go responses.ResponseToolSearchOutputItemParam.
type ResponsesOutput struct {
	Type   string `json:"type"`    // see above
	CallID string `json:"call_id"` // the answered call's call_id
	Output string `json:"output"`  // the result as text; see above

	// Parts, when not nil, is the result's content as input_text,
	// input_image and input_file parts, and "output" is that array
	// instead of the Output string (see "Rich results" in the package
	// doc). Output still holds the text form.
	Parts []ResponsesContentPart `json:"-"`

	// Tools are the tools a tool search found (a tool_search_output's
	// "tools"), rendered as [ToolSearch] says.
	Tools render.OpenAIResponsesTools `json:"-"`
}

// Responses runs the function_call and custom_tool_call items of an OpenAI
// Responses output array and returns one function_call_output or
// custom_tool_call_output item per call, in order; a tool_search_call with
// "execution":"client" is answered, in its place, by a tool_search_output
// (see [ToolSearch]). Other items are skipped; none gives an empty,
// non-nil slice. Errors as for [Executor.OpenAIChat].
func (e *Executor) Responses(ctx context.Context, items []ResponsesItem) ([]ResponsesOutput, error) {
	idx := make([]int, 0, len(items))
	for i := range items {
		if isResponsesCall(&items[i]) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return []ResponsesOutput{}, nil
	}
	results := make([]Result, len(idx))
	e.runInto(ctx, len(idx), func(i int) Call { return responsesCall(&items[idx[i]]) }, results)
	out := make([]ResponsesOutput, len(results))
	for i := range results {
		out[i] = e.responsesOutput(&items[idx[i]], &results[i])
	}
	return out, e.batchErr(ctx, results)
}

// outputType is the type of the item that answers an item of type t.
func outputType(t string) string {
	switch t {
	case "custom_tool_call":
		return "custom_tool_call_output"
	case "tool_search_call":
		return "tool_search_output"
	}
	return "function_call_output"
}

// isResponsesCall reports whether the output item it is answered: a
// function_call, a custom_tool_call, or a tool_search_call the client
// executes ("execution":"client"; the server answers its own).
func isResponsesCall(it *ResponsesItem) bool {
	switch it.Type {
	case "function_call", "custom_tool_call":
		return true
	case "tool_search_call":
		return it.Execution == "client"
	}
	return false
}

// ResponsesJSON is [Executor.Responses] on raw JSON bytes: the output array
// or a whole response object ({"output":[…]}).
func (e *Executor) ResponsesJSON(ctx context.Context, raw []byte) ([]ResponsesOutput, error) {
	items, err := ParseResponses(raw)
	if err != nil {
		return nil, err
	}
	return e.Responses(ctx, items)
}

// ParseResponses extracts the output items from raw JSON bytes in any of
// the forms [Executor.ResponsesJSON] accepts.
func ParseResponses(raw []byte) ([]ResponsesItem, error) {
	items, err := parseReply(raw, fastResponses, slowResponses, markDeepResponses)
	if err == nil && hasResponsesCall(items) {
		return items, nil
	}
	if err = otherProvider(raw, responsesShape, "Responses", err); err != nil {
		return nil, err
	}
	return items, nil
}

// slowResponses is ParseResponses with encoding/json, for whatever the fast path
// gives up on; it also produces the error messages.
func slowResponses(raw []byte) ([]ResponsesItem, error) {
	switch firstByte(raw) {
	case '[':
		var items []ResponsesItem
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, fmt.Errorf("exec: Responses output: %w", err)
		}
		return items, nil
	case '{':
		var r struct {
			Output []ResponsesItem `json:"output"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("exec: Responses response: %w", err)
		}
		return r.Output, nil
	}
	return nil, notReply("Responses", raw)
}
