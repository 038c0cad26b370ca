package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnexus/toolnexus"
)

// listedTool is one tool of a listing with its raw input schema.
type listedTool struct {
	tool   *mcpsdk.Tool
	schema json.RawMessage // as the server sent it, compacted; nil if not captured
	task   bool            // execution.taskSupport "required": called as a task
	built  *builtTool      // the last conversion (set under Servers.mu), reused while the name stays
}

// builtTool is the outcome of conn.tool for one registry name.
type builtTool struct {
	name      string
	tool      toolnexus.Tool
	note      string
	unchecked string // what CheckArguments does not check locally ("" for all)
	err       error
}

// tool makes the registry tool for one listed tool, and checks it the way
// Registry.Add does (the error is the registry's). note says what was
// changed to make it fit ("" for nothing).
func (c *conn) tool(lt listedTool, name string) (tool toolnexus.Tool, note, unchecked string, err error) {
	t := lt.tool
	schema := lt.schema
	if schema == nil {
		if schema, err = json.Marshal(t.InputSchema); err != nil {
			return toolnexus.Tool{}, "", "", fmt.Errorf("input schema: %v", err)
		}
	}
	desc := t.Description
	if n := utf8.RuneCountInString(desc); n > toolnexus.MaxDescriptionLength {
		r := []rune(desc)
		desc = string(r[:toolnexus.MaxDescriptionLength-1]) + "…"
		note = fmt.Sprintf("description cut from %d to %d characters", n, toolnexus.MaxDescriptionLength)
	}
	out := toolnexus.Tool{
		Name:        name,
		Title:       t.Title,
		Description: desc,
		InputSchema: schema,
		Source:      "mcp",
		Timeout:     c.cfg.timeout(),
	}
	if t.OutputSchema != nil {
		b, err := json.Marshal(t.OutputSchema)
		if err != nil {
			return toolnexus.Tool{}, "", "", fmt.Errorf("output schema: %v", err)
		}
		out.OutputSchema = b
	}
	// Arguments are checked locally against the server's schema first;
	// what the engine cannot check is reported, never a refused tool.
	out.Handler, unchecked = toolnexus.CheckArguments(name, schema, toolHandler{conn: c, tool: t.Name, task: lt.task})
	if a := t.Annotations; a != nil {
		out.Annotations = &toolnexus.Annotations{
			Title:           a.Title,
			ReadOnlyHint:    a.ReadOnlyHint,
			DestructiveHint: a.DestructiveHint,
			IdempotentHint:  a.IdempotentHint,
			OpenWorldHint:   a.OpenWorldHint,
		}
	}
	// A registry of its own per tool: Add's checks, at constant cost.
	if err := toolnexus.NewRegistry().Add(out); err != nil {
		return toolnexus.Tool{}, "", "", err
	}
	return out, note, unchecked, nil
}

// ToolError is the Go cause (Result.Err) of an MCP tool result that had
// isError set.
type ToolError struct {
	Server, Tool string // names as the server knows them
	Message      string // the result's text parts joined by "\n"
}

// Error returns `mcp: tool "tool" on server "server" failed: message`.
func (e *ToolError) Error() string {
	return fmt.Sprintf("mcp: tool %q on server %q failed: %s", e.Tool, e.Server, e.Message)
}

// toolHandler calls one tool of one server. It is a comparable value, so
// two Tools made for the same server tool have equal Handlers.
type toolHandler struct {
	conn *conn
	tool string
	task bool // call it as a task (see callTask)
}

// Call implements toolnexus.Handler. What comes from the server is
// cleaned: Output and the text of Content's parts by cleanText, each
// part's URI, name and MIME type by cleanLine; then the result is capped
// at LoadOptions.MaxOutputBytes by toolnexus.Result.Capped (see Load).
func (h toolHandler) Call(ctx context.Context, args json.RawMessage) toolnexus.Result {
	res := h.call(ctx, args)
	res.Output = cleanText(res.Output)
	for i := range res.Content { // built for this call: ours to change
		p := &res.Content[i]
		p.Text, p.URL, p.Name, p.MIMEType = cleanText(p.Text), cleanLine(p.URL), cleanLine(p.Name), cleanLine(p.MIMEType)
	}
	return res.Capped(h.conn.opts.MaxOutputBytes)
}

// cleanLine is cleanText(s) with "\n" and "\t" escaped too, as `\n` and
// `\t`: a one-line value (a URI, a name, a MIME type) that cannot start
// lines of its own in a part's stand-in.
func cleanLine(s string) string {
	return lineEscapes.Replace(cleanText(s))
}

var lineEscapes = strings.NewReplacer("\n", `\n`, "\t", `\t`)

func (h toolHandler) call(ctx context.Context, args json.RawMessage) toolnexus.Result {
	server := h.conn.cfg.Name
	meta := map[string]any{"mcp_server": server, "mcp_tool": h.tool}
	session := h.conn.liveSession()
	if session == nil {
		return toolnexus.Result{Output: fmt.Sprintf("MCP server %q is not connected", server), IsError: true,
			Err: fmt.Errorf("mcp: server %q is not connected", server), Metadata: meta}
	}
	var res *mcpsdk.CallToolResult
	var err error
	if h.task {
		res, err = callTask(ctx, session, h.tool, args)
	} else {
		res, err = session.CallTool(ctx, &mcpsdk.CallToolParams{Name: h.tool, Arguments: args})
	}
	if err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		out := callErrorText(server, h.tool, err)
		err = fmt.Errorf("mcp: server %q: tool %q: %w", server, h.tool, err)
		return toolnexus.Result{Output: out, IsError: true, Err: err, Metadata: meta}
	}
	if res.IsError {
		text := toolnexus.ContentText(partsFromMCP(res.Content))
		if text == "" {
			text = "the tool reported an error without a message"
		}
		return toolnexus.Result{Output: text, IsError: true, Metadata: meta,
			Err: &ToolError{Server: server, Tool: h.tool, Message: text}}
	}
	out := resultFromMCP(res)
	out.Metadata = meta
	return out
}

// callErrorText is the model-facing text for a tools/call that failed
// without a result: short, and free of Go type names (the SDK's decoding
// errors name Go struct types; those stay in Result.Err).
func callErrorText(server, tool string, err error) string {
	var wire *jsonrpc.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		return fmt.Sprintf("MCP server %q: tool %q: %v", server, tool, err)
	case errors.As(err, &wire):
		return fmt.Sprintf("MCP server %q: tool %q: %s", server, tool, wire.Message)
	case errors.Is(err, mcpsdk.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Sprintf("MCP server %q: connection closed", server)
	case isDecodeError(err):
		return fmt.Sprintf("MCP server %q sent an invalid tools/call result", server)
	default:
		return fmt.Sprintf("MCP server %q: calling tool %q failed", server, tool)
	}
}

// isDecodeError reports whether err comes from decoding a result.
func isDecodeError(err error) bool {
	var (
		typeErr   *json.UnmarshalTypeError
		syntaxErr *json.SyntaxError
	)
	return errors.As(err, &typeErr) || errors.As(err, &syntaxErr) || strings.Contains(err.Error(), "json: ") ||
		strings.Contains(err.Error(), "content type")
}
