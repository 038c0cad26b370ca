package exec

import (
	"encoding/json"
	"fmt"
	"strings"
)

// This file holds the UnmarshalJSON methods of the provider call types.
// They make one call's wrongly typed field that call's problem instead of
// an error for the whole reply: each first decodes exactly as
// encoding/json would without the method (so well-typed input gives the
// same values as before), and only when that fails decodes field by
// field, keeping what it can and recording what it cannot in the
// unexported problem field. The executor answers a call with a problem
// with an error result wrapping ErrMalformedCall; no hook or tool runs.
//
// The rules, shared by all four providers:
//   - a string field (id, name, type, ...) holding another JSON type gets
//     that value's JSON text (5 → "5", {"a":1} → `{"a":1}`), so an id
//     that is not a string is still echoed, as its JSON text;
//   - arguments (OpenAI Chat and Responses) may be a string holding the
//     arguments or, as some OpenAI-compatible servers send them, the JSON
//     object itself, which is taken as is and is not a problem; another
//     type is a problem;
//   - an element that is not an object has no fields at all: a tool_calls
//     entry that is not an object (null included) is a call with empty id
//     and name, answered with an error; in the other providers' arrays it
//     is not a call (it has no type or functionCall) and is skipped like
//     text blocks.

// problems collects the problems of one element.
type problems []string

func (p problems) String() string { return strings.Join(p, "; ") }

// joinProblems joins non-empty problem texts.
func joinProblems(ps ...string) string {
	var out problems
	for _, p := range ps {
		if p != "" {
			out = append(out, p)
		}
	}
	return out.String()
}

