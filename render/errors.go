package render

import (
	"errors"
	"fmt"
)

// Sentinel causes of a [*SchemaError]. Test for them with errors.Is.
var (
	// ErrNotStrict reports a schema that OpenAI strict mode cannot express:
	// a free-form map (additionalProperties is a schema or true), a value
	// of any type ({}), allOf/not/if/then/else, patternProperties, a type
	// array with two non-null types, and the like.
	ErrNotStrict = errors.New("schema cannot be made strict")

	// ErrSchemaLimit reports a schema over one of OpenAI strict mode's
	// documented size limits (nesting depth, property count, enum values,
	// total string length).
	ErrSchemaLimit = errors.New("schema exceeds a provider limit")

	// ErrUnsupportedSchema reports a schema a provider rejects and that the
	// renderer cannot rewrite: not valid JSON or not valid UTF-8, a key
	// repeated in one object (rewriting renderers), a root that is not
	// {"type":"object",…}, a top-level oneOf/anyOf/allOf for Anthropic, a
	// $ref that does not resolve or a cycle of $refs that never reaches a
	// schema.
	ErrUnsupportedSchema = errors.New("unsupported schema")

	// ErrUnsupportedName reports a tool name a provider rejects: for
	// OpenAI (with an error result) and Anthropic one outside
	// ^[a-zA-Z0-9_-]{1,64}$, for Gemini one outside
	// ^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$ (so also a name starting with a
	// digit or "-", which toolnexus accepts). The empty name is always one.
	ErrUnsupportedName = errors.New("tool name not accepted by the provider")
)

// SchemaError is the error a renderer returns for one tool's schema. It
// names the renderer, the tool and the JSON Pointer (RFC 6901) of the
// offending node inside the tool's InputSchema ("" is the root), e.g.
//
//	render.OpenAIStrict: tool "tag": /properties/labels: a free-form map (additionalProperties is a schema) cannot be made strict
//
// Err is one of ErrNotStrict, ErrSchemaLimit, ErrUnsupportedSchema or
// ErrHiddenRule.
type SchemaError struct {
	Renderer string // "render.OpenAIStrict", "render.Gemini", ...
	Tool     string // tool name
	Path     string // JSON Pointer into the tool's InputSchema; "" is the root
	Msg      string // what is wrong, for a person
	Err      error  // the sentinel cause
}

// Error implements error.
func (e *SchemaError) Error() string {
	path := e.Path
	if path == "" {
		path = "schema root"
	}
	return fmt.Sprintf("%s: tool %q: %s: %s", e.Renderer, e.Tool, path, e.Msg)
}

// Unwrap returns the sentinel cause, so errors.Is(err, ErrNotStrict) works.
func (e *SchemaError) Unwrap() error { return e.Err }

// withTool returns a copy of a cached rewrite error naming renderer and tool.
func withTool(err error, renderer, tool string) error {
	var se *SchemaError
	if errors.As(err, &se) {
		c := *se
		c.Renderer, c.Tool = renderer, tool
		return &c
	}
	return fmt.Errorf("%s: tool %q: %w", renderer, tool, err)
}

// pointerToken escapes one JSON Pointer reference token (RFC 6901).
func pointerToken(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '~' || s[i] == '/' {
			out := make([]byte, 0, len(s)+2)
			for j := 0; j < len(s); j++ {
				switch s[j] {
				case '~':
					out = append(out, '~', '0')
				case '/':
					out = append(out, '~', '1')
				default:
					out = append(out, s[j])
				}
			}
			return string(out)
		}
	}
	return s
}
