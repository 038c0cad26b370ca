package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

// anthropicTools hands each tool's InputSchema to the SDK as raw bytes
// (param.Override), so the schema is sent byte for byte, key order kept.
func anthropicTools(reg *toolnexus.Registry) []anthropic.ToolUnionParam {
	var out []anthropic.ToolUnionParam
	for _, t := range reg.Tools() {
		schema := t.InputSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		out = append(out, anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{
			Name:        t.Name,
			Description: anthropic.String(t.Description),
			InputSchema: param.Override[anthropic.ToolInputSchemaParam](schema),
		}})
	}
	return out
}

// runAnthropic is a complete Messages API tool-use loop with the official
// anthropic-sdk-go client: all tool_use blocks of a reply are answered by
// ONE user message of tool_result blocks, in tool_use order.
func runAnthropic(ctx context.Context, baseURL string, ex *exec.Executor, reg *toolnexus.Registry, log io.Writer) (string, error) {
	client := anthropic.NewClient(
		option.WithBaseURL(baseURL),
		option.WithAPIKey("no-key-needed"), // the scripted server ignores it; nothing reads ANTHROPIC_API_KEY
		option.WithMaxRetries(0),
	)
	params := anthropic.MessageNewParams{
		Model:     anthropic.ModelClaudeSonnet4_5,
		MaxTokens: 1024,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(question))},
		Tools:     anthropicTools(reg),
	}
	for turn := 1; turn <= maxTurns; turn++ {
		msg, err := client.Messages.New(ctx, params)
		if err != nil {
			return "", fmt.Errorf("turn %d: %w", turn, err)
		}
		params.Messages = append(params.Messages, msg.ToParam())
		if msg.StopReason != anthropic.StopReasonToolUse {
			var text string
			for _, b := range msg.Content {
				if b.Type == "text" {
					text += b.Text
				}
			}
			return text, nil
		}
		answer, err := ex.AnthropicJSON(ctx, []byte(msg.RawJSON()))
		if err != nil {
			return "", fmt.Errorf("turn %d: %w", turn, err)
		}
		blocks := make([]anthropic.ContentBlockParamUnion, len(answer.Content))
		for i, r := range answer.Content {
			fmt.Fprintf(log, "  tool %s -> %s (is_error %v)\n", r.ToolUseID, r.Content, r.IsError)
			blocks[i] = anthropic.NewToolResultBlock(r.ToolUseID, r.Content, r.IsError)
		}
		params.Messages = append(params.Messages, anthropic.NewUserMessage(blocks...))
	}
	return "", fmt.Errorf("no answer after %d turns", maxTurns)
}

// checkAnthropic is what the real API enforces: the message after a
// tool_use turn is a user message whose first blocks are tool_result blocks
// answering every tool_use id.
func checkAnthropic(body, prevReply []byte) error {
	var prev struct {
		Content []struct {
			Type string `json:"type"`
			ID   string `json:"id"`
		} `json:"content"`
	}
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content []struct {
				Type      string `json:"type"`
				ToolUseID string `json:"tool_use_id"`
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(prevReply, &prev); err != nil {
		return err
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return fmt.Errorf("request body: %v", err)
	}
	last := req.Messages[len(req.Messages)-1]
	if last.Role != "user" {
		return fmt.Errorf("tool_use ids were found without tool_result blocks immediately after")
	}
	i := 0
	for _, b := range prev.Content {
		if b.Type != "tool_use" {
			continue
		}
		if i >= len(last.Content) || last.Content[i].Type != "tool_result" || last.Content[i].ToolUseID != b.ID {
			return fmt.Errorf("tool_use ids were found without tool_result blocks immediately after: %s", b.ID)
		}
		i++
	}
	return nil
}
