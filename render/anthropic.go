package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonlex"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// AnthropicTool is one entry of the Anthropic Messages API "tools" array
// (a client tool, ToolParam in the Go SDK):
//
//	{"name":…,"description":…,"input_schema":{"type":"object",…}}
//
// Source: Anthropic docs, "Define tools"
// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools)
// and the Messages API reference, request body "tools".
type AnthropicTool struct {
	Name        string          `json:"name"`         // the tool's name
	Description string          `json:"description"`  // the tool's description; "" is rendered as ""
	InputSchema json.RawMessage `json:"input_schema"` // JSON Schema object, root "type":"object"

	// The optional fields below are set by [AnthropicWith] (see
	// [AnthropicOptions]) and rendered only when set.

	// Strict renders "strict":true.
	Strict bool `json:"-"`
	// DeferLoading renders "defer_loading":true.
	DeferLoading bool `json:"-"`
	// InputExamples renders "input_examples": each entry a compact JSON object.
	InputExamples []json.RawMessage `json:"-"`
	// AllowedCallers renders "allowed_callers": who may call the tool.
	AllowedCallers []string `json:"-"`
	// CacheControl renders "cache_control":{"type":"ephemeral"}.
	CacheControl bool `json:"-"`
}

// AnthropicTools is the Messages API "tools" array. Its json.Marshal output
// is exactly the array; nil marshals as [].
type AnthropicTools []AnthropicTool

// Anthropic renders tools for the Anthropic Messages API, one
// {"name","description","input_schema"} entry per tool in the order given.
// The schema bytes are shared, not copied ({"type":"object"} when nil).
//
// Anthropic requires input_schema to be a JSON Schema object whose root has
// "type":"object" and no top-level oneOf, anyOf or allOf ("input_schema
// does not support oneOf, allOf, or anyOf at the top level"); one bad tool
// fails the whole request. Anthropic checks this for every tool and returns
// a *SchemaError wrapping ErrUnsupportedSchema that names the tool, rather
// than rewriting a schema whose meaning would change. Every schema a
// Registry accepts from a typed tool passes. The check validates the JSON
// and scans the top-level keys; its outcome is cached by schema bytes, so
// rendering the same tools again costs a map lookup per tool. A schema
// that is not valid UTF-8 is refused the same way, a tool name outside
// ^[a-zA-Z0-9_-]{1,64}$ (the "Define tools" rule) is an error wrapping
// [ErrUnsupportedName], and a property key outside ^[a-zA-Z0-9_.-]{1,64}$
// (filter[status], $top, a key with a space) a *SchemaError wrapping
// [ErrPropertyKey] (AnthropicOptions.RenameKeys renames such keys
// instead). The rules are the "anthropic" row of [Profiles].
//
// A tool's InputExamples (from the InputExamples method of a typed tool's
// arguments type) are rendered as "input_examples" after input_schema;
// one that is not a JSON object is an error naming the tool and the
// example's index.
func Anthropic(tools []toolnexus.Tool) (AnthropicTools, error) {
	return anthropicWith(tools, AnthropicOptions{}, "render.Anthropic")
}

