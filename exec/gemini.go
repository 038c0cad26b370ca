package exec

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/toolnexus/toolnexus"
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
	cut     string // set when the reply was cut at the output limit before this call was complete
}

// GeminiFunctionCall is a functionCall part: the tool name, its arguments
// object and an optional id (https://ai.google.dev/api/caching#FunctionCall).
//
// With streamFunctionCallArguments (Vertex AI only), a streamed call
// comes in several functionCall parts: the first with the name and
// WillContinue, the next with PartialArgs, the last without
// WillContinue; [GeminiFeed] puts them together. A whole reply holding
// such parts answers them with an error (read the stream instead).
// Source: Vertex AI API reference, FunctionCall partial_args and
// will_continue, FunctionCallingConfig stream_function_call_arguments
// (https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Content#FunctionCall).
type GeminiFunctionCall struct {
	ID           string             `json:"id,omitempty"`           // the call id, or "" (then matched by position)
	Name         string             `json:"name"`                   // the tool to run
	Args         json.RawMessage    `json:"args,omitempty"`         // the arguments object
	PartialArgs  []GeminiPartialArg `json:"partialArgs,omitempty"`  // arguments streamed in pieces (Vertex AI)
	WillContinue bool               `json:"willContinue,omitempty"` // more parts of this call follow (Vertex AI)

	problem string // set by UnmarshalJSON for a wrongly typed field
}

// GeminiPartialArg is one piece of a streamed call's arguments (Vertex AI
// PartialArg): the value at JSONPath (RFC 9535, "$.location",
// "$.stops[0].city"), one of a string, a number, a boolean or null; a
// string with WillContinue goes on in the next piece for the same path.
type GeminiPartialArg struct {
	// JSONPath is where the value goes, e.g. "$.stops[0].city".
	JSONPath string `json:"jsonPath"`
	// StringValue is a string value, or its next piece.
	StringValue *string `json:"stringValue,omitempty"`
	// NumberValue is a number value, as its JSON text.
	NumberValue json.RawMessage `json:"numberValue,omitempty"`
	// BoolValue is a boolean value.
	BoolValue *bool `json:"boolValue,omitempty"`
	// NullValue is "NULL_VALUE" for null (any piece without a value is null).
	NullValue string `json:"nullValue,omitempty"`
	// WillContinue says the string goes on in the next piece for JSONPath.
	WillContinue bool `json:"willContinue,omitempty"`
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
	answers, err := gemini.run(ctx, e, parts)
	return GeminiContent{Role: "user", Parts: answers}, err
}

// gemini is the Gemini provider.
var gemini = &provider[GeminiPart, GeminiPart]{shape: geminiShape, decode: decodeGemini,
	has: hasFunctionCall, isCall: func(p *GeminiPart) bool { return p.FunctionCall != nil }, mark: markDeepGemini,
	call:   func(_ *Executor, p *GeminiPart) Call { return geminiCall(p) },
	answer: func(_ *Executor, p *GeminiPart, r *Result) GeminiPart { return geminiAnswer(p.FunctionCall, r) }}

