package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"

	"github.com/toolnexus/toolnexus/mcp"
)

// browserEnv names the program that opens the authorization page of a
// remote MCP server that asks for OAuth; it gets the URL as its only
// argument. Unset, BROWSER is used the same way; with neither, the URL is
// only printed.
const browserEnv = "TOOLNEXUS_BROWSER"

// localOAuth is the CLI's OAuth for remote MCP servers (mcp.LocalOAuth):
// tokens kept under the user's config directory, the page shown by
// printing its URL on stderr and opening it with TOOLNEXUS_BROWSER or
// BROWSER when set.
func localOAuth(e *env) *mcp.LocalOAuth {
	return &mcp.LocalOAuth{Open: func(ctx context.Context, url string) error {
		fmt.Fprintf(e.stderr, "toolnexus: an MCP server asks for authorization; open this page to allow it:\n  %s\n", url)
		prog := os.Getenv(browserEnv)
		if prog == "" {
			prog = os.Getenv("BROWSER")
		}
		if prog == "" {
			return nil
		}
		cmd := exec.CommandContext(ctx, prog, url)
		cmd.Stdout, cmd.Stderr = e.stderr, e.stderr
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("%s: %w", prog, err)
		}
		go func() { _ = cmd.Wait() }()
		return nil
	}}
}
