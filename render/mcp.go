package render

import (
	"encoding/json"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// MCPTool is one tool of an MCP "tools/list" result:
//
//	{"name":…,"title":…,"description":…,"inputSchema":{…},"outputSchema":{…},"annotations":{…}}
//
// "title" is omitted when empty, "outputSchema" when the tool has none and
// "annotations" when nil. Source: MCP
// specification 2025-06-18 and 2025-11-25, "Tools" (Tool, ToolAnnotations;
// https://modelcontextprotocol.io/specification/2025-06-18/server/tools);
// go-sdk type mcp.Tool.
type MCPTool struct {
	Name        string          `json:"name"`            // the tool's name
	Title       string          `json:"title,omitempty"` // the tool's Title, for display; omitted when ""
	Description string          `json:"description"`     // the tool's description; "" is rendered as ""
	InputSchema json.RawMessage `json:"inputSchema"`     // JSON Schema (2020-12) object
	// OutputSchema is the tool's Tool.OutputSchema (JSON Schema of its
	// structuredContent), nil when it has none.
	OutputSchema json.RawMessage        `json:"outputSchema,omitempty"`
	Annotations  *toolnexus.Annotations `json:"annotations,omitempty"` // the tool's Annotations; omitted when nil
}

// MCPTools is the "tools" array of an MCP tools/list result. Its
// json.Marshal output is exactly the array; nil marshals as [].
type MCPTools []MCPTool

// MCP renders tools as MCP tools/list entries, in the order given. The
// schema is the tool's InputSchema, full JSON Schema, bytes shared not
// copied ({"type":"object"} when nil, the spec's no-parameter form); MCP
// needs no schema rewrite. Title and Annotations are copied from the
// Tool; the annotations object has the keys of [toolnexus.Annotations]
// (title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint),
// each omitted when zero as encoding/json's omitempty would.
//
// The tool's OutputSchema, when not nil, is "outputSchema", bytes shared;
// one that is not a valid UTF-8 JSON object is left out.
//
// Like [OpenAI], a schema that is not a valid UTF-8 JSON object (only
// possible in a hand-built slice) is replaced by {"type":"object"} so the
// output stays valid JSON; call [CheckSchemas] first to get an error (it
// also refuses a root oneOf, anyOf or allOf, for OpenAI's sake). MCP checks
// no names: the spec only recommends a pattern ("SHOULD").
func MCP(tools []toolnexus.Tool) MCPTools {
	out := make(MCPTools, len(tools))
	for i := range tools {
		t := &tools[i]
		out[i] = MCPTool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: passThrough(schemaOf(t)), Annotations: t.Annotations}
		if len(t.OutputSchema) > 0 && schemaCheck(t.OutputSchema) == nil {
			out[i].OutputSchema = t.OutputSchema
		}
	}
	return out
}

// MarshalJSON implements json.Marshaler. The buffer is sized once from
// the prepared bytes (names, descriptions, schemas).
func (ts MCPTools) MarshalJSON() ([]byte, error) { return marshalList(ts), nil }

// AppendJSON appends the JSON array to dst and returns the extended buffer.
func (ts MCPTools) AppendJSON(dst []byte) []byte {
	return appendList(dst, ts)
}

// MarshalJSON implements json.Marshaler with the same bytes the entry has
// inside [MCPTools], so one entry can be handed to an SDK as raw JSON
// (for go-sdk: json.Unmarshal into an mcp.Tool).
func (t MCPTool) MarshalJSON() ([]byte, error) { return marshalEntry(t), nil }

// AppendJSON appends the entry's JSON object to dst.
func (t MCPTool) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"name":`...)
	dst = jsonx.AppendString(dst, t.Name)
	if t.Title != "" {
		dst = append(dst, `,"title":`...)
		dst = jsonx.AppendString(dst, t.Title)
	}
	dst = append(dst, `,"description":`...)
	dst = jsonx.AppendString(dst, t.Description)
	dst = append(dst, `,"inputSchema":`...)
	dst = appendSchema(dst, t.InputSchema)
	if len(t.OutputSchema) > 0 {
		dst = append(append(dst, `,"outputSchema":`...), t.OutputSchema...)
	}
	if a := t.Annotations; a != nil {
		dst = appendAnnotations(append(dst, `,"annotations":`...), a)
	}
	dst = append(dst, '}')
	return dst
}

func (t MCPTool) size() int {
	n := entryOverhead + strSize(t.Name) + strSize(t.Title) + strSize(t.Description) + schemaSize(t.InputSchema) + len(t.OutputSchema)
	if a := t.Annotations; a != nil {
		n += 96 + strSize(a.Title)
	}
	return n
}

// appendAnnotations writes a as encoding/json would (field order, omitempty).
func appendAnnotations(dst []byte, a *toolnexus.Annotations) []byte {
	dst = append(dst, '{')
	n := 0
	sep := func() {
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
	}
	if a.Title != "" {
		sep()
		dst = jsonx.AppendString(append(dst, `"title":`...), a.Title)
	}
	if a.ReadOnlyHint {
		sep()
		dst = append(dst, `"readOnlyHint":true`...)
	}
	if a.DestructiveHint != nil {
		sep()
		dst = appendBool(append(dst, `"destructiveHint":`...), *a.DestructiveHint)
	}
	if a.IdempotentHint {
		sep()
		dst = append(dst, `"idempotentHint":true`...)
	}
	if a.OpenWorldHint != nil {
		sep()
		dst = appendBool(append(dst, `"openWorldHint":`...), *a.OpenWorldHint)
	}
	return append(dst, '}')
}

func appendBool(dst []byte, b bool) []byte {
	if b {
		return append(dst, "true"...)
	}
	return append(dst, "false"...)
}