// jsonKind names the JSON type of a valid JSON value, for messages.
func jsonKind(raw []byte) string {
	switch firstByte(raw) {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// absent reports whether a field decoded into a json.RawMessage was
// missing or null (which leave a Go string or bool unchanged).
func absent(raw json.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}

// str decodes a string field; another type is a problem and gives the
// value's JSON text.
func (p *problems) str(raw json.RawMessage, field string) string {
	if absent(raw) {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	*p = append(*p, fmt.Sprintf("%q is %s, want a string", field, jsonKind(raw)))
	return string(raw)
}

// boolean decodes a boolean field; another type is a problem and gives
// false.
func (p *problems) boolean(raw json.RawMessage, field string) bool {
	if absent(raw) {
		return false
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return b
	}
	*p = append(*p, fmt.Sprintf("%q is %s, want a boolean", field, jsonKind(raw)))
	return false
}

// arguments decodes an OpenAI arguments field: a string, or the arguments
// object itself (taken as its JSON text). Another type is a problem and
// gives the value's JSON text.
func (p *problems) arguments(raw json.RawMessage, field string) string {
	if len(raw) > 0 && raw[0] == '{' {
		return string(raw)
	}
	if absent(raw) || raw[0] == '"' {
		return p.str(raw, field)
	}
	*p = append(*p, fmt.Sprintf("%q is %s, want a string holding a JSON object", field, jsonKind(raw)))
	return string(raw)
}

// notObject is the problem of an element that is not a JSON object.
func notObject(b []byte, what string) string {
	return fmt.Sprintf("%s is %s, want an object", what, jsonKind(b))
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

// UnmarshalJSON decodes one Responses output item as encoding/json would,
// except that a field of the wrong JSON type does not fail the whole
// reply: a function_call item with one is answered with an error result
// naming the field (see [ErrMalformedCall]); other items are skipped as
// always. arguments may be the JSON object itself instead of a string
// holding it (kept as its JSON text). A non-string field keeps its JSON
// text; an item that is not an object is not a function call.
func (it *ResponsesItem) UnmarshalJSON(b []byte) error {
	type plain ResponsesItem
	it.problem = ""
	if json.Unmarshal(b, (*plain)(it)) == nil {
		return nil
	}
	var f struct {
		Type      json.RawMessage `json:"type"`
		ID        json.RawMessage `json:"id"`
		CallID    json.RawMessage `json:"call_id"`
		Name      json.RawMessage `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Input     json.RawMessage `json:"input"`
		Namespace json.RawMessage `json:"namespace"`
		Status    json.RawMessage `json:"status"`
		Execution json.RawMessage `json:"execution"`
	}
	if firstByte(b) != '{' || json.Unmarshal(b, &f) != nil {
		*it = ResponsesItem{problem: notObject(b, "the output item")}
		return nil
	}
	var p problems
	*it = ResponsesItem{Type: p.str(f.Type, "type"), ID: p.str(f.ID, "id"), CallID: p.str(f.CallID, "call_id"),
		Name: p.str(f.Name, "name"), Arguments: p.arguments(f.Arguments, "arguments"), Input: p.str(f.Input, "input"),
		Namespace: p.str(f.Namespace, "namespace"), Status: p.str(f.Status, "status"), Execution: p.str(f.Execution, "execution")}
	it.problem = p.String()
	return nil
}

// UnmarshalJSON decodes one Anthropic content block as encoding/json
// would, except that a field of the wrong JSON type does not fail the
// whole reply: a tool_use block with one is answered with an error result
// naming the field (see [ErrMalformedCall]); other blocks are skipped as
// always. A non-string field keeps its JSON text (a numeric id 5 is echoed
// as "5"); a block that is not an object is not a tool_use block.
func (bl *AnthropicContentBlock) UnmarshalJSON(b []byte) error {
	type plain AnthropicContentBlock
	bl.problem = ""
	if json.Unmarshal(b, (*plain)(bl)) == nil {
		return nil
	}
	var f struct {
		Type  json.RawMessage `json:"type"`
		Text  json.RawMessage `json:"text"`
		ID    json.RawMessage `json:"id"`
		Name  json.RawMessage `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	if firstByte(b) != '{' || json.Unmarshal(b, &f) != nil {
		*bl = AnthropicContentBlock{problem: notObject(b, "the content block")}
		return nil
	}
	var p problems
	*bl = AnthropicContentBlock{Type: p.str(f.Type, "type"), Text: p.str(f.Text, "text"), ID: p.str(f.ID, "id"),
		Name: p.str(f.Name, "name"), Input: f.Input}
	bl.problem = p.String()
	return nil
}

// UnmarshalJSON decodes one Gemini part as encoding/json would, except
// that a field of the wrong JSON type does not fail the whole reply: a
// part holding a functionCall is answered with an error result naming the
// field (see [ErrMalformedCall]); other parts are skipped as always. A
// wrongly typed text or thoughtSignature keeps its JSON text, thought is
// false and functionResponse nil; a part that is not an object is not a
// call.
func (pt *GeminiPart) UnmarshalJSON(b []byte) error {
	type plain GeminiPart
	pt.problem = ""
	if json.Unmarshal(b, (*plain)(pt)) == nil {
		return nil
	}
	var f struct {
		Text             json.RawMessage     `json:"text"`
		Thought          json.RawMessage     `json:"thought"`
		FunctionCall     *GeminiFunctionCall `json:"functionCall"`
		FunctionResponse json.RawMessage     `json:"functionResponse"`
		ThoughtSignature json.RawMessage     `json:"thoughtSignature"`
	}
	if firstByte(b) != '{' || json.Unmarshal(b, &f) != nil {
		*pt = GeminiPart{problem: notObject(b, "the part")}
		return nil
	}
	var p problems
	*pt = GeminiPart{Text: p.str(f.Text, "text"), Thought: p.boolean(f.Thought, "thought"),
		FunctionCall: f.FunctionCall, ThoughtSignature: p.str(f.ThoughtSignature, "thoughtSignature")}
	if !absent(f.FunctionResponse) && json.Unmarshal(f.FunctionResponse, &pt.FunctionResponse) != nil {
		pt.FunctionResponse = nil
		p = append(p, `"functionResponse" is not a valid FunctionResponse`)
	}
	pt.problem = p.String()
	return nil
}

// UnmarshalJSON decodes a functionCall as encoding/json would, except that
// a field of the wrong JSON type, or a functionCall that is not an object,
// does not fail the whole reply: the call is answered with an error result
// naming the field (see [ErrMalformedCall]). A non-string id or name keeps
// its JSON text (a numeric id 5 is echoed as "5").
func (fc *GeminiFunctionCall) UnmarshalJSON(b []byte) error {
	type plain GeminiFunctionCall
	fc.problem = ""
	if json.Unmarshal(b, (*plain)(fc)) == nil {
		return nil
	}
	var f struct {
		ID   json.RawMessage `json:"id"`
		Name json.RawMessage `json:"name"`
		Args json.RawMessage `json:"args"`
	}
	if firstByte(b) != '{' || json.Unmarshal(b, &f) != nil {
		*fc = GeminiFunctionCall{problem: notObject(b, `"functionCall"`)}
		return nil
	}
	var p problems
	*fc = GeminiFunctionCall{ID: p.str(f.ID, "functionCall.id"), Name: p.str(f.Name, "functionCall.name"), Args: f.Args}
	fc.problem = p.String()
	return nil
}
