package exec

import (
	"context"
	"encoding/json"
	"slices"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus"
)

// AnthropicContentBlock is one block of an Anthropic Messages assistant
// message's content, with the fields of a tool_use block:
//
//	{"type":"tool_use","id":"toolu_01","name":"get_weather","input":{"city":"Paris"}}
//
// Blocks of other types (text, thinking, ...) are skipped. Fields not
// listed here are dropped by json.Unmarshal; echo the assistant message
// from the raw reply to keep them. Source: Anthropic API reference,
// Messages, response content[] "Tool use" block
// (https://docs.anthropic.com/en/api/messages).
type AnthropicContentBlock struct {
	Type  string          `json:"type"`            // "tool_use" runs; other types are skipped
	Text  string          `json:"text,omitempty"`  // a text block's text; not acted on
	ID    string          `json:"id,omitempty"`    // the tool_use id, echoed as tool_use_id
	Name  string          `json:"name,omitempty"`  // the tool to run
	Input json.RawMessage `json:"input,omitempty"` // the arguments object

	problem string // set by UnmarshalJSON for a wrongly typed field
	cut     string // set when the reply was cut at the output limit before this call was complete
}

// AnthropicMessage is the user message that answers every tool_use block
// of one assistant turn: one message, tool_result blocks in tool_use order.
//
//	{"role":"user","content":[
//	  {"type":"tool_result","tool_use_id":"toolu_01","content":"22C"},
//	  {"type":"tool_result","tool_use_id":"toolu_02","content":"invalid arguments …","is_error":true}]}
//
// Role is always "user". Source: Anthropic docs, "Handle tool calls"
// (tool_result blocks come first in the user message that immediately
// follows, all results of a turn in one message;
// https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use).
type AnthropicMessage struct {
	Role    string                `json:"role"`    // always "user"
	Content []AnthropicToolResult `json:"content"` // one block per tool_use, in order
}

// AnthropicToolResult is one tool_result content block. Content is the
// result as text (valid UTF-8; see [toolnexus.Result.Text]); IsError is
// set, and emitted, only for failures. When the result has content parts
// other than text, Blocks holds them as text, image and document blocks
// and "content" is that array instead of the string (see "Rich results"
// in the package doc).
type AnthropicToolResult struct {
	Type      string                 `json:"type"`               // always "tool_result"
	ToolUseID string                 `json:"tool_use_id"`        // the answered tool_use block's id
	Content   string                 `json:"content"`            // the result as text; see above
	IsError   bool                   `json:"is_error,omitempty"` // set for failures only
	Blocks    []AnthropicResultBlock `json:"-"`                  // non-text content; see above
}

// Anthropic runs the tool_use blocks of an Anthropic assistant message's
// content and returns the one user message answering them all, in tool_use
// order. Other blocks are skipped; with no tool_use block the message has
// empty Content (and should not be sent). Errors as for
// [Executor.OpenAIChat].
func (e *Executor) Anthropic(ctx context.Context, content []AnthropicContentBlock) (AnthropicMessage, error) {
	results, err := anthropic.run(ctx, e, content)
	return AnthropicMessage{Role: "user", Content: results}, err
}

// anthropic is the Anthropic Messages provider.
var anthropic = &provider[AnthropicContentBlock, AnthropicToolResult]{shape: anthropicShape, decode: decodeAnthropic,
	has: hasToolUse, isCall: isToolUse, mark: markDeepAnthropic, call: (*Executor).anthropicCall,
	answer: func(_ *Executor, b *AnthropicContentBlock, r *Result) AnthropicToolResult {
		return AnthropicResultOf(b.ID, r)
	}}

// isToolUse reports whether b is a tool_use block.
func isToolUse(b *AnthropicContentBlock) bool { return b.Type == "tool_use" }

// AnthropicJSON is [Executor.Anthropic] on raw JSON bytes: the content
// array or a whole message object ({"role":"assistant","content":[…]}).
func (e *Executor) AnthropicJSON(ctx context.Context, raw []byte) (AnthropicMessage, error) {
	content, err := ParseAnthropic(raw)
	if err != nil {
		return AnthropicMessage{}, err
	}
	return e.Anthropic(ctx, content)
}

// ParseAnthropic extracts the content blocks from raw JSON bytes in any of
// the forms [Executor.AnthropicJSON] accepts.
func ParseAnthropic(raw []byte) ([]AnthropicContentBlock, error) { return anthropic.parse(raw) }

