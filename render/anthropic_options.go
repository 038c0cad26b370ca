package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus"
)

// AnthropicOptions are the optional tool fields of the Anthropic Messages
// API (ToolParam in anthropic-sdk-go v2: strict, cache_control,
// defer_loading, input_examples), applied by [AnthropicWith].
type AnthropicOptions struct {
	// Strict renders "strict":true on every tool and rewrites each schema
	// into the strict subset exactly as [OpenAIStrict] documents (every
	// object closed with "additionalProperties":false, all properties
	// required, optional ones nullable). A schema that cannot be made
	// strict is a *SchemaError wrapping ErrNotStrict or ErrSchemaLimit
	// naming the tool and the JSON path, unless Fallback is set.
	Strict bool

	// Fallback, with Strict, renders a tool whose schema cannot be made
	// strict without "strict" and with its schema unchanged, instead of
	// failing the whole list.
	Fallback bool

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
}

// AnthropicWith renders tools for the Anthropic Messages API like
// [Anthropic], with the options applied. Field order in each entry is
// name, description, input_schema, strict, defer_loading, input_examples,
// cache_control; a field whose option is off is omitted, so
// AnthropicWith(tools, AnthropicOptions{}) gives the bytes of
// Anthropic(tools). Errors are those of [Anthropic] (checked on the
// strict schema too), of the strict rewrite, or of a bad option naming
// the tool; the renderer is named "render.AnthropicWith".
func AnthropicWith(tools []toolnexus.Tool, opts AnthropicOptions) (AnthropicTools, error) {
	const renderer = "render.AnthropicWith"
	out := make(AnthropicTools, len(tools))
	for i := range tools {
		t := &tools[i]
		if err := checkName(renderer, t.Name); err != nil {
			return nil, err
		}
		s := schemaOf(t)
		if _, err := anthropicCache.get(s, checkAnthropic); err != nil {
			return nil, withTool(err, renderer, t.Name)
		}
		out[i] = AnthropicTool{Name: t.Name, Description: t.Description, InputSchema: s}
		if opts.Strict {
			params, strict, err := strictParams(t, OpenAIOptions{Strict: true, Fallback: opts.Fallback}, renderer)
			if err != nil {
				return nil, err
			}
			if _, err := anthropicCache.get(params, checkAnthropic); err != nil {
				return nil, withTool(err, renderer, t.Name)
			}
			out[i].InputSchema, out[i].Strict = params, strict
		}
		out[i].DeferLoading = slices.Contains(opts.Defer, t.Name)
		ex, ok := opts.InputExamples[t.Name]
		if !ok {
			ex = t.InputExamples
		}
		if ok || len(ex) > 0 {
			c, err := compactExamples(renderer, t.Name, ex)
			if err != nil {
				return nil, err
			}
			if !ok && out[i].Strict {
				for j := range c {
					if c[j], err = strictExample(c[j], out[i].InputSchema); err != nil {
						return nil, fmt.Errorf("%s: tool %q: input_examples[%d]: %w", renderer, t.Name, j, err)
					}
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
	if opts.CacheLast && len(out) > 0 {
		out[len(out)-1].CacheControl = true
	}
	return out, nil
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
	case e[skipSpace(e, 0)] != '{':
		return nil, errors.New("not a JSON object")
	}
	var b bytes.Buffer
	if err := json.Compact(&b, e); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

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
	if t.CacheControl {
		dst = append(dst, `,"cache_control":{"type":"ephemeral"}`...)
	}
	return dst
}

// strictExample returns example (a JSON object) with null added for every
// property the strict schema lists that the example leaves out, at every
// level the schema describes (properties, items, anyOf branches, $defs
// references): the strict rewrite makes optional properties required and
// nullable, and the API refuses an example its schema refuses. Keys come
// out sorted (encoding/json map order); numbers keep their text.
func strictExample(example, schema json.RawMessage) (json.RawMessage, error) {
	var ex, sc any
	d := json.NewDecoder(bytes.NewReader(example))
	d.UseNumber()
	if err := d.Decode(&ex); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(schema, &sc); err != nil {
		return nil, err
	}
	root, _ := sc.(map[string]any)
	fillNulls(ex, root, root, 0)
	return json.Marshal(ex)
}

// fillNulls adds the missing properties of schema s to v as nulls.
func fillNulls(v any, s, root map[string]any, depth int) {
	if s == nil || depth > 64 {
		return
	}
	if ref, ok := s["$ref"].(string); ok {
		if name, ok := strings.CutPrefix(ref, "#/$defs/"); ok {
			defs, _ := root["$defs"].(map[string]any)
			def, _ := defs[name].(map[string]any)
			fillNulls(v, def, root, depth+1)
		}
		return
	}
	if branches, ok := s["anyOf"].([]any); ok {
		for _, b := range branches {
			if bs, ok := b.(map[string]any); ok && (bs["properties"] != nil || bs["items"] != nil || bs["$ref"] != nil) {
				fillNulls(v, bs, root, depth+1)
			}
		}
	}
	switch v := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		for k, p := range props {
			if _, ok := v[k]; !ok {
				v[k] = nil
				continue
			}
			ps, _ := p.(map[string]any)
			fillNulls(v[k], ps, root, depth+1)
		}
	case []any:
		items, _ := s["items"].(map[string]any)
		for _, e := range v {
			fillNulls(e, items, root, depth+1)
		}
	}
}
