package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

// responsesTools builds the Responses "tools" entries
// ({"type":"function","name",…,"parameters",…,"strict":false}) from the
// registry and hands each to the SDK as raw bytes, key order kept.
func responsesTools(reg *toolnexus.Registry) ([]responses.ToolUnionParam, error) {
	var out []responses.ToolUnionParam
	for _, t := range reg.Tools() {
		schema := t.InputSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		fn, err := json.Marshal(struct {
			Type        string          `json:"type"`
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
			Strict      bool            `json:"strict"` // always explicit on Responses (its default differs from Chat)
		}{"function", t.Name, t.Description, schema, false})
		if err != nil {
			return nil, err
		}
		f := param.Override[responses.FunctionToolParam](json.RawMessage(fn))
		out = append(out, responses.ToolUnionParam{OfFunction: &f})
	}
	return out, nil
}

// runResponses is a complete Responses API tool-use loop with openai-go:
// output items are echoed as input items, then one function_call_output
// per function_call, same call_id.
func runResponses(ctx context.Context, baseURL string, ex *exec.Executor, reg *toolnexus.Registry, log io.Writer) (string, error) {
	client := openai.NewClient(
		option.WithBaseURL(baseURL),
		option.WithAPIKey("no-key-needed"),
		option.WithMaxRetries(0),
	)
	tools, err := responsesTools(reg)
	if err != nil {
		return "", err
	}
	input := responses.ResponseInputParam{responses.ResponseInputItemParamOfMessage(question, responses.EasyInputMessageRoleUser)}
	for turn := 1; turn <= maxTurns; turn++ {
		resp, err := client.Responses.New(ctx, responses.ResponseNewParams{
			Model: openai.ChatModelGPT4_1Mini,
			Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input},
			Tools: tools,
		})
		if err != nil {
			return "", fmt.Errorf("turn %d: %w", turn, err)
		}
		calls := 0
		for _, item := range resp.Output {
			var echo responses.ResponseInputItemUnionParam
			if item.Type == "function_call" {
				calls++
				p := item.AsFunctionCall().ToParam()
				echo.OfFunctionCall = &p
			} else if err := json.Unmarshal([]byte(item.RawJSON()), &echo); err != nil {
				return "", fmt.Errorf("turn %d: echo %s item: %w", turn, item.Type, err)
			}
			input = append(input, echo)
		}
		if calls == 0 {
			return resp.OutputText(), nil
		}
		outs, err := ex.ResponsesJSON(ctx, []byte(resp.RawJSON()))
		if err != nil {
			return "", fmt.Errorf("turn %d: %w", turn, err)
		}
		for _, o := range outs {
			fmt.Fprintf(log, "  tool %s -> %s\n", o.CallID, o.Output)
			item := responses.ResponseInputItemParamOfFunctionCallOutput(o.Output)
			item.OfFunctionCallOutput.CallID = param.NewOpt(o.CallID) // the helper leaves call_id unset
			input = append(input, item)
		}
	}
	return "", fmt.Errorf("no answer after %d turns", maxTurns)
}

// checkResponses is what the real API enforces: "No tool output found for
// function call call_…".
func checkResponses(body, prevReply []byte) error {
	var prev struct {
		Output []struct {
			Type   string `json:"type"`
			CallID string `json:"call_id"`
		} `json:"output"`
	}
	var req struct {
		Input []struct {
			Type   string `json:"type"`
			CallID string `json:"call_id"`
		} `json:"input"`
	}
	if err := json.Unmarshal(prevReply, &prev); err != nil {
		return err
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return fmt.Errorf("request body: %v", err)
	}
	answered := map[string]bool{}
	for _, it := range req.Input {
		if it.Type == "function_call_output" {
			answered[it.CallID] = true
		}
	}
	for _, it := range prev.Output {
		if it.Type == "function_call" && !answered[it.CallID] {
			return fmt.Errorf("No tool output found for function call %s.", it.CallID)
		}
	}
	return nil
}