// decodeAnthropic reads the forms ParseAnthropic accepts with
// encoding/json.
func decodeAnthropic(raw []byte) ([]AnthropicContentBlock, error) {
	return decodeReply(raw, "Anthropic content", "Anthropic message", func(raw []byte) ([]AnthropicContentBlock, error) {
		var m struct {
			Content    []AnthropicContentBlock `json:"content"`
			StopReason json.RawMessage         `json:"stop_reason"`
		}
		err := json.Unmarshal(raw, &m)
		if cut := anthropicCut(m.StopReason); err == nil && cut != "" {
			// The input is the object Anthropic parsed: a cut one may
			// look whole, so the last tool_use is taken as cut.
			if i := lastCall(m.Content, isToolUse); i >= 0 {
				m.Content[i].cut = cut
			}
		}
		return m.Content, err
	})
}

// UnmarshalJSON decodes one Anthropic content block as encoding/json
// would, except that a field of the wrong JSON type does not fail the
// whole reply: a tool_use block with one is answered with an error result
// naming the field (see [ErrMalformedCall]); other blocks are skipped as
// always. A non-string field keeps its JSON text (a numeric id 5 is echoed
// as "5"); a block that is not an object is not a tool_use block.
func (bl *AnthropicContentBlock) UnmarshalJSON(b []byte) error {
	type plain AnthropicContentBlock
	bl.problem = ""
	if json.Unmarshal(b, (*plain)(bl)) == nil {
		return nil
	}
	var f struct {
		Type  json.RawMessage `json:"type"`
		Text  json.RawMessage `json:"text"`
		ID    json.RawMessage `json:"id"`
		Name  json.RawMessage `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	if firstByte(b) != '{' || json.Unmarshal(b, &f) != nil {
		*bl = AnthropicContentBlock{problem: notObject(b, "the content block")}
		return nil
	}
	var p problems
	*bl = AnthropicContentBlock{Type: p.str(f.Type, "type"), Text: p.str(f.Text, "text"), ID: p.str(f.ID, "id"),
		Name: p.str(f.Name, "name"), Input: f.Input}
	bl.problem = p.String()
	return nil
}

func markDeepAnthropic(b *AnthropicContentBlock) {
	b.problem = joinProblems(b.problem, deepStr("type", &b.Type), deepStr("text", &b.Text), deepStr("id", &b.ID),
		deepStr("name", &b.Name), deepField("input", b.Input))
}

// hasToolUse reports whether a block is a tool_use block.
func hasToolUse(blocks []AnthropicContentBlock) bool {
	for i := range blocks {
		if blocks[i].Type == "tool_use" {
			return true
		}
	}
	return false
}

// anthropicCall is the Call for a tool_use block: a tool search when
// Options.ToolSearch is set and the block calls render.ToolSearchName.
func (e *Executor) anthropicCall(b *AnthropicContentBlock) Call {
	c := Call{ID: b.ID, Name: b.Name, Arguments: b.Input, malformed: b.problem, cut: b.cut, keys: "anthropic"}
	c.search = e.opts.ToolSearch != nil && b.Name == toolSearchName
	return c
}

// AnthropicResultOf is the tool_result block answering the tool_use with
// id, from r, the Result of [Executor.Run] for that call: the block
// [Executor.Anthropic] sends, with Blocks set for rich results. It is for
// callers that run one call at a time themselves, such as a tool runner's
// tool (package interop/anthropicrunner).
func AnthropicResultOf(id string, r *Result) AnthropicToolResult {
	out := AnthropicToolResult{Type: "tool_result", ToolUseID: id, Content: r.Text(), IsError: r.IsError, Blocks: anthropicBlocks(r)}
	if len(r.found) > 0 {
		out.Blocks = make([]AnthropicResultBlock, len(r.found))
		for i := range r.found {
			out.Blocks[i] = AnthropicResultBlock{Type: "tool_reference", ToolName: r.found[i].Name}
		}
	}
	return out
}

// AnthropicResultBlock is one content block of a tool_result whose content
// is an array: a text, image or document block.
//
//	{"type":"text","text":"chart:"}
//	{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBO…"}}
//	{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBE…"},"title":"a.pdf"}
//
// Source: Anthropic API reference, Messages, tool_result content
// (TextBlockParam, ImageBlockParam, DocumentBlockParam;
// https://docs.anthropic.com/en/api/messages).
type AnthropicResultBlock struct {
	Type   string           `json:"type"`             // "text", "image", "document", or "tool_reference" (a tool search's answer)
	Text   string           `json:"text,omitempty"`   // a text block's text
	Source *AnthropicSource `json:"source,omitempty"` // an image or document block's data
	Title  string           `json:"title,omitempty"`  // a document's title (its file name), or ""
	// ToolName is the tool of a "tool_reference" block (the answer of a
	// tool search, see [ToolSearch]).
	ToolName string `json:"tool_name,omitempty"`
}

// AnthropicSource is the source of an image or document block: Type
// "base64" (MediaType, Data in standard base64), "url" (URL) or, for a
// plain-text document, "text" (MediaType "text/plain", Data the text).
type AnthropicSource struct {
	Type      string `json:"type"`                 // "base64", "url" or "text"
	MediaType string `json:"media_type,omitempty"` // the MIME type, for base64 and text
	Data      string `json:"data,omitempty"`       // standard base64 bytes, or the text
	URL       string `json:"url,omitempty"`        // for Type "url"
}

// anthropicBlocks shapes r's parts for a tool_result, or returns nil when
// r is text only (the content stays a string).
func anthropicBlocks(r *Result) []AnthropicResultBlock {
	if r.IsError || !hasRich(r.Content) {
		return nil
	}
	blocks := make([]AnthropicResultBlock, 0, len(r.Content))
	for _, p := range r.Content {
		b := AnthropicResultBlock{Type: "text", Text: p.Summary()}
		switch {
		case p.Kind == toolnexus.PartImage && len(p.Data) > 0 && anthropicImageTypes[p.MIMEType]:
			b = AnthropicResultBlock{Type: "image", Source: &AnthropicSource{Type: "base64", MediaType: p.MIMEType, Data: b64(p.Data)}}
		case p.Kind == toolnexus.PartImage && len(p.Data) == 0 && isHTTP(p.URL):
			b = AnthropicResultBlock{Type: "image", Source: &AnthropicSource{Type: "url", URL: p.URL}}
		case p.Kind == toolnexus.PartFile && p.MIMEType == "application/pdf" && len(p.Data) > 0:
			b = AnthropicResultBlock{Type: "document", Title: p.Name, Source: &AnthropicSource{Type: "base64", MediaType: p.MIMEType, Data: b64(p.Data)}}
		case p.Kind == toolnexus.PartFile && p.MIMEType == "application/pdf" && len(p.Data) == 0 && isHTTP(p.URL):
			b = AnthropicResultBlock{Type: "document", Title: p.Name, Source: &AnthropicSource{Type: "url", URL: p.URL}}
		case p.Kind == toolnexus.PartFile && p.MIMEType == "text/plain" && len(p.Data) > 0 && utf8.Valid(p.Data):
			b = AnthropicResultBlock{Type: "document", Title: p.Name, Source: &AnthropicSource{Type: "text", MediaType: p.MIMEType, Data: string(p.Data)}}
		}
		if b.Type == "text" && b.Text == "" {
			continue // Anthropic refuses empty text blocks
		}
		blocks = append(blocks, b)
	}
	return blocks
}

// MarshalJSON writes the block's JSON: "content" is the Content string, or
// the Blocks array when Blocks is not nil.
func (r AnthropicToolResult) MarshalJSON() ([]byte, error) {
	if r.Blocks == nil {
		type plain AnthropicToolResult // no MarshalJSON; Blocks is json:"-"
		return json.Marshal(plain(r))
	}
	return json.Marshal(struct {
		Type      string                 `json:"type"`
		ToolUseID string                 `json:"tool_use_id"`
		Content   []AnthropicResultBlock `json:"content"`
		IsError   bool                   `json:"is_error,omitempty"`
	}{r.Type, r.ToolUseID, r.Blocks, r.IsError})
}

// anthropicInfo names Messages replies and streams and lists their signs
// (see shapeInfo).
var anthropicInfo = shapeInfo{what: "Anthropic", reply: "an Anthropic Messages reply",
	methods: "AnthropicJSON or ParseAnthropic", stream: "an Anthropic Messages stream",
	streamMethods: "AnthropicStream or NewAnthropicFeed",
	types:         []string{"message"}, itemTypes: map[string]string{"tool_use": ""},
	eventType: func(t string) bool {
		return slices.Contains([]string{"message_start", "message_delta", "message_stop",
			"content_block_start", "content_block_delta", "content_block_stop"}, t)
	}}
