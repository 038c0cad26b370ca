package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	"google.golang.org/genai"
)

const geminiModel = "gemini-3-flash-preview"

// geminiTools declares the registry's tools with parametersJsonSchema: the
// InputSchema bytes go through unchanged (json.RawMessage).
func geminiTools(reg *toolnexus.Registry) []*genai.Tool {
	decls := make([]*genai.FunctionDeclaration, 0, reg.Len())
	for _, t := range reg.Tools() {
		d := &genai.FunctionDeclaration{Name: t.Name, Description: t.Description}
		if len(t.InputSchema) > 0 {
			d.ParametersJsonSchema = t.InputSchema
		}
		decls = append(decls, d)
	}
	if len(decls) == 0 {
		return nil // Gemini rejects an empty tool
	}
	return []*genai.Tool{{FunctionDeclarations: decls}}
}

// runGemini is a complete generateContent tool-use loop with the official
// genai client: the model turn is echoed unchanged (thought signatures
// included), then one user content with one functionResponse per
// functionCall, ids echoed.
func runGemini(ctx context.Context, baseURL string, ex *exec.Executor, reg *toolnexus.Registry, log io.Writer) (string, error) {
	client, err := genai.NewClient(ctx, &genai.ClientConfig{
		APIKey:      "no-key-needed", // the scripted server ignores it; set explicitly so no env key is used
		Backend:     genai.BackendGeminiAPI,
		HTTPClient:  &http.Client{},
		HTTPOptions: genai.HTTPOptions{BaseURL: baseURL},
	})
	if err != nil {
		return "", err
	}
	config := &genai.GenerateContentConfig{Tools: geminiTools(reg)}
	contents := []*genai.Content{genai.NewContentFromText(question, genai.RoleUser)}
	for turn := 1; turn <= maxTurns; turn++ {
		resp, err := client.Models.GenerateContent(ctx, geminiModel, contents, config)
		if err != nil {
			return "", fmt.Errorf("turn %d: %w", turn, err)
		}
		if len(resp.Candidates) == 0 || resp.Candidates[0].Content == nil {
			return "", fmt.Errorf("turn %d: no candidate", turn)
		}
		model := resp.Candidates[0].Content
		contents = append(contents, model)
		if len(resp.FunctionCalls()) == 0 {
			return resp.Text(), nil
		}
		raw, err := json.Marshal(model)
		if err != nil {
			return "", err
		}
		answer, err := ex.GeminiJSON(ctx, raw)
		if err != nil {
			return "", fmt.Errorf("turn %d: %w", turn, err)
		}
		parts := make([]*genai.Part, len(answer.Parts))
		for i, p := range answer.Parts {
			fr := p.FunctionResponse
			shown, _ := json.Marshal(fr.Response)
			fmt.Fprintf(log, "  tool %s -> %s\n", fr.ID, shown)
			parts[i] = genai.NewPartFromFunctionResponse(fr.Name, fr.Response)
			parts[i].FunctionResponse.ID = fr.ID
		}
		contents = append(contents, genai.NewContentFromParts(parts, genai.RoleUser))
	}
	return "", fmt.Errorf("no answer after %d turns", maxTurns)
}

// checkGemini is what the real API enforces: "the number of function
// response parts is equal to the number of function call parts of the
// function call turn".
func checkGemini(body, prevReply []byte) error {
	type part struct {
		FunctionCall     *struct{ ID string } `json:"functionCall"`
		FunctionResponse *struct{ ID string } `json:"functionResponse"`
	}
	var prev struct {
		Candidates []struct {
			Content struct{ Parts []part } `json:"content"`
		} `json:"candidates"`
	}
	var req struct {
		Contents []struct {
			Role  string `json:"role"`
			Parts []part `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(prevReply, &prev); err != nil {
		return err
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return fmt.Errorf("request body: %v", err)
	}
	calls := 0
	for _, p := range prev.Candidates[0].Content.Parts {
		if p.FunctionCall != nil {
			calls++
		}
	}
	last := req.Contents[len(req.Contents)-1]
	responses := 0
	for _, p := range last.Parts {
		if p.FunctionResponse != nil {
			responses++
		}
	}
	if last.Role != "user" || responses != calls {
		return fmt.Errorf("Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn. (%d calls, %d responses)", calls, responses)
	}
	return nil
}
