package exec

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// This file shapes a Result's content parts (toolnexus.Result.Content) and
// structured value (Result.Structured) into each provider's tool-result
// message; the package doc's "Rich results" section states the rules.

// AnthropicResultBlock is one content block of a tool_result whose content
// is an array: a text, image or document block.
//
//	{"type":"text","text":"chart:"}
//	{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBO…"}}
//	{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBE…"},"title":"a.pdf"}
//
// Source: Anthropic API reference, Messages, tool_result content
// (TextBlockParam, ImageBlockParam, DocumentBlockParam;
// https://docs.anthropic.com/en/api/messages).
type AnthropicResultBlock struct {
	Type   string           `json:"type"`             // "text", "image", "document", or "tool_reference" (a tool search's answer)
	Text   string           `json:"text,omitempty"`   // a text block's text
	Source *AnthropicSource `json:"source,omitempty"` // an image or document block's data
	Title  string           `json:"title,omitempty"`  // a document's title (its file name), or ""
	// ToolName is the tool of a "tool_reference" block (the answer of a
	// tool search, see [ToolSearch]).
	ToolName string `json:"tool_name,omitempty"`
}

// AnthropicSource is the source of an image or document block: Type
// "base64" (MediaType, Data in standard base64), "url" (URL) or, for a
// plain-text document, "text" (MediaType "text/plain", Data the text).
type AnthropicSource struct {
	Type      string `json:"type"`                 // "base64", "url" or "text"
	MediaType string `json:"media_type,omitempty"` // the MIME type, for base64 and text
	Data      string `json:"data,omitempty"`       // standard base64 bytes, or the text
	URL       string `json:"url,omitempty"`        // for Type "url"
}

// anthropicImageTypes are the image media types Anthropic accepts
// (Base64ImageSourceParam.media_type).
var anthropicImageTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}

// anthropicBlocks shapes r's parts for a tool_result, or returns nil when
// r is text only (the content stays a string).
func anthropicBlocks(r *Result) []AnthropicResultBlock {
	if r.IsError || !hasRich(r.Content) {
		return nil
	}
	blocks := make([]AnthropicResultBlock, 0, len(r.Content))
	for _, p := range r.Content {
		b := AnthropicResultBlock{Type: "text", Text: p.Summary()}
		switch {
		case p.Kind == toolnexus.PartImage && len(p.Data) > 0 && anthropicImageTypes[p.MIMEType]:
			b = AnthropicResultBlock{Type: "image", Source: &AnthropicSource{Type: "base64", MediaType: p.MIMEType, Data: b64(p.Data)}}
		case p.Kind == toolnexus.PartImage && len(p.Data) == 0 && isHTTP(p.URL):
			b = AnthropicResultBlock{Type: "image", Source: &AnthropicSource{Type: "url", URL: p.URL}}
		case p.Kind == toolnexus.PartFile && p.MIMEType == "application/pdf" && len(p.Data) > 0:
			b = AnthropicResultBlock{Type: "document", Title: p.Name, Source: &AnthropicSource{Type: "base64", MediaType: p.MIMEType, Data: b64(p.Data)}}
		case p.Kind == toolnexus.PartFile && p.MIMEType == "application/pdf" && len(p.Data) == 0 && isHTTP(p.URL):
			b = AnthropicResultBlock{Type: "document", Title: p.Name, Source: &AnthropicSource{Type: "url", URL: p.URL}}
		case p.Kind == toolnexus.PartFile && p.MIMEType == "text/plain" && len(p.Data) > 0 && utf8.Valid(p.Data):
			b = AnthropicResultBlock{Type: "document", Title: p.Name, Source: &AnthropicSource{Type: "text", MediaType: p.MIMEType, Data: string(p.Data)}}
		}
		if b.Type == "text" && b.Text == "" {
			continue // Anthropic refuses empty text blocks
		}
		blocks = append(blocks, b)
	}
	return blocks
}

// MarshalJSON writes the block's JSON: "content" is the Content string, or
// the Blocks array when Blocks is not nil.
func (r AnthropicToolResult) MarshalJSON() ([]byte, error) {
	if r.Blocks == nil {
		type plain AnthropicToolResult // no MarshalJSON; Blocks is json:"-"
		return json.Marshal(plain(r))
	}
	return json.Marshal(struct {
		Type      string                 `json:"type"`
		ToolUseID string                 `json:"tool_use_id"`
		Content   []AnthropicResultBlock `json:"content"`
		IsError   bool                   `json:"is_error,omitempty"`
	}{r.Type, r.ToolUseID, r.Blocks, r.IsError})
}

