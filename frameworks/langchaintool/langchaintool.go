package langchaintool

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/tools"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

// Definitions returns the registry's tools as langchaingo function tools,
// in the order of reg.Tools(), for llms.WithTools: each is an llms.Tool of
// Type "function" whose llms.FunctionDefinition has the tool's Name and
// Description and, as Parameters, its input schema as a json.RawMessage
// (the registry's bytes; {"type":"object"} for a tool that declares none).
// The llms/openai client marshals Parameters with encoding/json, so the
// request carries the same schema, compacted and with <, > and & escaped
// as \u003c, \u003e and \u0026 (the registry's schemas are already
// compact). Strict is false. Clients that need Parameters as a
// map[string]any (llms/googleai, llms/googleai/vertex) refuse a
// json.RawMessage.
func Definitions(reg *toolnexus.Registry) []llms.Tool {
	list := reg.Tools()
	out := make([]llms.Tool, len(list))
	for i, t := range list {
		out[i] = llms.Tool{Type: "function", Function: &llms.FunctionDefinition{
			Name:        t.Name,
			Description: t.Description,
			Parameters:  json.RawMessage(inputSchema(t)),
		}}
	}
	return out
}

// Execute runs the tool calls of resp's first choice (llms.ContentChoice
// ToolCalls, the choice langchaingo's agents read) with an exec.Executor
// over reg and opts (nil means the defaults: 4 calls at a time), and
// returns one llms.MessageContent per call, in call order, to append
// after the assistant message that holds the calls: Role
// llms.ChatMessageTypeTool, one llms.ToolCallResponse part with the
// call's ToolCallID and Name and, as Content, the result as text
// (toolnexus.Result.Text; a failed call's is exec.ErrorPrefix followed by
// the registry's message, e.g. `error: invalid arguments for "get_weather":
// "city" is required`). Every call runs as a function call whatever its
// Type (langchaingo's clients set "function" or ""), its Arguments as
// the JSON arguments text (a freeform tool's {"input":text}); a call
// without a FunctionCall answers as an unknown tool. A call without an ID
// (llms/googleai sets none) is answered in its place. A nil resp, or one
// without choices or tool calls, gives none.
//
// Approvals: opts.Approver decides the calls of tools with
// Tool.NeedsApproval, with the call's ID in ApprovalRequest.CallID; without
// it the registry's Options.Approver does, and without either the call is
// a pending request whose text is its Content (find it with
// toolnexus.PendingFrom in an opts.After hook).
//
// The error is nil unless ctx ended before every call finished; the
// messages are complete even then.
func Execute(ctx context.Context, reg *toolnexus.Registry, resp *llms.ContentResponse, opts *exec.Options) ([]llms.MessageContent, error) {
	if resp == nil || len(resp.Choices) == 0 || resp.Choices[0] == nil || len(resp.Choices[0].ToolCalls) == 0 {
		return nil, nil
	}
	tcs := resp.Choices[0].ToolCalls
	calls := make([]exec.OpenAIToolCall, len(tcs))
	for i, tc := range tcs {
		calls[i] = exec.OpenAIToolCall{ID: tc.ID, Type: "function"}
		if tc.FunctionCall != nil {
			calls[i].Function = exec.OpenAIFunctionCall{Name: tc.FunctionCall.Name, Arguments: tc.FunctionCall.Arguments}
		}
	}
	answers, err := exec.New(reg, opts).OpenAIChat(ctx, calls)
	out := make([]llms.MessageContent, len(answers))
	for i, a := range answers {
		name := ""
		if tcs[i].FunctionCall != nil {
			name = tcs[i].FunctionCall.Name
		}
		out[i] = llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
			llms.ToolCallResponse{ToolCallID: a.ToolCallID, Name: name, Content: a.Content},
		}}
	}
	return out, err
}