// geminiCall is the Call of a functionCall part.
func geminiCall(p *GeminiPart) Call {
	fc := p.FunctionCall
	if len(fc.PartialArgs) > 0 || fc.WillContinue {
		return Call{ID: fc.ID, Name: fc.Name, malformed: "the call's arguments were streamed in pieces (partialArgs, Vertex AI's streamFunctionCallArguments): " +
			"read the stream with GeminiStream or a GeminiFeed, which puts them together"}
	}
	return Call{ID: fc.ID, Name: fc.Name, Arguments: fc.Args, malformed: joinProblems(p.problem, fc.problem), cut: p.cut, keys: "gemini"}
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
func ParseGemini(raw []byte) ([]GeminiPart, error) { return gemini.parse(raw) }

// decodeGemini reads the forms ParseGemini accepts with encoding/json.
func decodeGemini(raw []byte) ([]GeminiPart, error) {
	return decodeReply(raw, "Gemini parts", "Gemini content", func(raw []byte) ([]GeminiPart, error) {
		var c struct {
			GeminiContent
			Candidates []struct {
				Content      GeminiContent   `json:"content"`
				FinishReason json.RawMessage `json:"finishReason"`
			} `json:"candidates"`
		}
		if err := json.Unmarshal(raw, &c); err != nil || c.Candidates == nil {
			return c.Parts, err
		}
		if len(c.Candidates) == 0 {
			return nil, nil
		}
		parts := c.Candidates[0].Content.Parts
		if string(c.Candidates[0].FinishReason) == `"MAX_TOKENS"` {
			// Gemini sends the arguments it parsed: a cut call may look
			// whole, so the last one is taken as cut.
			if i := lastCall(parts, func(p *GeminiPart) bool { return p.FunctionCall != nil }); i >= 0 {
				parts[i].cut = cutGemini
			}
		}
		return parts, nil
	})
}

// UnmarshalJSON decodes one Gemini part as encoding/json would, except
// that a field of the wrong JSON type does not fail the whole reply: a
// part holding a functionCall is answered with an error result naming the
// field (see [ErrMalformedCall]); other parts are skipped as always. A
// wrongly typed text or thoughtSignature keeps its JSON text, thought is
// false and functionResponse nil; a part that is not an object is not a
// call.
func (pt *GeminiPart) UnmarshalJSON(b []byte) error {
	type plain GeminiPart
	pt.problem = ""
	if json.Unmarshal(b, (*plain)(pt)) == nil {
		return nil
	}
	var f struct {
		Text             json.RawMessage     `json:"text"`
		Thought          json.RawMessage     `json:"thought"`
		FunctionCall     *GeminiFunctionCall `json:"functionCall"`
		FunctionResponse json.RawMessage     `json:"functionResponse"`
		ThoughtSignature json.RawMessage     `json:"thoughtSignature"`
	}
	if firstByte(b) != '{' || json.Unmarshal(b, &f) != nil {
		*pt = GeminiPart{problem: notObject(b, "the part")}
		return nil
	}
	var p problems
	*pt = GeminiPart{Text: p.str(f.Text, "text"), Thought: p.boolean(f.Thought, "thought"),
		FunctionCall: f.FunctionCall, ThoughtSignature: p.str(f.ThoughtSignature, "thoughtSignature")}
	if !absent(f.FunctionResponse) && json.Unmarshal(f.FunctionResponse, &pt.FunctionResponse) != nil {
		pt.FunctionResponse = nil
		p = append(p, `"functionResponse" is not a valid FunctionResponse`)
	}
	pt.problem = p.String()
	return nil
}

// UnmarshalJSON decodes a functionCall as encoding/json would, except that
// a field of the wrong JSON type, or a functionCall that is not an object,
// does not fail the whole reply: the call is answered with an error result
// naming the field (see [ErrMalformedCall]). A non-string id or name keeps
// its JSON text (a numeric id 5 is echoed as "5").
func (fc *GeminiFunctionCall) UnmarshalJSON(b []byte) error {
	type plain GeminiFunctionCall
	fc.problem = ""
	if json.Unmarshal(b, (*plain)(fc)) == nil {
		return nil
	}
	var f struct {
		ID           json.RawMessage `json:"id"`
		Name         json.RawMessage `json:"name"`
		Args         json.RawMessage `json:"args"`
		PartialArgs  json.RawMessage `json:"partialArgs"`
		WillContinue json.RawMessage `json:"willContinue"`
	}
	if firstByte(b) != '{' || json.Unmarshal(b, &f) != nil {
		*fc = GeminiFunctionCall{problem: notObject(b, `"functionCall"`)}
		return nil
	}
	var p problems
	*fc = GeminiFunctionCall{ID: p.str(f.ID, "functionCall.id"), Name: p.str(f.Name, "functionCall.name"), Args: f.Args}
	// A piece of a streamed call stays one, whatever else is wrong with
	// it: a willContinue that cannot be read counts as true, so the
	// pieces after it still belong to the call (which does not run).
	if !absent(f.WillContinue) {
		fc.WillContinue = p.boolean(f.WillContinue, "functionCall.willContinue") || string(f.WillContinue) != "false"
	}
	if !absent(f.PartialArgs) && json.Unmarshal(f.PartialArgs, &fc.PartialArgs) != nil {
		p = append(p, `"functionCall.partialArgs" is not a list of pieces`)
	}
	fc.problem = p.String()
	return nil
}

func markDeepGemini(p *GeminiPart) {
	p.problem = joinProblems(p.problem, deepStr("text", &p.Text), deepStr("thoughtSignature", &p.ThoughtSignature))
	if fc := p.FunctionCall; fc != nil {
		fc.problem = joinProblems(fc.problem, deepStr("functionCall.id", &fc.ID), deepStr("functionCall.name", &fc.Name),
			deepField("functionCall.args", fc.Args))
	}
}

// hasFunctionCall reports whether a part is a functionCall part.
func hasFunctionCall(parts []GeminiPart) bool {
	for i := range parts {
		if parts[i].FunctionCall != nil {
			return true
		}
	}
	return false
}

// GeminiFunctionResponsePart is one media part of a functionResponse
// (genai.FunctionResponsePart): inline bytes or a file URI.
//
//	{"inlineData":{"mimeType":"image/png","data":"iVBO…"}}
//	{"fileData":{"mimeType":"application/pdf","fileUri":"https://…"}}
type GeminiFunctionResponsePart struct {
	InlineData *GeminiBlob     `json:"inlineData,omitempty"` // the bytes, or nil
	FileData   *GeminiFileData `json:"fileData,omitempty"`   // a file URI, or nil
}

// GeminiBlob is inline media (genai.FunctionResponseBlob); Data is
// standard base64 in JSON, as encoding/json writes []byte. DisplayName is
// the part's Name, which the response may refer to.
type GeminiBlob struct {
	MIMEType    string `json:"mimeType"`              // the media type, "image/png"
	Data        []byte `json:"data"`                  // the bytes (base64 in JSON)
	DisplayName string `json:"displayName,omitempty"` // the part's name, or ""
}

// GeminiFileData is media by URI (genai.FunctionResponseFileData).
type GeminiFileData struct {
	MIMEType    string `json:"mimeType,omitempty"`    // the media type, or ""
	FileURI     string `json:"fileUri"`               // where the file is
	DisplayName string `json:"displayName,omitempty"` // the part's name, or ""
}

// geminiResponse builds the response object and media parts of r.
func geminiResponse(r *Result) (map[string]any, []GeminiFunctionResponsePart) {
	if r.IsError {
		return map[string]any{"error": r.Text()}, nil
	}
	if !hasRich(r.Content) {
		if len(r.Content) == 0 && r.Structured != nil && json.Valid(r.Structured) {
			return map[string]any{"output": r.Structured}, nil
		}
		return map[string]any{"output": r.Text()}, nil
	}
	var texts []string
	var media []GeminiFunctionResponsePart
	for _, p := range r.Content {
		switch {
		case p.IsBinary() && len(p.Data) > 0 && p.MIMEType != "" && p.Kind != toolnexus.PartResourceLink:
			media = append(media, GeminiFunctionResponsePart{InlineData: &GeminiBlob{MIMEType: p.MIMEType, Data: p.Data, DisplayName: p.Name}})
		case (p.Kind == toolnexus.PartImage || p.Kind == toolnexus.PartAudio || p.Kind == toolnexus.PartFile) && len(p.Data) == 0 && p.URL != "":
			media = append(media, GeminiFunctionResponsePart{FileData: &GeminiFileData{MIMEType: p.MIMEType, FileURI: p.URL, DisplayName: p.Name}})
		default:
			if s := p.Summary(); s != "" {
				texts = append(texts, s)
			}
		}
	}
	return map[string]any{"output": strings.Join(texts, "\n")}, media
}

// geminiInfo names Gemini replies and streams and lists their signs (see
// shapeInfo).
var geminiInfo = shapeInfo{what: "Gemini", reply: "a Gemini generateContent reply",
	methods: "GeminiJSON or ParseGemini", stream: "a Gemini streamGenerateContent stream",
	streamMethods: "GeminiStream or NewGeminiFeed",
	keys:          map[string]bool{"candidates": true, "parts": true},
	itemKeys:      map[string]string{"functionCall": `a "functionCall" part`}, eventKeys: []string{"candidates"}}
