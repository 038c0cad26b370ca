package exec

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
	"github.com/toolnexus/toolnexus/render"
)

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
	// Caller says who made a function call: absent or {"type":"direct"}
	// for the model, {"type":"program","caller_id":…} for the model's
	// code in OpenAI's hosted code execution (a tool rendered with
	// allowed_callers "programmatic", see render.OpenAIResponsesTools.
	// AllowCallers). It is echoed on the output item; the call runs the
	// same either way. openai-go: responses.ResponseFunctionToolCall.Caller.
	Caller json.RawMessage `json:"caller,omitempty"`

	problem string // set by UnmarshalJSON for a wrongly typed field
	cut     string // set when the reply was cut at the output limit before this call was complete
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
	// Caller is the call's own caller, echoed (see ResponsesItem.Caller);
	// omitted for a call without one. openai-go:
	// responses.ResponseInputItemFunctionCallOutputParam.Caller.
	Caller json.RawMessage `json:"caller,omitempty"`

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
	return responses.run(ctx, e, items)
}

// responses is the OpenAI Responses provider.
var responses = &provider[ResponsesItem, ResponsesOutput]{shape: responsesShape, decode: decodeResponses,
	has: hasResponsesCall, isCall: isResponsesCall, mark: markDeepResponses,
	call:   func(_ *Executor, it *ResponsesItem) Call { return responsesCall(it) },
	answer: (*Executor).responsesOutput}

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
func ParseResponses(raw []byte) ([]ResponsesItem, error) { return responses.parse(raw) }

// decodeResponses reads the forms ParseResponses accepts with
// encoding/json.
func decodeResponses(raw []byte) ([]ResponsesItem, error) {
	return decodeReply(raw, "Responses output", "Responses response", func(raw []byte) ([]ResponsesItem, error) {
		var r struct {
			Output            []ResponsesItem `json:"output"`
			Status            string          `json:"status"`
			IncompleteDetails struct {
				Reason string `json:"reason"`
			} `json:"incomplete_details"`
		}
		err := json.Unmarshal(raw, &r)
		if err == nil && r.Status == "incomplete" && r.IncompleteDetails.Reason == "max_output_tokens" {
			for i := range r.Output {
				if it := &r.Output[i]; isResponsesCall(it) && cutItem(it) {
					it.cut = cutResponses
				}
			}
		}
		return r.Output, err
	})
}

func markDeepResponses(it *ResponsesItem) {
	it.problem = joinProblems(it.problem, deepStr("type", &it.Type), deepStr("id", &it.ID), deepStr("call_id", &it.CallID),
		deepStr("name", &it.Name), deepStr("arguments", &it.Arguments), deepStr("status", &it.Status), deepStr("execution", &it.Execution))
}

// hasResponsesCall reports whether an item is a function or custom tool call.
func hasResponsesCall(items []ResponsesItem) bool {
	for i := range items {
		if t := items[i].Type; t == "function_call" || t == "custom_tool_call" {
			return true
		}
	}
	return false
}

// responsesOutput is the item answering the call item it, from its
// result r.
func (e *Executor) responsesOutput(it *ResponsesItem, r *Result) ResponsesOutput {
	out := ResponsesOutput{Type: outputType(it.Type), CallID: it.CallID, Output: openAIContent(r), Parts: responsesParts(r)}
	if len(it.Caller) > 0 && string(it.Caller) != "null" && it.Type == "function_call" {
		out.Caller = it.Caller
	}
	if it.Type == "tool_search_call" {
		out.Parts = nil
		out.Tools = r.searchOut
		if out.Tools == nil {
			out.Tools = render.OpenAIResponsesTools{}
		}
	}
	return out
}

// ResponsesContentPart is one element of a function_call_output whose
// output is an array:
//
//	{"type":"input_text","text":"chart:"}
//	{"type":"input_image","image_url":"data:image/png;base64,iVBO…"}
//	{"type":"input_file","filename":"a.pdf","file_data":"data:application/pdf;base64,JVBE…"}
//
// Source: OpenAI API reference, Responses, function_call_output "output"
// (input_text, input_image, input_file;
// https://platform.openai.com/docs/api-reference/responses/create); openai-go
// responses.ResponseFunctionCallOutputItemUnionParam.
type ResponsesContentPart struct {
	Type     string `json:"type"`                // "input_text", "input_image" or "input_file"
	Text     string `json:"text,omitempty"`      // input_text: the text
	ImageURL string `json:"image_url,omitempty"` // input_image: a data: URL or an https URL
	Filename string `json:"filename,omitempty"`  // input_file: the file's name
	FileData string `json:"file_data,omitempty"` // input_file: a data: URL with the bytes
	FileURL  string `json:"file_url,omitempty"`  // input_file: the file's URL instead of its bytes
}

