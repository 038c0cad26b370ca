package exec

import (
	"context"
	"encoding/json"
	"fmt"
)

// GeminiContent is a Gemini content: a role and its parts.
//
//	{"role":"model","parts":[{"functionCall":{"id":"fc_1","name":"get_weather","args":{"city":"Paris"}}}]}
//
// Source: Gemini API reference, "Content" and "Part"
// (generateContent response candidates[].content;
// https://ai.google.dev/api/caching#Content).
type GeminiContent struct {
	Role  string       `json:"role,omitempty"` // "model" in a reply, "user" in an answer
	Parts []GeminiPart `json:"parts"`          // in order
}

// GeminiPart is one part of a [GeminiContent], with the fields used by
// function calling. ThoughtSignature (base64 on the wire) must be echoed
// with the model's turn; fields not listed here are dropped by
// json.Unmarshal, so echo the model turn from the raw reply to keep them.
type GeminiPart struct {
	Text             string                  `json:"text,omitempty"`             // a text part's text; not acted on
	Thought          bool                    `json:"thought,omitempty"`          // set on thought summaries; not acted on
	FunctionCall     *GeminiFunctionCall     `json:"functionCall,omitempty"`     // a call to run, or nil
	FunctionResponse *GeminiFunctionResponse `json:"functionResponse,omitempty"` // an answer, or nil
	ThoughtSignature string                  `json:"thoughtSignature,omitempty"` // opaque; see above

	problem string // set by UnmarshalJSON for a wrongly typed field
}

// GeminiFunctionCall is a functionCall part: the tool name, its arguments
// object and an optional id (https://ai.google.dev/api/caching#FunctionCall).
type GeminiFunctionCall struct {
	ID   string          `json:"id,omitempty"`   // the call id, or "" (then matched by position)
	Name string          `json:"name"`           // the tool to run
	Args json.RawMessage `json:"args,omitempty"` // the arguments object

	problem string // set by UnmarshalJSON for a wrongly typed field
}

// GeminiFunctionResponse answers one functionCall:
//
//	{"id":"fc_1","name":"get_weather","response":{"output":"22C"}}
//	{"name":"get_weather","response":{"error":"invalid arguments …"}}
//
// ID and Name are the call's (ID omitted when the call had none; such calls
// are matched by position). Response has exactly one key: "output" with the
// result as text ([toolnexus.Result.Text]), or "error" with it for
// failures; the value is a valid UTF-8 string, except for a structured
// result, whose "output" is the structured JSON value itself (a
// json.RawMessage). Parts, omitted when empty, holds the result's images,
// audio and files as inline data or file URIs, and "output" then holds its
// text parts (see "Rich results" in the package doc). Response and Parts
// have the JSON shape of genai.FunctionResponse's fields of the same
// names. Source: Gemini API reference, "FunctionResponse" ("Use "output"
// key to specify function output and "error" key to specify error
// details"; "parts": multimodal function responses;
// https://ai.google.dev/api/caching#FunctionResponse).
type GeminiFunctionResponse struct {
	ID       string                       `json:"id,omitempty"`    // the call's id, or ""
	Name     string                       `json:"name"`            // the call's tool name
	Response map[string]any               `json:"response"`        // {"output": …} or {"error": …}
	Parts    []GeminiFunctionResponsePart `json:"parts,omitempty"` // media parts; see above
}

// Gemini runs the functionCall parts of a Gemini model content and returns
// one user content with exactly as many functionResponse parts, in call
// order. Other parts are skipped; with no functionCall part the content has
// no parts (and should not be sent). Errors as for [Executor.OpenAIChat].
func (e *Executor) Gemini(ctx context.Context, parts []GeminiPart) (GeminiContent, error) {
	idx := make([]int, 0, len(parts))
	for i := range parts {
		if parts[i].FunctionCall != nil {
			idx = append(idx, i)
		}
	}
	out := GeminiContent{Role: "user", Parts: make([]GeminiPart, len(idx))}
	if len(idx) == 0 {
		return out, nil
	}
	results := make([]Result, len(idx))
	e.runInto(ctx, len(idx), func(i int) Call {
		fc := parts[idx[i]].FunctionCall
		return Call{ID: fc.ID, Name: fc.Name, Arguments: fc.Args,
			malformed: joinProblems(parts[idx[i]].problem, fc.problem)}
	}, results)
	for i := range results {
		out.Parts[i] = geminiAnswer(parts[idx[i]].FunctionCall, &results[i])
	}
	return out, e.batchErr(ctx, results)
}

// geminiAnswer is the functionResponse part answering fc with r.
func geminiAnswer(fc *GeminiFunctionCall, r *Result) GeminiPart {
	resp, media := geminiResponse(r)
	return GeminiPart{FunctionResponse: &GeminiFunctionResponse{ID: fc.ID, Name: fc.Name,
		Response: resp, Parts: media}}
}

// GeminiJSON is [Executor.Gemini] on raw JSON bytes: a content object
// ({"role":"model","parts":[…]}), its parts array, or a whole
// generateContent response ({"candidates":[{"content":…}]}, whose first
// candidate is used).
func (e *Executor) GeminiJSON(ctx context.Context, raw []byte) (GeminiContent, error) {
	parts, err := ParseGemini(raw)
	if err != nil {
		return GeminiContent{}, err
	}
	return e.Gemini(ctx, parts)
}

// ParseGemini extracts the parts from raw JSON bytes in any of the forms
// [Executor.GeminiJSON] accepts.
func ParseGemini(raw []byte) ([]GeminiPart, error) {
	parts, err := parseReply(raw, fastGemini, slowGemini, markDeepGemini)
	if err == nil && hasFunctionCall(parts) {
		return parts, nil
	}
	if err = otherProvider(raw, geminiShape, "Gemini", err); err != nil {
		return nil, err
	}
	return parts, nil
}

// slowGemini is ParseGemini with encoding/json, for whatever the fast path
// gives up on; it also produces the error messages.
func slowGemini(raw []byte) ([]GeminiPart, error) {
	switch firstByte(raw) {
	case '[':
		var parts []GeminiPart
		if err := json.Unmarshal(raw, &parts); err != nil {
			return nil, fmt.Errorf("exec: Gemini parts: %w", err)
		}
		return parts, nil
	case '{':
		var c struct {
			GeminiContent
			Candidates []struct {
				Content GeminiContent `json:"content"`
			} `json:"candidates"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, fmt.Errorf("exec: Gemini content: %w", err)
		}
		if c.Candidates != nil {
			if len(c.Candidates) == 0 {
				return nil, nil
			}
			return c.Candidates[0].Content.Parts, nil
		}
		return c.Parts, nil
	}
	return nil, notReply("Gemini", raw)
}
