package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnexus/toolnexus/mcp"
)

// ---- serve ----

type serveOpts struct {
	kit  kitFlags
	http string
}

var serveCommand = &command{
	name:    "serve",
	args:    "[--skills DIR]... [--mcp FILE] [--no-builtins] [--disable NAME,...] [--workspace DIR] [--http ADDR]",
	summary: "serve the toolkit's tools to MCP clients (stdio, or streamable HTTP with --http)",
	detail: "Builds the toolkit and serves its tools over the Model Context Protocol:\n" +
		"tools/list gives every tool with its input schema, tools/call runs it, and\n" +
		"an error result (invalid arguments, a failed call) comes back with isError\n" +
		"set. By default the server speaks MCP on standard input and output, for a\n" +
		"client that launches it (command \"toolnexus\", args [\"serve\", ...]); with\n" +
		"--http it listens on ADDR (host:port) for the streamable HTTP transport at\n" +
		"any path, until interrupted. With --skills, the skills prompt is sent as\n" +
		"the server's instructions. Diagnostics go to standard error.",
	flags: func(fs *flag.FlagSet) any {
		o := &serveOpts{}
		o.kit.register(fs)
		fs.StringVar(&o.http, "http", "", "serve streamable HTTP on `ADDR` (e.g. 127.0.0.1:8080) instead of stdio")
		return o
	},
	run: func(e *env, opts any, args []string) int {
		o := opts.(*serveOpts)
		tk, err := o.kit.build(e)
		if err != nil {
			return fail(e, err)
		}
		defer tk.Close()
		sopts := &mcp.ServerOptions{Name: "toolnexus"}
		if tk.Skills().Len() > 0 {
			sopts.Instructions = tk.SkillsPrompt()
		}
		srv := mcp.NewServer(tk.Registry, sopts)
		defer srv.Close()
		for _, sk := range srv.Skipped() { // "name: reason"
			fmt.Fprintf(e.stderr, "toolnexus: warning: tool not served over MCP: %s\n", sk)
		}
		if o.http != "" {
			err = srv.ListenAndServe(e.ctx, o.http, func(a net.Addr) {
				fmt.Fprintf(e.stderr, "toolnexus: serving %d tools over MCP streamable HTTP on http://%s/\n", tk.Len(), a)
			})
		} else {
			err = srv.Run(e.ctx, &mcpsdk.IOTransport{Reader: io.NopCloser(e.stdin), Writer: nopWriteCloser{e.stdout}})
			if errors.Is(err, context.Canceled) || errors.Is(err, mcpsdk.ErrConnectionClosed) || errors.Is(err, io.EOF) {
				err = nil
			}
		}
		if err != nil {
			return fail(e, err)
		}
		return exitOK
	},
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
