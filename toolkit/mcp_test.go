package toolkit

import (
	"context"
	"encoding/json"
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
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/builtin"
	"github.com/toolnexus/toolnexus/mcp"
)

// buildMCPTestServer builds the mcp package's test server program.
func buildMCPTestServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcptest")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/toolnexus/toolnexus/mcp/internal/testserver/mcptest").CombinedOutput()
	require.NoError(t, err, "building mcptest: %v\n%s", err, out)
	return bin
}

func mcpConfig(t *testing.T, bin string) *mcp.Config {
	t.Helper()
	b, _ := json.Marshal(bin)
	cfg, err := mcp.ParseConfig([]byte(`{"mcpServers": {
		"apply": {"command": [` + string(b) + `, "sdk"]},
		"broken": {"command": [` + string(b) + `, "crash"]},
		"off": {"command": "nothing", "enabled": false}}}`))
	require.NoError(t, err)
	return cfg
}

func TestBuildMCP(t *testing.T) {
	bin := buildMCPTestServer(t)
	ctx := context.Background()
	tk, err := Build(ctx, &Config{MCP: mcpConfig(t, bin), BuiltinOptions: builtin.Options{Workspace: t.TempDir()}})
	require.NoError(t, err)
	defer tk.Close()

	// The MCP tool "apply_patch" (server apply, tool patch) beats the
	// built-in of the same name.
	tool, ok := tk.Get("apply_patch")
	require.True(t, ok, "apply_patch = %+v, want the MCP tool", tool)
	require.Equal(t, "mcp", tool.Source, "apply_patch = %+v, want the MCP tool", tool)
	res := tk.Execute(ctx, "apply_patch", nil)
	assert.Equal(t, "mcp patch", res.Output, "apply_patch = %+v, want the MCP tool's output", res)
	assert.False(t, res.IsError, "apply_patch = %+v, want the MCP tool's output", res)
	res = tk.Execute(ctx, "apply_echo", json.RawMessage(`{"text":"via toolkit"}`))
	assert.Equal(t, "via toolkit", res.Output, "apply_echo = %+v", res)
	_, ok = tk.Get("read")
	assert.True(t, ok, "built-in read missing")

	st := tk.MCPStatus()
	if assert.Len(t, st, 3, "MCPStatus() = %+v", st) {
		assert.Equal(t, "apply", st[0].Name, "MCPStatus() = %+v", st)
		assert.Equal(t, mcp.StateConnected, st[0].State, "MCPStatus() = %+v", st)
		assert.Equal(t, "broken", st[1].Name, "MCPStatus() = %+v", st)
		assert.Equal(t, mcp.StateFailed, st[1].State, "MCPStatus() = %+v", st)
		assert.Contains(t, st[1].Reason, "permission denied", "MCPStatus() = %+v", st)
		assert.Equal(t, "off", st[2].Name, "MCPStatus() = %+v", st)
		assert.Equal(t, mcp.StateDisabled, st[2].State, "MCPStatus() = %+v", st)
	}

	res = tk.Execute(ctx, "apply_pid", nil)
	pid, err := strconv.Atoi(res.Output)
	require.NoError(t, err, "apply_pid = %+v", res)
	assert.NoError(t, tk.Close(), "Close")
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		require.False(t, time.Now().After(deadline), "MCP server process %d still running after Close", pid)
		time.Sleep(20 * time.Millisecond)
	}
	res = tk.Execute(ctx, "apply_echo", json.RawMessage(`{"text":"x"}`))
	assert.True(t, res.IsError, "call after Close = %+v, want an error result", res)
}

