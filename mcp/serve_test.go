package mcp

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http/httptest"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/mcp/internal/testserver"
)

func newTestRegistry(t *testing.T) *toolnexus.Registry {
	t.Helper()
	reg, err := testserver.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// connectClient connects an SDK client on transport, capturing the raw
// tools/list results in store. changed receives a value per
// notifications/tools/list_changed.
func connectClient(t *testing.T, ctx context.Context, transport mcpsdk.Transport, store *schemaStore, changed chan<- struct{}) *mcpsdk.ClientSession {
	t.Helper()
	opts := &mcpsdk.ClientOptions{}
	if changed != nil {
		opts.ToolListChangedHandler = func(context.Context, *mcpsdk.ToolListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		}
	}
	c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test-client", Version: "1"}, opts)
	if store != nil {
		transport = &captureTransport{inner: transport, store: store}
	}
	cs, err := c.Connect(ctx, transport, nil)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func toolNames(t *testing.T, ctx context.Context, cs *mcpsdk.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names
}

func callText(t *testing.T, ctx context.Context, cs *mcpsdk.ClientSession, name, args string) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("CallTool(%s, %s): %v", name, args, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("CallTool(%s): %d content blocks, want 1", name, len(res.Content))
	}
	tc, ok := res.Content[0].(*mcpsdk.TextContent)
	if !ok {
		t.Fatalf("CallTool(%s): content is %T, want text", name, res.Content[0])
	}
	return tc.Text, res.IsError
}

// checkServedSession runs the checks every transport must pass against the
// registry of testserver.NewRegistry.
func checkServedSession(t *testing.T, ctx context.Context, cs *mcpsdk.ClientSession, store *schemaStore, reg *toolnexus.Registry) {
	t.Helper()
	if got, want := toolNames(t, ctx, cs), []string{"boom", "get_weather"}; !slices.Equal(got, want) {
		t.Errorf("ListTools() names = %v, want %v", got, want)
	}
	if store != nil {
		// The schema reaches the client byte for byte.
		weather, _ := reg.Get("get_weather")
		if raw, ok := store.get("get_weather"); !ok || string(raw) != string(weather.InputSchema) {
			t.Errorf("get_weather inputSchema on the wire = %s\nwant %s", raw, weather.InputSchema)
		}
		if raw, _ := store.get("boom"); string(raw) != `{"type":"object"}` {
			t.Errorf("boom inputSchema = %s, want {\"type\":\"object\"}", raw)
		}
	}

	tests := []struct {
		name, tool, args string
		want             string // substring of the text
		isError          bool
	}{
		{"ok", "get_weather", `{"city":"Paris"}`, "22 degrees celsius in Paris", false},
		{"ok enum", "get_weather", `{"city":"Oslo","unit":"fahrenheit"}`, "22 degrees fahrenheit in Oslo", false},
		{"wrong type", "get_weather", `{"city":5}`, `"city"`, true},
		{"missing required", "get_weather", `{}`, `"city" is required`, true},
		{"bad enum", "get_weather", `{"city":"Rome","unit":"kelvin"}`, `"unit" must be one of [celsius fahrenheit]`, true},
		{"unknown key", "get_weather", `{"city":"Rome","extra":1}`, "extra", true},
		{"handler error", "boom", `{}`, "boom failed on purpose", true},
	}
	for _, tc := range tests {
		text, isErr := callText(t, ctx, cs, tc.tool, tc.args)
		if isErr != tc.isError || !strings.Contains(text, tc.want) {
			t.Errorf("%s: CallTool(%s, %s) = (%q, isError %v), want text containing %q and isError %v",
				tc.name, tc.tool, tc.args, text, isErr, tc.want, tc.isError)
		}
	}

	// An unknown tool is a protocol error, as the MCP spec requires.
	_, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "nope", Arguments: map[string]any{}})
	if err == nil || !strings.Contains(err.Error(), `unknown tool "nope"`) {
		t.Errorf("CallTool(nope) error = %v, want unknown tool", err)
	}
}

