package mcp

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseConfig(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want map[string]ServerConfig
	}{
		{
			name: "claude mcpServers",
			in: `{"mcpServers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
				"env": {"DEBUG": "1"}, "cwd": "/srv", "autoApprove": ["read"]}}}`,
			want: map[string]ServerConfig{"files": {Name: "files", Transport: "stdio", Command: []string{"npx"},
				Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"}, Env: map[string]string{"DEBUG": "1"}, Dir: "/srv"}},
		},
		{
			name: "vscode servers with type",
			in: `{"servers": {"gh": {"type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${GH}"}},
				"old": {"type": "sse", "url": "https://example.com/sse"},
				"local": {"type": "stdio", "command": "srv"}}}`,
			want: map[string]ServerConfig{
				"gh":    {Name: "gh", Transport: "http", URL: "https://example.com/mcp", Headers: map[string]string{"Authorization": "Bearer ${GH}"}},
				"old":   {Name: "old", Transport: "sse", URL: "https://example.com/sse"},
				"local": {Name: "local", Transport: "stdio", Command: []string{"srv"}},
			},
		},
		{
			name: "opencode mcp",
			in: `{"$schema": "https://opencode.ai/config.json", "mcp": {
				"a": {"type": "local", "command": ["bun", "x", "srv"], "environment": {"K": "v"}, "enabled": false, "timeout": 5000},
				"b": {"type": "remote", "url": "http://127.0.0.1:9/mcp", "enabled": true, "timeout": "1m30s"}}}`,
			want: map[string]ServerConfig{
				"a": {Name: "a", Transport: "stdio", Command: []string{"bun", "x", "srv"}, Env: map[string]string{"K": "v"}, Disabled: true, Timeout: 5 * time.Second},
				"b": {Name: "b", Transport: "http", URL: "http://127.0.0.1:9/mcp", Timeout: 90 * time.Second},
			},
		},
		{
			name: "merged keys and disabled",
			in:   `{"mcpServers": {"x": {"command": "x", "disabled": true}}, "servers": {"y": {"url": "http://h/", "disabled": false}}}`,
			want: map[string]ServerConfig{
				"x": {Name: "x", Transport: "stdio", Command: []string{"x"}, Disabled: true},
				"y": {Name: "y", Transport: "http", URL: "http://h/"},
			},
		},
		{
			name: "empty servers",
			in:   `{"mcpServers": {}}`,
			want: map[string]ServerConfig{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := ParseConfig([]byte(tc.in))
			if err != nil {
				t.Fatalf("ParseConfig: %v", err)
			}
			if !reflect.DeepEqual(cfg.Servers, tc.want) {
				t.Errorf("ParseConfig() mismatch\n got %#v\nwant %#v", cfg.Servers, tc.want)
			}
		})
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`[1]`, "config is not a JSON object"},
		{`{"tools": {}}`, `config has no "mcpServers", "servers" or "mcp" object`},
		{`{"mcpServers": []}`, `config "mcpServers" must be an object of servers by name`},
		{`{"mcpServers": null}`, `config "mcpServers" must be an object of servers by name`},
		{`{"mcpServers": {"": {"command": "x"}}}`, "a server has an empty name"},
		{`{"mcpServers": {"a": {"command": "x"}}, "mcp": {"a": {"command": "y"}}}`, `server "a" is given twice`},
		{`{"mcpServers": {"a": null}}`, `server "a": entry is null`},
		{`{"mcpServers": {"a": "npx"}}`, `server "a": entry is not a valid object`},
		{`{"mcpServers": {"a": {}}}`, `server "a": needs "command" (a local server) or "url" (a remote one)`},
		{`{"mcpServers": {"a": {"command": "x", "url": "http://h"}}}`, `server "a": give "command" or "url", not both`},
		{`{"mcpServers": {"a": {"command": 7}}}`, `server "a": "command" must be a string or an array of strings`},
		{`{"mcpServers": {"a": {"command": []}}}`, `server "a": "command" is empty`},
		{`{"mcpServers": {"a": {"command": ""}}}`, `server "a": "command" is empty`},
		{`{"mcpServers": {"a": {"command": "x", "args": "-v"}}}`, `server "a": "args" has the wrong type: got JSON string`},
		{`{"mcpServers": {"a": {"command": "x", "env": {"K": 1}}}}`, `server "a": "env" has the wrong type: got JSON number`},
		{`{"mcpServers": {"a": {"command": "x", "type": "websocket"}}}`, `server "a": unknown "type" "websocket"`},
		{`{"mcpServers": {"a": {"type": "http", "command": "x"}}}`, `server "a": http server needs "url"`},
		{`{"mcpServers": {"a": {"type": "stdio", "url": "http://h"}}}`, `server "a": stdio server needs "command"`},
		{`{"mcpServers": {"a": {"url": "http://h", "args": ["x"]}}}`, `server "a": "args" only applies to a server with "command"`},
		{`{"mcpServers": {"a": {"command": "x", "env": {}, "environment": {}}}}`, `give "env" or "environment", not both`},
		{`{"mcpServers": {"a": {"command": "x", "timeout": -1}}}`, `"timeout" is negative`},
		{`{"mcpServers": {"a": {"command": "x", "timeout": "soon"}}}`, `"timeout" "soon" is not a duration`},
		{`{"mcpServers": {"a": {"command": "x", "timeout": true}}}`, `"timeout" must be a number of milliseconds or a duration string`},
		// Timeouts that do not fit a time.Duration are errors, not a silent 30s.
		{`{"mcpServers": {"a": {"command": "x", "timeout": 1e300}}}`, `server "a": "timeout" 1e300 ms is too large (at most 9223372036854 ms, about 292 years)`},
		{`{"mcpServers": {"a": {"command": "x", "timeout": 9223372036854775807}}}`, `server "a": "timeout" 9223372036854775807 ms is too large`},
		{`{"mcpServers": {"a": {"command": "x", "timeout": 9223372036855}}}`, `server "a": "timeout" 9223372036855 ms is too large`},
		{`{"mcpServers": {"a": {"command": "x", "timeout": 1e999}}}`, `server "a": "timeout" 1e999 ms is too large`},
		{`{"mcpServers": {"a": {"command": "x", "timeout": -1.5}}}`, `"timeout" is negative (-1.5 ms)`},
		{`{"mcpServers": {"a": {"command": "x", "timeout": "9999999h"}}}`, `server "a": "timeout" "9999999h" is not a duration`},
		// A name given twice in one object is an error, like across objects.
		{`{"mcpServers": {"s": {"command": "x"}, "s": {"command": "y"}}}`, `config "mcpServers": server "s" is given twice`},
		{`{"servers": {"b": {"url": "http://h"}, "a": {"command": "x"}, "b": {"command": "y"}}}`, `config "servers": server "b" is given twice`},
		{`{"mcpServers": {"a": {"command": "x"}}, "mcpServers": {"b": {"command": "y"}}}`, `config: "mcpServers" is given twice`},
		{`{"mcpServers": {"a": {"command": "x"}}} {}`, "config is not a JSON object"},
		{`{"mcp": {}, "servers": {"a": {"command": "x"}}, "mcp": {}}`, `config: "mcp" is given twice`},
		{`{"mcpServers": {"a": {"command": "x"}}`, "config is not a JSON object"},
	}
	for _, tc := range tests {
		_, err := ParseConfig([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseConfig(%s) error = %v, want it to contain %q", tc.in, err, tc.want)
		}
	}
}

func TestServerConfigStringRedacts(t *testing.T) {
	cfg, err := ParseConfig([]byte(`{"mcpServers": {
		"r": {"url": "https://h/mcp", "headers": {"Authorization": "Bearer sk-live-123", "X-Key": "k-456"}},
		"l": {"command": "srv", "args": ["--flag"], "env": {"API_KEY": "sk-789"}, "disabled": true}}}`))
	if err != nil {
		t.Fatal(err)
	}
	r, l := cfg.Servers["r"], cfg.Servers["l"]
	if got, want := r.String(), "r (http: https://h/mcp, headers [Authorization=<redacted> X-Key=<redacted>])"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got, want := l.String(), `l (stdio: ["srv" "--flag"], env [API_KEY=<redacted>], disabled)`; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	// Formatting the whole config with %v goes through String too.
	all := fmt.Sprintf("%v %+v %#v %#v", cfg.Servers, r, l, cfg)
	for _, secret := range []string{"sk-live-123", "k-456", "sk-789"} {
		if strings.Contains(all, secret) {
			t.Errorf("%%v of the config shows %q: %s", secret, all)
		}
	}
}

func TestExpandEnv(t *testing.T) {
	env := map[string]string{"A": "1", "EMPTY": "", "LONG_NAME_2": "two"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	tests := []struct{ in, want, err string }{
		{"plain", "plain", ""},
		{"${A}", "1", ""},
		{"Bearer ${A}-${LONG_NAME_2}!", "Bearer 1-two!", ""},
		{"${MISSING:-dflt}", "dflt", ""},
		{"${EMPTY:-dflt}", "dflt", ""},
		{"${EMPTY}", "", ""},
		{"$A stays", "$A stays", ""},
		{"${MISSING}", "", "environment variable MISSING is not set"},
		{"${A", "", `unclosed "${"`},
		{"${1X}", "", `invalid variable name "1X"`},
		// Nesting is not supported: an error, not "1}" or "${A}".
		{"${A:-${B}}", "", "nested ${...} in the default of ${A:-...} is not supported"},
		{"${MISSING:-${A}}", "", "nested ${...} in the default of ${MISSING:-...} is not supported"},
		{"${A:=x}", "", `invalid variable name "A:=x" in ${...} (only ${VAR} and ${VAR:-default} are supported)`},
		{"${A-x}", "", `invalid variable name "A-x"`},
		// A default is literal up to the first "}"; "$" alone and "$$" are literal.
		{"${MISSING:-a$b}", "a$b", ""},
		{"$${A}", "$1", ""},
		{"${MISSING:-x}y}", "xy}", ""},
	}
	for _, tc := range tests {
		got, err := expandEnv(tc.in, lookup)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err && !strings.Contains(err.Error(), tc.err) {
				t.Errorf("expandEnv(%q) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("expandEnv(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestParseConfigLargestTimeout(t *testing.T) {
	cfg, err := ParseConfig([]byte(`{"mcpServers": {"a": {"command": "x", "timeout": 9223372036854}, "b": {"command": "x", "timeout": "2562047h"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cfg.Servers["a"].Timeout, 9223372036854*time.Millisecond; got != want {
		t.Errorf("timeout 9223372036854 ms = %v, want %v", got, want)
	}
	if got, want := cfg.Servers["b"].Timeout, 2562047*time.Hour; got != want {
		t.Errorf(`timeout "2562047h" = %v, want %v`, got, want)
	}
}

// Keys ParseConfig does not read may repeat, as encoding/json allows.
func TestParseConfigIgnoresRepeatedUnknownKeys(t *testing.T) {
	cfg, err := ParseConfig([]byte(`{"theme": 1, "theme": 2, "mcpServers": {"a": {"command": "x"}}}`))
	if err != nil || len(cfg.Servers) != 1 {
		t.Errorf("ParseConfig = %v, %v; want one server", cfg, err)
	}
}
