package mcp

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnexus/toolnexus"
)

// callResult turns a registry Result into the MCP tools/call result:
//
//   - content: each [toolnexus.Part] as the MCP content type of the same
//     kind (text, image, audio, resource_link, resource). An image or audio
//     part given by URL, and a file part given by URL, become a
//     resource_link (MCP images and audio carry base64 data); a file part
//     with data becomes an embedded blob resource whose URI is the part's
//     URL, or "file:///" plus its name when it has none. Without Content,
//     one text block holding [toolnexus.Result.Text].
//   - structuredContent: Result.Structured, bytes unchanged; its JSON text
//     is in a text block too (as the MCP specification asks), added when
//     no text block already holds it.
//   - isError: Result.IsError.
func callResult(res toolnexus.Result) *mcpsdk.CallToolResult {
	parts := res.Parts()
	content := make([]mcpsdk.Content, 0, len(parts)+1)
	hasJSON := false
	for _, p := range parts {
		c := sdkContent(p)
		if t, ok := c.(*mcpsdk.TextContent); ok && res.Structured != nil && t.Text == string(res.Structured) {
			hasJSON = true
		}
		content = append(content, c)
	}
	out := &mcpsdk.CallToolResult{Content: content, IsError: res.IsError}
	if res.Structured != nil {
		out.StructuredContent = res.Structured
		if !hasJSON {
			out.Content = append(out.Content, &mcpsdk.TextContent{Text: string(res.Structured)})
		}
	}
	return out
}

// sdkContent is one part as MCP content.
func sdkContent(p toolnexus.Part) mcpsdk.Content {
	switch p.Kind {
	case toolnexus.PartText:
		return &mcpsdk.TextContent{Text: p.Text}
	case toolnexus.PartImage:
		if p.Data != nil || p.URL == "" {
			return &mcpsdk.ImageContent{Data: p.Data, MIMEType: p.MIMEType}
		}
	case toolnexus.PartAudio:
		if p.Data != nil || p.URL == "" {
			return &mcpsdk.AudioContent{Data: p.Data, MIMEType: p.MIMEType}
		}
	case toolnexus.PartFile:
		if p.Data != nil || p.URL == "" {
			uri := p.URL
			if uri == "" {
				uri = "file:///" + strings.TrimLeft(p.Name, "/")
			}
			return &mcpsdk.EmbeddedResource{Resource: &mcpsdk.ResourceContents{URI: uri, MIMEType: p.MIMEType, Blob: nonNil(p.Data)}}
		}
	case toolnexus.PartResource:
		r := &mcpsdk.ResourceContents{URI: p.URL, MIMEType: p.MIMEType, Text: p.Text}
		if p.Data != nil {
			r.Text, r.Blob = "", p.Data
		}
		return &mcpsdk.EmbeddedResource{Resource: r}
	case toolnexus.PartResourceLink:
	default:
		return &mcpsdk.TextContent{Text: p.Summary()}
	}
	name := p.Name
	if name == "" {
		name = p.URL
	}
	return &mcpsdk.ResourceLink{URI: p.URL, Name: name, MIMEType: p.MIMEType}
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// resultFromMCP turns an upstream tools/call result into a registry
// Result (see [Load] for the rules).
func resultFromMCP(res *mcpsdk.CallToolResult) toolnexus.Result {
	var out toolnexus.Result
	var texts []string
	rich := false
	for _, p := range partsFromMCP(res.Content) {
		if p.Kind == toolnexus.PartText {
			texts = append(texts, p.Text)
		} else {
			rich = true
		}
		out.Content = append(out.Content, p)
	}
	out.Output = strings.Join(texts, "\n")
	if !rich {
		out.Content = nil
	}
	if res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			out.Structured = b
			if out.Output == "" && !rich {
				out.Output = string(b)
			}
		}
	}
	return out
}

// partsFromMCP converts content blocks to parts, skipping block types
// toolnexus has no part for.
func partsFromMCP(content []mcpsdk.Content) []toolnexus.Part {
	parts := make([]toolnexus.Part, 0, len(content))
	for _, c := range content {
		if p, ok := partFromMCP(c); ok {
			parts = append(parts, p)
		}
	}
	return parts
}

// partFromMCP is one MCP content block as a part; ok is false for a block
// type toolnexus has no part for.
func partFromMCP(c mcpsdk.Content) (p toolnexus.Part, ok bool) {
	switch c := c.(type) {
	case *mcpsdk.TextContent:
		return toolnexus.TextPart(c.Text), true
	case *mcpsdk.ImageContent:
		return toolnexus.ImagePart(c.MIMEType, c.Data), true
	case *mcpsdk.AudioContent:
		return toolnexus.AudioPart(c.MIMEType, c.Data), true
	case *mcpsdk.ResourceLink:
		return toolnexus.ResourceLinkPart(c.URI, c.Name, c.MIMEType), true
	case *mcpsdk.EmbeddedResource:
		if c.Resource == nil {
			return p, false
		}
		r := c.Resource
		p = toolnexus.Part{Kind: toolnexus.PartResource, URL: r.URI, MIMEType: r.MIMEType, Text: r.Text}
		if r.Blob != nil {
			p.Text, p.Data = "", r.Blob
		}
		return p, true
	}
	return p, false
}

// sessionEvents returns the receiver of a served call's progress and log
// events: progress becomes notifications/progress with the request's
// progressToken (dropped when the client sent none), a log line becomes
// notifications/message with logger set to the tool name (the session
// drops it unless the client asked for logging at that level). Send
// errors are ignored: events are advisory and the call goes on.
func sessionEvents(ctx context.Context, req *mcpsdk.CallToolRequest, tool string) func(toolnexus.Event) {
	if req == nil || req.Session == nil {
		return nil
	}
	var token any
	if req.Params != nil {
		token = req.Params.GetProgressToken()
	}
	return func(e toolnexus.Event) {
		switch e.Kind {
		case toolnexus.EventProgress:
			if token == nil {
				return
			}
			_ = req.Session.NotifyProgress(ctx, &mcpsdk.ProgressNotificationParams{
				ProgressToken: token, Progress: e.Progress, Total: e.Total, Message: e.Message})
		case toolnexus.EventLog:
			_ = req.Session.Log(ctx, &mcpsdk.LoggingMessageParams{Level: mcpLevel(e.Level), Logger: tool, Data: e.Message})
		}
	}
}

// mcpLevel maps a slog level to the nearest MCP logging level at or
// below it: below Info "debug", below Info+2 "info", below Warn "notice",
// below Error "warning", below Error+4 "error", then "critical".
func mcpLevel(l slog.Level) mcpsdk.LoggingLevel {
	switch {
	case l < slog.LevelInfo:
		return "debug"
	case l < slog.LevelInfo+2:
		return "info"
	case l < slog.LevelWarn:
		return "notice"
	case l < slog.LevelError:
		return "warning"
	case l < slog.LevelError+4:
		return "error"
	}
	return "critical"
}
