package genkittool

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/core/api"
	"github.com/firebase/genkit/go/core/tracing"
	"github.com/firebase/genkit/go/genkit"
	"github.com/toolnexus/toolnexus"
)

// Define registers every tool of reg (reg.Tools(), sorted by name) in g as a
// genkit tool action and returns them as [ai.Tool] values, in that order, for
// [ai.WithTools]. genkit.LookupTool(g, name) finds them too.
//
// Each tool's [ai.ToolDefinition] carries the registry's description and its
// input schema decoded into map[string]any with numbers kept as
// [json.Number], so what reaches the model (ai.ModelRequest.Tools) is the
// registry's schema; only the order of object keys is not kept (Go maps
// marshal sorted). A tool call runs reg.Execute with the arguments genkit
// hands to the tool, as JSON; genkit itself checks nothing first. The
// result becomes the tool response:
//
//   - an error result (bad arguments, a failing or panicking handler, a
//     timeout, a denial) is the tool response's output, the registry's
//     message as a string, so the model reads it and the generation goes on;
//   - a pending request (toolnexus.PendingFrom: an approval, a question)
//     interrupts the generation the genkit way: the tool request comes back
//     in resp.Interrupts(), its Metadata["interrupt"] being the
//     [toolnexus.PendingRequest] as JSON (ai.InterruptAs[toolnexus.PendingRequest]
//     reads it);
//   - a structured result (Result.Structured) is the output as that JSON
//     value; otherwise the output is Result.Text();
//   - content parts (Result.Content) with anything beside text also go as
//     the tool response's content ([ai.MultipartToolResponse]): images, audio
//     and files as media parts (data: URLs for bytes), resource links as
//     resource parts, the rest as text.
//
// Define fails, before registering anything, when g already has a tool of
// one of the names.
func Define(g *genkit.Genkit, reg *toolnexus.Registry) ([]ai.Tool, error) {
	tools := reg.Tools()
	actions := make([]*action, len(tools))
	for i, t := range tools {
		if genkit.LookupTool(g, t.Name) != nil {
			return nil, fmt.Errorf("genkittool: Define: genkit already has a tool %q", t.Name)
		}
		schema, err := schemaMap(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("genkittool: Define %q: input schema: %w", t.Name, err)
		}
		actions[i] = &action{reg: reg, desc: api.ActionDesc{
			Type:        api.ActionTypeToolV2,
			Key:         api.KeyFromName(api.ActionTypeToolV2, t.Name),
			Name:        t.Name,
			Description: t.Description,
			InputSchema: schema,
			Metadata: map[string]any{
				"type": api.ActionTypeToolV2, "name": t.Name, "description": t.Description,
				"tool": map[string]any{"multipart": false},
			},
		}}
	}
	out := make([]ai.Tool, len(actions))
	for i, a := range actions {
		genkit.RegisterAction(g, a)
		out[i] = genkit.LookupTool(g, a.desc.Name)
	}
	return out, nil
}

