package exec

import (
	"context"
	"encoding/json"
	"fmt"
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
	idx := make([]int, 0, len(content))
	for i := range content {
		if content[i].Type == "tool_use" {
			idx = append(idx, i)
		}
	}
	msg := AnthropicMessage{Role: "user", Content: make([]AnthropicToolResult, len(idx))}
	if len(idx) == 0 {
		return msg, nil
	}
	results := make([]Result, len(idx))
	e.runInto(ctx, len(idx), func(i int) Call { return e.anthropicCall(&content[idx[i]]) }, results)
	for i := range results {
		msg.Content[i] = anthropicResult(content[idx[i]].ID, &results[i])
	}
	return msg, e.batchErr(ctx, results)
}

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
func ParseAnthropic(raw []byte) ([]AnthropicContentBlock, error) {
	blocks, err := parseReply(raw, fastAnthropic, slowAnthropic, markDeepAnthropic)
	if err == nil && hasToolUse(blocks) {
		return blocks, nil
	}
	if err = otherProvider(raw, anthropicShape, "Anthropic", err); err != nil {
		return nil, err
	}
	return blocks, nil
}

// slowAnthropic is ParseAnthropic with encoding/json, for whatever the fast path
// gives up on; it also produces the error messages.
func slowAnthropic(raw []byte) ([]AnthropicContentBlock, error) {
	switch firstByte(raw) {
	case '[':
		var blocks []AnthropicContentBlock
		if err := json.Unmarshal(raw, &blocks); err != nil {
			return nil, fmt.Errorf("exec: Anthropic content: %w", err)
		}
		return blocks, nil
	case '{':
		var m struct {
			Content []AnthropicContentBlock `json:"content"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("exec: Anthropic message: %w", err)
		}
		return m.Content, nil
	}
	return nil, notReply("Anthropic", raw)
}
