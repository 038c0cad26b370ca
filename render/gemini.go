package render

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// DefaultGeminiRecursionDepth is how many times [Gemini] inlines a $ref
// inside its own expansion when GeminiOptions.RecursionDepth is zero.
const DefaultGeminiRecursionDepth = 3

// GeminiOptions configure [GeminiWith]. The zero value gives [Gemini].
type GeminiOptions struct {
	// JSONSchema sends each tool's InputSchema unchanged as
	// "parametersJsonSchema" (full JSON Schema: $ref, $defs, type arrays,
	// additionalProperties) instead of the rewritten "parameters". The two
	// fields are mutually exclusive in the API (genai FunctionDeclaration).
	// A nil schema is sent as {"type":"object"}. A tool's OutputSchema,
	// when set, is sent unchanged as "responseJsonSchema"; one that is not
	// a valid UTF-8 JSON object is a *SchemaError.
	JSONSchema bool

	// RecursionDepth is how many times one $ref may be inlined inside its
	// own expansion (recursive types such as a tree Node); zero means
	// DefaultGeminiRecursionDepth. Below that depth the reference becomes
	// {"type":"OBJECT"} with the definition's description: the model cannot
	// see deeper levels, and Execute still accepts them.
	RecursionDepth int

	// PropertyOrdering adds "propertyOrdering" to every object with two or
	// more properties: the names an input "propertyOrdering" lists (those
	// that are properties, once each), then the other properties in schema
	// order, so it always lists every property exactly once. Gemini
	// otherwise treats properties as unordered, and the genai Go SDK sends
	// every map with sorted keys, so this is the only way to keep the
	// struct's field order through that SDK. Without it, an input
	// "propertyOrdering" is kept with only the names that are properties
	// (each once), and dropped when none is left.
	PropertyOrdering bool

	// RefuseHidden makes a schema with a rule Execute enforces but the
	// rewritten "parameters" can neither keep nor state as a description
	// hint an error: a *SchemaError wrapping [ErrHiddenRule] naming the
	// tool, the JSON Pointer of the keyword and the keyword, e.g.
	//
	//	render.Gemini: tool "t": /properties/a/allOf: "allOf" is enforced by Execute but Gemini's "parameters" cannot show it (use GeminiOptions.JSONSchema)
	//
	// The rules refused are listed on [Gemini] ("dropped without a
	// hint"). Without it those rules are dropped silently. It has no
	// effect with JSONSchema, which sends every keyword.
	RefuseHidden bool

	// RenameKeys renders a property key outside the rule of Gemini's
	// "parameters" (^[A-Za-z_][A-Za-z0-9_]{0,63}$: OpenAPI parameters
	// such as filter[status], keys with "-", "." or spaces, a leading
	// digit) renamed in the rendered copy, as AnthropicOptions.RenameKeys
	// documents; package exec maps the model's arguments back (see
	// [RestoreKeys]). Without it such a key is a *SchemaError wrapping
	// [ErrPropertyKey]. No effect with JSONSchema, which documents no
	// key rule.
	RenameKeys bool
}

// GeminiFunctionDeclaration is one function declaration of a Gemini tool
// (genai.FunctionDeclaration):
//
//	{"name":…,"description":…,"parameters":{…}}
//
// Exactly one of Parameters and ParametersJSONSchema is set, or neither
// for a tool without arguments. Source: Gemini API reference,
// FunctionDeclaration (https://ai.google.dev/api/caching#FunctionDeclaration).
type GeminiFunctionDeclaration struct {
	Name                 string          `json:"name"`                           // the tool's name
	Description          string          `json:"description"`                    // the tool's description; "" is rendered as ""
	Parameters           json.RawMessage `json:"parameters,omitempty"`           // OpenAPI subset, see Gemini
	ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema,omitempty"` // full JSON Schema, see GeminiOptions
	// ResponseJSONSchema is the tool's OutputSchema, unchanged, with
	// GeminiOptions.JSONSchema (genai.FunctionDeclaration.ResponseJsonSchema:
	// the schema of the function's response); nil otherwise.
	ResponseJSONSchema json.RawMessage `json:"responseJsonSchema,omitempty"`
}

// GeminiTool is one Gemini tool (genai.Tool) holding function declarations.
// Source: Gemini API reference, Tool (https://ai.google.dev/api/caching#Tool).
type GeminiTool struct {
	FunctionDeclarations []GeminiFunctionDeclaration `json:"functionDeclarations"` // never null: [] for none
}