// AnthropicOptions are the optional tool fields of the Anthropic Messages
// API (ToolParam in anthropic-sdk-go v2: strict, cache_control,
// defer_loading, input_examples), applied by [AnthropicWith].
type AnthropicOptions struct {
	// Strict renders "strict":true on every tool and rewrites each schema
	// into the subset of Anthropic's strict tool use (the
	// "anthropic-strict" row of [Profiles]): every object closed with
	// "additionalProperties":false, optional properties kept optional;
	// the bounds Anthropic's strict mode refuses (minimum, maximum,
	// exclusive bounds, multipleOf, minLength, maxLength, maxItems,
	// minItems above 1, uniqueItems, minProperties, maxProperties,
	// formats outside its list) dropped from the copy and stated as
	// description hints ("Must be at least 1."), which Execute still
	// enforces; the rest as [OpenAIStrict] documents. A schema that cannot
	// be made strict (a recursive $ref among them), or a list past a
	// per-request limit (20 strict tools, 24 optional properties, 16
	// union-typed schemas), is a *SchemaError wrapping ErrNotStrict,
	// ErrSchemaLimit or ErrTooManyTools naming the tool and the JSON path,
	// unless Fallback is set.
	Strict bool

	// Fallback, with Strict, renders a tool whose schema cannot be made
	// strict without "strict" and with its schema unchanged, instead of
	// failing the whole list; so are the tools past a per-request limit
	// of strict mode (20 strict tools, 24 optional properties, 16
	// union-typed schemas).
	Fallback bool

	// RenameKeys renders a property key outside Anthropic's rule
	// ^[a-zA-Z0-9_.-]{1,64}$ (OpenAPI parameters such as filter[status],
	// OData $top, keys with spaces or over 64 characters) renamed in the
	// rendered copy: each refused character becomes "_", a key too long
	// is cut, and a key that would equal another gets "_2", "_3", … .
	// required and the tool's input examples follow. Package exec maps
	// the model's arguments back to the declared keys before the tool
	// runs (see [RestoreKeys]), so the handler, the HTTP request or the
	// MCP server gets the names it declared. Without it such a key is a
	// *SchemaError wrapping [ErrPropertyKey] naming the tool and the key.
	RenameKeys bool

	// CacheLast renders "cache_control":{"type":"ephemeral"} on the last
	// tool of the list, so the whole tools array is a cached prompt prefix
	// (Anthropic docs, "Prompt caching"). No effect on an empty list.
	CacheLast bool

	// Defer names the tools rendered with "defer_loading":true: the model
	// sees them only once a tool search loads them. A name that matches no
	// tool is an error naming it.
	Defer []string

	// InputExamples maps a tool name to example inputs rendered as
	// "input_examples", in place of the tool's own Tool.InputExamples
	// (an empty list renders "input_examples":[]). Each example must be a JSON object
	// (the SDK's map[string]any); a name that matches no tool, or an
	// example that is not a JSON object, is an error naming the tool and
	// the example's index. Examples given here are not checked against
	// the schema (those of a typed tool's InputExamples method are, at
	// registration; with Strict, the tool's own examples get null for
	// each property they leave out, as the strict schema requires every
	// property).
	InputExamples map[string][]json.RawMessage

	// AllowedCallers maps a tool name to its "allowed_callers": "direct"
	// (the model calls it, the default when absent) and code execution
	// tool versions such as "code_execution_20250825" or
	// "code_execution_20260120" (the model's code in Anthropic's hosted
	// code execution calls it: programmatic tool calling). Such a call
	// arrives as a tool_use block with a "caller" naming the code
	// execution tool; package exec runs it and answers it with a
	// tool_result block as any other (the user message then holds only
	// tool_result blocks, as Anthropic requires for these calls). A name
	// that matches no tool, an empty list, or a caller of neither form is
	// an error naming it. Anthropic docs, "Programmatic tool calling";
	// anthropic-sdk-go: ToolParam.AllowedCallers.
	AllowedCallers map[string][]string
}

// AnthropicWith renders tools for the Anthropic Messages API like
// [Anthropic], with the options applied. Field order in each entry is
// name, description, input_schema, strict, defer_loading, input_examples,
// allowed_callers, cache_control; a field whose option is off is omitted, so
// AnthropicWith(tools, AnthropicOptions{}) gives the bytes of
// Anthropic(tools). Errors are those of [Anthropic] (checked on the
// strict schema too), of the strict rewrite, or of a bad option naming
// the tool; the renderer is named "render.AnthropicWith".
func AnthropicWith(tools []toolnexus.Tool, opts AnthropicOptions) (AnthropicTools, error) {
	return anthropicWith(tools, opts, "render.AnthropicWith")
}

