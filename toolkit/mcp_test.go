package toolkit

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/builtin"
	"github.com/toolnexus/toolnexus/mcp"
)

// buildMCPTestServer builds the mcp package's test server program.
func buildMCPTestServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcptest")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/toolnexus/toolnexus/mcp/internal/testserver/mcptest").CombinedOutput()
	if err != nil {
		t.Fatalf("building mcptest: %v\n%s", err, out)
	}
	return bin
}

func mcpConfig(t *testing.T, bin string) *mcp.Config {
	t.Helper()
	b, _ := json.Marshal(bin)
	cfg, err := mcp.ParseConfig([]byte(`{"mcpServers": {
		"apply": {"command": [` + string(b) + `, "sdk"]},
		"broken": {"command": [` + string(b) + `, "crash"]},
		"off": {"command": "nothing", "enabled": false}}}`))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestBuildMCP(t *testing.T) {
	bin := buildMCPTestServer(t)
	ctx := context.Background()
	tk, err := Build(ctx, Config{MCP: mcpConfig(t, bin), BuiltinOptions: builtin.Options{Workspace: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()

	// The MCP tool "apply_patch" (server apply, tool patch) beats the
	// built-in of the same name.
	tool, ok := tk.Get("apply_patch")
	if !ok || tool.Source != "mcp" {
		t.Fatalf("apply_patch = %+v, want the MCP tool", tool)
	}
	if res := tk.Execute(ctx, "apply_patch", nil); res.Output != "mcp patch" || res.IsError {
		t.Errorf("apply_patch = %+v, want the MCP tool's output", res)
	}
	if res := tk.Execute(ctx, "apply_echo", json.RawMessage(`{"text":"via toolkit"}`)); res.Output != "via toolkit" {
		t.Errorf("apply_echo = %+v", res)
	}
	if _, ok := tk.Get("read"); !ok {
		t.Error("built-in read missing")
	}

	st := tk.MCPStatus()
	if len(st) != 3 || st[0].Name != "apply" || st[0].State != mcp.StateConnected ||
		st[1].Name != "broken" || st[1].State != mcp.StateFailed || !strings.Contains(st[1].Reason, "permission denied") ||
		st[2].Name != "off" || st[2].State != mcp.StateDisabled {
		t.Errorf("MCPStatus() = %+v", st)
	}

	res := tk.Execute(ctx, "apply_pid", nil)
	pid, err := strconv.Atoi(res.Output)
	if err != nil {
		t.Fatalf("apply_pid = %+v", res)
	}
	if err := tk.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("MCP server process %d still running after Close", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if res := tk.Execute(ctx, "apply_echo", json.RawMessage(`{"text":"x"}`)); !res.IsError {
		t.Errorf("call after Close = %+v, want an error result", res)
	}
}

func TestBuildMCPFile(t *testing.T) {
	bin := buildMCPTestServer(t)
	b, _ := json.Marshal(bin)
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, []byte(`{"servers":{"s":{"command":[`+string(b)+`,"sdk"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tk, err := Build(context.Background(), Config{MCPFile: path, NoBuiltins: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	if res := tk.Execute(context.Background(), "s_add", json.RawMessage(`{"a":1,"b":2}`)); res.Output != "3" {
		t.Errorf("s_add = %+v", res)
	}

	if _, err := Build(context.Background(), Config{MCPFile: path, MCP: &mcp.Config{}}); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("MCP and MCPFile: err = %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"mcpServers":{"x":{}}}`), 0o644)
	if _, err := Build(context.Background(), Config{MCPFile: bad}); err == nil || !strings.Contains(err.Error(), `server "x": needs "command"`) {
		t.Errorf("bad MCP file: err = %v", err)
	}
}

func TestBuildMCPConflictsWithNative(t *testing.T) {
	bin := buildMCPTestServer(t)
	native := toolnexus.Tool{Name: "apply_echo", Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "", nil })}
	_, err := Build(context.Background(), Config{MCP: mcpConfig(t, bin), Tools: []toolnexus.Tool{native}, NoBuiltins: true})
	if !errors.Is(err, toolnexus.ErrDuplicateTool) {
		t.Errorf("native tool named like an MCP tool: err = %v, want ErrDuplicateTool", err)
	}
}