func TestServeInMemory(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	reg := newTestRegistry(t)
	srv := NewServer(reg, &ServerOptions{Name: "demo", Version: "9.9"})
	defer srv.Close()
	ct, st := mcpsdk.NewInMemoryTransports()
	ss, err := srv.SDKServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	store := &schemaStore{}
	changed := make(chan struct{}, 1)
	cs := connectClient(t, ctx, ct, store, changed)

	if info := cs.InitializeResult().ServerInfo; info.Name != "demo" || info.Version != "9.9" {
		t.Errorf("serverInfo = %+v, want demo 9.9", info)
	}
	checkServedSession(t, ctx, cs, store, reg)

	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a := res.Tools[0].Annotations; res.Tools[0].Name != "boom" || a == nil || !a.ReadOnlyHint {
		t.Errorf("boom annotations = %+v, want readOnlyHint", a)
	}

	// A tool added after the server started: notification, then listed.
	if err := toolnexus.Register(reg, "late", "Added later", func(ctx context.Context, a struct {
		N int `json:"n"`
	}) (string, error) {
		return strings.Repeat("x", a.N), nil
	}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-ctx.Done():
		t.Fatal("no tools/list_changed notification after Register")
	}
	if got, want := toolNames(t, ctx, cs), []string{"boom", "get_weather", "late"}; !slices.Equal(got, want) {
		t.Errorf("after Register: names = %v, want %v", got, want)
	}
	if text, isErr := callText(t, ctx, cs, "late", `{"n":3}`); text != "xxx" || isErr {
		t.Errorf("late = %q, %v; want xxx", text, isErr)
	}

	// Removed tools vanish.
	reg.Remove("boom")
	select {
	case <-changed:
	case <-ctx.Done():
		t.Fatal("no tools/list_changed notification after Remove")
	}
	if got, want := toolNames(t, ctx, cs), []string{"get_weather", "late"}; !slices.Equal(got, want) {
		t.Errorf("after Remove: names = %v, want %v", got, want)
	}

	// After Close the server no longer follows the registry.
	srv.Close()
	reg.Remove("late")
	if got, want := toolNames(t, ctx, cs), []string{"get_weather", "late"}; !slices.Equal(got, want) {
		t.Errorf("after Close: names = %v, want %v", got, want)
	}
}

func TestServeStdioSubprocess(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	store := &schemaStore{}
	cmd := exec.Command(mcptestBin, "serve")
	cs := connectClient(t, ctx, &mcpsdk.CommandTransport{Command: cmd}, store, nil)
	checkServedSession(t, ctx, cs, store, newTestRegistry(t))
	if err := cs.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Exited() || cmd.ProcessState.ExitCode() != 0 {
		t.Errorf("server process state after Close = %v, want exit 0", cmd.ProcessState)
	}
}

func TestServeHTTP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	reg := newTestRegistry(t)
	srv := NewServer(reg, nil)
	t.Cleanup(func() { srv.Close() })
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close) // runs after the client session's Cleanup
	cs := connectClient(t, ctx, &mcpsdk.StreamableClientTransport{Endpoint: hs.URL, MaxRetries: -1}, nil, nil)
	checkServedSession(t, ctx, cs, nil, reg)
}

func TestListenAndServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reg := newTestRegistry(t)
	srv := NewServer(reg, nil)
	defer srv.Close()
	addrc := make(chan string, 1)
	errc := make(chan error, 1)
	go func() {
		errc <- srv.ListenAndServe(ctx, "127.0.0.1:0", func(a net.Addr) { addrc <- a.String() })
	}()
	var addr string
	select {
	case addr = <-addrc:
	case err := <-errc:
		t.Fatalf("ListenAndServe: %v", err)
	}
	cctx, ccancel := context.WithTimeout(ctx, 20*time.Second)
	defer ccancel()
	cs := connectClient(t, cctx, &mcpsdk.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", MaxRetries: -1}, nil, nil)
	if text, isErr := callText(t, cctx, cs, "get_weather", `{"city":"Lima"}`); isErr || text != "22 degrees celsius in Lima" {
		t.Errorf("get_weather over HTTP = %q, %v", text, isErr)
	}
	cs.Close()
	cancel()
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("ListenAndServe after cancel = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ListenAndServe did not return after ctx was cancelled")
	}
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c.Close()
		t.Errorf("server still accepting connections on %s after shutdown", addr)
	}
}

