package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/mcp/internal/testserver"
)

// alive reports whether a process with this pid exists (and is not a
// zombie waiting to be reaped by someone else).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	// A zombie still answers kill 0; treat it as gone.
	data, err := readProcStat(pid)
	return err != nil || !strings.Contains(data, ") Z ")
}

func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Errorf("%s (pid %d) still running after Close", what, pid)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func testConfig(t *testing.T, extra string) *Config {
	t.Helper()
	bin, _ := json.Marshal(mcptestBin)
	cfg, err := ParseConfig([]byte(`{"mcpServers": {
		"test": {"command": ` + string(bin) + `, "args": ["sdk"]},
		"broken": {"command": [` + string(bin) + `, "crash"]},
		"off": {"command": "/nonexistent/never-started", "disabled": true},
		"missing": {"command": "/nonexistent/toolnexus-no-such-program"}` + extra + `
	}}`))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func statusByName(s *Servers) map[string]ServerStatus {
	m := map[string]ServerStatus{}
	for _, st := range s.Status() {
		m[st.Name] = st
	}
	return m
}

func TestLoadStdio(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cfg := testConfig(t, `, "slow": {"command": [`+strconv.Quote(mcptestBin)+`, "hang"], "timeout": 300}`)
	start := time.Now()
	servers := Load(ctx, cfg, nil)
	defer servers.Close()
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("Load took %v; the hanging server's 300ms timeout should bound it", d)
	}

	st := statusByName(servers)
	if got := st["test"]; got.State != StateConnected || got.ServerInfo != "testserver 1.2.3" || got.Transport != "stdio" {
		t.Errorf("status test = %+v, want connected testserver 1.2.3 over stdio", got)
	}
	if got := st["off"]; got.State != StateDisabled || got.Reason != "" {
		t.Errorf("status off = %+v, want disabled", got)
	}
	if got := st["broken"]; got.State != StateFailed || !strings.Contains(got.Reason, "cannot read settings: permission denied") {
		t.Errorf("status broken = %+v, want failed with the stderr line in Reason", got)
	}
	if got := st["missing"]; got.State != StateFailed || !strings.Contains(got.Reason, "no such file") {
		t.Errorf("status missing = %+v, want failed: no such file", got)
	}
	if got := st["slow"]; got.State != StateFailed || !strings.Contains(got.Reason, "deadline exceeded") {
		t.Errorf("status slow = %+v, want failed: deadline exceeded", got)
	}
	if names := []string{"broken", "missing", "off", "slow", "test"}; !slices.Equal(statusNames(servers), names) {
		t.Errorf("Status order = %v, want %v", statusNames(servers), names)
	}
	err := servers.Err()
	if err == nil || !strings.Contains(err.Error(), `mcp: server "broken"`) || strings.Contains(err.Error(), `"test"`) {
		t.Errorf("Err() = %v, want the failures only", err)
	}

	tools := servers.Tools()
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
		if tool.Source != "mcp" || tool.Timeout != DefaultTimeout {
			t.Errorf("tool %s: Source %q Timeout %v, want mcp and %v", tool.Name, tool.Source, tool.Timeout, DefaultTimeout)
		}
	}
	longName := ToolNames([]ToolRef{{"test", testserver.LongToolName}})[ToolRef{"test", testserver.LongToolName}]
	want := []string{"test_add", "test_echo", "test_fail", "test_get_weather_v2", "test_patch", "test_pid", "test_sleep", "test_spawn", "test_structured", longName}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("tool names = %v\nwant %v", names, want)
	}
	if st["test"].Tools == nil || !slices.Equal(st["test"].Tools, want) {
		t.Errorf("status tools = %v, want %v", st["test"].Tools, want)
	}
	if len(longName) != 64 || !strings.HasPrefix(longName, "test_a_tool_with_a_very_long_name") {
		t.Errorf("long tool name = %q (%d chars), want 64 chars", longName, len(longName))
	}

	reg := toolnexus.NewRegistry()
	if err := reg.Add(tools...); err != nil {
		t.Fatalf("Registry.Add(mcp tools): %v", err)
	}
	weather, _ := reg.Get("test_get_weather_v2")
	if string(weather.InputSchema) != testserver.OrderedSchema {
		t.Errorf("schema passed through as %s\nwant %s", weather.InputSchema, testserver.OrderedSchema)
	}
	if weather.Description != "Ordered schema" {
		t.Errorf("description = %q", weather.Description)
	}

	calls := []struct {
		tool, args, want string
		isError          bool
	}{
		{"test_echo", `{"text":"hi there"}`, "hi there", false},
		{"test_add", `{"a":2,"b":3.5}`, "5.5", false},
		{"test_fail", `{}`, "first problem\nsecond problem", true},
		{"test_structured", ``, "see structured content", false}, // Structured checked below
		{"test_get_weather_v2", `{"zeta":"z","alpha":1}`, `{"zeta":"z","alpha":1}`, false},
		{longName, `{}`, "long", false},
	}
	for _, c := range calls {
		res := reg.Execute(ctx, c.tool, json.RawMessage(c.args))
		if res.Output != c.want || res.IsError != c.isError {
			t.Errorf("Execute(%s, %s) = (%q, isError %v), want (%q, %v)", c.tool, c.args, res.Output, res.IsError, c.want, c.isError)
		}
		if res.Metadata["mcp_server"] != "test" {
			t.Errorf("Execute(%s) metadata = %v", c.tool, res.Metadata)
		}
	}
	// structuredContent is kept beside the text, and is what a model reads.
	if res := reg.Execute(ctx, "test_structured", nil); string(res.Structured) != `{"a":[true],"z":1}` || res.Text() != `{"a":[true],"z":1}` {
		t.Errorf("test_structured: Structured %s, Text %q", res.Structured, res.Text())
	}
	// Arguments are checked locally against the server's schema: every
	// problem in one message, without a round trip.
	res := reg.Execute(ctx, "test_echo", json.RawMessage(`{"text":5,"x":1}`))
	if want := `invalid arguments for "test_echo": "text" must be a string, got a number; unknown property "x"; allowed: text`; res.Output != want || !errors.Is(res.Err, toolnexus.ErrInvalidArguments) {
		t.Errorf("echo with bad args = %+v, want the local check's %q", res, want)
	}
	res = reg.Execute(ctx, "test_fail", nil)
	var te *ToolError
	if !errors.As(res.Err, &te) || te.Server != "test" || te.Tool != "fail" || te.Message != "first problem\nsecond problem" {
		t.Errorf("fail Err = %#v, want *ToolError", res.Err)
	}

	// Close stops the server process and the processes it started.
	pidRes := reg.Execute(ctx, "test_pid", nil)
	pid, err := strconv.Atoi(pidRes.Output)
	if err != nil {
		t.Fatalf("pid tool: %+v", pidRes)
	}
	childRes := reg.Execute(ctx, "test_spawn", nil)
	child, err := strconv.Atoi(childRes.Output)
	if err != nil {
		t.Fatalf("spawn tool: %+v", childRes)
	}
	if !alive(pid) || !alive(child) {
		t.Fatalf("server %d or its child %d not running before Close", pid, child)
	}
	if err := servers.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	waitGone(t, pid, "server process")
	waitGone(t, child, "server's child process")
	if st := statusByName(servers)["test"]; st.State != StateClosed {
		t.Errorf("state after Close = %s, want closed", st.State)
	}
	res = reg.Execute(ctx, "test_echo", json.RawMessage(`{"text":"x"}`))
	if !res.IsError || !strings.Contains(res.Output, "not connected") {
		t.Errorf("call after Close = %+v, want a not-connected error result", res)
	}
	if err := servers.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func statusNames(s *Servers) []string {
	var out []string
	for _, st := range s.Status() {
		out = append(out, st.Name)
	}
	return out
}

