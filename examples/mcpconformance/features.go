package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/mcp"
)

// inputTools registers the tools of the suite's sampling and
// input-required scenarios. Each asks through pending requests only
// (toolnexus.PendingResult with the kinds form, mcp.PendingKindSampling
// and mcp.PendingKindRoots): package mcp turns them into input requests,
// or into direct requests for clients of earlier revisions, and seals
// the answers of earlier rounds in the requestState.
func inputTools(reg *toolnexus.Registry) error {
	type none struct{}
	name := ask{id: "user_name", kind: toolnexus.PendingKindForm, prompt: "What is your name?",
		data: `{"schema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}`}
	capital := ask{id: "capital_question", kind: mcp.PendingKindSampling,
		data: sampling("What is the capital of France?", 100)}
	roots := ask{id: "client_roots", kind: mcp.PendingKindRoots}
	confirm := ask{id: "confirm", kind: toolnexus.PendingKindForm, prompt: "Please confirm",
		data: `{"schema":{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}}`}
	greeting := ask{id: "greeting", kind: mcp.PendingKindSampling, data: sampling("Generate a greeting", 50)}
	step1 := ask{id: "step1", kind: toolnexus.PendingKindForm, prompt: "Step 1: What is your name?",
		data: `{"schema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}`}
	step2 := ask{id: "step2", kind: toolnexus.PendingKindForm, prompt: "Step 2: What is your favorite color?",
		data: `{"schema":{"type":"object","properties":{"color":{"type":"string"}},"required":["color"]}}`}
	asking := func(asks []ask, done func(answers map[string]json.RawMessage) string) func(context.Context, none) toolnexus.Result {
		return func(ctx context.Context, _ none) toolnexus.Result {
			answers, res, ok := answered(ctx, asks...)
			if !ok {
				return res
			}
			return toolnexus.Result{Output: done(answers)}
		}
	}
	field := func(b json.RawMessage, key string) string {
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		return fmt.Sprint(m[key])
	}
	errs := []error{
		toolnexus.RegisterResult(reg, "test_sampling", "Asks the client's model to answer a prompt.",
			func(ctx context.Context, a struct {
				Prompt string `json:"prompt" validate:"required"`
			}) toolnexus.Result {
				q := ask{id: "sampling", kind: mcp.PendingKindSampling, data: sampling(a.Prompt, 100)}
				answers, res, ok := answered(ctx, q)
				if !ok {
					return res
				}
				return toolnexus.Result{Output: "LLM response: " + sampledText(answers["sampling"])}
			}),
		toolnexus.RegisterResult(reg, "test_input_required_result_elicitation", "Asks the user's name (SEP-2322).",
			asking([]ask{name}, func(a map[string]json.RawMessage) string { return "Hello, " + field(a["user_name"], "name") + "!" })),
		toolnexus.RegisterResult(reg, "test_input_required_result_sampling", "Asks the client's model a question (SEP-2322).",
			asking([]ask{capital}, func(a map[string]json.RawMessage) string { return sampledText(a["capital_question"]) })),
		toolnexus.RegisterResult(reg, "test_input_required_result_list_roots", "Asks the client for its roots (SEP-2322).",
			asking([]ask{roots}, func(a map[string]json.RawMessage) string { return "Roots: " + string(a["client_roots"]) })),
		// The server verifies the requestState before the tool runs again,
		// so an answer that reaches the tool came with a valid state.
		toolnexus.RegisterResult(reg, "test_input_required_result_request_state", "Asks for a confirmation (SEP-2322).",
			asking([]ask{confirm}, func(map[string]json.RawMessage) string { return "Confirmed, state-ok" })),
		toolnexus.RegisterResult(reg, "test_input_required_result_tampered_state", "Asks for a confirmation (SEP-2322).",
			asking([]ask{confirm}, func(map[string]json.RawMessage) string { return "Confirmed" })),
		toolnexus.RegisterResult(reg, "test_input_required_result_multiple_inputs", "Asks for a form, a sample and the roots at once (SEP-2322).",
			asking([]ask{name, greeting, roots}, func(a map[string]json.RawMessage) string {
				return fmt.Sprintf("Hello, %s! %s Roots: %s", field(a["user_name"], "name"), sampledText(a["greeting"]), a["client_roots"])
			})),
		toolnexus.RegisterResult(reg, "test_input_required_result_multi_round", "Asks two questions, one per round (SEP-2322).",
			func(ctx context.Context, _ none) toolnexus.Result {
				a1, res, ok := answered(ctx, step1)
				if !ok {
					return res
				}
				a2, res, ok := answered(ctx, step2)
				if !ok {
					return res
				}
				return toolnexus.Result{Output: fmt.Sprintf("%s likes %s", field(a1["step1"], "name"), field(a2["step2"], "color"))}
			}),
		toolnexus.RegisterResult(reg, "test_input_required_result_capabilities", "Asks for a form and a sample; a client gets only what it declared (SEP-2322).",
			asking([]ask{name, capital}, func(a map[string]json.RawMessage) string { return "Answered" })),
		toolnexus.RegisterResult(reg, "test_missing_capability", "Needs sampling, which a client may not declare (SEP-2575).",
			asking([]ask{capital}, func(a map[string]json.RawMessage) string { return sampledText(a["capital_question"]) })),
		toolnexus.RegisterResult(reg, "test_streaming_elicitation", "Asks the user's name, as an input-required result (SEP-2575).",
			asking([]ask{name}, func(a map[string]json.RawMessage) string { return "Hello, " + field(a["user_name"], "name") + "!" })),
		toolnexus.Register(reg, "test_logging_tool", "Logs a line, sent only to a client that asked for a log level.",
			func(ctx context.Context, _ none) (string, error) {
				toolnexus.Log(ctx, slog.LevelInfo, "test_logging_tool ran")
				return "logged", nil
			}),
	}
	return errors.Join(errs...)
}