func TestBuildMCPFile(t *testing.T) {
	bin := buildMCPTestServer(t)
	b, _ := json.Marshal(bin)
	path := filepath.Join(t.TempDir(), "mcp.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"servers":{"s":{"command":[`+string(b)+`,"sdk"]}}}`), 0o644))
	tk, err := Build(context.Background(), &Config{MCPFile: path, NoBuiltins: true})
	require.NoError(t, err)
	defer tk.Close()
	res := tk.Execute(context.Background(), "s_add", json.RawMessage(`{"a":1,"b":2}`))
	assert.Equal(t, "3", res.Output, "s_add = %+v", res)

	_, err = Build(context.Background(), &Config{MCPFile: path, MCP: &mcp.Config{}})
	assert.ErrorContains(t, err, "not both", "MCP and MCPFile: err = %v", err)
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"mcpServers":{"x":{}}}`), 0o644)
	_, err = Build(context.Background(), &Config{MCPFile: bad})
	assert.ErrorContains(t, err, `server "x": needs "command"`, "bad MCP file: err = %v", err)
}

func TestBuildMCPConflictsWithNative(t *testing.T) {
	bin := buildMCPTestServer(t)
	native := toolnexus.Tool{Name: "apply_echo", Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "", nil })}
	_, err := Build(context.Background(), &Config{MCP: mcpConfig(t, bin), Tools: []toolnexus.Tool{native}, NoBuiltins: true})
	assert.ErrorIs(t, err, toolnexus.ErrDuplicateTool, "native tool named like an MCP tool: err = %v, want ErrDuplicateTool", err)
}

// TestBuildMCPBadToolKeepsTheRest: a server offering one tool the registry
// refuses (a schema with a duplicate key) still gives its good tool, and
// the built-ins stay (issue 12: Build used to fail).
func TestBuildMCPBadToolKeepsTheRest(t *testing.T) {
	bin := buildMCPTestServer(t)
	b, _ := json.Marshal(bin)
	cfg, err := mcp.ParseConfig([]byte(`{"mcpServers": {"bad": {"command": [` + string(b) + `, "badtool"]}}}`))
	require.NoError(t, err)
	tk, err := Build(context.Background(), &Config{MCP: cfg, BuiltinOptions: builtin.Options{Workspace: t.TempDir()}})
	require.NoError(t, err, "Build = %v, want the toolkit without the bad tool", err)
	defer tk.Close()
	res := tk.Execute(context.Background(), "bad_good", nil)
	assert.Equal(t, "ok", res.Output, "bad_good = %+v", res)
	assert.False(t, res.IsError, "bad_good = %+v", res)
	for _, name := range []string{"read", "bash", "edit"} {
		_, ok := tk.Get(name)
		assert.True(t, ok, "built-in %s missing", name)
	}
	_, ok := tk.Get("bad_dupkey")
	assert.False(t, ok, "bad_dupkey registered")
	st := tk.MCPStatus()[0]
	want := []string{`dupkey: tool "bad_dupkey": invalid input schema: schema has the key "a" twice at /properties`}
	assert.Equal(t, mcp.StateConnected, st.State, "status = %+v, want connected, tools [bad_good bad_long], Skipped %q", st, want)
	assert.True(t, slices.Equal(st.Skipped, want), "status = %+v, want connected, tools [bad_good bad_long], Skipped %q", st, want)
	assert.Equal(t, []string{"bad_good", "bad_long"}, st.Tools, "status = %+v, want connected, tools [bad_good bad_long], Skipped %q", st, want)
}

// TestToolkitFollowsDeadServer: when an MCP server dies, its tools leave
// the registry, the built-in it shadowed comes back, and a client of our
// own MCP server over that registry gets tools/list_changed.
func TestToolkitFollowsDeadServer(t *testing.T) {
	bin := buildMCPTestServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tk, err := Build(ctx, &Config{MCP: mcpConfig(t, bin), BuiltinOptions: builtin.Options{Workspace: t.TempDir()}})
	require.NoError(t, err)
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
	require.NoError(t, err)
	defer cs.Close()

	res := tk.Execute(ctx, "apply_pid", nil)
	pid, err := strconv.Atoi(res.Output)
	require.NoError(t, err, "apply_pid = %+v", res)
	require.NoError(t, syscall.Kill(pid, syscall.SIGKILL))
	deadline := time.Now().Add(45 * time.Second)
	// syncMCP removes the dead server's tools, then adds the built-in
	// apply_patch back: wait for both, not just the first.
	for {
		_, echo := tk.Get("apply_echo")
		patch, ok := tk.Get("apply_patch")
		if !echo && ok && patch.Source == builtin.Source {
			break
		}
		require.False(t, time.Now().After(deadline), "45s after its server died: apply_echo registered %v, apply_patch = %+v (want the built-in back)", echo, patch)
		time.Sleep(10 * time.Millisecond)
	}
	for _, name := range tk.Names() {
		assert.False(t, strings.HasPrefix(name, "apply_") && name != "apply_patch", "tool %s of the dead server still registered", name)
	}
	st := tk.MCPStatus()[0]
	assert.Equal(t, mcp.StateFailed, st.State, "status = %+v, want failed: connection closed, no tools", st)
	assert.True(t, strings.HasPrefix(st.Reason, "connection closed"), "status = %+v, want failed: connection closed, no tools", st)
	assert.Empty(t, st.Tools, "status = %+v, want failed: connection closed, no tools", st)
	select {
	case <-listChanged:
	case <-time.After(30 * time.Second):
		require.Fail(t, "our MCP server's client got no tools/list_changed")
	}
	lr, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	for _, tool := range lr.Tools {
		assert.NotEqual(t, "apply_echo", tool.Name, "our MCP server still lists apply_echo")
	}
}

// TestToolkitFollowsListChanged: a server that adds a tool while running
// (tools/list_changed) has it in the registry soon after.
func TestToolkitFollowsListChanged(t *testing.T) {
	bin := buildMCPTestServer(t)
	b, _ := json.Marshal(bin)
	cfg, err := mcp.ParseConfig([]byte(`{"mcpServers": {"live": {"command": [` + string(b) + `, "live"]}}}`))
	require.NoError(t, err)
	ctx := context.Background()
	tk, err := Build(ctx, &Config{MCP: cfg, NoBuiltins: true})
	require.NoError(t, err)
	defer tk.Close()
	changed := make(chan struct{}, 10)
	tk.OnChange(func() { changed <- struct{}{} })
	got := tk.Names()
	require.Equal(t, []string{"live_grow"}, got, "tools = %v, want [live_grow]", got)
	res := tk.Execute(ctx, "live_grow", nil)
	require.Equal(t, "grown", res.Output, "live_grow = %+v", res)
	deadline := time.Now().Add(45 * time.Second)
	for !slices.Equal(tk.Names(), []string{"live_extra", "live_grow"}) {
		require.False(t, time.Now().After(deadline), "tools = %v 45s after tools/list_changed, want [live_extra live_grow]", tk.Names())
		time.Sleep(10 * time.Millisecond)
	}
	res = tk.Execute(ctx, "live_extra", nil)
	assert.Equal(t, "extra", res.Output, "live_extra = %+v", res)
	st := tk.MCPStatus()[0]
	assert.Equal(t, []string{"live_extra", "live_grow"}, st.Tools, "status tools = %v", st.Tools)
	select {
	case <-changed:
	default:
		assert.Fail(t, "Registry.OnChange not called")
	}
}

// TestToolkitLateMCPToolMeetsNativeTool: an MCP tool that appears after
// Build under the name of a tool in Config.Tools is left out (the
// program's tool stays) and reported in MCPStatus.
func TestToolkitLateMCPToolMeetsNativeTool(t *testing.T) {
	bin := buildMCPTestServer(t)
	b, _ := json.Marshal(bin)
	cfg, err := mcp.ParseConfig([]byte(`{"mcpServers": {"live": {"command": [` + string(b) + `, "live"]}}}`))
	require.NoError(t, err)
	native := toolnexus.Tool{Name: "live_extra", Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "native", nil })}
	ctx := context.Background()
	tk, err := Build(ctx, &Config{MCP: cfg, NoBuiltins: true, Tools: []toolnexus.Tool{native}})
	require.NoError(t, err)
	defer tk.Close()
	res := tk.Execute(ctx, "live_grow", nil)
	require.Equal(t, "grown", res.Output, "live_grow = %+v", res)
	want := []string{"live_extra: also the name of a tool in Config.Tools"}
	deadline := time.Now().Add(45 * time.Second)
	for !slices.Equal(tk.MCPStatus()[0].Skipped, want) {
		require.False(t, time.Now().After(deadline), "status = %+v, want Skipped %q", tk.MCPStatus()[0], want)
		time.Sleep(10 * time.Millisecond)
	}
	res = tk.Execute(ctx, "live_extra", nil)
	assert.Equal(t, "native", res.Output, "live_extra = %+v, want the program's tool", res)
	st := tk.MCPStatus()[0]
	assert.Equal(t, []string{"live_grow"}, st.Tools, "status tools = %v, want [live_grow]", st.Tools)
}
