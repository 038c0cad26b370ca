package render

import (
	"encoding/json"
	"fmt"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// OpenAITool is one entry of the OpenAI Chat Completions "tools" array:
//
//	{"type":"function","function":{"name":…,"description":…,"parameters":{…}}}
//
// Source: OpenAI API reference, Chat Completions, "Create chat completion",
// request body "tools" (ChatCompletionFunctionTool / FunctionDefinition;
// https://platform.openai.com/docs/api-reference/chat/create).
type OpenAITool struct {
	Type     string         `json:"type"`     // "function", or "custom" for a freeform tool
	Function OpenAIFunction `json:"function"` // the tool's name, description and parameters
	// Format is the input format of a "custom" entry (Function.Parameters
	// and Function.Strict are then not rendered); see [OpenAI].
	Format *toolnexus.Format `json:"-"`
}

// OpenAIFunction is the "function" object of an [OpenAITool].
type OpenAIFunction struct {
	Name        string          `json:"name"`             // the tool's name
	Description string          `json:"description"`      // the tool's description; "" is rendered as ""
	Parameters  json.RawMessage `json:"parameters"`       // JSON Schema object
	Strict      *bool           `json:"strict,omitempty"` // omitted unless strict mode is asked for
}

// OpenAITools is the Chat Completions "tools" array. Its json.Marshal
// output is exactly the array; nil marshals as [].
type OpenAITools []OpenAITool

// OpenAI renders tools for the OpenAI Chat Completions API: one
// {"type":"function","function":{"name","description","parameters"}} entry
// per tool, in the order given. The parameters are the tool's InputSchema
// bytes, shared, not copied, except that an object root without
// "properties" gets "properties":{} (OpenAI answers such a schema with 400
// "object schema missing properties"), so a tool without a schema sends
// {"type":"object","properties":{}}. A root oneOf, anyOf or allOf, which
// OpenAI refuses, is sent unchanged here; [OpenAIWith] and [CheckSchemas]
// report it as a *SchemaError wrapping [ErrUnsupportedSchema]. Rendering
// allocates one slice for the whole list.
//
// OpenAI has no error result, yet its output is always valid JSON and
// valid UTF-8: a schema that is not a valid UTF-8 JSON object (possible
// only in a hand-built slice; Registry.Add refuses it) is replaced by
// {"type":"object"}, and names and descriptions are escaped as
// encoding/json does (invalid UTF-8 becomes U+FFFD). To get an error
// instead, call [CheckSchemas] first or use [OpenAIWith], which also
// checks names. The schema check is cached by schema bytes.
//
// Freeform tools (toolnexus.NewFreeform) are rendered by OpenAI,
// [OpenAIWith], [OpenAIResponses] and [OpenAIResponsesWith] as OpenAI
// custom tools, whose calls carry raw text:
//
//	Chat:      {"type":"custom","custom":{"name":…,"description":…,"format":F}}
//	Responses: {"type":"custom","name":…,"description":…,"format":F}
//
// with F {"type":"text"}, or for a grammar {"type":"grammar","grammar":
// {"definition":…,"syntax":"lark"|"regex"}} (Chat) and {"type":"grammar",
// "syntax":…,"definition":…} (Responses). Strict does not apply to them.
// Sources: OpenAI function-calling guide, "Custom tools"; openai-go types
// ChatCompletionCustomToolParam and responses.CustomToolParam. The other
// renderers show a freeform tool as a function with
// toolnexus.FreeformSchema, which runs the same handler.
func OpenAI(tools []toolnexus.Tool) OpenAITools {
	out := make(OpenAITools, len(tools))
	for i := range tools {
		t := &tools[i]
		p, _ := openAIParams(schemaOf(t))
		out[i] = OpenAITool{Type: "function", Function: OpenAIFunction{
			Name: t.Name, Description: t.Description, Parameters: p,
		}}
		if t.Freeform != nil {
			out[i].Type, out[i].Format = "custom", t.Freeform
		}
	}
	return out
}

// OpenAIOptions configure [OpenAIWith] and [OpenAIResponsesWith]. The zero
// value renders every schema unchanged with strict mode off.
type OpenAIOptions struct {
	// Strict turns on OpenAI strict mode (Structured Outputs for function
	// calling): each tool gets "strict":true and a rewritten copy of its
	// schema, as documented on [OpenAIStrict]. A schema that cannot be made
	// strict is an error (*SchemaError wrapping ErrNotStrict or
	// ErrSchemaLimit) naming the tool and the JSON path, unless Fallback is
	// set.
	Strict bool

	// Fallback, together with Strict, renders a tool whose schema cannot be
	// made strict (free-form map, a value of any type, a limit exceeded)
	// with "strict":false and its schema unchanged, instead of failing the
	// whole list. Other tools stay strict. This mirrors what the Responses
	// API does by itself when "strict" is omitted. Schemas that are not
	// valid JSON object schemas (ErrUnsupportedSchema) still fail.
	Fallback bool
}

// OpenAIWith renders tools for Chat Completions with options. With the zero
// OpenAIOptions its output equals [OpenAI]'s, but a tool name outside
// ^[a-zA-Z0-9_-]{1,64}$ (OpenAI's function.name rule) is an error wrapping
// [ErrUnsupportedName], and a schema that is not a valid UTF-8 JSON object
// (see [CheckSchemas]) or whose root has oneOf, anyOf or allOf a
// *SchemaError wrapping [ErrUnsupportedSchema] naming the tool. With
// Strict it is [OpenAIStrict]'s, and every entry carries an explicit
// "strict" (true, or false for a Fallback tool).
func OpenAIWith(tools []toolnexus.Tool, opts OpenAIOptions) (OpenAITools, error) {
	if !opts.Strict {
		if err := checkOpenAI(profileOpenAIChat, tools, "render.OpenAIWith"); err != nil {
			return nil, err
		}
		return OpenAI(tools), nil
	}
	p := profileOpenAIChatStrict
	if err := p.checkList("render.OpenAIStrict", tools); err != nil {
		return nil, err
	}
	out := make(OpenAITools, len(tools))
	flags := make([]bool, len(tools)) // Strict points here; one allocation per list
	for i := range tools {
		t := &tools[i]
		if err := p.checkName("render.OpenAIStrict", t.Name); err != nil {
			return nil, err
		}
		if t.Freeform != nil {
			out[i] = OpenAITool{Type: "custom", Function: OpenAIFunction{Name: t.Name, Description: t.Description}, Format: t.Freeform}
			continue
		}
		params, _, strict, err := strictParams(t, p.Strict, opts.Fallback, "render.OpenAIStrict")
		if err != nil {
			return nil, err
		}
		if !strict { // fallen back: the parameters OpenAIWith sends
			if params, err = openAIParams(schemaOf(t)); err != nil {
				return nil, withTool(err, "render.OpenAIStrict", t.Name)
			}
		}
		flags[i] = strict
		out[i] = OpenAITool{Type: "function", Function: OpenAIFunction{
			Name: t.Name, Description: t.Description, Parameters: params, Strict: &flags[i],
		}}
	}
	return out, nil
}

// MarshalJSON implements json.Marshaler. The buffer is sized once from
// the prepared bytes (names, descriptions, schemas).
func (ts OpenAITools) MarshalJSON() ([]byte, error) { return marshalList(ts), nil }

// AppendJSON appends the JSON array to dst and returns the extended buffer.
func (ts OpenAITools) AppendJSON(dst []byte) []byte {
	dst = append(dst, '[')
	for i := range ts {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = ts[i].appendTo(dst) // by pointer: no copy of the entry per tool
	}
	return append(dst, ']')
}

// MarshalJSON implements json.Marshaler with the same bytes the entry has
// inside [OpenAITools], so one entry can be handed to an SDK as raw JSON
// (for openai-go: param.Override[openai.ChatCompletionFunctionToolParam](t)).
func (t OpenAITool) MarshalJSON() ([]byte, error) { return marshalEntry(t), nil }

// AppendJSON appends the entry's JSON object to dst.
func (t OpenAITool) AppendJSON(dst []byte) []byte { return t.appendTo(dst) }

func (t *OpenAITool) appendTo(dst []byte) []byte {
	if t.Type == "custom" {
		return t.appendCustom(dst)
	}
	f := &t.Function
	typ := t.Type
	if typ == "" {
		typ = "function"
	}
	dst = append(dst, `{"type":`...)
	dst = jsonx.AppendString(dst, typ)
	dst = append(dst, `,"function":{"name":`...)
	dst = jsonx.AppendString(dst, f.Name)
	dst = append(dst, `,"description":`...)
	dst = jsonx.AppendString(dst, f.Description)
	dst = append(dst, `,"parameters":`...)
	dst = appendOpenAISchema(dst, f.Parameters)
	if f.Strict != nil {
		if *f.Strict {
			dst = append(dst, `,"strict":true`...)
		} else {
			dst = append(dst, `,"strict":false`...)
		}
	}
	return append(dst, "}}"...)
}

// appendCustom appends a Chat custom tool entry.
func (t OpenAITool) appendCustom(dst []byte) []byte {
	dst = append(dst, `{"type":"custom","custom":{"name":`...)
	dst = jsonx.AppendString(dst, t.Function.Name)
	dst = append(dst, `,"description":`...)
	dst = jsonx.AppendString(dst, t.Function.Description)
	dst = append(dst, `,"format":`...)
	if f := t.Format; f != nil && f.Type == "grammar" {
		dst = append(dst, `{"type":"grammar","grammar":{"definition":`...)
		dst = jsonx.AppendString(dst, f.Definition)
		dst = append(dst, `,"syntax":`...)
		dst = jsonx.AppendString(dst, f.Syntax)
		dst = append(dst, "}}"...)
	} else {
		dst = append(dst, `{"type":"text"}`...)
	}
	return append(dst, "}}"...)
}

func (t OpenAITool) size() int {
	n := entryOverhead + strSize(t.Function.Name) + strSize(t.Function.Description) + schemaSize(t.Function.Parameters)
	if f := t.Format; f != nil {
		n += strSize(f.Syntax) + strSize(f.Definition)
	}
	return n
}

// openAIEmptySchema is the parameters of a tool declared without a schema,
// as both OpenAI renderers send it: OpenAI answers an object schema
// without "properties" with 400 "object schema missing properties".
var openAIEmptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// openAICache remembers openAIRewrite's answer per schema bytes.
var openAICache rewriteCache

// openAIParams returns the parameters both OpenAI renderers send for the
// schema s, and the *SchemaError (wrapping ErrUnsupportedSchema) their
// With forms and CheckSchemas report for it, nil when none:
//   - s not a valid UTF-8 JSON object: {"type":"object","properties":{}}
//     and an error
//   - a root oneOf, anyOf or allOf, which OpenAI refuses even outside
//     strict mode: s and an error
//   - an object root without "properties": a copy of s with
//     "properties":{} appended
//   - otherwise s.
func openAIParams(s json.RawMessage) (json.RawMessage, error) {
	out, err := openAICache.get(s, openAIRewrite)
	if out == nil {
		out = s
	}
	return out, err
}

// openAIRewrite is openAIParams uncached; it returns nil for "s itself".
func openAIRewrite(in []byte) (json.RawMessage, error) {
	if err := checkSchemaBytes(in); err != nil {
		return openAIEmptySchema, err
	}
	tree, err := jsonx.Parse(in)
	root, ok := tree.(*jsonx.Object)
	if err != nil || !ok {
		return openAIEmptySchema, &SchemaError{Msg: "the schema is not a JSON object", Err: ErrUnsupportedSchema}
	}
	if err := profileOpenAIChat.Root.check(root, "OpenAI"); err != nil {
		return nil, err
	}
	if hasKey(root, "properties") {
		return nil, nil
	}
	root.Keys = append(root.Keys, "properties")
	root.Vals = append(root.Vals, &jsonx.Object{})
	return jsonx.Marshal(root), nil
}

// checkOpenAI reports a list past profile p's limits, then the first tool
// name p rejects, then the first error of openAIParams, naming renderer
// and the tool.
func checkOpenAI(p *Profile, tools []toolnexus.Tool, renderer string) error {
	if err := p.checkList(renderer, tools); err != nil {
		return err
	}
	for i := range tools {
		if err := p.checkName(renderer, tools[i].Name); err != nil {
			return err
		}
	}
	for i := range tools {
		if _, err := openAIParams(schemaOf(&tools[i])); err != nil {
			return withTool(err, renderer, tools[i].Name)
		}
	}
	return nil
}

// appendOpenAISchema appends raw parameters bytes, {"type":"object","properties":{}}
// when empty.
func appendOpenAISchema(dst []byte, s json.RawMessage) []byte {
	if len(s) == 0 {
		return append(dst, openAIEmptySchema...)
	}
	return append(dst, s...)
}

// OpenAIToolChoice returns the Chat Completions "tool_choice" that forces
// tool t: {"type":"function","function":{"name":…}}, or
// {"type":"custom","custom":{"name":…}} for a freeform tool.
func OpenAIToolChoice(t toolnexus.Tool) []byte {
	if t.Freeform != nil {
		return append(jsonx.AppendString([]byte(`{"type":"custom","custom":{"name":`), t.Name), "}}"...)
	}
	return append(jsonx.AppendString([]byte(`{"type":"function","function":{"name":`), t.Name), "}}"...)
}

// OpenAIAllowedTools returns the Chat Completions "tool_choice" that lets
// the model use only tools (all tools stay in "tools", which keeps the
// prompt cache): {"type":"allowed_tools","allowed_tools":{"mode":mode,
// "tools":[{"type":"function","function":{"name":…}},…]}} (a freeform
// tool as {"type":"custom","custom":{"name":…}}). mode is "auto" or
// "required"; anything else, or no tools, is an error.
func OpenAIAllowedTools(mode string, tools []toolnexus.Tool) ([]byte, error) {
	return allowedTools(`{"type":"allowed_tools","allowed_tools":{"mode":`, "]}}", mode, tools, OpenAIToolChoice)
}

// allowedTools writes head, mode, the choice of every tool and tail.
func allowedTools(head, tail, mode string, tools []toolnexus.Tool, choice func(toolnexus.Tool) []byte) ([]byte, error) {
	if mode != "auto" && mode != "required" {
		return nil, fmt.Errorf(`render: allowed_tools mode: must be "auto" or "required", got %q`, mode)
	}
	if len(tools) == 0 {
		return nil, fmt.Errorf("render: allowed_tools tools: must name at least one tool")
	}
	dst := jsonx.AppendString([]byte(head), mode)
	dst = append(dst, `,"tools":[`...)
	for i := range tools {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, choice(tools[i])...)
	}
	return append(dst, tail...), nil
}
