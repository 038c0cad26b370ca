package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render"
)

// TestEverythingServer loads the reference server
// @modelcontextprotocol/server-everything (npm) over stdio with Node.
// TOOLNEXUS_EVERYTHING_DIR must name the prefix it was installed into:
//
//	npm install --prefix "$DIR" @modelcontextprotocol/server-everything@2026.8.31
//	TOOLNEXUS_EVERYTHING_DIR="$DIR" go test ./mcp -run Everything
func TestEverythingServer(t *testing.T) {
	dir := os.Getenv("TOOLNEXUS_EVERYTHING_DIR")
	if dir == "" {
		t.Skip("TOOLNEXUS_EVERYTHING_DIR is not set (npm install --prefix DIR @modelcontextprotocol/server-everything, then set it to DIR)")
	}
	entry := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(entry); err != nil {
		t.Fatalf("TOOLNEXUS_EVERYTHING_DIR=%s: %v", dir, err)
	}
	cfgJSON, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"everything": map[string]any{"command": "node", "args": []string{entry, "stdio"}, "timeout": 60000},
	}})
	cfg, err := ParseConfig(cfgJSON)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	servers := Load(ctx, cfg, nil)
	defer servers.Close()
	st := servers.Status()[0]
	if st.State != StateConnected {
		t.Fatalf("everything server: %+v", st)
	}
	if len(st.Skipped) > 0 {
		t.Errorf("skipped tools: %v", st.Skipped)
	}
	if !strings.HasPrefix(st.ServerInfo, "mcp-servers/everything ") {
		t.Errorf("server info = %q", st.ServerInfo)
	}
	reg := toolnexus.NewRegistry()
	if err := reg.Add(servers.Tools()...); err != nil {
		t.Fatalf("Registry.Add: %v", err)
	}
	for _, name := range []string{"everything_echo", "everything_get-sum", "everything_get-structured-content", "everything_get-tiny-image"} {
		if _, ok := reg.Get(name); !ok {
			t.Errorf("tool %s not loaded; have %v", name, reg.Names())
		}
	}
	tools := reg.Tools()
	if len(tools) < 8 {
		t.Errorf("only %d tools: %v", len(tools), reg.Names())
	}
	// The schema bytes are the server's, key order included.
	echo, _ := reg.Get("everything_echo")
	if !strings.HasPrefix(string(echo.InputSchema), `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"message":`) {
		t.Errorf("echo schema = %s", echo.InputSchema)
	}

	// Every provider renders every tool.
	renders := map[string]func() (any, error){
		"openai":           func() (any, error) { return render.OpenAI(tools), nil },
		"openai-strict":    func() (any, error) { return render.OpenAIStrict(tools) },
		"openai-responses": func() (any, error) { return render.OpenAIResponses(tools), nil },
		"anthropic":        func() (any, error) { return render.Anthropic(tools) },
		"gemini":           func() (any, error) { return render.Gemini(tools) },
		"mcp":              func() (any, error) { return render.MCP(tools), nil },
	}
	for provider, fn := range renders {
		v, err := fn()
		if err != nil {
			t.Errorf("render %s: %v", provider, err)
			continue
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Errorf("render %s: marshal: %v", provider, err)
			continue
		}
		for _, tool := range tools {
			if !strings.Contains(string(out), `"`+tool.Name+`"`) {
				t.Errorf("render %s: %s missing", provider, tool.Name)
			}
		}
	}

	calls := []struct {
		tool, args, want string
	}{
		{"everything_echo", `{"message":"hello from toolnexus"}`, "Echo: hello from toolnexus"},
		{"everything_get-sum", `{"a":2,"b":40}`, "The sum of 2 and 40 is 42."},
		{"everything_get-structured-content", `{"location":"Chicago"}`, `{"conditions":"Light rain / drizzle","humidity":82,"temperature":36}`},
		{"everything_get-tiny-image", `{}`, "The image above is the MCP logo."},
	}
	for _, c := range calls {
		res := reg.Execute(ctx, c.tool, json.RawMessage(c.args))
		t.Logf("%s -> %q", c.tool, res.Text())
		if res.IsError || !strings.Contains(res.Text(), c.want) {
			t.Errorf("Execute(%s, %s) = %+v, want output containing %q", c.tool, c.args, res, c.want)
		}
	}
	// The image stays an image part (it reaches providers that take
	// images as an image), beside the text parts.
	res := reg.Execute(ctx, "everything_get-tiny-image", json.RawMessage(`{}`))
	var images int
	for _, p := range res.Content {
		if p.Kind == toolnexus.PartImage && p.MIMEType == "image/png" && len(p.Data) > 1000 && string(p.Data[1:4]) == "PNG" {
			images++
		}
	}
	if images != 1 {
		t.Errorf("get-tiny-image gave %d PNG image parts, want 1: %d parts", images, len(res.Content))
	}
	// Bad arguments are refused locally against the server's schema, every
	// problem at once, before the call goes to the server.
	res = reg.Execute(ctx, "everything_get-sum", json.RawMessage(`{"a":"two"}`))
	t.Logf("bad args -> %q", res.Output)
	if want := `invalid arguments for "everything_get-sum": "a" must be a number, got a string; "b" is required`; !res.IsError || res.Output != want {
		t.Errorf("get-sum with bad args = %q, want the local error %q", res.Output, want)
	}
	if err := servers.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}
