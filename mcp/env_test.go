package mcp

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestServerEnv(t *testing.T) {
	vars := map[string]string{"HOME": "/home/me", "PATH": "/bin", "SHELL": "() { :; }", "OPENAI_API_KEY": "sk-secret", "TOKEN": "t0k"}
	lookup := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	cfg := ServerConfig{Env: map[string]string{"PATH": "/opt/bin", "API": "${TOKEN}", "DEBUG": "1"}}
	got, err := serverEnv(cfg, &LoadOptions{LookupEnv: lookup})
	if err != nil {
		t.Fatal(err)
	}
	// Default names that are set, without exported shell functions, then
	// Env in name order, replacing a default of the same name.
	want := []string{"HOME=/home/me", "API=t0k", "DEBUG=1", "PATH=/opt/bin"}
	if !slices.Equal(got, want) {
		t.Errorf("serverEnv = %q, want %q", got, want)
	}
	if _, err := serverEnv(ServerConfig{Env: map[string]string{"X": "${UNSET}"}}, &LoadOptions{LookupEnv: lookup}); err == nil || err.Error() != "env X: environment variable UNSET is not set" {
		t.Errorf("unset variable: err = %v", err)
	}
}

// TestLoadEnvironment runs a real server process: secrets in this
// process's environment reach it only with inheritEnv.
func TestLoadEnvironment(t *testing.T) {
	t.Setenv("TOOLNEXUS_TEST_SECRET", "s3cret")
	bin := strconv.Quote(mcptestBin)
	cfg, err := ParseConfig([]byte(`{"mcpServers": {
		"plain": {"command": [` + bin + `, "env"], "env": {"FOO": "bar"}},
		"all": {"command": [` + bin + `, "env"], "inheritEnv": true}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Servers["all"].InheritEnv || cfg.Servers["plain"].InheritEnv {
		t.Fatalf("InheritEnv not parsed: %+v", cfg.Servers)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	envOf := func(servers *Servers, name string) []string {
		t.Helper()
		for _, tool := range servers.Tools() {
			if tool.Name == name {
				res := tool.Handler.Call(ctx, json.RawMessage(`{}`))
				if res.IsError {
					t.Fatalf("%s: %+v", name, res)
				}
				return strings.Split(res.Output, "\n")
			}
		}
		t.Fatalf("no tool %s; status %+v", name, servers.Status())
		return nil
	}
	servers := Load(ctx, cfg, nil)
	defer servers.Close()
	plain := envOf(servers, "plain_env")
	if !slices.Contains(plain, "PATH") || !slices.Contains(plain, "FOO=bar") || slices.Contains(plain, "TOOLNEXUS_TEST_SECRET") {
		t.Errorf("default environment = %q, want PATH and FOO=bar, not TOOLNEXUS_TEST_SECRET", plain)
	}
	for _, name := range plain {
		if k, _, _ := strings.Cut(name, "="); !slices.Contains(DefaultEnvNames(), k) && k != "FOO" {
			t.Errorf("default environment has %s, not a DefaultEnvNames entry", k)
		}
	}
	if all := envOf(servers, "all_env"); !slices.Contains(all, "TOOLNEXUS_TEST_SECRET") {
		t.Errorf(`"inheritEnv": true environment = %q, want TOOLNEXUS_TEST_SECRET`, all)
	}

	everything := Load(ctx, &Config{Servers: map[string]ServerConfig{"plain": cfg.Servers["plain"]}}, &LoadOptions{InheritEnv: true})
	defer everything.Close()
	if got := envOf(everything, "plain_env"); !slices.Contains(got, "TOOLNEXUS_TEST_SECRET") || !slices.Contains(got, "FOO=bar") {
		t.Errorf("LoadOptions.InheritEnv environment = %q, want TOOLNEXUS_TEST_SECRET and FOO=bar", got)
	}
}