// responsesParts shapes r's parts for a function_call_output, or returns
// nil when r is text only (the output stays a string).
func responsesParts(r *Result) []ResponsesContentPart {
	if r.IsError || !hasRich(r.Content) {
		return nil
	}
	parts := make([]ResponsesContentPart, 0, len(r.Content))
	for _, p := range r.Content {
		c := ResponsesContentPart{Type: "input_text", Text: p.Summary()}
		switch {
		case p.Kind == toolnexus.PartImage && len(p.Data) > 0 && strings.HasPrefix(p.MIMEType, "image/"):
			c = ResponsesContentPart{Type: "input_image", ImageURL: dataURL(p.MIMEType, p.Data)}
		case p.Kind == toolnexus.PartImage && len(p.Data) == 0 && p.URL != "":
			c = ResponsesContentPart{Type: "input_image", ImageURL: p.URL}
		case p.Kind == toolnexus.PartFile && len(p.Data) > 0 && p.MIMEType != "":
			c = ResponsesContentPart{Type: "input_file", Filename: orDefault(p.Name, "file"), FileData: dataURL(p.MIMEType, p.Data)}
		case p.Kind == toolnexus.PartFile && len(p.Data) == 0 && p.URL != "":
			c = ResponsesContentPart{Type: "input_file", Filename: p.Name, FileURL: p.URL}
		}
		if c.Type == "input_text" && c.Text == "" {
			continue
		}
		parts = append(parts, c)
	}
	return parts
}

// MarshalJSON writes the item's JSON: "output" is the Output string, or
// the Parts array when Parts is not nil. A tool_search_output is
// {"type":"tool_search_output","call_id":…,"execution":"client",
// "status":"completed","tools":[…]} with Tools ([] when nil) and no
// "output".
func (o ResponsesOutput) MarshalJSON() ([]byte, error) {
	if o.Type == "tool_search_output" {
		dst := append([]byte(`{"type":"tool_search_output","call_id":`), jsonx.AppendString(nil, o.CallID)...)
		dst = append(dst, `,"execution":"client","status":"completed","tools":`...)
		return append(o.Tools.AppendJSON(dst), '}'), nil
	}
	if o.Parts == nil {
		type plain ResponsesOutput
		return json.Marshal(plain(o))
	}
	return json.Marshal(struct {
		Type   string                 `json:"type"`
		CallID string                 `json:"call_id"`
		Output []ResponsesContentPart `json:"output"`
		Caller json.RawMessage        `json:"caller,omitempty"`
	}{o.Type, o.CallID, o.Parts, o.Caller})
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
		Caller    json.RawMessage `json:"caller"`
	}
	if firstByte(b) != '{' || json.Unmarshal(b, &f) != nil {
		*it = ResponsesItem{problem: notObject(b, "the output item")}
		return nil
	}
	var p problems
	*it = ResponsesItem{Type: p.str(f.Type, "type"), ID: p.str(f.ID, "id"), CallID: p.str(f.CallID, "call_id"),
		Name: p.str(f.Name, "name"), Arguments: p.arguments(f.Arguments, "arguments"), Input: p.str(f.Input, "input"),
		Namespace: p.str(f.Namespace, "namespace"), Status: p.str(f.Status, "status"), Execution: p.str(f.Execution, "execution"), Caller: f.Caller}
	it.problem = p.String()
	return nil
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
	if it.cut != "" {
		return Call{ID: it.CallID, Name: name, cut: it.cut}
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

// responsesInfo names Responses replies and streams and lists their signs
// (see shapeInfo).
var responsesInfo = shapeInfo{what: "Responses", reply: "an OpenAI Responses reply",
	methods: "ResponsesJSON or ParseResponses", stream: "an OpenAI Responses stream",
	streamMethods: "ResponsesStream or NewResponsesFeed",
	keys:          map[string]bool{"output": true}, objects: []string{"response"},
	itemTypes: map[string]string{"function_call": `a "function_call" item`, "custom_tool_call": `a "custom_tool_call" item`,
		"reasoning": `a "reasoning" item`, "message": `a "message" item`},
	eventType: func(t string) bool { return strings.HasPrefix(t, "response.") }}

// cutItem reports whether a call item of a response cut at the output
// limit may itself be cut: a function_call whose arguments are not one
// complete JSON object, or another call item whose status is
// "incomplete".
func cutItem(it *ResponsesItem) bool {
	if it.Type == "function_call" {
		return !completeObject(it.Arguments)
	}
	return it.Status == "incomplete"
}