// anthropicWith is AnthropicWith with errors naming renderer.
func anthropicWith(tools []toolnexus.Tool, opts AnthropicOptions, renderer string) (AnthropicTools, error) {
	p := profileAnthropic
	if opts.Strict {
		p = profileAnthropicStrict
	}
	if err := p.checkList(renderer, tools); err != nil {
		return nil, err
	}
	out := make(AnthropicTools, len(tools))
	var strict int         // tools rendered strict so far
	var counts strictStats // their counts
	for i := range tools {
		t := &tools[i]
		if err := p.checkName(renderer, t.Name); err != nil {
			return nil, err
		}
		s, keys, err := renamed(schemaOf(t), anthropicCache.entry(schemaOf(t), anthropicSchema), p.PropertyKey, opts.RenameKeys)
		if err != nil {
			return nil, withTool(err, renderer, t.Name)
		}
		out[i] = AnthropicTool{Name: t.Name, Description: t.Description, InputSchema: s}
		if opts.Strict {
			rt := *t
			rt.InputSchema = s
			params, n, ok, err := strictParams(&rt, p.Strict, opts.Fallback, renderer)
			if err != nil {
				return nil, err
			}
			if ok {
				if err := p.Strict.perRequest(renderer, t.Name, strict+1, counts, n); err != nil {
					if !opts.Fallback {
						return nil, err
					}
					ok = false
				}
			}
			if ok {
				strict++
				counts.optional += n.optional
				counts.unions += n.unions
				out[i].InputSchema, out[i].Strict = params, true
			}
		}
		out[i].DeferLoading = slices.Contains(opts.Defer, t.Name)
		ex, ok := opts.InputExamples[t.Name]
		if !ok {
			ex = t.InputExamples
		}
		if ok || ex != nil {
			c, err := compactExamples(renderer, t.Name, ex)
			if err != nil {
				return nil, err
			}
			if keys != nil {
				for j := range c {
					c[j], _ = keys.restore(c[j], true)
				}
			}
			out[i].InputExamples = c
		}
	}
	for _, n := range opts.Defer {
		if !slices.ContainsFunc(tools, func(t toolnexus.Tool) bool { return t.Name == n }) {
			return nil, fmt.Errorf("%s: Defer: no tool named %q", renderer, n)
		}
	}
	for n := range opts.InputExamples {
		if !slices.ContainsFunc(tools, func(t toolnexus.Tool) bool { return t.Name == n }) {
			return nil, fmt.Errorf("%s: InputExamples: no tool named %q", renderer, n)
		}
	}
	for n, callers := range opts.AllowedCallers {
		i := slices.IndexFunc(tools, func(t toolnexus.Tool) bool { return t.Name == n })
		if i < 0 {
			return nil, fmt.Errorf("%s: AllowedCallers: no tool named %q", renderer, n)
		}
		if len(callers) == 0 {
			return nil, fmt.Errorf("%s: AllowedCallers: tool %q: the list is empty (leave the tool out for the default, direct calls only)", renderer, n)
		}
		for _, c := range callers {
			if c != "direct" && !anthropicCaller.MatchString(c) {
				return nil, fmt.Errorf("%s: AllowedCallers: tool %q: caller %q is neither \"direct\" nor a code execution tool version (code_execution_YYYYMMDD)", renderer, n, c)
			}
		}
		out[i].AllowedCallers = slices.Clone(callers)
	}
	if opts.CacheLast && len(out) > 0 {
		out[len(out)-1].CacheControl = true
	}
	return out, nil
}

// anthropicCache remembers anthropicSchema per schema.
var anthropicCache rewriteCache

// anthropicSchema checks the schema s against Anthropic's root rules and
// renames the property keys its rule refuses (the renaming keeps the
// root, and the strict rewrite keeps the root rules).
func anthropicSchema(s []byte) rewritten {
	if err := checkAnthropic(s); err != nil {
		return rewritten{err: err}
	}
	return renameSchema(s, anthropicKey)
}

// checkAnthropic returns a *SchemaError wrapping ErrUnsupportedSchema
// when the schema s breaks Anthropic's root rules (see [Anthropic]).
func checkAnthropic(s []byte) error {
	bad := func(path, msg string) error { return &SchemaError{Path: path, Msg: msg, Err: ErrUnsupportedSchema} }
	if err := checkSchemaBytes(s); err != nil {
		return err
	}
	tree, err := jsonx.Parse(s)
	root, ok := tree.(*jsonx.Object)
	if err != nil || !ok {
		return bad("", "the schema is not a JSON object")
	}
	return profileAnthropic.Root.check(root, "Anthropic")
}

