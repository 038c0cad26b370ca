package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpConfigFile builds the mcp package's test server and writes an MCP
// config naming it as server "t", plus extra entries.
func mcpConfigFile(t *testing.T, extra string) string {
	t.Helper()
	dir := t.TempDir()
	server := filepath.Join(dir, "mcptest")
	out, err := exec.Command("go", "build", "-o", server, "github.com/toolnexus/toolnexus/mcp/internal/testserver/mcptest").CombinedOutput()
	if err != nil {
		t.Fatalf("building mcptest: %v\n%s", err, out)
	}
	b, _ := json.Marshal(server)
	path := filepath.Join(dir, "mcp.json")
	cfg := `{"mcpServers": {"t": {"command": [` + string(b) + `, "sdk"]}` + strings.ReplaceAll(extra, "MCPTEST", string(b)) + `}}`
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func mcpCall(t *testing.T, ctx context.Context, cs *mcpsdk.ClientSession, name, args string) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("CallTool(%s): %d content blocks", name, len(res.Content))
	}
	return res.Content[0].(*mcpsdk.TextContent).Text, res.IsError
}

func TestServeStdio(t *testing.T) {
	cfg := mcpConfigFile(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command(bin, "serve", "--skills", "examples/skills", "--mcp", cfg)
	cmd.Dir = repoRoot
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcpsdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, "hello-world") {
		t.Errorf("instructions = %q, want the skills prompt", ins)
	}
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"bash", "read", "skill", "t_add", "t_echo", "write"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list lacks %s: %v", want, names)
		}
	}
	if !slices.IsSorted(names) {
		t.Errorf("tools/list not sorted: %v", names)
	}
	if text, isErr := mcpCall(t, ctx, cs, "t_add", `{"a":1,"b":2}`); text != "3" || isErr {
		t.Errorf("t_add = %q, %v", text, isErr)
	}
	if text, isErr := mcpCall(t, ctx, cs, "read", `{"path":"go.mod"}`); isErr || !strings.Contains(text, "module github.com/toolnexus/toolnexus") {
		t.Errorf("read go.mod = %q, %v", text, isErr)
	}
	if text, isErr := mcpCall(t, ctx, cs, "read", `{"path":5}`); !isErr || !strings.Contains(text, `"path"`) {
		t.Errorf("read with bad args = %q, isError %v; want an error result naming path", text, isErr)
	}
	if _, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "nope", Arguments: map[string]any{}}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
		t.Errorf("unknown tool: err = %v", err)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 {
		t.Errorf("toolnexus serve exit = %v, want 0", cmd.ProcessState)
	}
}

func TestServeHTTP(t *testing.T) {
	cfg := mcpConfigFile(t, "")
	cmd := exec.Command(bin, "serve", "--no-builtins", "--mcp", cfg, "--http", "127.0.0.1:0")
	cmd.Dir = repoRoot
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the address: %v (%q)", err, line)
	}
	m := regexp.MustCompile(`^toolnexus: serving (\d+) tools over MCP streamable HTTP on (http://127\.0\.0\.1:\d+/)\n$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("first stderr line = %q", line)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcpsdk.StreamableClientTransport{Endpoint: m[2], MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := strconv.Atoi(m[1]); len(res.Tools) != n || n < 5 {
		t.Errorf("tools/list gave %d tools; the server said %s", len(res.Tools), m[1])
	}
	if text, isErr := mcpCall(t, ctx, cs, "t_echo", `{"text":"over http"}`); text != "over http" || isErr {
		t.Errorf("t_echo = %q, %v", text, isErr)
	}
	if text, isErr := mcpCall(t, ctx, cs, "t_fail", `{}`); text != "first problem\nsecond problem" || !isErr {
		t.Errorf("t_fail = %q, %v", text, isErr)
	}
	text, _ := mcpCall(t, ctx, cs, "t_pid", `{}`)
	child, err := strconv.Atoi(text)
	if err != nil {
		t.Fatalf("t_pid = %q", text)
	}
	cs.Close()

	// Interrupt: the server shuts down, exits 0 and stops its MCP servers.
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("toolnexus serve --http after interrupt: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("toolnexus serve --http did not exit after an interrupt")
	}
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(child, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("MCP server %d still running after toolnexus serve exited", child)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestToolsAndCallWithMCP(t *testing.T) {
	cfg := mcpConfigFile(t, `, "broken": {"command": [MCPTEST, "crash"]}`)
	o := cli(t, "", "tools", "--no-builtins", "--mcp", cfg, "--format", "anthropic")
	if o.code != 0 || !strings.Contains(o.stdout, `{"name":"t_echo","description":"Echo the text back","input_schema":{`) {
		t.Errorf("tools --mcp: exit %d\nstdout %s\nstderr %s", o.code, o.stdout, o.stderr)
	}
	wantWarn := `toolnexus: warning: MCP server "broken" failed: initialize: `
	if !strings.HasPrefix(o.stderr, wantWarn) || !strings.Contains(o.stderr, "cannot read settings: permission denied") {
		t.Errorf("tools --mcp stderr = %q, want a warning for the broken server", o.stderr)
	}
	var rendered []map[string]any
	if err := json.Unmarshal([]byte(o.stdout), &rendered); err != nil || len(rendered) < 5 {
		t.Errorf("tools --mcp output is not a list of tools: %v", err)
	}

	o = cli(t, "", "call", "t_add", `{"a":40,"b":2}`, "--mcp", cfg, "--no-builtins")
	if o.code != 0 || o.stdout != "42\n" {
		t.Errorf("call t_add: exit %d stdout %q stderr %q", o.code, o.stdout, o.stderr)
	}
	o = cli(t, "", "call", "t_fail", "--mcp", cfg)
	if o.code != 1 || !strings.HasSuffix(o.stderr, "first problem\nsecond problem\n") || o.stdout != "" {
		t.Errorf("call t_fail: exit %d stdout %q stderr %q", o.code, o.stdout, o.stderr)
	}
	o = cli(t, "", "call", "t_add", "--mcp", filepath.Join(t.TempDir(), "missing.json"))
	if o.code != 1 || !strings.Contains(o.stderr, "missing.json") {
		t.Errorf("call with a missing --mcp file: exit %d stderr %q", o.code, o.stderr)
	}
}
