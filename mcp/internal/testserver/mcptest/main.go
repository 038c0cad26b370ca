// Command mcptest is a test helper for package mcp.
//
//	mcptest sdk      serve testserver.NewSDKServer on stdio
//	mcptest serve    serve testserver.NewRegistry with mcp.Server on stdio
//	mcptest crash    write to stderr and exit 3 before speaking MCP
//	mcptest hang     never answer
//	mcptest raw      a hand-written, misbehaving server (see raw.go)
//	mcptest badtool  like raw, but its tools are "good" and "dupkey" (a schema the registry refuses)
//	mcptest live     serve one tool, "grow", that adds a tool "extra" (answering "extra"); the server
//	                 then sends notifications/tools/list_changed
//	mcptest env      serve one tool, "env": the names of its environment variables, one a line, sorted,
//	                 with the value of FOO ("FOO=value")
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnexus/toolnexus/mcp"
	"github.com/toolnexus/toolnexus/mcp/internal/testserver"
)

func main() {
	mode := ""
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	ctx := context.Background()
	switch mode {
	case "sdk":
		if err := testserver.NewSDKServer().Run(ctx, &mcpsdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "mcptest:", err)
		}
	case "serve":
		reg, err := testserver.NewRegistry()
		if err != nil {
			fmt.Fprintln(os.Stderr, "mcptest:", err)
			os.Exit(1)
		}
		if err := mcp.NewServer(reg, nil).ServeStdio(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "mcptest:", err)
			os.Exit(1)
		}
	case "crash":
		fmt.Fprintln(os.Stderr, "mcptest: cannot read settings: permission denied")
		os.Exit(3)
	case "hang":
		time.Sleep(time.Hour)
	case "raw":
		raw(rawTools)
	case "badtool":
		raw(badTools)
	case "live":
		s := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "live", Version: "0"}, nil)
		answer := func(text string) mcpsdk.ToolHandler {
			return func(context.Context, *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
				return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: text}}}, nil
			}
		}
		schema := json.RawMessage(`{"type":"object"}`)
		s.AddTool(&mcpsdk.Tool{Name: "grow", InputSchema: schema},
			func(ctx context.Context, req *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
				s.AddTool(&mcpsdk.Tool{Name: "extra", InputSchema: schema}, answer("extra"))
				return answer("grown")(ctx, req)
			})
		if err := s.Run(ctx, &mcpsdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "mcptest:", err)
		}
	case "env":
		s := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "env", Version: "0"}, nil)
		s.AddTool(&mcpsdk.Tool{Name: "env", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
				var lines []string
				for _, kv := range os.Environ() {
					k, v, _ := strings.Cut(kv, "=")
					if k == "FOO" {
						k += "=" + v
					}
					lines = append(lines, k)
				}
				sort.Strings(lines)
				return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: strings.Join(lines, "\n")}}}, nil
			})
		if err := s.Run(ctx, &mcpsdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "mcptest:", err)
		}
	default:
		fmt.Fprintln(os.Stderr, "usage: mcptest sdk|serve|crash|hang|raw|badtool|live|env")
		os.Exit(2)
	}
}
