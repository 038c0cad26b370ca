package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	"github.com/toolnexus/toolnexus/render"
)

// openAITools renders the registry's tools with render.OpenAI and hands
// each function definition to the SDK as raw bytes (param.Override), so
// the schema is sent byte for byte, key order kept.
func openAITools(reg *toolnexus.Registry) ([]openai.ChatCompletionToolUnionParam, error) {
	var out []openai.ChatCompletionToolUnionParam
	for _, t := range render.OpenAI(reg.Tools()) {
		fn, err := json.Marshal(t.Function)
		if err != nil {
			return nil, err
		}
		out = append(out, openai.ChatCompletionFunctionTool(param.Override[openai.FunctionDefinitionParam](json.RawMessage(fn))))
	}
	return out, nil
}

// runOpenAI is a complete Chat Completions tool-use loop with the official
// openai-go client: ask, run every tool call of a reply with exec, send the
// tool messages back, until the model answers in text.
func runOpenAI(ctx context.Context, baseURL string, ex *exec.Executor, reg *toolnexus.Registry, log io.Writer) (string, error) {
	client := openai.NewClient(
		option.WithBaseURL(baseURL),
		option.WithAPIKey("no-key-needed"), // the scripted server ignores it; nothing reads OPENAI_API_KEY
		option.WithMaxRetries(0),
	)
	tools, err := openAITools(reg)
	if err != nil {
		return "", err
	}
	params := openai.ChatCompletionNewParams{
		Model:    openai.ChatModelGPT4_1Mini,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(question)},
		Tools:    tools,
	}
	for turn := 1; turn <= maxTurns; turn++ {
		comp, err := client.Chat.Completions.New(ctx, params)
		if err != nil {
			return "", fmt.Errorf("turn %d: %w", turn, err)
		}
		if len(comp.Choices) == 0 {
			return "", fmt.Errorf("turn %d: no choices", turn)
		}
		msg := comp.Choices[0].Message
		params.Messages = append(params.Messages, msg.ToParam())
		if len(msg.ToolCalls) == 0 {
			return msg.Content, nil
		}
		// The SDK keeps the raw JSON of the message: exec reads the
		// tool_calls from it and returns one tool message per call.
		results, err := ex.OpenAIChatJSON(ctx, []byte(msg.RawJSON()))
		if err != nil {
			return "", fmt.Errorf("turn %d: %w", turn, err)
		}
		for _, r := range results {
			fmt.Fprintf(log, "  tool %s -> %s\n", r.ToolCallID, r.Content)
			params.Messages = append(params.Messages, openai.ToolMessage(r.Content, r.ToolCallID))
		}
	}
	return "", fmt.Errorf("no answer after %d turns", maxTurns)
}

// checkOpenAI is what the real API enforces: every tool_call_id of the
// previous assistant message is answered by a tool message.
func checkOpenAI(body, prevReply []byte) error {
	var prev struct {
		Choices []struct {
			Message struct {
				ToolCalls []struct {
					ID string `json:"id"`
				} `json:"tool_calls"`
			} `json:"message"`
		} `json:"choices"`
	}
	var req struct {
		Messages []struct {
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(prevReply, &prev); err != nil {
		return err
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return fmt.Errorf("request body: %v", err)
	}
	answered := map[string]bool{}
	for _, m := range req.Messages {
		if m.Role == "tool" {
			answered[m.ToolCallID] = true
		}
	}
	for _, tc := range prev.Choices[0].Message.ToolCalls {
		if !answered[tc.ID] {
			return fmt.Errorf("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. (missing %s)", tc.ID)
		}
	}
	return nil
}