// The SDK's Server.AddTool panics on schemas the registry accepts; the
// server must skip such tools (and say why) instead of letting the panic
// out of NewServer or Registry.Add.
func TestServeSkipsToolsTheSDKRefuses(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rawTool := func(name, schema string) toolnexus.Tool {
		return toolnexus.Tool{Name: name, Description: "d", InputSchema: json.RawMessage(schema),
			Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return name + " ran", nil })}
	}
	reg := toolnexus.NewRegistry()
	// Present before NewServer: NewServer must not panic.
	if err := reg.Add(
		rawTool("objheader", `{"type":"object","properties":{"a":{"type":"object","x-mcp-header":"X-A"}}}`),
		rawTool("ok", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"X-A"}}}`),
	); err != nil {
		t.Fatal(err)
	}
	var logBuf strings.Builder
	logger := slog.New(slog.NewTextHandler(&logBuf, nil))
	srv := NewServer(reg, &ServerOptions{Logger: logger})
	defer srv.Close()
	want := []string{`objheader: invalid parameter header annotations: property "a": x-mcp-header can only be applied to primitive types (integer, string, boolean), got "object"`}
	if got := srv.Skipped(); !slices.Equal(got, want) {
		t.Errorf("Skipped() = %q\nwant %q", got, want)
	}
	if !strings.Contains(logBuf.String(), `msg="mcp: tool not served" tool=objheader reason="invalid parameter header annotations`) {
		t.Errorf("log = %s, want a warning naming objheader", logBuf.String())
	}

	ct, st := mcpsdk.NewInMemoryTransports()
	ss, err := srv.SDKServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs := connectClient(t, ctx, ct, nil, nil)
	if got, want := toolNames(t, ctx, cs), []string{"ok"}; !slices.Equal(got, want) {
		t.Errorf("names = %v, want %v", got, want)
	}

	// Added later: Registry.Add succeeds (the registry accepts the schemas),
	// nothing panics, and the server lists only what the SDK serves.
	if err := reg.Add(
		rawTool("space", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"X A"}}}`),
		rawTool("dupcase", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"X-Id"},"b":{"type":"string","x-mcp-header":"x-id"}}}`),
		rawTool("fine", `{"type":"object"}`),
	); err != nil {
		t.Fatalf("Registry.Add: %v", err)
	}
	got := srv.Skipped()
	if len(got) != 3 || !strings.HasPrefix(got[0], `dupcase: invalid parameter header annotations: property "`) ||
		!strings.Contains(got[0], `duplicate x-mcp-header value "`) || !strings.Contains(got[0], `(case-insensitive)`) ||
		!strings.HasPrefix(got[1], "objheader: ") ||
		got[2] != `space: invalid parameter header annotations: property "a": x-mcp-header value "X A" contains invalid character ' '` {
		t.Errorf("Skipped() = %q", got)
	}
	if got, want := toolNames(t, ctx, cs), []string{"fine", "ok"}; !slices.Equal(got, want) {
		t.Errorf("names = %v, want %v", got, want)
	}
	if text, isErr := callText(t, ctx, cs, "fine", `{}`); text != "fine ran" || isErr {
		t.Errorf("fine = %q, %v", text, isErr)
	}
	if _, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "space", Arguments: map[string]any{}}); err == nil || !strings.Contains(err.Error(), `unknown tool "space"`) {
		t.Errorf("CallTool(space) error = %v, want unknown tool", err)
	}

	// A served tool replaced by one the SDK refuses is no longer listed
	// (the old version must not linger); removing it clears Skipped.
	reg.Remove("ok")
	if err := reg.Add(rawTool("ok", `{"type":"object","properties":{"a":{"type":"array","x-mcp-header":"X-A"}}}`)); err != nil {
		t.Fatal(err)
	}
	if got, want := toolNames(t, ctx, cs), []string{"fine"}; !slices.Equal(got, want) {
		t.Errorf("after replacing ok: names = %v, want %v", got, want)
	}
	reg.Remove("ok", "space", "dupcase", "objheader")
	if got := srv.Skipped(); len(got) != 0 {
		t.Errorf("Skipped() after Remove = %q, want none", got)
	}
	// And a fixed version of a skipped tool is served.
	if err := reg.Add(rawTool("space", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"X-A"}}}`)); err != nil {
		t.Fatal(err)
	}
	if got, want := toolNames(t, ctx, cs), []string{"fine", "space"}; !slices.Equal(got, want) {
		t.Errorf("after fixing space: names = %v, want %v", got, want)
	}
}

// A schema nested deeper than the SDK's JSON decoder allows makes
// AddTool panic too. (Registry.Add may refuse such a schema itself, so
// this checks the guard directly.)
func TestServeAddToolRecoversDeepSchema(t *testing.T) {
	srv := NewServer(toolnexus.NewRegistry(), nil)
	defer srv.Close()
	deep := `{"type":"object","properties":{"a":` + strings.Repeat(`{"items":`, 1001) + `{}` + strings.Repeat(`}`, 1001) + `}}`
	err := srv.addTool(toolnexus.Tool{Name: "deep", InputSchema: json.RawMessage(deep)})
	if err == nil || err.Error() != "can't marshal input schema to a JSON object: json: exceeded maximum nesting depth of 1000" {
		t.Errorf("addTool(deep) = %v", err)
	}
}
