// Package mcp connects toolnexus to the Model Context Protocol in both
// directions, on the official Go SDK (github.com/modelcontextprotocol/go-sdk,
// package mcp, imported here as mcpsdk). This package never writes
// JSON-RPC itself.
//
// # Serving a registry
//
// [NewServer] exposes every tool of a [toolnexus.Registry] to MCP clients:
//
//	srv := mcp.NewServer(reg, nil)
//	defer srv.Close()
//	err := srv.ServeStdio(ctx)                       // a client launched us
//	err = srv.ListenAndServe(ctx, "127.0.0.1:8080", nil) // streamable HTTP
//	http.Handle("/mcp", srv.Handler())               // or mount it yourself
//
// tools/list gives the tools sorted by name with their schema bytes
// unchanged; tools/call runs Registry.Execute and answers with the Output
// as one text block, isError set for error results (invalid arguments
// included, so the model can correct itself). Tools added to or removed
// from the registry later are picked up, and clients are sent
// notifications/tools/list_changed. A registry tool the SDK refuses to
// serve (invalid x-mcp-header annotations) is skipped and reported by
// [Server.Skipped] rather than panicking. `toolnexus serve` is this, on a
// toolkit.
//
// # Loading tools from MCP servers
//
// [ParseConfig] (or [LoadConfig]) reads the configuration shape shared by
// Claude ("mcpServers"), VS Code ("servers") and opencode ("mcp"):
//
//	{"mcpServers": {
//	  "files":  {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]},
//	  "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
//	  "off":    {"command": ["./server"], "disabled": true, "timeout": "10s"}
//	}}
//
// [Load] starts the local servers (stdio) and connects to the remote ones
// (streamable HTTP; "type": "sse" for the older transport) concurrently,
// lists their tools and turns each into a [toolnexus.Tool] named
// "server_tool" (see [ToolNames] for the 64-character rule), with the
// server's input schema bytes unchanged:
//
//	servers := mcp.Load(ctx, cfg, nil)
//	defer servers.Close()                  // stops every server process
//	for _, st := range servers.Status() {  // connected, failed (Reason) or disabled
//		log.Println(st.Name, st.State, st.Reason)
//	}
//	err := reg.Add(servers.Tools()...)
//
// A server that fails to start, to initialize or to list within its timeout
// (default 30 s), or lists more than LoadOptions.MaxTools tools (1000) or
// MaxListPages pages (100), is isolated: none of its tools is used, the
// others load, and Status says why it failed (including the last lines of
// its stderr, control characters escaped). A server whose connection is
// lost later (its process exited) turns failed too, with "connection
// closed" and the exit status, and its tools go; one that sends
// notifications/tools/list_changed is listed again ([Servers.OnChange]).
// Tools a server lists but the registry would refuse, or the SDK client
// drops, are in Status's Skipped with the reason. Local servers get a
// small default environment ([DefaultEnvNames]) plus their "env", unless
// "inheritEnv" is set. Outputs are capped (LoadOptions.MaxOutputBytes,
// 32 KiB) and their control characters escaped. Header
// values are expanded from the environment (${VAR}, ${VAR:-default}; no
// nesting, no escape) only when connecting, and never appear in errors,
// status or logs.
//
// Calling a loaded tool calls the server. An isError result becomes an
// error Result whose Output is its text parts joined by "\n" (Err is a
// [*ToolError]); a call that fails without a result has a short Output such
// as `MCP server "x" sent an invalid tools/call result` or
// `MCP server "x": connection closed`, the Go error being in Err; structuredContent becomes its JSON text; images, audio and
// resources are described in brackets. package toolkit's Config.MCP and
// Config.MCPFile do all of this for a toolkit, and `toolnexus tools`,
// `call` and `serve` take --mcp FILE.
//
// # Schema bytes
//
// The SDK client decodes a tool's inputSchema into map[string]any, which
// would reorder its keys (properties included) when re-encoded. Load
// captures the raw tools/list results as they arrive instead: on stdio by
// wrapping the SDK connection (the JSON-RPC result is still raw there),
// over HTTP by reading the response stream as the SDK does. The schema a
// model sees is the one the server wrote.
package mcp
