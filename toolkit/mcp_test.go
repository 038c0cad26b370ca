package toolkit

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

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
	tk, err := Build(ctx, &Config{MCP: mcpConfig(t, bin), BuiltinOptions: builtin.Options{Workspace: t.TempDir()}})
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
	tk, err := Build(context.Background(), &Config{MCPFile: path, NoBuiltins: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	if res := tk.Execute(context.Background(), "s_add", json.RawMessage(`{"a":1,"b":2}`)); res.Output != "3" {
		t.Errorf("s_add = %+v", res)
	}

	if _, err := Build(context.Background(), &Config{MCPFile: path, MCP: &mcp.Config{}}); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("MCP and MCPFile: err = %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"mcpServers":{"x":{}}}`), 0o644)
	if _, err := Build(context.Background(), &Config{MCPFile: bad}); err == nil || !strings.Contains(err.Error(), `server "x": needs "command"`) {
		t.Errorf("bad MCP file: err = %v", err)
	}
}

func TestBuildMCPConflictsWithNative(t *testing.T) {
	bin := buildMCPTestServer(t)
	native := toolnexus.Tool{Name: "apply_echo", Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "", nil })}
	_, err := Build(context.Background(), &Config{MCP: mcpConfig(t, bin), Tools: []toolnexus.Tool{native}, NoBuiltins: true})
	if !errors.Is(err, toolnexus.ErrDuplicateTool) {
		t.Errorf("native tool named like an MCP tool: err = %v, want ErrDuplicateTool", err)
	}
}