// GeminiTools is the "tools" array of a Gemini generateContent request.
// [Gemini] always returns exactly one element wrapping every declaration.
type GeminiTools []GeminiTool

// Gemini renders tools for the Gemini API: GeminiWith(tools, GeminiOptions{}).
//
// The result is always ONE tool wrapping all declarations,
// [{"functionDeclarations":[…]}], in the order given; with no tools it is
// still [{"functionDeclarations":[]}]. Gemini rejects an empty declaration
// list ("tools[0].tool_type: required one_of 'tool_type' must have one
// initialized field"), so a caller with no tools omits "tools" (and
// "toolConfig") from the request instead of sending this value.
//
// "parameters" takes only Gemini's OpenAPI subset ([GeminiKeywords]), so
// each schema is rewritten into a copy (the input bytes are never modified):
//
//   - keywords outside the allowlist are dropped (additionalProperties,
//     $schema, $defs, exclusiveMinimum/Maximum, multipleOf, uniqueItems,
//     allOf, not, …); only schema keywords are touched, so a property
//     NAMED "pattern", "format", "default", "type" or "items" survives
//
//   - a dropped keyword that Execute enforces and that plain words can
//     state becomes one sentence appended to the node's description, in
//     this order: "Format: email." (a format Execute checks: date, time,
//     duration, email, hostname, ipv4, ipv6, uri, uuid), "Base64-encoded."
//     (contentEncoding base64: a []byte field, which a typed tool's
//     decoder reads as base64), "Must be greater
//     than 0." (exclusiveMinimum), "Must be less than 1."
//     (exclusiveMaximum), "Must be a multiple of 0.5." (multipleOf), "Items
//     must be unique." (uniqueItems:true), "Each value must be of type
//     integer." (additionalProperties with a type, on an object without
//     properties; "Any other property must be of type integer." beside
//     properties), "Must include the keys a and b." (names in "required"
//     that are not properties, which Gemini's "required" cannot hold), "If
//     a is given, b and c must be given too."
//     (dependentRequired, one sentence per property). A quoted value is cut
//     to 64 characters and a sentence to 200, ending with "…"
//
//   - dropped without a hint because they carry no rule: annotations
//     ($schema, $id, $comment, $defs, examples, deprecated, readOnly,
//     writeOnly, contentMediaType, contentSchema, contentEncoding other
//     than base64), formats Execute does not check,
//     uniqueItems:false, additionalProperties true or {}, and
//     additionalProperties:false, deliberately: the properties shown are
//     the whole list the model knows of, Execute refuses any other key
//     with an error naming it, and a hint on every object of every typed
//     tool would be noise
//
//   - dropped without a hint although Execute enforces them (refused with
//     GeminiOptions.RefuseHidden, an error wrapping [ErrHiddenRule]):
//     allOf, not, if/then/else, contains (with minContains/maxContains),
//     prefixItems, patternProperties, propertyNames, dependentSchemas,
//     unevaluatedProperties, unevaluatedItems, $dynamicRef, the rules
//     (hints, minProperties, …) of a root without properties, which gets
//     no "parameters" at all, an additionalProperties schema beyond its
//     type (the type is still hinted), a oneOf with two or more non-null alternatives that do not
//     each have their own type (rendered as anyOf, which loses "exactly
//     one"; INTEGER and NUMBER overlap), and the levels below a recursion
//     cut (see GeminiOptions.RecursionDepth)
//
//   - types are upper-cased ("STRING", "OBJECT", …); ["T","null"] becomes
//     "type":"T","nullable":true; a type array with several non-null types
//     becomes an anyOf of one schema per type
//
//   - every $ref is inlined (local JSON Pointers: "#", "#/$defs/Name", …);
//     a recursive reference is inlined GeminiOptions.RecursionDepth times
//     and then becomes {"type":"OBJECT"} (with the definition's description)
//
//   - const becomes a one-value enum; oneOf becomes anyOf; an anyOf member
//     {"type":"null"} becomes nullable:true
//
//   - enums must be strings of a STRING: a string enum is kept (type
//     "STRING"); a null enum value becomes nullable:true; an enum with
//     non-string values (integers, numbers, booleans) is removed and its
//     values are appended to the description ("Allowed values: 1, 2, 3."),
//     keeping the INTEGER/NUMBER/BOOLEAN type so the model still sends a
//     number, which Execute checks against the enum
//
//   - formats other than "date-time" and "enum" are dropped
//
//   - a schema with no type ({}, "any" in Go) becomes
//     {"type":"STRING"} with "Any JSON value." added to its description
//     (Gemini has no "any" type; Execute accepts whatever JSON is sent); an
//     ARRAY without items gets such items
//
//   - an object with no properties (a Go map, a free-form object) is
//     rendered without "properties" ({"type":"OBJECT"}), never with an
//     empty one; "required" keeps only names that are in "properties"
//     (the others become a hint, below)
//
//   - a tool with no parameters (no properties at the root) gets no
//     "parameters" at all, as the Gemini API requires
//
//   - a "propertyOrdering" in the input keeps only the names that are
//     properties (see GeminiOptions.PropertyOrdering); the output never
//     holds a key twice
//
// Tool names must match ^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$ (the
// FunctionDeclaration name rule: start with a letter or an underscore, then
// letters, digits, underscores, dots, colons and dashes, at most
// [GeminiMaxNameLength] bytes); any other name, the empty one included, is
// an error wrapping [ErrUnsupportedName]. Property names are passed through
// unchecked (genai documents parameter names as [A-Za-z_][A-Za-z0-9_]*).
//
// Every constraint dropped here is still enforced by Registry.Execute for
// typed tools. Errors are *SchemaError values wrapping ErrUnsupportedSchema
// (not valid JSON or not valid UTF-8, a key repeated in one object, root
// not {"type":"object",…}, a $ref that does not resolve, a cycle of $refs
// that never reaches a schema, a false schema)
// or ErrSchemaLimit (inlining would produce more than 50,000 schema
// nodes). $ref fragments are JSON Pointers in URI fragment form
// (RFC 6901 §6: percent-decoded, then "~1" is "/" and "~0" is "~").
// With GeminiOptions.JSONSchema the schema is copied unchanged, and one
// that is not a valid UTF-8 JSON object is such an error too. Rewritten
// schemas are cached by their input bytes.
//
// Source: Gemini API reference, Schema and FunctionDeclaration
// (https://ai.google.dev/api/caching#Schema); genai.Schema and
// FunctionDeclaration (google.golang.org/genai v1.77.0); Gemini
// function-calling guide (https://ai.google.dev/gemini-api/docs/function-calling).
func Gemini(tools []toolnexus.Tool) (GeminiTools, error) {
	return GeminiWith(tools, GeminiOptions{})
}

