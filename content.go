package toolnexus

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// PartKind names the kind of a content [Part].
type PartKind string

// The kinds of content parts. Each provider gets them in its own shape
// (see package exec); MCP gets them as the content types of the same name.
const (
	// PartText is plain text (Part.Text).
	PartText PartKind = "text"
	// PartImage is an image: Part.Data with Part.MIMEType (image/png,
	// image/jpeg, ...), or Part.URL.
	PartImage PartKind = "image"
	// PartAudio is audio: Part.Data with Part.MIMEType (audio/wav,
	// audio/mpeg, ...).
	PartAudio PartKind = "audio"
	// PartFile is a file or document (a PDF, a text file, ...): Part.Data or
	// Part.URL, with Part.MIMEType and optionally a file name in Part.Name.
	PartFile PartKind = "file"
	// PartResourceLink is a link to a resource the client may fetch
	// (Part.URL, MCP "resource_link"), with an optional Part.Name and
	// Part.MIMEType.
	PartResourceLink PartKind = "resource_link"
	// PartResource is an embedded resource (MCP "resource"): its URI in
	// Part.URL, its MIME type, and either Part.Text (a text resource) or
	// Part.Data (a binary resource).
	PartResource PartKind = "resource"
)

// Part is one piece of a tool result's content: text, an image, audio, a
// file, a resource link or an embedded resource. Build parts with
// [TextPart], [ImagePart], [ImageURLPart], [AudioPart], [FilePart],
// [FileURLPart], [ResourceLinkPart] and [ResourcePart]; a Part is plain
// data and may also be written as a literal.
//
// In JSON (the CLI's --json, [Result] marshalling) Data is base64 as
// encoding/json writes []byte.
type Part struct {
	// Kind says what the part is; see the PartKind constants.
	Kind PartKind `json:"kind"`

	// Text is the text of a PartText part, or of a text PartResource.
	Text string `json:"text,omitempty"`

	// MIMEType is the media type of the data ("image/png", "audio/wav",
	// "application/pdf", "text/plain"); required for image, audio and file
	// parts that carry Data.
	MIMEType string `json:"mime_type,omitempty"`

	// Data holds the raw bytes (not base64) of an image, audio, file or
	// binary resource part.
	Data []byte `json:"data,omitempty"`

	// URL is where an image or file part can be fetched instead of Data
	// (https:// or a data: URL), or the URI of a resource link or embedded
	// resource.
	URL string `json:"url,omitempty"`

	// Name is a file name (file parts) or a resource name (resource links).
	Name string `json:"name,omitempty"`
}

// TextPart returns a text part.
func TextPart(text string) Part { return Part{Kind: PartText, Text: text} }

// ImagePart returns an image part holding data (raw bytes, not base64) of
// the given MIME type, e.g. ImagePart("image/png", png).
func ImagePart(mimeType string, data []byte) Part {
	return Part{Kind: PartImage, MIMEType: mimeType, Data: data}
}

// ImageURLPart returns an image part the provider fetches from url.
// mimeType may be "" when unknown.
func ImageURLPart(mimeType, url string) Part {
	return Part{Kind: PartImage, MIMEType: mimeType, URL: url}
}

// AudioPart returns an audio part holding data (raw bytes) of the given
// MIME type, e.g. AudioPart("audio/wav", wav).
func AudioPart(mimeType string, data []byte) Part {
	return Part{Kind: PartAudio, MIMEType: mimeType, Data: data}
}

// FilePart returns a file (document) part named name holding data (raw
// bytes) of the given MIME type, e.g. FilePart("report.pdf",
// "application/pdf", pdf).
func FilePart(name, mimeType string, data []byte) Part {
	return Part{Kind: PartFile, Name: name, MIMEType: mimeType, Data: data}
}

// FileURLPart returns a file part the provider fetches from url.
func FileURLPart(name, mimeType, url string) Part {
	return Part{Kind: PartFile, Name: name, MIMEType: mimeType, URL: url}
}

