package render

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// geminiKeywords is the one allowlist of schema keywords Gemini's
// "parameters" accepts: exactly the JSON fields of genai.Schema
// (google.golang.org/genai v1.77.0, types.go), Gemini's OpenAPI 3.0 subset.
// The proto parser behind the API rejects any other key ("Unknown name
// \"additionalProperties\" … Cannot find field"). Sorted.
var geminiKeywords = []string{
	"anyOf", "default", "description", "enum", "example", "format", "items",
	"maxItems", "maxLength", "maxProperties", "maximum", "minItems", "minLength",
	"minProperties", "minimum", "nullable", "pattern", "properties",
	"propertyOrdering", "required", "title", "type",
}

var geminiAllowed = func() map[string]bool {
	m := make(map[string]bool, len(geminiKeywords))
	for _, k := range geminiKeywords {
		m[k] = true
	}
	return m
}()

// GeminiKeywords returns the schema keywords [Gemini] may emit in
// "parameters", sorted: the JSON fields of genai.Schema. Every other
// keyword is rewritten or dropped. The slice is a copy.
func GeminiKeywords() []string { return slices.Clone(geminiKeywords) }

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
	var cache *rewriteCache
	if !opts.JSONSchema {
		cache = geminiCache(geminiKey{depth, opts.PropertyOrdering, opts.RefuseHidden})
	}
	for i := range tools {
		t := &tools[i]
		if err := checkGeminiName(t.Name); err != nil {
			return nil, err
		}
		d := GeminiFunctionDeclaration{Name: t.Name, Description: t.Description}
		if opts.JSONSchema {
			s := schemaOf(t)
			if msg := schemaProblem(s); msg != "" {
				return nil, &SchemaError{Renderer: "render.Gemini", Tool: t.Name, Msg: msg, Err: ErrUnsupportedSchema}
			}
			d.ParametersJSONSchema = s
			if o := tools[i].OutputSchema; len(o) > 0 {
				if msg := schemaProblem(o); msg != "" {
					return nil, &SchemaError{Renderer: "render.Gemini", Tool: t.Name, Msg: "output schema: " + msg, Err: ErrUnsupportedSchema}
				}
				d.ResponseJSONSchema = o
			}
		} else {
			p, err := cache.get(schemaOf(t), func(in []byte) (json.RawMessage, error) {
				return geminiSchemaRefusing(in, depth, opts.PropertyOrdering, opts.RefuseHidden)
			})
			if err != nil {
				return nil, withTool(err, "render.Gemini", t.Name)
			}
			d.Parameters = p
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
	dst = append(dst, `{"functionDeclarations":[`...)
	for j := range t.FunctionDeclarations {
		if j > 0 {
			dst = append(dst, ',')
		}
		dst = t.FunctionDeclarations[j].AppendJSON(dst)
	}
	return append(dst, "]}"...)
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

// geminiSchema returns the "parameters" form of the schema in, or nil when
// the tool takes no parameters.
func geminiSchema(in []byte, depth int, ordering bool) (json.RawMessage, error) {
	return geminiSchemaRefusing(in, depth, ordering, false)
}

// geminiSchemaRefusing is geminiSchema; with refuse, a rule Execute
// enforces that the output cannot show is an error wrapping ErrHiddenRule.
func geminiSchemaRefusing(in []byte, depth int, ordering, refuse bool) (json.RawMessage, error) {
	root, err := parseSchema(in)
	if err != nil {
		return nil, err
	}
	g := &geminiRewriter{root: root, depth: depth, ordering: ordering, refuse: refuse}
	out, err := g.node(root, "")
	if err != nil {
		return nil, err
	}
	if _, ok := out.Get("properties"); !ok {
		// No-argument tool: Gemini wants no "parameters".
		if refuse && rootRules(root, out) {
			return nil, &SchemaError{Msg: `the root has no properties, so Gemini gets no "parameters" and cannot be shown the rules Execute enforces on the root object (use GeminiOptions.JSONSchema)`, Err: ErrHiddenRule}
		}
		return nil, nil
	}
	return jsonx.Marshal(out), nil
}

// geminiMaxNodes bounds the schema nodes one rewrite may produce: inlining
// $refs can grow a schema exponentially (a definition that uses the next
// one twice, thirty times over), and tools loaded from MCP servers carry
// schemas nobody here wrote.
const geminiMaxNodes = 50000

type geminiRewriter struct {
	root     *jsonx.Object
	depth    int
	ordering bool
	refuse   bool // GeminiOptions.RefuseHidden
	nodes    int
	stack    []string // $refs being inlined
}

func anyValue(desc any) *jsonx.Object {
	d := "Any JSON value."
	if s, ok := desc.(string); ok && s != "" {
		d = sentence(s, d)
	}
	return &jsonx.Object{Keys: []string{"type", "description"}, Vals: []any{"STRING", d}}
}

func (g *geminiRewriter) node(v any, path string) (*jsonx.Object, error) {
	if g.nodes++; g.nodes > geminiMaxNodes {
		return nil, &SchemaError{Path: path, Msg: fmt.Sprintf("inlining $ref produces more than %d schema nodes", geminiMaxNodes), Err: ErrSchemaLimit}
	}
	o, ok := v.(*jsonx.Object)
	if !ok {
		switch v {
		case true:
			return anyValue(nil), nil
		case false:
			return nil, &SchemaError{Path: path, Msg: "the boolean schema false cannot be expressed for Gemini (no value is valid)", Err: ErrUnsupportedSchema}
		}
		return nil, notSchema(v, path, nil)
	}
	if ref, ok := o.Get("$ref"); ok {
		return g.ref(o, ref, path)
	}

	out := &jsonx.Object{}
	typ := ""       // upper-case single type, "" when none
	var multi []any // several non-null types -> anyOf
	nullable := false
	if t, ok := o.Get("type"); ok {
		var list []any
		switch t := t.(type) {
		case string:
			list = []any{t}
		case []any:
			list = t
		default:
			return nil, &SchemaError{Path: path + "/type", Msg: "type is neither a string nor an array", Err: ErrUnsupportedSchema}
		}
		for _, e := range list {
			if s, _ := e.(string); !jsonTypes[strings.ToLower(s)] {
				return nil, &SchemaError{Path: path + "/type", Msg: fmt.Sprintf("%s is not a JSON Schema type", jsonx.Marshal(e)), Err: ErrUnsupportedSchema}
			}
		}
		switch t := t.(type) {
		case string:
			typ = strings.ToUpper(t)
		case []any:
			var names []string
			for _, e := range t {
				s, _ := e.(string)
				if strings.EqualFold(s, "null") {
					nullable = true
					continue
				}
				names = append(names, strings.ToUpper(s))
			}
			switch len(names) {
			case 0:
				typ = "NULL"
			case 1:
				typ = names[0]
			default:
				for _, n := range names {
					multi = append(multi, &jsonx.Object{Keys: []string{"type"}, Vals: []any{n}})
				}
			}
		}
	}
	if n, ok := o.Get("nullable"); ok && n == true {
		nullable = true
	}
	var props *jsonx.Object
	var required []any
	hasRequired := false
	var enum []any
	hasEnum := false
	var inOrder []any // the input's propertyOrdering
	hasOrder := false
	var hints geminiHints // dropped rules Execute enforces
	for i, k := range o.Keys {
		val := o.Vals[i]
		p := path + "/" + pointerToken(k)
		switch k {
		case "type":
			if multi != nil {
				out.Keys, out.Vals = append(out.Keys, "anyOf"), append(out.Vals, multi)
			} else {
				out.Keys, out.Vals = append(out.Keys, "type"), append(out.Vals, typ)
			}
		case "nullable":
			// emitted once, after the type
		case "const":
			hasEnum, enum = true, append(enum, val)
		case "enum":
			arr, ok := val.([]any)
			if !ok {
				return nil, &SchemaError{Path: p, Msg: "enum is not an array", Err: ErrUnsupportedSchema}
			}
			hasEnum, enum = true, append(enum, arr...)
		case "anyOf", "oneOf":
			arr, ok := val.([]any)
			if !ok {
				return nil, &SchemaError{Path: p, Msg: k + " is not an array", Err: ErrUnsupportedSchema}
			}
			var alts []any
			for j, a := range arr {
				c, err := g.node(a, p+"/"+strconv.Itoa(j))
				if err != nil {
					return nil, err
				}
				if len(c.Keys) == 1 && c.Keys[0] == "type" && c.Vals[0] == "NULL" {
					nullable = true
					continue
				}
				alts = append(alts, c)
			}
			if k == "oneOf" && len(alts) > 1 && g.refuse && !disjointTypes(alts) {
				return nil, &SchemaError{Path: p, Msg: `"oneOf" with several alternatives is enforced by Execute (exactly one must match) but Gemini's "parameters" can only show anyOf (use GeminiOptions.JSONSchema)`, Err: ErrHiddenRule}
			}
			if len(alts) > 0 {
				out.Keys, out.Vals = append(out.Keys, "anyOf"), append(out.Vals, alts)
			}
		case "properties":
			po, ok := val.(*jsonx.Object)
			if !ok {
				return nil, &SchemaError{Path: p, Msg: "properties is not an object", Err: ErrUnsupportedSchema}
			}
			props = &jsonx.Object{}
			for j, name := range po.Keys {
				c, err := g.node(po.Vals[j], p+"/"+pointerToken(name))
				if err != nil {
					return nil, err
				}
				props.Keys, props.Vals = append(props.Keys, name), append(props.Vals, c)
			}
			if len(props.Keys) > 0 {
				out.Keys, out.Vals = append(out.Keys, "properties"), append(out.Vals, props)
			}
		case "propertyOrdering":
			if inOrder, ok = val.([]any); !ok {
				return nil, &SchemaError{Path: p, Msg: "propertyOrdering is not an array", Err: ErrUnsupportedSchema}
			}
			hasOrder = true
		case "required":
			hasRequired = true
			required, _ = val.([]any)
		case "items":
			if _, ok := val.([]any); ok {
				return nil, &SchemaError{Path: p, Msg: `"items" is an array of schemas (the tuple form of drafts before 2020-12), which Gemini cannot express`, Err: ErrUnsupportedSchema}
			}
			c, err := g.node(val, p)
			if err != nil {
				return nil, err
			}
			out.Keys, out.Vals = append(out.Keys, "items"), append(out.Vals, c)
		case "format":
			if f, _ := val.(string); f == "date-time" || f == "enum" {
				out.Keys, out.Vals = append(out.Keys, k), append(out.Vals, val)
			} else if geminiFormats[f] {
				hints.format = f
			}
		default:
			if geminiAllowed[k] {
				out.Keys, out.Vals = append(out.Keys, k), append(out.Vals, val)
			} else if err := g.dropped(o, k, val, p, &hints); err != nil {
				return nil, err
			}
			// anything else is not a Gemini keyword: dropped, stated in
			// the description when Execute enforces it (see dropped)
		}
	}

	if hasEnum {
		var strs []any
		var others []string
		for _, e := range enum {
			switch e := e.(type) {
			case nil:
				nullable = true
			case string:
				strs = append(strs, e)
			default:
				others = append(others, string(jsonx.Marshal(e)))
			}
		}
		switch {
		case len(others) == 0 && len(strs) > 0:
			if typ == "" && multi == nil {
				typ = "STRING"
				out.Keys, out.Vals = append([]string{"type"}, out.Keys...), append([]any{"STRING"}, out.Vals...)
			} else if typ != "STRING" {
				typ = "STRING"
				out.Set("type", "STRING")
			}
			out.Set("enum", strs)
		case len(others) > 0:
			all := others
			if len(strs) > 0 {
				all = nil
				for _, e := range enum {
					if e != nil {
						all = append(all, string(jsonx.Marshal(e)))
					}
				}
			}
			note := "Allowed values: " + strings.Join(all, ", ") + "."
			if d, ok := out.Get("description"); ok {
				if s, _ := d.(string); s != "" {
					note = sentence(s, note)
				}
			}
			if typ == "" && multi == nil {
				typ = inferType(enum)
				out.Keys, out.Vals = append([]string{"type"}, out.Keys...), append([]any{typ}, out.Vals...)
			}
			out.Set("description", note)
		}
	}

	if typ == "" && multi == nil {
		if _, ok := out.Get("anyOf"); !ok {
			switch {
			case props != nil:
				typ = "OBJECT"
			case hasKey(out, "items"):
				typ = "ARRAY"
			default:
				res := anyJSONValue(out, nullable)
				hints.apply(res)
				return res, nil
			}
			out.Keys, out.Vals = append([]string{"type"}, out.Keys...), append([]any{typ}, out.Vals...)
		}
	}
	if nullable {
		i := indexOf(out, "type") + 1 // 0 when there is no type: nullable goes first
		out.Keys = slices.Insert(out.Keys, i, "nullable")
		out.Vals = slices.Insert(out.Vals, i, any(true))
	}
	if typ == "ARRAY" && !hasKey(out, "items") {
		out.Set("items", anyValue(nil))
	}
	if props != nil && len(props.Keys) > 0 && (hasOrder || g.ordering) {
		if order := propertyOrder(props, inOrder, g.ordering); len(order) > 1 || (hasOrder && len(order) > 0) {
			i := indexOf(out, "properties") + 1
			out.Keys = slices.Insert(out.Keys, i, "propertyOrdering")
			out.Vals = slices.Insert(out.Vals, i, any(order))
		}
	}
	for _, r := range required {
		// Execute requires these too, but "required" may only name properties.
		if name, ok := r.(string); ok && (props == nil || !hasKey(props, name)) && !slices.Contains(hints.keys, cutHint(name, hintValueMax)) {
			hints.keys = append(hints.keys, cutHint(name, hintValueMax))
		}
	}
	if hasRequired && props != nil {
		var req []any
		for _, r := range required {
			if name, ok := r.(string); ok && hasKey(props, name) && !slices.Contains(req, any(name)) {
				req = append(req, name)
			}
		}
		if len(req) > 0 {
			out.Set("required", req)
		}
	}
	hints.apply(out)
	return out, nil
}

// propertyOrder returns the propertyOrdering of an object with the
// rewritten properties props: the names of the input's propertyOrdering
// that are properties, each once, in its order; with all, followed by the
// remaining properties in schema order.
func propertyOrder(props *jsonx.Object, in []any, all bool) []string {
	order := make([]string, 0, len(props.Keys))
	for _, e := range in {
		if name, ok := e.(string); ok && hasKey(props, name) && !slices.Contains(order, name) {
			order = append(order, name)
		}
	}
	if all {
		for _, name := range props.Keys {
			if !slices.Contains(order, name) {
				order = append(order, name)
			}
		}
	}
	return order
}

// sentence appends the sentence add to the text desc, ending desc with a
// period first when it has no final punctuation.
func sentence(desc, add string) string {
	desc = strings.TrimRight(desc, " ")
	if strings.HasSuffix(desc, ".") || strings.HasSuffix(desc, "!") || strings.HasSuffix(desc, "?") {
		return desc + " " + add
	}
	return desc + ". " + add
}

func hasKey(o *jsonx.Object, k string) bool {
	_, ok := o.Get(k)
	return ok
}

// anyJSONValue turns the keywords of an untyped node into the STRING schema
// Gemini gets for "any JSON value".
func anyJSONValue(kw *jsonx.Object, nullable bool) *jsonx.Object {
	res := &jsonx.Object{Keys: []string{"type"}, Vals: []any{"STRING"}}
	if nullable {
		res.Keys, res.Vals = append(res.Keys, "nullable"), append(res.Vals, true)
	}
	described := false
	for i, k := range kw.Keys {
		v := kw.Vals[i]
		if k == "description" {
			v, described = anyValue(v).Vals[1], true
		}
		res.Keys, res.Vals = append(res.Keys, k), append(res.Vals, v)
	}
	if !described {
		res.Keys, res.Vals = append(res.Keys, "description"), append(res.Vals, anyValue(nil).Vals[1])
	}
	return res
}

// inferType names the Gemini type of untyped enum values.
func inferType(vals []any) string {
	for _, v := range vals {
		switch v := v.(type) {
		case json.Number:
			if strings.ContainsAny(string(v), ".eE") {
				return "NUMBER"
			}
			return "INTEGER"
		case bool:
			return "BOOLEAN"
		case string:
			return "STRING"
		}
	}
	return "STRING"
}

// ref inlines the target of a $ref node, keeping its sibling description
// and title.
func (g *geminiRewriter) ref(o *jsonx.Object, ref any, path string) (*jsonx.Object, error) {
	r, _ := ref.(string)
	target, _, err := followRefs(g.root, r, path+"/$ref")
	if err != nil {
		return nil, err
	}
	seen := 0
	for _, s := range g.stack {
		if s == r {
			seen++
		}
	}
	var out *jsonx.Object
	if seen >= g.depth {
		if g.refuse {
			return nil, &SchemaError{Path: path + "/$ref", Msg: fmt.Sprintf("the recursive $ref %q is cut after %d levels: Execute checks deeper levels that Gemini's \"parameters\" cannot show (use GeminiOptions.JSONSchema)", r, g.depth), Err: ErrHiddenRule}
		}
		// Recursion cut: an object the model cannot look into.
		out = &jsonx.Object{Keys: []string{"type"}, Vals: []any{"OBJECT"}}
		if to, ok := target.(*jsonx.Object); ok {
			if t, ok := to.Get("type"); ok {
				if s, ok := t.(string); ok {
					out.Vals[0] = strings.ToUpper(s)
				}
			}
			if d, ok := to.Get("description"); ok {
				out.Set("description", d)
			}
		}
	} else {
		g.stack = append(g.stack, r)
		out, err = g.node(target, path)
		g.stack = g.stack[:len(g.stack)-1]
		if err != nil {
			return nil, err
		}
	}
	for i, k := range o.Keys {
		switch k {
		case "title":
			out.Set(k, o.Vals[i])
		case "description":
			// The sibling description replaces the target's own, but not
			// the sentences the rewrite added to it (hints, "Allowed
			// values: …", "Any JSON value.").
			d := o.Vals[i]
			if add := addedText(target, out); add != "" {
				if s, ok := d.(string); ok && s != "" {
					d = sentence(s, add)
				} else {
					d = add
				}
			}
			out.Set(k, d)
		}
	}
	return out, nil
}

// resolvePointer resolves a local JSON reference ("#", "#/$defs/Node");
// see resolveRef.
func resolvePointer(root *jsonx.Object, ref string) (any, bool) {
	v, err := resolveRef(root, ref)
	return v, err == nil
}