func TestLoadCallTimeout(t *testing.T) {
	ctx := context.Background()
	cfg, err := ParseConfig([]byte(`{"servers":{"t":{"command":[` + strconv.Quote(mcptestBin) + `,"sdk"],"timeout":"3s"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	servers := Load(ctx, cfg, nil)
	defer servers.Close()
	if err := servers.Err(); err != nil {
		t.Fatal(err)
	}
	tools := servers.Tools()
	if tools[0].Timeout != 3*time.Second {
		t.Errorf("Tool.Timeout = %v, want the server's 3s", tools[0].Timeout)
	}
	reg := toolnexus.NewRegistry()
	if err := reg.Add(tools...); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res := reg.Execute(ctx, "t_sleep", json.RawMessage(`{"ms":60000}`))
	if !res.IsError || !strings.Contains(res.Output, "timed out after 3s") {
		t.Errorf("slow call = %+v, want timed out after 3s", res)
	}
	if d := time.Since(start); d > 30*time.Second { // 3 s, generous for a loaded machine; the call sleeps 60 s
		t.Errorf("slow call returned after %v", d)
	}
	// The session survives a timed-out call.
	if res := reg.Execute(ctx, "t_echo", json.RawMessage(`{"text":"still here"}`)); res.Output != "still here" {
		t.Errorf("echo after timeout = %+v", res)
	}
}

func TestLoadHTTP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv := testserver.NewSDKServer()
	var sawAuth []string
	h := mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return srv }, nil)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret-token" || r.Header.Get("X-Team") != "blue" {
			sawAuth = append(sawAuth, r.Header.Get("Authorization"))
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer hs.Close()
	// The same server answering with application/json instead of event
	// streams, and on the older HTTP+SSE transport.
	jsonHandler := mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return srv }, &mcpsdk.StreamableHTTPOptions{JSONResponse: true})
	hsJSON := httptest.NewServer(jsonHandler)
	defer hsJSON.Close()
	hsSSE := httptest.NewServer(mcpsdk.NewSSEHandler(func(*http.Request) *mcpsdk.Server { return srv }, nil))
	defer hsSSE.Close()
	env := map[string]string{"MY_TOKEN": "s3cret-token"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	cfg, err := ParseConfig([]byte(`{"mcp": {
		"remote": {"type": "http", "url": "` + hs.URL + `", "headers": {"Authorization": "Bearer ${MY_TOKEN}", "X-Team": "${TEAM:-blue}"}},
		"wrongkey": {"url": "` + hs.URL + `", "headers": {"Authorization": "Bearer wrong-s3cret"}},
		"unset": {"url": "` + hs.URL + `", "headers": {"Authorization": "Bearer ${NOT_SET_ANYWHERE}"}},
		"plainjson": {"url": "` + hsJSON.URL + `"},
		"legacy": {"type": "sse", "url": "` + hsSSE.URL + `"}
	}}`))
	if err != nil {
		t.Fatal(err)
	}
	servers := Load(ctx, cfg, &LoadOptions{LookupEnv: lookup})
	defer servers.Close()
	st := statusByName(servers)
	if got := st["remote"]; got.State != StateConnected || got.Transport != "http" {
		t.Fatalf("remote status = %+v", got)
	}
	if got := st["unset"]; got.State != StateFailed || !strings.Contains(got.Reason, "NOT_SET_ANYWHERE is not set") {
		t.Errorf("unset status = %+v", got)
	}
	if got := st["wrongkey"]; got.State != StateFailed {
		t.Errorf("wrongkey status = %+v, want failed", got)
	}
	for _, s := range servers.Status() {
		if strings.Contains(s.Reason, "s3cret") {
			t.Errorf("status of %s leaks a header value: %q", s.Name, s.Reason)
		}
	}
	if e := servers.Err(); e != nil && strings.Contains(e.Error(), "s3cret") {
		t.Errorf("Err() leaks a header value: %v", e)
	}
	reg := toolnexus.NewRegistry()
	if err := reg.Add(servers.Tools()...); err != nil {
		t.Fatal(err)
	}
	weather, _ := reg.Get("remote_get_weather_v2")
	if string(weather.InputSchema) != testserver.OrderedSchema {
		t.Errorf("schema over HTTP = %s\nwant %s", weather.InputSchema, testserver.OrderedSchema)
	}
	if res := reg.Execute(ctx, "remote_add", json.RawMessage(`{"a":40,"b":2}`)); res.Output != "42" || res.IsError {
		t.Errorf("remote_add = %+v", res)
	}
	if res := reg.Execute(ctx, "remote_fail", nil); res.Output != "first problem\nsecond problem" || !res.IsError {
		t.Errorf("remote_fail = %+v", res)
	}
	for _, server := range []string{"plainjson", "legacy"} {
		if got := st[server]; got.State != StateConnected {
			t.Errorf("%s status = %+v", server, got)
			continue
		}
		weather, _ := reg.Get(server + "_get_weather_v2")
		if string(weather.InputSchema) != testserver.OrderedSchema {
			t.Errorf("%s: schema = %s\nwant %s", server, weather.InputSchema, testserver.OrderedSchema)
		}
		if res := reg.Execute(ctx, server+"_echo", json.RawMessage(`{"text":"`+server+`"}`)); res.Output != server || res.IsError {
			t.Errorf("%s_echo = %+v", server, res)
		}
	}
	if got := st["legacy"].Transport; got != "sse" {
		t.Errorf("legacy transport = %q", got)
	}
	// Healthy connections are still reported connected after the calls
	// (only a connection that really ended turns failed).
	time.Sleep(200 * time.Millisecond)
	for name, got := range statusByName(servers) {
		if got.State == StateConnected != (name == "remote" || name == "plainjson" || name == "legacy") {
			t.Errorf("%s state after the calls = %s %q", name, got.State, got.Reason)
		}
	}
	if err := servers.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func TestLoadNilConfig(t *testing.T) {
	s := Load(context.Background(), nil, nil)
	if len(s.Tools()) != 0 || len(s.Status()) != 0 || s.Err() != nil || s.Close() != nil {
		t.Errorf("Load(nil) = %+v, want empty", s)
	}
}

func TestLoadFile(t *testing.T) {
	if _, err := LoadFile(context.Background(), "testdata/does-not-exist.json", nil); err == nil {
		t.Error("LoadFile(missing) succeeded")
	}
	_, err := LoadFile(context.Background(), "testdata/bad-command.json", nil)
	if err == nil || !regexp.MustCompile(`testdata/bad-command.json: .*server "x": "command" must be a string or an array of strings`).MatchString(err.Error()) {
		t.Errorf("LoadFile(bad) error = %v", err)
	}
}

// "mcptest raw" misbehaves: it lists a tool the SDK client drops, answers
// one call with an invalid result and crashes during another.
func TestLoadMisbehavingServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cfg, err := ParseConfig([]byte(`{"servers":{"x":{"command":[` + strconv.Quote(mcptestBin) + `,"raw"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var logBuf syncBuffer
	servers := Load(ctx, cfg, &LoadOptions{Logger: slog.New(slog.NewTextHandler(&logBuf, nil))})
	defer servers.Close()

	// The tool the SDK client drops while listing is reported, not lost.
	st := statusByName(servers)["x"]
	wantSkipped := []string{`badheader: dropped by the MCP SDK client: property "a": x-mcp-header value "X A" contains invalid character ' '`}
	if st.State != StateConnected || !slices.Equal(st.Skipped, wantSkipped) {
		t.Errorf("status = %+v\nwant connected, Skipped %q", st, wantSkipped)
	}
	if want := []string{"x_badresult", "x_exit", "x_good"}; !slices.Equal(st.Tools, want) {
		t.Errorf("tools = %v, want %v", st.Tools, want)
	}
	// The caller's Logger still gets the SDK's records.
	if !strings.Contains(logBuf.String(), `msg="excluding tool from tools/list" tool=badheader`) {
		t.Errorf("log = %q, want the SDK's record", logBuf.String())
	}

	reg := toolnexus.NewRegistry()
	if err := reg.Add(servers.Tools()...); err != nil {
		t.Fatal(err)
	}
	if res := reg.Execute(ctx, "x_good", nil); res.Output != "ok" || res.IsError {
		t.Errorf("x_good = %+v", res)
	}
	// An invalid result: short model-facing text, the Go error in Err.
	res := reg.Execute(ctx, "x_badresult", nil)
	if want := `MCP server "x" sent an invalid tools/call result`; res.Output != want || !res.IsError {
		t.Errorf("x_badresult Output = %q, want %q", res.Output, want)
	}
	if res.Err == nil || !strings.Contains(res.Err.Error(), `mcp: server "x": tool "badresult": `) || !strings.Contains(res.Err.Error(), "isError of type bool") {
		t.Errorf("x_badresult Err = %v, want the decoding error", res.Err)
	}

	// The process dies during a call: the call fails, and Status says so.
	res = reg.Execute(ctx, "x_exit", nil)
	if want := `MCP server "x": connection closed`; res.Output != want || !res.IsError {
		t.Errorf("x_exit Output = %q, want %q", res.Output, want)
	}
	deadline := time.Now().Add(10 * time.Second)
	for statusByName(servers)["x"].State == StateConnected && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	st = statusByName(servers)["x"]
	if want := "connection closed: exit status 4; stderr: mcptest: crashing on purpose"; st.State != StateFailed || st.Reason != want {
		t.Errorf("status after the crash = %s %q, want failed %q", st.State, st.Reason, want)
	}
	if err := servers.Err(); err == nil || err.Error() != `mcp: server "x": connection closed: exit status 4; stderr: mcptest: crashing on purpose` {
		t.Errorf("Err() = %v", err)
	}
	if res := reg.Execute(ctx, "x_good", nil); res.Output != `MCP server "x" is not connected` || !res.IsError {
		t.Errorf("x_good after the crash = %+v", res)
	}
	if err := servers.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if st := statusByName(servers)["x"]; st.State != StateFailed {
		t.Errorf("state after Close = %s, want failed (it crashed before)", st.State)
	}
}

func TestCallErrorText(t *testing.T) {
	var typeErr error = &json.UnmarshalTypeError{Value: "string", Type: reflect.TypeFor[bool](), Field: "struct { mcp.res }.isError"}
	tests := []struct {
		err  error
		want string
	}{
		{context.DeadlineExceeded, `MCP server "s": tool "t": context deadline exceeded`},
		{fmt.Errorf("calling %q: %w", "tools/call", &jsonrpc.Error{Code: -32602, Message: `unknown tool "t"`}), `MCP server "s": tool "t": unknown tool "t"`},
		{fmt.Errorf("%w: calling %q: client is closing: EOF", mcpsdk.ErrConnectionClosed, "tools/call"), `MCP server "s": connection closed`},
		{fmt.Errorf("calling %q: %w", "tools/call", io.EOF), `MCP server "s": connection closed`},
		{fmt.Errorf("calling %q: %w", "tools/call", typeErr), `MCP server "s" sent an invalid tools/call result`},
		{errors.New(`calling "tools/call": invalid content type "video"`), `MCP server "s" sent an invalid tools/call result`},
		{errors.New("sending: *net.OpError something"), `MCP server "s": calling tool "t" failed`},
	}
	for _, tc := range tests {
		if got := callErrorText("s", "t", tc.err); got != tc.want {
			t.Errorf("callErrorText(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

// syncBuffer is a strings.Builder safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