// GeminiWith renders tools for the Gemini API with options; see [Gemini]
// for the schema rules and [GeminiOptions] for the choices.
func GeminiWith(tools []toolnexus.Tool, opts GeminiOptions) (GeminiTools, error) {
	decls := make([]GeminiFunctionDeclaration, len(tools))
	depth := opts.RecursionDepth
	if depth <= 0 {
		depth = DefaultGeminiRecursionDepth
	}
	p := profileGemini
	var cache *rewriteCache
	if opts.JSONSchema {
		p = profileGeminiJSONSchema
	} else {
		cache = geminiCache(geminiKey{depth, opts.PropertyOrdering, opts.RefuseHidden, opts.RenameKeys})
	}
	if err := p.checkList("render.Gemini", tools); err != nil {
		return nil, err
	}
	for i := range tools {
		t := &tools[i]
		if err := p.checkName("render.Gemini", t.Name); err != nil {
			return nil, err
		}
		d := GeminiFunctionDeclaration{Name: t.Name, Description: t.Description}
		if opts.JSONSchema {
			s := schemaOf(t)
			if err := schemaCheck(s); err != nil {
				return nil, withTool(err, "render.Gemini", t.Name)
			}
			d.ParametersJSONSchema = s
			if o := tools[i].OutputSchema; len(o) > 0 {
				if err := schemaCheck(o); err != nil {
					return nil, &SchemaError{Renderer: "render.Gemini", Tool: t.Name, Msg: "output schema: " + err.(*SchemaError).Msg, Err: ErrUnsupportedSchema}
				}
				d.ResponseJSONSchema = o
			}
		} else {
			params, err := cache.get(schemaOf(t), func(in []byte) (json.RawMessage, error) {
				s, _, err := renamed(in, renameSchema(in, p.PropertyKey), p.PropertyKey, opts.RenameKeys)
				if err != nil {
					return nil, err
				}
				return geminiSchema(s, depth, opts.PropertyOrdering, opts.RefuseHidden)
			})
			if err != nil {
				return nil, withTool(err, "render.Gemini", t.Name)
			}
			d.Parameters = params
		}
		decls[i] = d
	}
	return GeminiTools{{FunctionDeclarations: decls}}, nil
}