// TestBuildMCPBadToolKeepsTheRest: a server offering one tool the registry
// refuses (a schema with a duplicate key) still gives its good tool, and
// the built-ins stay (issue 12: Build used to fail).
func TestBuildMCPBadToolKeepsTheRest(t *testing.T) {
	bin := buildMCPTestServer(t)
	b, _ := json.Marshal(bin)
	cfg, err := mcp.ParseConfig([]byte(`{"mcpServers": {"bad": {"command": [` + string(b) + `, "badtool"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	tk, err := Build(context.Background(), &Config{MCP: cfg, BuiltinOptions: builtin.Options{Workspace: t.TempDir()}})
	if err != nil {
		t.Fatalf("Build = %v, want the toolkit without the bad tool", err)
	}
	defer tk.Close()
	if res := tk.Execute(context.Background(), "bad_good", nil); res.Output != "ok" || res.IsError {
		t.Errorf("bad_good = %+v", res)
	}
	for _, name := range []string{"read", "bash", "edit"} {
		if _, ok := tk.Get(name); !ok {
			t.Errorf("built-in %s missing", name)
		}
	}
	if _, ok := tk.Get("bad_dupkey"); ok {
		t.Error("bad_dupkey registered")
	}
	st := tk.MCPStatus()[0]
	want := []string{`dupkey: tool "bad_dupkey": invalid input schema: schema has the key "a" twice at /properties`}
	if st.State != mcp.StateConnected || !slices.Equal(st.Skipped, want) || !slices.Equal(st.Tools, []string{"bad_good", "bad_long"}) {
		t.Errorf("status = %+v, want connected, tools [bad_good bad_long], Skipped %q", st, want)
	}
}

// TestToolkitFollowsDeadServer: when an MCP server dies, its tools leave
// the registry, the built-in it shadowed comes back, and a client of our
// own MCP server over that registry gets tools/list_changed.
func TestToolkitFollowsDeadServer(t *testing.T) {
	bin := buildMCPTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tk, err := Build(ctx, &Config{MCP: mcpConfig(t, bin), BuiltinOptions: builtin.Options{Workspace: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()

	srv := mcp.NewServer(tk.Registry, nil)
	defer srv.Close()
	clientT, serverT := mcpsdk.NewInMemoryTransports()
	go srv.Run(ctx, serverT)
	listChanged := make(chan struct{}, 10)
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "c", Version: "0"}, &mcpsdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcpsdk.ToolListChangedRequest) { listChanged <- struct{}{} },
	})
	cs, err := client.Connect(ctx, clientT, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	res := tk.Execute(ctx, "apply_pid", nil)
	pid, err := strconv.Atoi(res.Output)
	if err != nil {
		t.Fatalf("apply_pid = %+v", res)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(45 * time.Second)
	// syncMCP removes the dead server's tools, then adds the built-in
	// apply_patch back: wait for both, not just the first.
	for {
		_, echo := tk.Get("apply_echo")
		patch, ok := tk.Get("apply_patch")
		if !echo && ok && patch.Source == builtin.Source {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("45s after its server died: apply_echo registered %v, apply_patch = %+v (want the built-in back)", echo, patch)
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, name := range tk.Names() {
		if strings.HasPrefix(name, "apply_") && name != "apply_patch" {
			t.Errorf("tool %s of the dead server still registered", name)
		}
	}
	if st := tk.MCPStatus()[0]; st.State != mcp.StateFailed || !strings.HasPrefix(st.Reason, "connection closed") || len(st.Tools) != 0 {
		t.Errorf("status = %+v, want failed: connection closed, no tools", st)
	}
	select {
	case <-listChanged:
	case <-time.After(30 * time.Second):
		t.Fatal("our MCP server's client got no tools/list_changed")
	}
	lr, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range lr.Tools {
		if tool.Name == "apply_echo" {
			t.Error("our MCP server still lists apply_echo")
		}
	}
}

// TestToolkitFollowsListChanged: a server that adds a tool while running
// (tools/list_changed) has it in the registry soon after.
func TestToolkitFollowsListChanged(t *testing.T) {
	bin := buildMCPTestServer(t)
	b, _ := json.Marshal(bin)
	cfg, err := mcp.ParseConfig([]byte(`{"mcpServers": {"live": {"command": [` + string(b) + `, "live"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tk, err := Build(ctx, &Config{MCP: cfg, NoBuiltins: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	changed := make(chan struct{}, 10)
	tk.OnChange(func() { changed <- struct{}{} })
	if got := tk.Names(); !slices.Equal(got, []string{"live_grow"}) {
		t.Fatalf("tools = %v, want [live_grow]", got)
	}
	if res := tk.Execute(ctx, "live_grow", nil); res.Output != "grown" {
		t.Fatalf("live_grow = %+v", res)
	}
	deadline := time.Now().Add(45 * time.Second)
	for !slices.Equal(tk.Names(), []string{"live_extra", "live_grow"}) {
		if time.Now().After(deadline) {
			t.Fatalf("tools = %v 45s after tools/list_changed, want [live_extra live_grow]", tk.Names())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if res := tk.Execute(ctx, "live_extra", nil); res.Output != "extra" {
		t.Errorf("live_extra = %+v", res)
	}
	if st := tk.MCPStatus()[0]; !slices.Equal(st.Tools, []string{"live_extra", "live_grow"}) {
		t.Errorf("status tools = %v", st.Tools)
	}
	select {
	case <-changed:
	default:
		t.Error("Registry.OnChange not called")
	}
}

// TestToolkitLateMCPToolMeetsNativeTool: an MCP tool that appears after
// Build under the name of a tool in Config.Tools is left out (the
// program's tool stays) and reported in MCPStatus.
func TestToolkitLateMCPToolMeetsNativeTool(t *testing.T) {
	bin := buildMCPTestServer(t)
	b, _ := json.Marshal(bin)
	cfg, err := mcp.ParseConfig([]byte(`{"mcpServers": {"live": {"command": [` + string(b) + `, "live"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	native := toolnexus.Tool{Name: "live_extra", Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "native", nil })}
	ctx := context.Background()
	tk, err := Build(ctx, &Config{MCP: cfg, NoBuiltins: true, Tools: []toolnexus.Tool{native}})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	if res := tk.Execute(ctx, "live_grow", nil); res.Output != "grown" {
		t.Fatalf("live_grow = %+v", res)
	}
	want := []string{"live_extra: also the name of a tool in Config.Tools"}
	deadline := time.Now().Add(45 * time.Second)
	for !slices.Equal(tk.MCPStatus()[0].Skipped, want) {
		if time.Now().After(deadline) {
			t.Fatalf("status = %+v, want Skipped %q", tk.MCPStatus()[0], want)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if res := tk.Execute(ctx, "live_extra", nil); res.Output != "native" {
		t.Errorf("live_extra = %+v, want the program's tool", res)
	}
	if st := tk.MCPStatus()[0]; !slices.Equal(st.Tools, []string{"live_grow"}) {
		t.Errorf("status tools = %v, want [live_grow]", st.Tools)
	}
}