// ResponsesContentPart is one element of a function_call_output whose
// output is an array:
//
//	{"type":"input_text","text":"chart:"}
//	{"type":"input_image","image_url":"data:image/png;base64,iVBO…"}
//	{"type":"input_file","filename":"a.pdf","file_data":"data:application/pdf;base64,JVBE…"}
//
// Source: OpenAI API reference, Responses, function_call_output "output"
// (input_text, input_image, input_file;
// https://platform.openai.com/docs/api-reference/responses/create); openai-go
// responses.ResponseFunctionCallOutputItemUnionParam.
type ResponsesContentPart struct {
	Type     string `json:"type"`                // "input_text", "input_image" or "input_file"
	Text     string `json:"text,omitempty"`      // input_text: the text
	ImageURL string `json:"image_url,omitempty"` // input_image: a data: URL or an https URL
	Filename string `json:"filename,omitempty"`  // input_file: the file's name
	FileData string `json:"file_data,omitempty"` // input_file: a data: URL with the bytes
	FileURL  string `json:"file_url,omitempty"`  // input_file: the file's URL instead of its bytes
}

// responsesParts shapes r's parts for a function_call_output, or returns
// nil when r is text only (the output stays a string).
func responsesParts(r *Result) []ResponsesContentPart {
	if r.IsError || !hasRich(r.Content) {
		return nil
	}
	parts := make([]ResponsesContentPart, 0, len(r.Content))
	for _, p := range r.Content {
		c := ResponsesContentPart{Type: "input_text", Text: p.Summary()}
		switch {
		case p.Kind == toolnexus.PartImage && len(p.Data) > 0 && strings.HasPrefix(p.MIMEType, "image/"):
			c = ResponsesContentPart{Type: "input_image", ImageURL: dataURL(p.MIMEType, p.Data)}
		case p.Kind == toolnexus.PartImage && len(p.Data) == 0 && p.URL != "":
			c = ResponsesContentPart{Type: "input_image", ImageURL: p.URL}
		case p.Kind == toolnexus.PartFile && len(p.Data) > 0 && p.MIMEType != "":
			c = ResponsesContentPart{Type: "input_file", Filename: orDefault(p.Name, "file"), FileData: dataURL(p.MIMEType, p.Data)}
		case p.Kind == toolnexus.PartFile && len(p.Data) == 0 && p.URL != "":
			c = ResponsesContentPart{Type: "input_file", Filename: p.Name, FileURL: p.URL}
		}
		if c.Type == "input_text" && c.Text == "" {
			continue
		}
		parts = append(parts, c)
	}
	return parts
}

// MarshalJSON writes the item's JSON: "output" is the Output string, or
// the Parts array when Parts is not nil. A tool_search_output is
// {"type":"tool_search_output","call_id":…,"execution":"client",
// "status":"completed","tools":[…]} with Tools ([] when nil) and no
// "output".
func (o ResponsesOutput) MarshalJSON() ([]byte, error) {
	if o.Type == "tool_search_output" {
		dst := append([]byte(`{"type":"tool_search_output","call_id":`), jsonx.AppendString(nil, o.CallID)...)
		dst = append(dst, `,"execution":"client","status":"completed","tools":`...)
		return append(o.Tools.AppendJSON(dst), '}'), nil
	}
	if o.Parts == nil {
		type plain ResponsesOutput
		return json.Marshal(plain(o))
	}
	return json.Marshal(struct {
		Type   string                 `json:"type"`
		CallID string                 `json:"call_id"`
		Output []ResponsesContentPart `json:"output"`
	}{o.Type, o.CallID, o.Parts})
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

// hasRich reports whether parts hold anything but text.
func hasRich(parts []toolnexus.Part) bool {
	for i := range parts {
		if parts[i].Kind != toolnexus.PartText {
			return true
		}
	}
	return false
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func dataURL(mime string, b []byte) string { return "data:" + mime + ";base64," + b64(b) }

func isHTTP(u string) bool {
	return strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