// compactExamples returns compact copies of the examples of tool name, or
// an error naming the tool and the index of one that is not a JSON object.
func compactExamples(renderer, name string, ex []json.RawMessage) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(ex))
	for j, e := range ex {
		c, err := compactObject(e)
		if err != nil {
			return nil, fmt.Errorf("%s: tool %q: input_examples[%d]: %w", renderer, name, j, err)
		}
		out[j] = c
	}
	return out, nil
}

// compactObject returns a compact copy of e, or an error when e is not a
// valid UTF-8 JSON object.
func compactObject(e []byte) (json.RawMessage, error) {
	switch {
	case !utf8.Valid(e):
		return nil, errors.New("not valid UTF-8")
	case !json.Valid(e):
		return nil, errors.New("not valid JSON")
	case e[jsonlex.WS(e, 0)] != '{':
		return nil, errors.New("not a JSON object")
	}
	var b bytes.Buffer
	if err := json.Compact(&b, e); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// MarshalJSON implements json.Marshaler. The buffer is sized once from
// the prepared bytes (names, descriptions, schemas).
func (ts AnthropicTools) MarshalJSON() ([]byte, error) { return marshalList(ts), nil }

// AppendJSON appends the JSON array to dst and returns the extended buffer.
func (ts AnthropicTools) AppendJSON(dst []byte) []byte {
	return appendList(dst, ts)
}

// MarshalJSON implements json.Marshaler with the same bytes the entry has
// inside [AnthropicTools], so one entry can be handed to an SDK as raw JSON
// (for anthropic-sdk-go: param.Override[anthropic.ToolParam](t)).
func (t AnthropicTool) MarshalJSON() ([]byte, error) { return marshalEntry(t), nil }

// AppendJSON appends the entry's JSON object to dst.
func (t AnthropicTool) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"name":`...)
	dst = jsonx.AppendString(dst, t.Name)
	dst = append(dst, `,"description":`...)
	dst = jsonx.AppendString(dst, t.Description)
	dst = append(dst, `,"input_schema":`...)
	dst = appendSchema(dst, t.InputSchema)
	dst = t.appendOptions(dst)
	dst = append(dst, '}')
	return dst
}

// anthropicCaller is the form of a code execution tool version in
// allowed_callers.
var anthropicCaller = regexp.MustCompile(`^code_execution_[0-9]{8}$`)

// appendOptions appends the optional fields of t after input_schema.
func (t AnthropicTool) appendOptions(dst []byte) []byte {
	if t.Strict {
		dst = append(dst, `,"strict":true`...)
	}
	if t.DeferLoading {
		dst = append(dst, `,"defer_loading":true`...)
	}
	if t.InputExamples != nil {
		dst = append(dst, `,"input_examples":[`...)
		for j, e := range t.InputExamples {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, e...)
		}
		dst = append(dst, ']')
	}
	dst = appendCallers(dst, t.AllowedCallers)
	if t.CacheControl {
		dst = append(dst, `,"cache_control":{"type":"ephemeral"}`...)
	}
	return dst
}

func (t AnthropicTool) size() int {
	n := entryOverhead + strSize(t.Name) + strSize(t.Description) + schemaSize(t.InputSchema)
	for _, e := range t.InputExamples {
		n += len(e) + 1
	}
	return n
}

// ToolSearchName is the name of the Anthropic client-side tool search
// tool ([AnthropicToolSearch]), under which exec answers its calls when
// exec.Options.ToolSearch is set.
const ToolSearchName = "tool_search"

// AnthropicToolSearch returns the Anthropic tool of a client-side tool
// search, {"name":"tool_search","description":…,"input_schema":
// [ToolSearchSchema]}; "" gives a default description. Render it, not
// deferred, next to tools rendered with "defer_loading":true
// (AnthropicOptions.Defer): the model calls it with {"query":"…"} and exec
// answers with tool_reference blocks naming the deferred tools that
// match, which the API then loads. Source: Anthropic docs, "Tool search
// tool", custom tool search (tool_reference blocks in a tool_result);
// anthropic-sdk-go ToolReferenceBlockParam.
func AnthropicToolSearch(description string) AnthropicTool {
	if description == "" {
		description = defaultToolSearchDescription
	}
	return AnthropicTool{Name: ToolSearchName, Description: description, InputSchema: []byte(ToolSearchSchema)}
}
