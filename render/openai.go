package render

import (
	"encoding/json"
	"errors"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// emptySchema is the input schema of a tool whose InputSchema is nil.
var emptySchema = json.RawMessage(`{"type":"object"}`)

func schemaOf(t *toolnexus.Tool) json.RawMessage {
	if len(t.InputSchema) == 0 {
		return emptySchema
	}
	return t.InputSchema
}

// OpenAITool is one entry of the OpenAI Chat Completions "tools" array:
//
//	{"type":"function","function":{"name":…,"description":…,"parameters":{…}}}
//
// Source: OpenAI API reference, Chat Completions, "Create chat completion",
// request body "tools" (ChatCompletionFunctionTool / FunctionDefinition).
type OpenAITool struct {
	Type     string         `json:"type"` // always "function"
	Function OpenAIFunction `json:"function"`
}

// OpenAIFunction is the "function" object of an [OpenAITool].
type OpenAIFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`       // JSON Schema object
	Strict      *bool           `json:"strict,omitempty"` // omitted unless strict mode is asked for
}

// OpenAITools is the Chat Completions "tools" array. Its json.Marshal
// output is exactly the array; nil marshals as [].
type OpenAITools []OpenAITool

// OpenAI renders tools for the OpenAI Chat Completions API: one
// {"type":"function","function":{"name","description","parameters"}} entry
// per tool, in the order given. The parameters are the tool's InputSchema
// bytes, shared, not copied ({"type":"object"} when nil). Rendering
// allocates one slice for the whole list.
func OpenAI(tools []toolnexus.Tool) OpenAITools {
	out := make(OpenAITools, len(tools))
	for i := range tools {
		t := &tools[i]
		out[i] = OpenAITool{Type: "function", Function: OpenAIFunction{
			Name: t.Name, Description: t.Description, Parameters: schemaOf(t),
		}}
	}
	return out
}

// MarshalJSON implements json.Marshaler.
func (ts OpenAITools) MarshalJSON() ([]byte, error) { return ts.AppendJSON(nil), nil }

// AppendJSON appends the JSON array to dst and returns the extended buffer.
func (ts OpenAITools) AppendJSON(dst []byte) []byte {
	dst = append(dst, '[')
	for i := range ts {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = ts[i].AppendJSON(dst)
	}
	return append(dst, ']')
}

// MarshalJSON implements json.Marshaler with the same bytes the entry has
// inside [OpenAITools], so one entry can be handed to an SDK as raw JSON
// (for openai-go: param.Override[openai.ChatCompletionFunctionToolParam](t)).
func (t OpenAITool) MarshalJSON() ([]byte, error) { return t.AppendJSON(nil), nil }

// AppendJSON appends the entry's JSON object to dst.
func (t OpenAITool) AppendJSON(dst []byte) []byte {
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
	dst = appendSchema(dst, f.Parameters)
	if f.Strict != nil {
		if *f.Strict {
			dst = append(dst, `,"strict":true`...)
		} else {
			dst = append(dst, `,"strict":false`...)
		}
	}
	return append(dst, "}}"...)
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

// OpenAIStrict renders tools for Chat Completions in strict mode:
// OpenAIWith(tools, OpenAIOptions{Strict: true}).
//
// Each tool's schema is rewritten into a copy (the input bytes are never
// modified) following "Supported schemas" in OpenAI's Structured Outputs
// guide (https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas):
//   - every object gets "additionalProperties":false and lists all of its
//     properties in "required", in property order; an object without
//     properties gets "properties":{} and "required":[]
//   - a property that was optional becomes nullable: "type":"T" turns into
//     ["T","null"], null is appended to its enum, a const becomes a
//     two-value enum, an anyOf gains {"type":"null"}, a $ref is wrapped as
//     {"anyOf":[{"$ref":…},{"type":"null"}]}. Registry.Execute treats null
//     for an optional property as absent, so a model obeying the strict
//     schema never gets an error for it, while the string "null" is still
//     no valid enum value.
//   - oneOf becomes anyOf; $defs and local $ref (recursion included) are kept
//   - keywords strict mode does not take (default, examples, uniqueItems,
//     formats outside date-time, time, date, duration, email, hostname,
//     ipv4, ipv6, uuid, …) are dropped from the copy; Execute still
//     enforces them
//
// Not strictable, an error wrapping [ErrNotStrict]: a free-form map
// (additionalProperties is a schema or true), a value of any type ({}, or
// an array without items), allOf, not, if/then/else, patternProperties,
// propertyNames, dependent*, unevaluated*, contains, prefixItems, a type
// array with two non-null types, a non-local $ref, anyOf at the root. Over
// a limit ([StrictMaxDepth] object levels, [StrictMaxProperties]
// properties, [StrictMaxEnumValues] enum values, [StrictMaxStringLength]
// characters): an error wrapping [ErrSchemaLimit]. Set
// OpenAIOptions.Fallback to render such tools with "strict":false instead.
//
// Rewritten schemas are cached by their input bytes, so rendering the same
// tools again costs a map lookup per tool.
func OpenAIStrict(tools []toolnexus.Tool) (OpenAITools, error) {
	return OpenAIWith(tools, OpenAIOptions{Strict: true})
}

// OpenAIWith renders tools for Chat Completions with options. With the zero
// OpenAIOptions its output equals [OpenAI]'s and the error is nil; with
// Strict it is [OpenAIStrict]'s, and every entry carries an explicit
// "strict" (true, or false for a Fallback tool).
func OpenAIWith(tools []toolnexus.Tool, opts OpenAIOptions) (OpenAITools, error) {
	if !opts.Strict {
		return OpenAI(tools), nil
	}
	out := make(OpenAITools, len(tools))
	flags := make([]bool, len(tools)) // Strict points here; one allocation per list
	for i := range tools {
		t := &tools[i]
		params, strict, err := strictParams(t, opts, "render.OpenAIStrict")
		if err != nil {
			return nil, err
		}
		flags[i] = strict
		out[i] = OpenAITool{Type: "function", Function: OpenAIFunction{
			Name: t.Name, Description: t.Description, Parameters: params, Strict: &flags[i],
		}}
	}
	return out, nil
}

// strictParams returns the strict form of t's schema, or with Fallback its
// unchanged schema and strict=false when it cannot be made strict.
func strictParams(t *toolnexus.Tool, opts OpenAIOptions, renderer string) (json.RawMessage, bool, error) {
	params, err := strictCache.get(schemaOf(t), strictSchema)
	if err == nil {
		return params, true, nil
	}
	if opts.Fallback && (errors.Is(err, ErrNotStrict) || errors.Is(err, ErrSchemaLimit)) {
		return schemaOf(t), false, nil
	}
	return nil, false, withTool(err, renderer, t.Name)
}
