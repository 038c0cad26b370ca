package anthropicrunner

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	anthropic "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	"github.com/toolnexus/toolnexus/render"
)

// Tools returns the registry's tools, as reg.Tools lists them now, as
// anthropic.BetaTool values for the beta tool runner
// (anthropic.BetaMessageService.NewToolRunner and NewToolRunnerStreaming).
//
// Each tool's Name, Description and InputSchema are those render.Anthropic
// gives, the input schema as its exact bytes (param.Override of
// anthropic.BetaToolInputSchemaParam); a tool render.Anthropic refuses (a
// top-level oneOf, a property key outside the Anthropic rule, ...) makes
// Tools fail with render's error, naming the tool. Execute runs one tool
// call with exec.Executor.Run over reg, made with opts (nil means the
// defaults), on the runner's goroutine, so the registry's checking,
// approvals, timeouts, output caps and opts' hooks (Before, After, Logger,
// OnEvent, Timeout, Approver) all apply; opts.Concurrency has no effect, as
// the runner runs the calls of one turn in parallel itself:
//
//   - a result with content parts other than text becomes text, image and
//     document blocks, the tool_result content exec.Executor.Anthropic
//     gives;
//   - any other successful result becomes one text block with Result.Text
//     (none when it is "");
//   - a failed call (bad arguments, unknown tool, handler error or panic,
//     timeout, denied approval) becomes an error whose text is the
//     registry's Output, which the runner sends as a tool_result with
//     is_error true and content "Error: " followed by that text.
//
// A tool that Remove takes out of reg later answers with the registry's
// unknown-tool message; call Tools again to give the runner new tools.
func Tools(reg *toolnexus.Registry, opts *exec.Options) ([]anthropic.BetaTool, error) {
	rendered, err := render.Anthropic(reg.Tools())
	if err != nil {
		return nil, err
	}
	ex := exec.New(reg, opts)
	tools := make([]anthropic.BetaTool, len(rendered))
	for i, r := range rendered {
		tools[i] = &betaTool{
			ex:          ex,
			name:        r.Name,
			description: r.Description,
			schema:      param.Override[anthropic.BetaToolInputSchemaParam](r.InputSchema),
		}
	}
	return tools, nil
}

// betaTool is one registry tool as an anthropic.BetaTool.
type betaTool struct {
	ex          *exec.Executor
	name        string
	description string
	schema      anthropic.BetaToolInputSchemaParam
}

func (t *betaTool) Name() string                                    { return t.name }
func (t *betaTool) Description() string                             { return t.description }
func (t *betaTool) InputSchema() anthropic.BetaToolInputSchemaParam { return t.schema }

// Execute runs the tool call with input (the tool_use block's input) and
// returns the content of its tool_result as exec.AnthropicResultOf shapes
// it, or the registry's message as the error of a failed call. Rich blocks
// reach the SDK's union type through their JSON.
func (t *betaTool) Execute(ctx context.Context, input json.RawMessage) ([]anthropic.BetaToolResultBlockParamContentUnion, error) {
	res := t.ex.Run(ctx, exec.Call{Name: t.name, Arguments: input})
	r := exec.AnthropicResultOf("", &res)
	switch {
	case r.IsError:
		return nil, errors.New(r.Content)
	case r.Blocks != nil:
		data, err := json.Marshal(r.Blocks)
		if err != nil {
			return nil, err
		}
		var content []anthropic.BetaToolResultBlockParamContentUnion
		return content, json.Unmarshal(data, &content)
	case r.Content != "":
		return []anthropic.BetaToolResultBlockParamContentUnion{{OfText: &anthropic.BetaTextBlockParam{Text: r.Content}}}, nil
	}
	return nil, nil // Anthropic refuses an empty text block
}

// FromBetaTool returns t, an anthropic.BetaTool (one made by the
// toolrunner package's NewBetaTool, NewBetaToolFromBytes or
// NewBetaToolFromJSONSchema, or any other), as a toolnexus.Tool to add to a
// Registry, with Source "anthropic".
//
// Its InputSchema is the JSON of t.InputSchema() with the keys of every
// object sorted: anthropic.BetaToolInputSchemaParam keeps the keywords it
// has no field for in a Go map, which the SDK writes in a different order
// each time. Its handler checks every call against that schema
// (toolnexus.CheckArguments) before t.Execute runs, so the model gets the
// registry's messages for bad arguments and t never sees them; unchecked
// says which keywords the registry leaves to t ("" when it checks the whole
// schema). The tool_result blocks t returns become the Result's content
// parts: text blocks text parts, base64 and URL image blocks image parts,
// and any other block (documents, search results, ...) a text part holding
// the block's JSON. An error from t.Execute is an error result whose Output
// is the error's text. The error of FromBetaTool says the schema does not
// marshal.
func FromBetaTool(t anthropic.BetaTool) (tool toolnexus.Tool, unchecked string, err error) {
	schema, err := inputSchema(t.InputSchema())
	if err != nil {
		return toolnexus.Tool{}, "", fmt.Errorf("anthropicrunner: tool %q: input schema: %w", t.Name(), err)
	}
	checked, unchecked := toolnexus.CheckArguments(t.Name(), schema, runBetaTool{t})
	return toolnexus.Tool{
		Name:        t.Name(),
		Description: t.Description(),
		InputSchema: schema,
		Source:      "anthropic",
		Handler:     checked,
	}, unchecked, nil
}

// inputSchema is the JSON of s, each object's keys sorted, numbers as
// written.
func inputSchema(s anthropic.BetaToolInputSchemaParam) (json.RawMessage, error) {
	data, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// runBetaTool is the toolnexus.Handler that runs an anthropic.BetaTool.
type runBetaTool struct{ t anthropic.BetaTool }

func (h runBetaTool) Call(ctx context.Context, args json.RawMessage) toolnexus.Result {
	blocks, err := h.t.Execute(ctx, args)
	if err != nil {
		return toolnexus.ErrorResult(err)
	}
	parts := make([]toolnexus.Part, 0, len(blocks))
	for _, b := range blocks {
		parts = append(parts, part(b))
	}
	return toolnexus.ContentResult(parts...)
}

// part is the content part of one tool_result block.
func part(b anthropic.BetaToolResultBlockParamContentUnion) toolnexus.Part {
	switch {
	case b.OfText != nil:
		return toolnexus.TextPart(b.OfText.Text)
	case b.OfImage != nil && b.OfImage.Source.OfBase64 != nil:
		src := b.OfImage.Source.OfBase64
		if data, err := base64.StdEncoding.DecodeString(src.Data); err == nil {
			return toolnexus.ImagePart(string(src.MediaType), data)
		}
	case b.OfImage != nil && b.OfImage.Source.OfURL != nil:
		return toolnexus.ImageURLPart("", b.OfImage.Source.OfURL.URL)
	}
	data, _ := json.Marshal(b)
	return toolnexus.TextPart(string(data))
}
