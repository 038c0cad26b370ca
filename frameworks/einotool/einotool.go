package einotool

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/toolnexus/toolnexus"
)

// The interrupt info of a pending call is checkpointed with gob
// (adk.Runner, compose graphs with a CheckPointStore).
func init() {
	schema.RegisterName[toolnexus.PendingRequest]("toolnexus.PendingRequest")
}

// Options configure [Tools]. A nil *Options means the zero value.
type Options struct {
	// Names are the registry tools to offer, in this order; nil means
	// every tool of the registry, in [toolnexus.Registry.Tools] order. A
	// name the registry does not hold makes Tools fail.
	Names []string

	// Approver decides the calls of tools with Tool.NeedsApproval, with the
	// eino tool call ID ([compose.GetToolCallID]) in
	// ApprovalRequest.CallID; it takes precedence over the registry's
	// Options.Approver and over one attached to the context with
	// [toolnexus.WithApprover]. nil leaves those in charge, and a call
	// none of them decides interrupts the run (see [Tools]).
	Approver toolnexus.Approver

	// Multimodal makes Tools return [tool.EnhancedInvokableTool] values,
	// whose tool results are [schema.ToolResult] parts (text, image, audio,
	// file) taken from Result.Content, for chat models that read
	// UserInputMultiContent of tool messages. false (the default) returns
	// [tool.InvokableTool] values whose tool result is Result.Text(), which
	// every eino chat model reads.
	Multimodal bool
}

// Tools returns the registry's tools as eino tools, for
// compose.ToolsNodeConfig.Tools (the react agent of flow/agent/react, an
// adk.ChatModelAgent, a graph's ToolsNode). Each value is a
// [tool.InvokableTool] (or, with Options.Multimodal, a
// [tool.EnhancedInvokableTool]):
//
//   - Info returns a [schema.ToolInfo] with the tool's name, its
//     description and its input schema, decoded once into eino's
//     jsonschema.Schema (github.com/eino-contrib/jsonschema), which eino's
//     chat models marshal for the model. Tools fails, naming the tool and
//     the JSON pointer, when that type cannot carry the schema as it is
//     (see the package doc).
//   - InvokableRun runs the tool call through [toolnexus.Registry.Execute],
//     so the registry's checking, approvals, timeouts, concurrency limits
//     and output caps apply. A failed call (invalid arguments, a handler error or
//     panic, a timeout) returns the registry's message as the tool result
//     and a nil error, so the agent loop goes on and the model can correct
//     itself; the error is non-nil only for an interrupt.
//   - A call that ends pending (an approval no approver decided, a
//     question) returns [tool.Interrupt] with the
//     [toolnexus.PendingRequest] as the interrupt info. Resume the run
//     targeting the interrupt's ID (InterruptCtx.ID of the root cause; a
//     new one each time the call interrupts) (adk.Runner.ResumeWithParams, or
//     compose.ResumeWithData for a graph) with a [toolnexus.Answer]
//     whose ID is the request's ID: the call runs again with the answer
//     attached ([toolnexus.WithAnswer]). A resumed call given no
//     toolnexus.Answer value interrupts again. A run without a
//     CheckPointStore cannot be resumed: it ends with the interrupt error,
//     so give such runs an Options.Approver (or the registry's).
//
// The tools are a snapshot: a tool added to or removed from the registry
// later is not among them (call Tools again), and a call of a removed tool
// returns the registry's unknown-tool message.
func Tools(reg *toolnexus.Registry, opts *Options) ([]tool.BaseTool, error) {
	if opts == nil {
		opts = &Options{}
	}
	var list []toolnexus.Tool
	if opts.Names == nil {
		list = reg.Tools()
	} else {
		for _, name := range opts.Names {
			t, ok := reg.Get(name)
			if !ok {
				return nil, fmt.Errorf("einotool: the registry has no tool %q", name)
			}
			list = append(list, t)
		}
	}
	out := make([]tool.BaseTool, 0, len(list))
	for _, t := range list {
		params, err := paramsOf(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("einotool: tool %q: %w", t.Name, err)
		}
		c := call{
			reg:      reg,
			info:     &schema.ToolInfo{Name: t.Name, Desc: t.Description, ParamsOneOf: params},
			approver: opts.Approver,
		}
		if opts.Multimodal {
			out = append(out, multimodalTool{c})
		} else {
			out = append(out, textTool{c})
		}
	}
	return out, nil
}

