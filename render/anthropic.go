package render

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus"
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
// that is not valid UTF-8 is refused the same way, and a tool name outside
// ^[a-zA-Z0-9_-]{1,64}$ (the "Define tools" rule) is an error wrapping
// [ErrUnsupportedName].
//
// A tool's InputExamples (from the InputExamples method of a typed tool's
// arguments type) are rendered as "input_examples" after input_schema;
// one that is not a JSON object is an error naming the tool and the
// example's index.
func Anthropic(tools []toolnexus.Tool) (AnthropicTools, error) {
	out := make(AnthropicTools, len(tools))
	for i := range tools {
		t := &tools[i]
		if err := checkName("render.Anthropic", t.Name); err != nil {
			return nil, err
		}
		s := schemaOf(t)
		if _, err := anthropicCache.get(s, checkAnthropic); err != nil {
			return nil, withTool(err, "render.Anthropic", t.Name)
		}
		out[i] = AnthropicTool{Name: t.Name, Description: t.Description, InputSchema: s}
		if t.InputExamples != nil {
			ex, err := compactExamples("render.Anthropic", t.Name, t.InputExamples)
			if err != nil {
				return nil, err
			}
			out[i].InputExamples = ex
		}
	}
	return out, nil
}

// anthropicCache remembers the outcome of checkAnthropic per schema.
var anthropicCache rewriteCache

func checkAnthropic(s []byte) (json.RawMessage, error) {
	if path, msg := checkAnthropicRoot(s); msg != "" {
		return nil, &SchemaError{Path: path, Msg: msg, Err: ErrUnsupportedSchema}
	}
	return nil, nil
}

// checkAnthropicRoot returns a path and message when s breaks Anthropic's
// root rules, or "" and "".
func checkAnthropicRoot(s []byte) (path, msg string) {
	if !utf8.Valid(s) {
		return "", "the schema is not valid UTF-8"
	}
	if !json.Valid(s) {
		return "", "the schema is not valid JSON"
	}
	typeOK := false
	bad := ""
	ok := scanTopLevel(s, func(key, val []byte) {
		switch string(key) {
		case "type":
			typeOK = string(val) == `"object"`
		case "oneOf", "anyOf", "allOf":
			if bad == "" {
				bad = string(key)
			}
		}
	})
	switch {
	case !ok:
		return "", "the schema is not a JSON object"
	case bad != "":
		return "/" + bad, fmt.Sprintf("Anthropic does not support %s at the top level of input_schema", bad)
	case !typeOK:
		return "/type", `input_schema must have "type":"object" at the root`
	}
	return "", ""
}

// scanTopLevel calls fn with the raw key (without quotes, escapes left as
// they are) and the raw value of each member of the JSON object s. s must
// be valid JSON; it reports false when s is not an object.
func scanTopLevel(s []byte, fn func(key, val []byte)) bool {
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return false
	}
	i++
	for {
		i = skipSpace(s, i)
		if i >= len(s) || s[i] == '}' {
			return true
		}
		if s[i] == ',' {
			i = skipSpace(s, i+1)
		}
		end := skipString(s, i)
		key := s[i+1 : end-1]
		i = skipSpace(s, end)
		i = skipSpace(s, i+1) // ':'
		vend := skipValue(s, i)
		fn(key, s[i:vend])
		i = vend
	}
}

func skipSpace(s []byte, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just after the string starting at s[i]=='"'.
func skipString(s []byte, i int) int {
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(s)
}

// skipValue returns the index just after the JSON value starting at s[i].
func skipValue(s []byte, i int) int {
	depth := 0
	for i < len(s) {
		switch s[i] {
		case '"':
			i = skipString(s, i)
			if depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
			if depth < 0 {
				return i
			}
		case ',':
			if depth == 0 {
				return i
			}
		}
		i++
	}
	return i
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
