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
// request body "tools" (ChatCompletionFunctionTool / FunctionDefinition;
// https://platform.openai.com/docs/api-reference/chat/create).
type OpenAITool struct {
	Type     string         `json:"type"`     // "function", or "custom" for a freeform tool
	Function OpenAIFunction `json:"function"` // the tool's name, description and parameters
	// Format is the input format of a "custom" entry (Function.Parameters
	// and Function.Strict are then not rendered); see openai_custom.go.
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
func OpenAI(tools []toolnexus.Tool) OpenAITools {
	out := make(OpenAITools, len(tools))
	for i := range tools {
		t := &tools[i]
		out[i] = OpenAITool{Type: "function", Function: OpenAIFunction{
			Name: t.Name, Description: t.Description,
		}}
		if t.Freeform != nil {
			out[i].Type, out[i].Format = "custom", t.Freeform
		}
	}
	openAIParamsAll(tools, func(i int, s json.RawMessage) { out[i].Function.Parameters = s })
	return out
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
//   - oneOf becomes anyOf; $defs and local $ref (recursion included) are
//     kept. A $ref node keeps no sibling keywords (strict mode forbids
//     them): a description or title beside it is kept by inlining a copy
//     of the target with them (a target already being inlined is
//     referenced instead, and they are dropped); dropped annotations
//     (default, examples, …) go. An enum keeps each value once.
//   - keywords strict mode does not take (default, examples, uniqueItems,
//     formats outside date-time, time, date, duration, email, hostname,
//     ipv4, ipv6, uuid, …) are dropped from the copy; Execute still
//     enforces them. contentEncoding base64 (a []byte field, which a typed
//     tool's decoder reads as base64) becomes the sentence
//     "Base64-encoded." at the end of the description
//
// Not strictable, an error wrapping [ErrNotStrict]: a free-form map
// (additionalProperties is a schema or true), a value of any type ({}, or
// an array without items), allOf, not, if/then/else, patternProperties,
// propertyNames, dependent*, unevaluated*, contains, prefixItems, a type
// array with two non-null types, a non-local $ref, a $ref with a sibling
// keyword other than annotations, a $ref pointing into a place the
// rewrite moves or drops (inside a oneOf, beside a $ref, under default),
// an enum or const value that is an object or an array, "items" as an
// array, a boolean schema, anyOf at the root. Errors wrapping
// [ErrUnsupportedSchema] (never rendered, even with Fallback): invalid
// JSON or UTF-8, a key repeated in one object, a $ref that does not
// resolve ($ref fragments are RFC 6901 JSON Pointers in URI fragment
// form: percent-decoded, then "~1" is "/" and "~0" is "~"), a cycle of
// $refs that never reaches a schema. A tool name outside
// ^[a-zA-Z0-9_-]{1,64}$ is an error wrapping [ErrUnsupportedName]. Over
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
// OpenAIOptions its output equals [OpenAI]'s, but a tool name outside
// ^[a-zA-Z0-9_-]{1,64}$ (OpenAI's function.name rule) is an error wrapping
// [ErrUnsupportedName], and a schema that is not a valid UTF-8 JSON object
// (see [CheckSchemas]) or whose root has oneOf, anyOf or allOf a
// *SchemaError wrapping [ErrUnsupportedSchema] naming the tool. With
// Strict it is [OpenAIStrict]'s, and every entry carries an explicit
// "strict" (true, or false for a Fallback tool).
func OpenAIWith(tools []toolnexus.Tool, opts OpenAIOptions) (OpenAITools, error) {
	if !opts.Strict {
		return openAIChecked(tools, "render.OpenAIWith")
	}
	out := make(OpenAITools, len(tools))
	flags := make([]bool, len(tools)) // Strict points here; one allocation per list
	for i := range tools {
		t := &tools[i]
		if t.Freeform != nil {
			if err := checkName("render.OpenAIStrict", t.Name); err != nil {
				return nil, err
			}
			out[i] = OpenAITool{Type: "custom", Function: OpenAIFunction{Name: t.Name, Description: t.Description}, Format: t.Freeform}
			continue
		}
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

// openAIChecked is OpenAI with errors for bad names and schemas.
func openAIChecked(tools []toolnexus.Tool, renderer string) (OpenAITools, error) {
	for i := range tools {
		if err := checkName(renderer, tools[i].Name); err != nil {
			return nil, err
		}
	}
	if err := checkSchemas(tools, renderer); err != nil {
		return nil, err
	}
	if err := checkOpenAIRoots(tools, renderer); err != nil {
		return nil, err
	}
	return OpenAI(tools), nil
}

// strictParams returns the strict form of t's schema, or with Fallback its
// unchanged schema and strict=false when it cannot be made strict. A name
// OpenAI rejects is an error either way.
func strictParams(t *toolnexus.Tool, opts OpenAIOptions, renderer string) (json.RawMessage, bool, error) {
	if err := checkName(renderer, t.Name); err != nil {
		return nil, false, err
	}
	params, err := strictCache.get(schemaOf(t), strictSchema)
	if err == nil {
		return params, true, nil
	}
	if opts.Fallback && (errors.Is(err, ErrNotStrict) || errors.Is(err, ErrSchemaLimit)) {
		return schemaOf(t), false, nil
	}
	return nil, false, withTool(err, renderer, t.Name)
}