// schemaMap decodes an input schema into the map genkit carries, keeping
// numbers as written. nil means {"type":"object"}, as for toolnexus.Tool.
func schemaMap(schema json.RawMessage) (map[string]any, error) {
	if schema == nil {
		return map[string]any{"type": "object"}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}

// action is one registry tool as a genkit action (api.Action): genkit's
// generate loop reaches it through ai.LookupTool's ToolDef, whose
// RunRawMultipart marshals the tool request's input and calls RunJSON.
type action struct {
	reg  *toolnexus.Registry
	desc api.ActionDesc
}

func (a *action) Name() string         { return a.desc.Name }
func (a *action) Desc() api.ActionDesc { return a.desc }

// Register records the action under the "tool.v2" key and, as genkit's own
// tools do, under the legacy "tool" key.
func (a *action) Register(r api.Registry) {
	r.RegisterAction(a.desc.Key, a)
	r.RegisterAction(api.KeyFromName(api.ActionTypeTool, a.desc.Name), a)
}

func (a *action) RunJSON(ctx context.Context, input json.RawMessage, cb func(context.Context, json.RawMessage) error) (json.RawMessage, error) {
	r, err := a.RunJSONWithTelemetry(ctx, input, cb)
	if err != nil {
		return nil, err
	}
	return r.Result, nil
}

// RunJSONWithTelemetry runs the call in a genkit trace span, as genkit's
// own actions do. Every Result is an output; the error is a tool interrupt
// for a pending request, or a result that does not marshal.
func (a *action) RunJSONWithTelemetry(ctx context.Context, input json.RawMessage, _ func(context.Context, json.RawMessage) error) (*api.ActionRunResult[json.RawMessage], error) {
	var info tracing.TraceInfo
	out, err := tracing.RunInNewSpan(ctx, &tracing.SpanMetadata{Name: a.desc.Name, Type: "action", Subtype: string(api.ActionTypeToolV2)}, input,
		func(ctx context.Context, input json.RawMessage) (json.RawMessage, error) {
			info = tracing.SpanTraceInfo(ctx)
			return a.call(ctx, input)
		})
	if err != nil {
		return nil, err
	}
	return &api.ActionRunResult[json.RawMessage]{Result: out, TraceId: info.TraceID, SpanId: info.SpanID}, nil
}

// call executes the tool call through the registry and encodes the result
// as an ai.MultipartToolResponse.
func (a *action) call(ctx context.Context, input json.RawMessage) (json.RawMessage, error) {
	res := a.reg.Execute(ctx, a.desc.Name, input)
	if p, ok := toolnexus.PendingFrom(res); ok {
		meta, err := jsonMap(p)
		if err != nil {
			return nil, err
		}
		return nil, (&ai.ToolContext{Context: ctx}).Interrupt(&ai.InterruptOptions{Metadata: meta})
	}
	resp := ai.MultipartToolResponse{Output: res.Text()}
	if res.Structured != nil {
		resp.Output = res.Structured
	}
	if !allText(res.Content) {
		resp.Content = make([]*ai.Part, len(res.Content))
		for i, p := range res.Content {
			resp.Content[i] = genkitPart(p)
		}
	}
	return json.Marshal(resp)
}

func jsonMap(v any) (map[string]any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(data, &m)
}

func allText(parts []toolnexus.Part) bool {
	for _, p := range parts {
		if p.Kind != toolnexus.PartText {
			return false
		}
	}
	return true
}

// genkitPart maps one content part onto genkit's: bytes and URLs of images,
// audio and files become media parts, a resource link a resource part, and
// everything else its text (Part.Summary).
func genkitPart(p toolnexus.Part) *ai.Part {
	switch p.Kind {
	case toolnexus.PartImage, toolnexus.PartAudio, toolnexus.PartFile:
		if p.URL != "" {
			return ai.NewMediaPart(p.MIMEType, p.URL)
		}
		return ai.NewMediaPart(p.MIMEType, "data:"+p.MIMEType+";base64,"+base64.StdEncoding.EncodeToString(p.Data))
	case toolnexus.PartResourceLink:
		return ai.NewResourcePart(p.URL)
	}
	return ai.NewTextPart(p.Summary())
}

// FromTool makes a genkit tool a [toolnexus.Tool], for [toolnexus.Registry.Add]:
// its name, description and input schema (ai.Tool.Definition; nil means
// {"type":"object"}), and a handler checked by [toolnexus.CheckArguments]
// against that schema, so a bad call gets the registry's message and never
// reaches the tool. Keywords the registry's engine does not enforce are left
// to genkit, which validates the input again before the tool's function runs.
//
// The handler runs t.RunRawMultipart with the arguments. The tool's output
// becomes the Result: a string as Output, any other value as Structured
// and Output (its JSON); its content parts become Result.Content (media
// parts with a data: URL as bytes, other media as URLs, resource parts as
// resource links, text as text). A failure is an error result with
// genkit's error text, and so is an interrupt (ToolContext.Interrupt),
// which a registry cannot resume.
//
// FromTool fails when the definition's name is not a valid toolnexus name
// ([toolnexus.CheckName]) or its input schema does not marshal.
func FromTool(t ai.Tool) (toolnexus.Tool, error) {
	def := t.Definition()
	if err := toolnexus.CheckName(def.Name); err != nil {
		return toolnexus.Tool{}, fmt.Errorf("genkittool: FromTool: %w", err)
	}
	var schema json.RawMessage
	if def.InputSchema != nil {
		var err error
		if schema, err = json.Marshal(def.InputSchema); err != nil {
			return toolnexus.Tool{}, fmt.Errorf("genkittool: FromTool %q: input schema: %w", def.Name, err)
		}
	}
	h, _ := toolnexus.CheckArguments(def.Name, schema, handler{t})
	return toolnexus.Tool{Name: def.Name, Description: def.Description, InputSchema: schema, Source: "genkit", Handler: h}, nil
}

// handler runs a genkit tool as a toolnexus.Handler.
type handler struct{ t ai.Tool }

func (h handler) Call(ctx context.Context, args json.RawMessage) toolnexus.Result {
	resp, err := h.t.RunRawMultipart(ctx, args)
	if err != nil {
		return toolnexus.ErrorResult(err)
	}
	var res toolnexus.Result
	switch out := resp.Output.(type) {
	case nil:
	case string:
		res.Output = out
	default:
		if res, err = toolnexus.JSONResult(out); err != nil {
			return toolnexus.ErrorResult(fmt.Errorf("tool %q: output: %w", h.t.Name(), err))
		}
	}
	for _, p := range resp.Content {
		res.Content = append(res.Content, toolnexusPart(p))
	}
	return res
}

// toolnexusPart maps one genkit content part onto a toolnexus part.
func toolnexusPart(p *ai.Part) toolnexus.Part {
	switch {
	case p.IsMedia():
		kind := toolnexus.PartFile
		switch {
		case strings.HasPrefix(p.ContentType, "image/"):
			kind = toolnexus.PartImage
		case strings.HasPrefix(p.ContentType, "audio/"):
			kind = toolnexus.PartAudio
		}
		if rest, ok := strings.CutPrefix(p.Text, "data:"); ok {
			if _, b64, ok := strings.Cut(rest, ";base64,"); ok {
				if data, err := base64.StdEncoding.DecodeString(b64); err == nil {
					return toolnexus.Part{Kind: kind, MIMEType: p.ContentType, Data: data}
				}
			}
		}
		return toolnexus.Part{Kind: kind, MIMEType: p.ContentType, URL: p.Text}
	case p.IsResource() && p.Resource != nil:
		return toolnexus.ResourceLinkPart(p.Resource.Uri, "", "")
	}
	return toolnexus.TextPart(p.Text)
}