// ask is one pending request of a conformance tool.
type ask struct{ id, kind, prompt, data string }

// answered returns the answers to asks attached to ctx; when some are
// missing, it returns the pending result asking for those.
func answered(ctx context.Context, asks ...ask) (map[string]json.RawMessage, toolnexus.Result, bool) {
	answers := map[string]json.RawMessage{}
	var missing []toolnexus.PendingRequest
	for _, q := range asks {
		if a, ok := toolnexus.AnswerFor(ctx, q.id); ok {
			answers[q.id] = a.Data
			continue
		}
		p := toolnexus.PendingRequest{ID: q.id, Kind: q.kind, Prompt: q.prompt}
		if q.data != "" {
			p.Data = json.RawMessage(q.data)
		}
		missing = append(missing, p)
	}
	if len(missing) == 0 {
		return answers, toolnexus.Result{}, true
	}
	return nil, toolnexus.PendingResult("waiting for the client", missing[0], missing[1:]...), false
}

// sampling is the params of a sampling/createMessage request of one user
// message.
func sampling(text string, maxTokens int) string {
	b, _ := json.Marshal(map[string]any{"maxTokens": maxTokens, "messages": []any{
		map[string]any{"role": "user", "content": map[string]string{"type": "text", "text": text}}}})
	return string(b)
}

