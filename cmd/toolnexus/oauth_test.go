package main

import (
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/internal/oauthtest"
	"github.com/toolnexus/toolnexus/mcp"
)

// followEnv makes this test binary a browser (see TestMain): it fetches
// the URL it is given, following redirects, and exits.
const followEnv = "TOOLNEXUS_TEST_FOLLOW"

func follow(url string) {
	if resp, err := http.Get(url); err == nil {
		resp.Body.Close()
	}
}

// toolnexus call on a remote MCP server behind OAuth prints the
// authorization page, opens it with TOOLNEXUS_BROWSER, and keeps the token
// under the user's config directory: a second run opens nothing.
func TestCallAuthorizesWithOAuth(t *testing.T) {
	o := oauthtest.NewServer(t)
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(mcp.DefaultOAuthPort))
	if err != nil {
		t.Skipf("port %d is taken: %v", mcp.DefaultOAuthPort, err)
	}
	ln.Close()
	cfg := filepath.Join(t.TempDir(), "mcp.json")
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"remote": map[string]any{"url": o.URL}}})
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv(browserEnv, os.Args[0])
	t.Setenv(followEnv, "1")
	o1 := cli(t, "", "call", "remote_whoami", "{}", "--mcp", cfg, "--no-builtins")
	if o1.code != 0 || strings.TrimSpace(o1.stdout) != "authorized" {
		t.Fatalf("first call: exit %d, stdout %q, stderr %q", o1.code, o1.stdout, o1.stderr)
	}
	if !strings.Contains(o1.stderr, "toolnexus: an MCP server asks for authorization; open this page to allow it:\n  "+strings.TrimSuffix(o.URL, "/mcp")+"/authorize?") {
		t.Errorf("first call's stderr = %q, want the authorization page", o1.stderr)
	}
	kept, _ := filepath.Glob(filepath.Join(home, "toolnexus", "oauth", "*.json"))
	if len(kept) != 1 {
		t.Fatalf("token files = %v, want one", kept)
	}
	o2 := cli(t, "", "call", "remote_whoami", "{}", "--mcp", cfg, "--no-builtins")
	if o2.code != 0 || strings.TrimSpace(o2.stdout) != "authorized" || strings.Contains(o2.stderr, "authorization") {
		t.Errorf("second call: exit %d, stdout %q, stderr %q; want no authorization", o2.code, o2.stdout, o2.stderr)
	}
	if n := o.Issued.Load(); n != 1 {
		t.Errorf("tokens issued = %d, want 1", n)
	}
}