// geminiKey selects the rewrite cache of one option set.
type geminiKey struct {
	depth    int
	ordering bool
	refuse   bool
	rename   bool
}

var (
	geminiMu     sync.RWMutex
	geminiCaches = map[geminiKey]*rewriteCache{}
)

func geminiCache(k geminiKey) *rewriteCache {
	geminiMu.RLock()
	c := geminiCaches[k]
	geminiMu.RUnlock()
	if c != nil {
		return c
	}
	geminiMu.Lock()
	defer geminiMu.Unlock()
	if c = geminiCaches[k]; c == nil {
		c = new(rewriteCache)
		geminiCaches[k] = c
	}
	return c
}

// MarshalJSON implements json.Marshaler. The buffer is sized once from
// the prepared bytes (names, descriptions, schemas).
func (ts GeminiTools) MarshalJSON() ([]byte, error) { return marshalList(ts), nil }

// AppendJSON appends the JSON array to dst and returns the extended buffer.
func (ts GeminiTools) AppendJSON(dst []byte) []byte {
	return appendList(dst, ts)
}

// MarshalJSON implements json.Marshaler: {"functionDeclarations":[…]}.
func (t GeminiTool) MarshalJSON() ([]byte, error) { return marshalEntry(t), nil }

// AppendJSON appends the tool's JSON object to dst.
func (t GeminiTool) AppendJSON(dst []byte) []byte {
	return append(appendList(append(dst, `{"functionDeclarations":`...), t.FunctionDeclarations), '}')
}

func (t GeminiTool) size() int {
	n := 32
	for i := range t.FunctionDeclarations {
		n += t.FunctionDeclarations[i].size() + 1
	}
	return n
}

// MarshalJSON implements json.Marshaler with the same bytes the
// declaration has inside [GeminiTools].
func (d GeminiFunctionDeclaration) MarshalJSON() ([]byte, error) { return marshalEntry(d), nil }

// AppendJSON appends the declaration's JSON object to dst.
func (d GeminiFunctionDeclaration) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"name":`...)
	dst = jsonx.AppendString(dst, d.Name)
	dst = append(dst, `,"description":`...)
	dst = jsonx.AppendString(dst, d.Description)
	if len(d.Parameters) > 0 {
		dst = append(append(dst, `,"parameters":`...), d.Parameters...)
	}
	if len(d.ParametersJSONSchema) > 0 {
		dst = append(append(dst, `,"parametersJsonSchema":`...), d.ParametersJSONSchema...)
	}
	if len(d.ResponseJSONSchema) > 0 {
		dst = append(append(dst, `,"responseJsonSchema":`...), d.ResponseJSONSchema...)
	}
	return append(dst, '}')
}

func (d GeminiFunctionDeclaration) size() int {
	return entryOverhead + strSize(d.Name) + strSize(d.Description) + len(d.Parameters) + len(d.ParametersJSONSchema) + len(d.ResponseJSONSchema)
}

// GeminiToolConfig returns the Gemini request "toolConfig",
// {"functionCallingConfig":{["allowedFunctionNames":[…],]"mode":mode}}
// (the key order genai's json.Marshal of ToolConfig gives).
// mode is "AUTO", "ANY", "NONE" or "VALIDATED"; allowed (the names of
// these tools, in order) is only for ANY and VALIDATED, where empty means
// every tool. Errors name the rule: another mode, allowed tools with AUTO
// or NONE. Source: Gemini API reference, FunctionCallingConfig; genai
// types FunctionCallingConfig and FunctionCallingConfigMode.
func GeminiToolConfig(mode string, allowed []toolnexus.Tool) ([]byte, error) {
	switch mode {
	case "AUTO", "NONE":
		if len(allowed) > 0 {
			return nil, fmt.Errorf("render: GeminiToolConfig: allowed function names need mode ANY or VALIDATED, not %s", mode)
		}
	case "ANY", "VALIDATED":
	default:
		return nil, fmt.Errorf(`render: GeminiToolConfig: mode must be "AUTO", "ANY", "NONE" or "VALIDATED", got %q`, mode)
	}
	dst := []byte(`{"functionCallingConfig":{`)
	if len(allowed) > 0 {
		dst = append(dst, `"allowedFunctionNames":[`...)
		for i := range allowed {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonx.AppendString(dst, allowed[i].Name)
		}
		dst = append(dst, "],"...)
	}
	dst = append(dst, `"mode":`...)
	dst = jsonx.AppendString(dst, mode)
	return append(dst, "}}"...), nil
}