// call is what both kinds of tool share: one registry tool.
type call struct {
	reg      *toolnexus.Registry
	info     *schema.ToolInfo
	approver toolnexus.Approver
}

func (c call) Info(context.Context) (*schema.ToolInfo, error) { return c.info, nil }

// execute runs one tool call through the registry; the error is non-nil
// only for the interrupt of a pending result.
func (c call) execute(ctx context.Context, args string) (toolnexus.Result, error) {
	if c.approver != nil {
		ctx = toolnexus.WithApprover(ctx, compose.GetToolCallID(ctx), c.approver)
	}
	if target, ok, a := tool.GetResumeContext[toolnexus.Answer](ctx); target && ok {
		ctx = toolnexus.WithAnswer(ctx, a)
	}
	res := c.reg.Execute(ctx, c.info.Name, json.RawMessage(args))
	if p, ok := toolnexus.PendingFrom(res); ok {
		return res, tool.Interrupt(ctx, *p)
	}
	return res, nil
}

// textTool is a registry tool as a tool.InvokableTool.
type textTool struct{ call }

func (t textTool) InvokableRun(ctx context.Context, argumentsInJSON string, _ ...tool.Option) (string, error) {
	res, err := t.execute(ctx, argumentsInJSON)
	if err != nil {
		return "", err
	}
	return res.Text(), nil
}

// multimodalTool is a registry tool as a tool.EnhancedInvokableTool.
type multimodalTool struct{ call }

func (t multimodalTool) InvokableRun(ctx context.Context, arg *schema.ToolArgument, _ ...tool.Option) (*schema.ToolResult, error) {
	var args string
	if arg != nil {
		args = arg.Text
	}
	res, err := t.execute(ctx, args)
	if err != nil {
		return nil, err
	}
	if len(res.Content) == 0 {
		return &schema.ToolResult{Parts: []schema.ToolOutputPart{{Type: schema.ToolPartTypeText, Text: res.Text()}}}, nil
	}
	parts := make([]schema.ToolOutputPart, len(res.Content))
	for i, p := range res.Content {
		parts[i] = outputPart(p)
	}
	return &schema.ToolResult{Parts: parts}, nil
}

// outputPart maps a content part onto eino's tool output part: text,
// image, audio and file parts keep their bytes (base64) or URL and MIME
// type; a resource link or embedded resource becomes its text
// (Part.Summary). A file part's name has no place in eino's part.
func outputPart(p toolnexus.Part) schema.ToolOutputPart {
	common := schema.MessagePartCommon{MIMEType: p.MIMEType}
	if p.URL != "" {
		common.URL = &p.URL
	} else {
		data := base64.StdEncoding.EncodeToString(p.Data)
		common.Base64Data = &data
	}
	switch p.Kind {
	case toolnexus.PartImage:
		return schema.ToolOutputPart{Type: schema.ToolPartTypeImage, Image: &schema.ToolOutputImage{MessagePartCommon: common}}
	case toolnexus.PartAudio:
		return schema.ToolOutputPart{Type: schema.ToolPartTypeAudio, Audio: &schema.ToolOutputAudio{MessagePartCommon: common}}
	case toolnexus.PartFile:
		return schema.ToolOutputPart{Type: schema.ToolPartTypeFile, File: &schema.ToolOutputFile{MessagePartCommon: common}}
	default:
		return schema.ToolOutputPart{Type: schema.ToolPartTypeText, Text: p.Summary()}
	}
}
