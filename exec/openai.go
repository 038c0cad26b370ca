package exec

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolnexus/toolnexus/internal/jsonx"
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
	cut     string // set when the reply was cut at the output limit before this call was complete
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
	return chat.run(ctx, e, toolCalls)
}

// chat is the OpenAI Chat Completions provider.
var chat = &provider[OpenAIToolCall, OpenAIToolMessage]{shape: chatShape, decode: decodeChat,
	has: hasChatCall, isCall: always[OpenAIToolCall], mark: markDeepChat,
	call: func(_ *Executor, tc *OpenAIToolCall) Call { return chatCall(tc) },
	answer: func(_ *Executor, tc *OpenAIToolCall, r *Result) OpenAIToolMessage {
		return OpenAIToolMessage{Role: "tool", ToolCallID: tc.ID, Content: openAIContent(r)}
	}}

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
func ParseOpenAIChat(raw []byte) ([]OpenAIToolCall, error) { return chat.parse(raw) }

// decodeChat reads the forms ParseOpenAIChat accepts with encoding/json.
func decodeChat(raw []byte) ([]OpenAIToolCall, error) {
	return decodeReply(raw, "OpenAI tool_calls", "OpenAI assistant message", func(raw []byte) ([]OpenAIToolCall, error) {
		var m struct {
			OpenAIMessage
			Choices []struct {
				Message      OpenAIMessage   `json:"message"`
				FinishReason json.RawMessage `json:"finish_reason"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(raw, &m); err != nil || m.Choices == nil {
			return m.ToolCalls, err
		}
		if len(m.Choices) == 0 {
			return nil, nil
		}
		calls := m.Choices[0].Message.ToolCalls
		if string(m.Choices[0].FinishReason) == `"length"` {
			last := len(calls) - 1
			for i := range calls {
				tc := &calls[i]
				if tc.Type == "custom" && i == last || tc.Type != "custom" && !completeObject(tc.Function.Arguments) {
					tc.cut = cutChat
				}
			}
		}
		return calls, nil
	})
}

func chatCall(tc *OpenAIToolCall) Call {
	c := Call{ID: tc.ID, Name: tc.Function.Name, Arguments: json.RawMessage(tc.Function.Arguments), cut: tc.cut}
	if tc.Type == "custom" {
		c.Name = tc.Custom.Name
	}
	if tc.cut != "" {
		return c
	}
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

// openAIContent is the content of a tool message or function_call_output.
func openAIContent(r *Result) string {
	if r.IsError {
		return ErrorPrefix + r.Text()
	}
	return r.Text()
}

// UnmarshalJSON decodes one tool_calls entry as encoding/json would, except
// that a field of the wrong JSON type, or an entry that is not an object,
// does not fail the whole reply: the call is answered with an error result
// naming the field (see [ErrMalformedCall]). A non-string id or type
// keeps its JSON text (a numeric id 5 is echoed as "5"). A null entry is a
// call too, answered the same way ("the tool call is null").
func (tc *OpenAIToolCall) UnmarshalJSON(b []byte) error {
	type plain OpenAIToolCall
	tc.problem = ""
	if string(b) == "null" {
		*tc = OpenAIToolCall{problem: "the tool call is null, want an object"}
		return nil
	}
	if json.Unmarshal(b, (*plain)(tc)) == nil {
		return nil
	}
	var f struct {
		ID       json.RawMessage    `json:"id"`
		Type     json.RawMessage    `json:"type"`
		Function OpenAIFunctionCall `json:"function"`
		Custom   struct {
			Name  json.RawMessage `json:"name"`
			Input json.RawMessage `json:"input"`
		} `json:"custom"`
	}
	if firstByte(b) != '{' || json.Unmarshal(b, &f) != nil {
		*tc = OpenAIToolCall{problem: notObject(b, "the tool call")}
		return nil
	}
	var p problems
	*tc = OpenAIToolCall{ID: p.str(f.ID, "id"), Type: p.str(f.Type, "type"), Function: f.Function,
		Custom: OpenAICustomCall{Name: p.str(f.Custom.Name, "custom.name"), Input: p.str(f.Custom.Input, "custom.input")}}
	tc.problem = p.String()
	return nil
}

// UnmarshalJSON decodes the function of a tool call as encoding/json
// would, with two differences: arguments may be the JSON object itself
// (as some OpenAI-compatible servers send it) rather than a string holding
// it, and is then kept as that object's JSON text; and a field of another
// wrong type (or a function that is not an object) does not fail the whole
// reply: the call is answered with an error result naming the field (see
// [ErrMalformedCall]).
func (fc *OpenAIFunctionCall) UnmarshalJSON(b []byte) error {
	type plain OpenAIFunctionCall
	fc.problem = ""
	if json.Unmarshal(b, (*plain)(fc)) == nil {
		return nil
	}
	var f struct {
		Name      json.RawMessage `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if firstByte(b) != '{' || json.Unmarshal(b, &f) != nil {
		*fc = OpenAIFunctionCall{problem: notObject(b, `"function"`)}
		return nil
	}
	var p problems
	*fc = OpenAIFunctionCall{Name: p.str(f.Name, "function.name"), Arguments: p.arguments(f.Arguments, "function.arguments")}
	fc.problem = p.String()
	return nil
}

func markDeepChat(tc *OpenAIToolCall) {
	tc.problem = joinProblems(tc.problem, deepStr("id", &tc.ID), deepStr("type", &tc.Type))
	tc.Function.problem = joinProblems(tc.Function.problem, deepStr("function.name", &tc.Function.Name),
		deepStr("function.arguments", &tc.Function.Arguments))
}

// hasChatCall reports whether a tool call names a function or custom tool.
func hasChatCall(calls []OpenAIToolCall) bool {
	for i := range calls {
		if calls[i].Function.Name != "" || calls[i].Custom.Name != "" {
			return true
		}
	}
	return false
}

// chatInfo names Chat Completions replies and streams and lists their
// signs (see shapeInfo).
var chatInfo = shapeInfo{what: "OpenAI", reply: "an OpenAI Chat Completions reply",
	methods: "OpenAIChatJSON or ParseOpenAIChat", stream: "an OpenAI Chat Completions stream",
	streamMethods: "OpenAIChatStream or NewOpenAIChatFeed",
	keys:          map[string]bool{"choices": true, "tool_calls": true, "refusal": false},
	objects:       []string{"chat.completion"},
	itemKeys:      map[string]string{"function": `a tool call with "function"`},
	itemTypes:     map[string]string{"function": `a tool call of type "function"`},
	eventKeys:     []string{"choices"}, eventObjects: []string{"chat.completion.chunk"}}
