// Command mcptest is a test helper for package mcp.
//
//	mcptest sdk      serve testserver.NewSDKServer on stdio
//	mcptest serve    serve testserver.NewRegistry with mcp.Server on stdio
//	mcptest crash    write to stderr and exit 3 before speaking MCP
//	mcptest hang     never answer
//	mcptest raw      a hand-written, misbehaving server (see raw.go)
package main

import (
	"context"
	"fmt"
	"os"
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
		raw()
	default:
		fmt.Fprintln(os.Stderr, "usage: mcptest sdk|serve|crash|hang|raw")
		os.Exit(2)
	}
}