// ResourceLinkPart returns a link to the resource at uri (MCP
// "resource_link"). name and mimeType may be "".
func ResourceLinkPart(uri, name, mimeType string) Part {
	return Part{Kind: PartResourceLink, URL: uri, Name: name, MIMEType: mimeType}
}

// ResourcePart returns an embedded text resource (MCP "resource" with
// "text"): its URI, MIME type and content.
func ResourcePart(uri, mimeType, text string) Part {
	return Part{Kind: PartResource, URL: uri, MIMEType: mimeType, Text: text}
}

// IsBinary reports whether the part carries bytes or a URL rather than
// text: image, audio and file parts, resource links, and embedded
// resources with Data.
func (p Part) IsBinary() bool {
	switch p.Kind {
	case PartText:
		return false
	case PartResource:
		return len(p.Data) > 0 || p.Text == ""
	}
	return true
}

// Summary is the text stand-in for the part where only text can go (OpenAI
// Chat Completions tool messages, a terminal, Result.Text): a text part is
// its text, an embedded text resource its text; everything else is one
// bracketed line naming the kind, the MIME type and the size or the
// address, e.g. "[image: image/png, 12345 bytes]",
// "[file: report.pdf, application/pdf, 3 bytes]",
// "[image: https://example.com/a.png]", "[resource link: file:///a.txt]".
// The result is valid UTF-8.
func (p Part) Summary() string {
	switch p.Kind {
	case PartText:
		return validText(p.Text)
	case PartResource:
		if len(p.Data) == 0 && p.Text != "" {
			return validText(p.Text)
		}
	}
	what := string(p.Kind)
	if p.Kind == PartResourceLink {
		what = "resource link"
	}
	var fields []string
	if p.Kind == PartFile && p.Name != "" {
		fields = append(fields, p.Name)
	}
	if p.Kind == PartResourceLink || p.Kind == PartResource {
		fields = append(fields, p.URL)
	}
	if p.MIMEType != "" {
		fields = append(fields, p.MIMEType)
	}
	switch {
	case len(p.Data) > 0:
		fields = append(fields, fmt.Sprintf("%d bytes", len(p.Data)))
	case p.URL != "" && p.Kind != PartResourceLink && p.Kind != PartResource:
		fields = append(fields, p.URL)
	}
	return validText("[" + what + ": " + strings.Join(fields, ", ") + "]")
}

// ContentText joins the parts' [Part.Summary] texts with "\n".
func ContentText(parts []Part) string {
	if len(parts) == 1 {
		return parts[0].Summary()
	}
	s := make([]string, len(parts))
	for i := range parts {
		s[i] = parts[i].Summary()
	}
	return strings.Join(s, "\n")
}

// Text is the result as text alone, what providers that take only text
// get: with Content, Output when it is not "" and otherwise [ContentText]
// of Content; without Content, the JSON text of Structured when set (the
// structured value is the result; an MCP server's text block beside it
// may only describe it), and otherwise Output.
func (r Result) Text() string {
	switch {
	case len(r.Content) > 0:
		if r.Output != "" {
			return r.Output
		}
		return ContentText(r.Content)
	case r.Structured != nil:
		return validText(string(r.Structured))
	}
	return r.Output
}

// Parts is the result's content as parts: Content when it is not empty,
// otherwise one text part holding [Result.Text] (none when that is "").
func (r Result) Parts() []Part {
	if len(r.Content) > 0 {
		return r.Content
	}
	t := r.Text()
	if t == "" {
		return nil
	}
	return []Part{TextPart(t)}
}

// ContentResult returns a successful Result whose content is parts.
// Output stays "": [Result.Text] gives the text stand-in.
func ContentResult(parts ...Part) Result {
	return Result{Content: parts}
}

// JSONResult returns a successful Result with a structured value: v
// marshalled with encoding/json is both Structured and Output (its JSON
// text), so providers without structured results read the same JSON. The
// error is json.Marshal's. Use [NewOutputTool] to have the value checked
// against a declared output schema.
func JSONResult(v any) (Result, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return Result{}, fmt.Errorf("toolnexus: JSONResult: %w", err)
	}
	return Result{Output: string(b), Structured: b}, nil
}

func validText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