// Tools returns the registry's tools as langchaingo tools.Tool values, in
// the order of reg.Tools(), for its agents (agents.NewOpenAIFunctionsAgent,
// agents.NewOneShotAgent, run by agents.NewExecutor). Those agents pass a
// tool one text input, so:
//
//   - Name is the tool's name.
//   - Description is the tool's description followed by what the input must
//     be: for a tool with JSON arguments, a line saying the input is one JSON
//     object matching the tool's input schema, with the schema's bytes; for a
//     freeform tool (toolnexus.NewFreeform), that the input is raw text, with
//     the grammar when its format has one.
//   - Call runs the input as the call's arguments (a freeform tool's as
//     {"input":text}) with an exec.Executor over reg and opts, and returns the
//     result as text: toolnexus.Result.Text, a failed call's prefixed with
//     exec.ErrorPrefix ("error: " and the registry's message). Its error is
//     always nil: agents.Executor ends the whole run on a tool's error, while
//     a failed call must cost only itself and reach the model as text.
//
// Approvals: opts.Approver, else the registry's Options.Approver, decides
// the calls of tools with Tool.NeedsApproval (ApprovalRequest.CallID is "":
// tools.Tool.Call is given no call id); without either the call is a
// pending request whose text the agent shows the model as the observation.
// langchaingo's agents have no interrupt to pause the run on it.
func Tools(reg *toolnexus.Registry, opts *exec.Options) []tools.Tool {
	ex := exec.New(reg, opts)
	list := reg.Tools()
	out := make([]tools.Tool, len(list))
	for i, t := range list {
		out[i] = &agentTool{ex: ex, name: t.Name, description: agentDescription(t), freeform: t.Freeform != nil}
	}
	return out
}

// agentTool is one registry tool as a tools.Tool.
type agentTool struct {
	ex          *exec.Executor
	name        string
	description string
	freeform    bool
}

func (a *agentTool) Name() string        { return a.name }
func (a *agentTool) Description() string { return a.description }

func (a *agentTool) Call(ctx context.Context, input string) (string, error) {
	args := json.RawMessage(input)
	if a.freeform {
		args, _ = json.Marshal(struct {
			Input string `json:"input"`
		}{input}) // a struct of one string always marshals
	}
	r := a.ex.Run(ctx, exec.Call{Name: a.name, Arguments: args})
	if r.IsError {
		return exec.ErrorPrefix + r.Text(), nil
	}
	return r.Text(), nil
}

// agentDescription is t's description followed by what the one text input
// of a langchaingo agent's call must be.
func agentDescription(t toolnexus.Tool) string {
	var b strings.Builder
	b.WriteString(t.Description)
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	if f := t.Freeform; f != nil {
		b.WriteString("Input: raw text.")
		if f.Type == "grammar" {
			b.WriteString(" It must match this " + f.Syntax + " grammar:\n" + f.Definition)
		}
		return b.String()
	}
	b.WriteString("Input: one JSON object matching this JSON Schema: ")
	b.Write(inputSchema(t))
	return b.String()
}

// inputSchema is t's input schema, {"type":"object"} when it declares none.
func inputSchema(t toolnexus.Tool) []byte {
	if t.InputSchema == nil {
		return []byte(`{"type":"object"}`)
	}
	return t.InputSchema
}

// toolInput is the arguments of a langchaingo tool loaded by FromTools.
type toolInput struct {
	Input string `json:"input" jsonschema:"description=The tool's input text."`
}

// FromTools returns langchaingo tools.Tool values as toolnexus tools
// (Source "langchaingo") to add to a Registry. Each keeps its Name and
// Description and takes one argument, the text its Call is given:
//
//	{"type":"object","properties":{"input":{"type":"string","description":"The tool's input text."}},"required":["input"],"additionalProperties":false}
//
// The registry checks every call against that schema before the tool runs
// (a missing or non-string "input", or another key, is an error result
// naming it); an error returned by Call is the tool's error result. The
// error names the first tool that cannot be a toolnexus tool (a description
// over toolnexus.MaxDescriptionLength); names are checked by Registry.Add.
func FromTools(list ...tools.Tool) ([]toolnexus.Tool, error) {
	out := make([]toolnexus.Tool, len(list))
	for i, lt := range list {
		t, err := toolnexus.NewTool(lt.Name(), lt.Description(), func(ctx context.Context, a toolInput) (string, error) {
			return lt.Call(ctx, a.Input)
		})
		if err != nil {
			return nil, err
		}
		t.Source = "langchaingo"
		out[i] = t
	}
	return out, nil
}
