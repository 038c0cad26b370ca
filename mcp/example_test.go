package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/mcp"
)

// Serve a registry and talk to it with the SDK's own client, in memory.
func ExampleNewServer() {
	ctx := context.Background()
	reg := toolnexus.NewRegistry()
	type args struct {
		City string `json:"city" jsonschema:"description=City name"`
	}
	toolnexus.MustRegister(reg, "get_weather", "Get the weather", func(ctx context.Context, a args) (string, error) {
		return "22 degrees in " + a.City, nil
	})

	srv := mcp.NewServer(reg, nil)
	defer srv.Close()
	clientT, serverT := mcpsdk.NewInMemoryTransports()
	if _, err := srv.SDKServer().Connect(ctx, serverT, nil); err != nil {
		panic(err)
	}
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "example", Version: "1"}, nil)
	cs, err := client.Connect(ctx, clientT, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()

	list, _ := cs.ListTools(ctx, nil)
	fmt.Println(list.Tools[0].Name)
	for _, a := range []string{`{"city":"Paris"}`, `{"city":7}`} {
		res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "get_weather", Arguments: json.RawMessage(a)})
		if err != nil {
			panic(err)
		}
		fmt.Println(res.IsError, res.Content[0].(*mcpsdk.TextContent).Text)
	}
	// Output:
	// get_weather
	// false 22 degrees in Paris
	// true invalid arguments for "get_weather": "city" must be a string, got a number
}

func ExampleParseConfig() {
	cfg, err := mcp.ParseConfig([]byte(`{"mcpServers": {
		"files":  {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]},
		"remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
		"off":    {"command": ["./server", "--fast"], "enabled": false, "timeout": 5000}
	}}`))
	if err != nil {
		panic(err)
	}
	for _, name := range cfg.Names() {
		s := cfg.Servers[name]
		fmt.Println(s, s.Timeout)
	}
	// Output:
	// files (stdio: ["npx" "-y" "@modelcontextprotocol/server-filesystem" "/tmp"]) 0s
	// off (stdio: ["./server" "--fast"], disabled) 5s
	// remote (http: https://example.com/mcp, headers [Authorization=<redacted>]) 0s
}

func ExampleToolNames() {
	refs := []mcp.ToolRef{
		{Server: "github", Tool: "create_issue"},
		{Server: "my.server", Tool: "get/weather"},
		{Server: "s", Tool: "a.b"}, // "s_a_b" twice after sanitising:
		{Server: "s", Tool: "a_b"}, // both get a hash suffix
	}
	names := mcp.ToolNames(refs)
	for _, r := range refs {
		fmt.Println(names[r])
	}
	// Output:
	// github_create_issue
	// my_server_get_weather
	// s_a_b_407e8e5c
	// s_a_b_8d47d403
}

// Load tools from a configuration; here the only server is disabled, so
// nothing is started.
func ExampleLoad() {
	cfg, _ := mcp.ParseConfig([]byte(`{"servers": {"off": {"command": "srv", "disabled": true}}}`))
	servers := mcp.Load(context.Background(), cfg, nil)
	defer servers.Close()
	for _, st := range servers.Status() {
		fmt.Println(st.Name, st.State, len(servers.Tools()))
	}
	// Output:
	// off disabled 0
}

// Load the tools of a server that runs in this process: LoadOptions.Dial
// gives its transport, and the config names it.
func ExampleLoadOptions_dial() {
	ctx := context.Background()
	srv := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "local", Version: "1"}, nil)
	type args struct {
		Text string `json:"text"`
	}
	mcpsdk.AddTool(srv, &mcpsdk.Tool{Name: "echo", Description: "Echo the text."},
		func(ctx context.Context, _ *mcpsdk.CallToolRequest, a args) (*mcpsdk.CallToolResult, any, error) {
			return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: a.Text}}}, nil, nil
		})
	clientT, serverT := mcpsdk.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, serverT, nil); err != nil {
		panic(err)
	}

	cfg, _ := mcp.ParseConfig([]byte(`{"servers": {"local": {"command": "unused"}}}`))
	servers := mcp.Load(ctx, cfg, &mcp.LoadOptions{Dial: func(string) mcpsdk.Transport { return clientT }})
	defer servers.Close()
	reg := toolnexus.NewRegistry()
	for _, t := range servers.Tools() {
		if err := reg.Add(t); err != nil {
			panic(err)
		}
	}
	fmt.Println(reg.Execute(ctx, "local_echo", json.RawMessage(`{"text":"hi"}`)).Output)
	// Output:
	// hi
}
