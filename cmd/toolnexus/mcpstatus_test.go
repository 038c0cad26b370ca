package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestMCPStatusWarnings: a server with a tool the registry refuses and a
// description over the limit still loads; the command warns about both
// and goes on (issue 12: it used to exit 1).
func TestMCPStatusWarnings(t *testing.T) {
	dir := t.TempDir()
	server := filepath.Join(dir, "mcptest")
	if out, err := exec.Command("go", "build", "-o", server, "github.com/toolnexus/toolnexus/mcp/internal/testserver/mcptest").CombinedOutput(); err != nil {
		t.Fatalf("building mcptest: %v\n%s", err, out)
	}
	b, _ := json.Marshal(server)
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers": {"bad": {"command": [`+string(b)+`, "badtool"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	o := cli(t, "", "tools", "--mcp", path, "--disable", "bash,edit,write,apply_patch,read,glob,grep,webfetch,todowrite,question")
	wantErr := `toolnexus: warning: MCP server "bad": skipped tool dupkey: tool "bad_dupkey": invalid input schema: schema has the key "a" twice at /properties` + "\n" +
		`toolnexus: warning: MCP server "bad": tool long: description cut from 1100 to 1024 characters` + "\n"
	if o.code != 0 || o.stderr != wantErr {
		t.Errorf("exit %d, stderr %q\nwant exit 0, stderr %q", o.code, o.stderr, wantErr)
	}
	if names := toolNames(t, o.stdout); names != "bad_good bad_long" {
		t.Errorf("tools = %q, want %q", names, "bad_good bad_long")
	}
}
