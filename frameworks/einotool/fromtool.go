package einotool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cloudwego/eino/components/tool"
	"github.com/toolnexus/toolnexus"
)

// FromTool returns an eino tool as a [toolnexus.Tool] (Source "eino") to
// add to a Registry, so its calls are checked, capped, timed out, approved
// and rendered by toolnexus like any other tool:
//
//   - Name and Description are the [schema.ToolInfo]'s Name and Desc.
//   - InputSchema is the JSON eino gives the model: ParamsOneOf.ToJSONSchema
//     marshalled; a ToolInfo without ParamsOneOf means {"type":"object"}.
//   - The Handler checks each call's arguments against that schema with
//     [toolnexus.CheckArguments] (every problem in one message) before it
//     calls InvokableRun with the arguments unchanged; the string InvokableRun
//     returns is the Result's Output, its error an error result whose Output
//     is the error's text. unchecked is CheckArguments' note of a keyword
//     the registry does not enforce ("" when it enforces the whole schema).
//
// t must be a [tool.InvokableTool]; FromTool fails for any other tool
// (streamable and enhanced tools are not mapped). An eino interrupt
// (tool.Interrupt) inside t cannot be carried: it is an error result.
func FromTool(ctx context.Context, t tool.BaseTool) (tn toolnexus.Tool, unchecked string, err error) {
	it, ok := t.(tool.InvokableTool)
	if !ok {
		return toolnexus.Tool{}, "", fmt.Errorf("einotool: %T is not a tool.InvokableTool", t)
	}
	info, err := t.Info(ctx)
	if err != nil {
		return toolnexus.Tool{}, "", fmt.Errorf("einotool: tool info: %w", err)
	}
	if info == nil {
		return toolnexus.Tool{}, "", errors.New("einotool: tool info is nil")
	}
	var input json.RawMessage
	if info.ParamsOneOf != nil {
		s, err := info.ToJSONSchema()
		if err != nil {
			return toolnexus.Tool{}, "", fmt.Errorf("einotool: tool %q: input schema: %w", info.Name, err)
		}
		if s != nil {
			if input, err = json.Marshal(s); err != nil {
				return toolnexus.Tool{}, "", fmt.Errorf("einotool: tool %q: input schema: %w", info.Name, err)
			}
		}
	}
	h, unchecked := toolnexus.CheckArguments(info.Name, input, invoke{it})
	return toolnexus.Tool{
		Name:        info.Name,
		Description: info.Desc,
		InputSchema: input,
		Source:      "eino",
		Handler:     h,
	}, unchecked, nil
}

// invoke calls an eino tool with a call's arguments.
type invoke struct{ t tool.InvokableTool }

func (i invoke) Call(ctx context.Context, args json.RawMessage) toolnexus.Result {
	out, err := i.t.InvokableRun(ctx, string(args))
	if err != nil {
		return toolnexus.ErrorResult(err)
	}
	return toolnexus.Result{Output: out}
}
