package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
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
	"github.com/stretchr/testify/assert"
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
	assert.Equal(t, "toolnexus "+cs.InitializeResult().ServerInfo.Version+"\n", cli(t, "", "--version").stdout, "serverInfo.version is what --version prints")
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
	// The skills are prompts too, and their files resources.
	if p, err := cs.GetPrompt(ctx, &mcpsdk.GetPromptParams{Name: "hello-world"}); err != nil || !strings.Contains(p.Messages[0].Content.(*mcpsdk.TextContent).Text, "# Skill: hello-world") {
		t.Errorf("prompts/get hello-world = %+v, %v", p, err)
	}
	if r, err := cs.ListResources(ctx, nil); err != nil || len(r.Resources) != 1 || r.Resources[0].Name != "hello-world/hello.sh" {
		t.Errorf("resources/list = %+v, %v", r, err)
	} else if c, err := cs.ReadResource(ctx, &mcpsdk.ReadResourceParams{URI: r.Resources[0].URI}); err != nil || !strings.HasPrefix(c.Contents[0].Text, "#!") {
		t.Errorf("resources/read %s = %+v, %v", r.Resources[0].URI, c, err)
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
	cmd.Env = envWithoutToken()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	r := bufio.NewReader(stderr)
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("reading the address: %v (%q)", err, line)
	}
	m := regexp.MustCompile(`^toolnexus: serving (\d+) tools over MCP streamable HTTP on (http://127\.0\.0\.1:\d+/)\n$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("first stderr line = %q", line)
	}
	// Without TOOLNEXUS_TOKEN or --token-file, serve makes up a token and
	// says how to send it.
	line, err = r.ReadString('\n')
	tm := regexp.MustCompile(`^toolnexus: send the header "Authorization: Bearer ([A-Z2-7]{26})" \(a token generated for this run; set TOOLNEXUS_TOKEN or --token-file to choose one\)\n$`).FindStringSubmatch(line)
	if err != nil || tm == nil {
		t.Fatalf("second stderr line = %q (%v)", line, err)
	}
	if code, body := post(t, m[2], nil, initBody); code != http.StatusUnauthorized {
		t.Errorf("initialize without the generated token: %d %q, want 401", code, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcpsdk.StreamableClientTransport{Endpoint: m[2], MaxRetries: -1, HTTPClient: &http.Client{Transport: bearer(tm[1])}}, nil)
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
	if o.code != 1 || !strings.Contains(o.stdout, `{"name":"t_echo","description":"Echo the text back","input_schema":{`) {
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

// cliEnv runs the binary like cli, with TOOLNEXUS_TOKEN removed from the
// environment and env added.
func cliEnv(t *testing.T, env []string, args ...string) outcome {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = repoRoot
	cmd.Env = append(envWithoutToken(), env...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running %v: %v", args, err)
	}
	return outcome{out.String(), errb.String(), code}
}

func envWithoutToken() []string {
	return slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "TOOLNEXUS_TOKEN=") })
}

// Any address that is not loopback is refused without a token, before the
// toolkit is built (a missing skills folder would otherwise be the error)
// and before listening.
func TestServeRefusesOpenAddressWithoutToken(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:0", "example.com:0"} {
		o := cliEnv(t, nil, "serve", "--http", addr, "--skills", "no/such/folder")
		o.expect(t, 2, "", "toolnexus serve: --http "+addr+" is not a loopback address, and no bearer token is set: anyone who can reach it could run the served tools (bash and write included) as you.\n"+
			"Set the token in TOOLNEXUS_TOKEN or give --token-file FILE, or listen on 127.0.0.1.\n")
	}
}

func TestServeUsageErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte(" \n"), 0o600)
	good := filepath.Join(dir, "good")
	os.WriteFile(good, []byte("file-token\n"), 0o600)
	tests := []struct {
		env    []string
		args   []string
		stderr string
	}{
		{nil, []string{"--token-file", good}, "toolnexus serve: --token-file applies only with --http\n"},
		{nil, []string{"--http", "127.0.0.1"}, "toolnexus serve: --http 127.0.0.1: missing port in address; ADDR is host:port (e.g. 127.0.0.1:8080)\n"},
		{nil, []string{"--http", "::1", "--no-auth"}, "toolnexus serve: --http ::1: too many colons in address; ADDR is host:port (e.g. 127.0.0.1:8080)\n"},
		{nil, []string{"--stateless"}, "toolnexus serve: --stateless applies only with --http\n"},
		{nil, []string{"--max-sessions", "5"}, "toolnexus serve: --max-sessions applies only with --http\n"},
		{nil, []string{"--no-auth"}, "toolnexus serve: --no-auth applies only with --http\n"},
		{[]string{"TOOLNEXUS_TOKEN=env-token"}, []string{"--http", "127.0.0.1:0", "--no-auth"}, "toolnexus serve: --no-auth and a bearer token (TOOLNEXUS_TOKEN or --token-file) contradict each other; give one\n"},
		{[]string{"TOOLNEXUS_TOKEN=env-token"}, []string{"--http", "127.0.0.1:0", "--token-file", good}, "toolnexus serve: both TOOLNEXUS_TOKEN and --token-file give a token; give only one\n"},
		{[]string{"TOOLNEXUS_TOKEN="}, []string{"--http", "127.0.0.1:0"}, "toolnexus serve: TOOLNEXUS_TOKEN is set but empty\n"},
		{nil, []string{"--http", "127.0.0.1:0", "--token-file", empty}, "toolnexus serve: --token-file " + empty + ": the file is empty\n"},
		{nil, []string{"--http", "127.0.0.1:0", "--token-file", filepath.Join(dir, "missing")}, "toolnexus serve: --token-file: open " + filepath.Join(dir, "missing") + ": no such file or directory\n"},
		{[]string{"TOOLNEXUS_TOKEN=two words"}, []string{"--http", "127.0.0.1:0"}, "toolnexus serve: the token: contains a space or control character\n"},
		{nil, []string{"--http", "127.0.0.1:0", "--allow-origin", "https://ok.example", "--allow-origin", "evil.example"}, "toolnexus serve: --allow-origin \"evil.example\": want scheme://host[:port]\n"},
		{nil, []string{"--http", "127.0.0.1:0", "--allow-host", "http://x"}, "toolnexus serve: --allow-host \"http://x\": want a host name or IP with an optional :port\n"},
	}
	for _, tc := range tests {
		o := cliEnv(t, tc.env, append([]string{"serve", "--skills", "no/such/folder"}, tc.args...)...)
		o.expect(t, 2, "", tc.stderr)
	}
	// --help shows each limit's default.
	help := cliEnv(t, nil, "serve", "--help").stdout
	for _, want := range []string{
		"--session-timeout DURATION\n        close sessions idle for DURATION (negative: never) (default \"30m0s\")\n",
		"--max-sessions N\n        refuse new sessions while N are open (negative: no limit) (default \"1000\")\n",
		"--max-streams N\n        refuse POST requests while N are in progress, a batch counting per message (negative: no limit) (default \"100\")\n",
		"--max-session-calls N\n        run at most N tool calls of one session at once; more wait (negative: no limit) (default \"16\")\n",
		"--max-connections N\n        hold at most N connections open; at the limit a new one closes the oldest that has not passed the token check, else waits (negative: no limit) (default \"512\")\n",
		"--max-body BYTES\n        refuse request bodies over BYTES (negative: no limit) (default \"4194304\")\n",
		"(negative: no limit) (default \"30s\")\n", "(negative: no limit) (default \"10s\")\n", "(negative: no limit) (default \"2m0s\")\n",
	} {
		if !strings.Contains(help, want) {
			t.Errorf("serve --help lacks %q", want)
		}
	}
}

// startServe starts `toolnexus serve` with env and args and returns the
// URL it announces; the process is killed at the end of the test.
func startServe(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Dir = repoRoot
	cmd.Env = append(envWithoutToken(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stderr).ReadString('\n')
	m := regexp.MustCompile(`^toolnexus: serving \d+ tools over MCP streamable HTTP on (http://127\.0\.0\.1:\d+/)\n$`).FindStringSubmatch(line)
	if err != nil || m == nil {
		t.Fatalf("first stderr line = %q (%v)", line, err)
	}
	return m[1]
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// post sends an MCP initialize with the headers hdr and returns the status
// and body.
func post(t *testing.T, url string, hdr map[string]string, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

func TestServeHTTPWithToken(t *testing.T) {
	const token = "a-long-random-test-token"
	dir := t.TempDir()
	file := filepath.Join(dir, "token")
	os.WriteFile(file, []byte(token+"\n"), 0o600)
	for _, src := range []struct {
		name string
		env  []string
		args []string
	}{
		{"env", []string{"TOOLNEXUS_TOKEN=" + token}, nil},
		{"file", nil, []string{"--token-file", file}},
	} {
		url := startServe(t, src.env, append([]string{"--no-builtins", "--skills", "examples/skills", "--http", "127.0.0.1:0"}, src.args...)...)
		for _, hdr := range []map[string]string{nil, {"Authorization": "Bearer wrong"}, {"Authorization": token}} {
			if code, body := post(t, url, hdr, initBody); code != http.StatusUnauthorized {
				t.Errorf("%s: initialize with %v: %d %q, want 401", src.name, hdr, code, body)
			}
		}
		if code, body := post(t, url, map[string]string{"Authorization": "Bearer " + token, "Origin": "https://evil.example"}, initBody); code != http.StatusForbidden {
			t.Errorf("%s: foreign Origin with the token: %d %q, want 403", src.name, code, body)
		}
		if code, body := post(t, url, map[string]string{"Authorization": "Bearer " + token, "Host": "evil.example"}, initBody); code != http.StatusForbidden {
			t.Errorf("%s: rebinding Host with the token: %d %q, want 403", src.name, code, body)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcpsdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1, HTTPClient: &http.Client{Transport: bearer(token)}}, nil)
		if err != nil {
			t.Fatalf("%s: Connect with the token: %v", src.name, err)
		}
		if text, isErr := mcpCall(t, ctx, cs, "skill", `{"name":"hello-world"}`); isErr || !strings.Contains(text, "Hello world") {
			t.Errorf("%s: skill over HTTP with the token = %q, %v", src.name, text, isErr)
		}
		cs.Close()
		cancel()
	}
}

// The limit flags reach the server, and --stateless serves the newest
// protocol.
func TestServeHTTPFlags(t *testing.T) {
	url := startServe(t, nil, "--no-builtins", "--skills", "examples/skills", "--http", "127.0.0.1:0", "--no-auth",
		"--max-body", "300", "--max-sessions", "1", "--allow-origin", "https://app.example", "--allow-host", "mcp.example")
	if code, body := post(t, url, map[string]string{"Origin": "https://app.example", "Host": "mcp.example"}, initBody); code != http.StatusOK {
		t.Fatalf("initialize from an allowed origin and host: %d %q", code, body)
	}
	if code, body := post(t, url, nil, initBody); code != http.StatusServiceUnavailable || !strings.Contains(body, "1 sessions already open") {
		t.Errorf("second session with --max-sessions 1: %d %q", code, body)
	}
	if code, body := post(t, url, nil, initBody+strings.Repeat(" ", 300)); code != http.StatusRequestEntityTooLarge {
		t.Errorf("body over --max-body 300: %d %q", code, body)
	}
	if code, body := post(t, url, map[string]string{"X-Forwarded-For": "203.0.113.7"}, initBody); code != http.StatusForbidden {
		t.Errorf("--no-auth, a forwarded request: %d %q, want 403", code, body)
	}

	url = startServe(t, nil, "--no-builtins", "--skills", "examples/skills", "--http", "127.0.0.1:0", "--stateless", "--no-auth")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcpsdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Errorf("--stateless negotiated %q, want 2026-07-28", v)
	}
	if text, isErr := mcpCall(t, ctx, cs, "skill", `{"name":"hello-world"}`); isErr || !strings.Contains(text, "Hello world") {
		t.Errorf("skill over stateless HTTP = %q, %v", text, isErr)
	}
}

// The token does not reach the processes the tools start.
func TestServeHTTPTokenNotInherited(t *testing.T) {
	const token = "another-long-test-token"
	url := startServe(t, []string{"TOOLNEXUS_TOKEN=" + token}, "--disable", "webfetch", "--http", "127.0.0.1:0")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx,
		&mcpsdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1, HTTPClient: &http.Client{Transport: bearer(token)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if text, isErr := mcpCall(t, ctx, cs, "bash", `{"command":"echo \"[${TOOLNEXUS_TOKEN-unset}]\""}`); isErr || strings.TrimSpace(text) != "[unset]" {
		t.Errorf("bash sees TOOLNEXUS_TOKEN: %q, %v", text, isErr)
	}
}

// A call read before stdin closes is answered before serve exits:
// printf '<initialize>\n<initialized>\n<tools/call>\n' | toolnexus serve.
func TestServeStdioRepliesAfterStdinCloses(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"bash","arguments":{"command":"sleep 0.3; echo hi"}}}
`
	o := cli(t, in, "serve")
	if o.code != 0 {
		t.Fatalf("exit %d, stderr %q", o.code, o.stderr)
	}
	lines := strings.Split(strings.TrimSpace(o.stdout), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], `{"jsonrpc":"2.0","id":1,"result":`) ||
		lines[1] != `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi\n"}]}}` {
		t.Errorf("stdout = %q, want the initialize reply, then the bash reply with text \"hi\\n\"", o.stdout)
	}
}

// Every request read before stdin closes is answered, run after run: 100
// runs of `toolnexus serve` with the initialize, five calls and EOF at
// once, every reply counted (issue: replies were lost when stdin closed
// right after the requests).
func TestServeStdioDrainsEveryRun(t *testing.T) {
	var in strings.Builder
	in.WriteString(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	for id := 2; id <= 6; id++ {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"bash","arguments":{"command":"echo %d"}}}`+"\n", id, id)
	}
	for run := range 100 {
		o := cli(t, in.String(), "serve")
		if o.code != 0 {
			t.Fatalf("run %d: exit %d, stderr %q", run, o.code, o.stderr)
		}
		got := map[int]string{}
		for _, line := range strings.Split(strings.TrimSpace(o.stdout), "\n") {
			var r struct {
				ID     int `json:"id"`
				Result struct {
					Content []struct{ Text string } `json:"content"`
				} `json:"result"`
			}
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("run %d: line %q: %v", run, line, err)
			}
			if len(r.Result.Content) > 0 {
				got[r.ID] = r.Result.Content[0].Text
			} else {
				got[r.ID] = ""
			}
		}
		if len(got) != 6 {
			t.Fatalf("run %d: %d replies of 6: %q", run, len(got), o.stdout)
		}
		for id := 2; id <= 6; id++ {
			if got[id] != fmt.Sprintf("%d\n", id) {
				t.Fatalf("run %d: reply %d = %q", run, id, got[id])
			}
		}
	}
}