// sampledText is the text of a sampling answer (a CreateMessageResult).
func sampledText(b json.RawMessage) string {
	var r struct {
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(b, &r)
	var parts []struct {
		Text string `json:"text"`
	}
	if len(r.Content) > 0 && r.Content[0] != '[' {
		r.Content = append(append(json.RawMessage{'['}, r.Content...), ']')
	}
	_ = json.Unmarshal(r.Content, &parts)
	var out []string
	for _, p := range parts {
		out = append(out, p.Text)
	}
	return strings.Join(out, " ")
}

// addFeatures adds to srv the prompts, resources, resource template,
// completions and subscriptions the suite's scenarios read, through the
// SDK server package mcp serves on.
func addFeatures(sdk *mcpsdk.Server, pngData []byte) {
	text := func(s string) *mcpsdk.PromptMessage {
		return &mcpsdk.PromptMessage{Role: "user", Content: &mcpsdk.TextContent{Text: s}}
	}
	sdk.AddPrompt(&mcpsdk.Prompt{Name: "test_simple_prompt", Description: "A prompt without arguments."},
		func(context.Context, *mcpsdk.GetPromptRequest) (*mcpsdk.GetPromptResult, error) {
			return &mcpsdk.GetPromptResult{Messages: []*mcpsdk.PromptMessage{text("This is a simple prompt for testing.")}}, nil
		})
	sdk.AddPrompt(&mcpsdk.Prompt{Name: "test_prompt_with_arguments", Description: "A prompt with two arguments.",
		Arguments: []*mcpsdk.PromptArgument{{Name: "arg1", Description: "First test argument", Required: true},
			{Name: "arg2", Description: "Second test argument", Required: true}}},
		func(_ context.Context, r *mcpsdk.GetPromptRequest) (*mcpsdk.GetPromptResult, error) {
			a := r.Params.Arguments
			return &mcpsdk.GetPromptResult{Messages: []*mcpsdk.PromptMessage{
				text(fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", a["arg1"], a["arg2"]))}}, nil
		})
	sdk.AddPrompt(&mcpsdk.Prompt{Name: "test_prompt_with_embedded_resource", Description: "A prompt that embeds a resource.",
		Arguments: []*mcpsdk.PromptArgument{{Name: "resourceUri", Description: "URI of the resource to embed", Required: true}}},
		func(_ context.Context, r *mcpsdk.GetPromptRequest) (*mcpsdk.GetPromptResult, error) {
			return &mcpsdk.GetPromptResult{Messages: []*mcpsdk.PromptMessage{
				{Role: "user", Content: &mcpsdk.EmbeddedResource{Resource: &mcpsdk.ResourceContents{
					URI: r.Params.Arguments["resourceUri"], MIMEType: "text/plain", Text: "Embedded resource content for testing."}}},
				text("Please process the embedded resource above.")}}, nil
		})
	sdk.AddPrompt(&mcpsdk.Prompt{Name: "test_prompt_with_image", Description: "A prompt with an image."},
		func(context.Context, *mcpsdk.GetPromptRequest) (*mcpsdk.GetPromptResult, error) {
			return &mcpsdk.GetPromptResult{Messages: []*mcpsdk.PromptMessage{
				{Role: "user", Content: &mcpsdk.ImageContent{MIMEType: "image/png", Data: pngData}},
				text("Please analyze the image above.")}}, nil
		})
	sdk.AddPrompt(&mcpsdk.Prompt{Name: "test_input_required_result_prompt", Description: "A prompt that asks for context first (SEP-2322)."},
		func(_ context.Context, r *mcpsdk.GetPromptRequest) (*mcpsdk.GetPromptResult, error) {
			if er, ok := r.Params.InputResponses["context"].(*mcpsdk.ElicitResult); ok && er.Action == "accept" {
				return &mcpsdk.GetPromptResult{Messages: []*mcpsdk.PromptMessage{text(fmt.Sprintf("Context: %v", er.Content["context"]))}}, nil
			}
			return &mcpsdk.GetPromptResult{InputRequests: mcpsdk.InputRequestMap{"context": &mcpsdk.ElicitParams{
				Mode: "form", Message: "What context should the prompt use?",
				RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"context": map[string]any{"type": "string"}}, "required": []string{"context"}}}}}, nil
		})

	static := func(uri, mime, text string, blob []byte) mcpsdk.ResourceHandler {
		return func(context.Context, *mcpsdk.ReadResourceRequest) (*mcpsdk.ReadResourceResult, error) {
			return &mcpsdk.ReadResourceResult{Contents: []*mcpsdk.ResourceContents{{URI: uri, MIMEType: mime, Text: text, Blob: blob}}}, nil
		}
	}
	sdk.AddResource(&mcpsdk.Resource{URI: "test://static-text", Name: "static-text", Description: "A static text resource.", MIMEType: "text/plain"},
		static("test://static-text", "text/plain", "This is the content of the static text resource.", nil))
	sdk.AddResource(&mcpsdk.Resource{URI: "test://static-binary", Name: "static-binary", Description: "A static PNG image.", MIMEType: "image/png"},
		static("test://static-binary", "image/png", "", pngData))
	sdk.AddResource(&mcpsdk.Resource{URI: "test://watched-resource", Name: "watched-resource", Description: "A resource clients may subscribe to.", MIMEType: "text/plain"},
		static("test://watched-resource", "text/plain", "Watched resource content.", nil))
	sdk.AddResourceTemplate(&mcpsdk.ResourceTemplate{URITemplate: "test://template/{id}/data", Name: "template-data",
		Description: "Data for an id.", MIMEType: "application/json"},
		func(_ context.Context, r *mcpsdk.ReadResourceRequest) (*mcpsdk.ReadResourceResult, error) {
			id, ok := strings.CutPrefix(r.Params.URI, "test://template/")
			id, ok2 := strings.CutSuffix(id, "/data")
			if !ok || !ok2 || id == "" || strings.Contains(id, "/") {
				return nil, mcpsdk.ResourceNotFoundError(r.Params.URI)
			}
			b, _ := json.Marshal(map[string]any{"id": id, "templateTest": true, "data": "Data for ID: " + id})
			return &mcpsdk.ReadResourceResult{Contents: []*mcpsdk.ResourceContents{{URI: r.Params.URI, MIMEType: "application/json", Text: string(b)}}}, nil
		})
}

// sdkOptions are the SDK server options of the conformance server:
// completions for the prompt's arguments and resource subscriptions.
func sdkOptions() *mcpsdk.ServerOptions {
	var mu sync.Mutex
	subscribed := map[string]bool{}
	return &mcpsdk.ServerOptions{
		CompletionHandler: func(_ context.Context, r *mcpsdk.CompleteRequest) (*mcpsdk.CompleteResult, error) {
			values := []string{} // never null on the wire
			for _, v := range []string{"paris", "park", "party"} {
				if strings.HasPrefix(v, r.Params.Argument.Value) {
					values = append(values, v)
				}
			}
			return &mcpsdk.CompleteResult{Completion: mcpsdk.CompletionResultDetails{Values: values, Total: len(values)}}, nil
		},
		SubscribeHandler: func(_ context.Context, r *mcpsdk.SubscribeRequest) error {
			mu.Lock()
			defer mu.Unlock()
			subscribed[r.Params.URI] = true
			return nil
		},
		UnsubscribeHandler: func(_ context.Context, r *mcpsdk.UnsubscribeRequest) error {
			mu.Lock()
			defer mu.Unlock()
			delete(subscribed, r.Params.URI)
			return nil
		},
	}
}
