package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/mcp/internal/testserver"
)

// Regression tests for issue 12 (loading MCP servers), each against a
// server that misbehaves on purpose.

func TestLoadSkipsToolsTheRegistryRefuses(t *testing.T) {
	deep := `{"type":"object","properties":{"x":` + strings.Repeat(`{"items":`, 600) + `{}` + strings.Repeat(`}`, 600) + `}}`
	longDesc := strings.Repeat("é", 2000)
	srv := &fakeServer{list: func(string) (string, string) {
		return `{"tools":[
			{"name":"good","inputSchema":{"type":"object"}},
			{"name":"dupkey","inputSchema":{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"integer"}}}},
			{"name":"deep","inputSchema":` + deep + `},
			{"name":"notobject","inputSchema":{"type":"string"}},
			{"name":"long","description":"` + longDesc + `","inputSchema":{"type":"object"}},
			{"name":"evil\u001b[2J","inputSchema":{"type":"array"}}]}`, ""
	}}
	ctx := context.Background()
	servers := loadFake(ctx, "x", srv, nil)
	defer servers.Close()
	st := servers.Status()[0]
	if st.State != StateConnected {
		t.Fatalf("state = %s %q, want connected", st.State, st.Reason)
	}
	if want := []string{"x_good", "x_long"}; !slices.Equal(st.Tools, want) {
		t.Errorf("Tools = %v, want %v", st.Tools, want)
	}
	wantSkipped := []string{
		`dupkey: tool "x_dupkey": invalid input schema: schema has the key "a" twice at /properties`,
		`deep: tool "x_deep": invalid input schema: the schema is nested more than 512 levels deep`,
		`notobject: tool "x_notobject": invalid input schema: schema root must have "type":"object", got "string"`,
		`evil\x1b[2J: tool "x_evil__2J": invalid input schema: schema root must have "type":"object", got "array"`,
	}
	if !slices.Equal(st.Skipped, wantSkipped) {
		t.Errorf("Skipped = %q\nwant %q", st.Skipped, wantSkipped)
	}
	if want := []string{"long: description cut from 2000 to 1024 characters"}; !slices.Equal(st.Notes, want) {
		t.Errorf("Notes = %q, want %q", st.Notes, want)
	}
	tools := servers.Tools()
	reg := toolnexus.NewRegistry()
	if err := reg.Add(tools...); err != nil {
		t.Fatalf("Registry.Add(Tools()) = %v, want every tool accepted", err)
	}
	long, _ := reg.Get("x_long")
	if n := utf8.RuneCountInString(long.Description); n != 1024 || !strings.HasSuffix(long.Description, "é…") {
		t.Errorf("long description has %d characters, want 1024 ending in …", n)
	}
}

func TestLoadCapsTools(t *testing.T) {
	// 410,000 tools in 410 pages of 1000; then 50,000 tools in one page
	// (2.3 MB), refused before the SDK decodes its tools: the last one has
	// an x-mcp-header annotation the SDK client would log a complaint
	// about while decoding.
	paged := &fakeServer{list: func(cursor string) (string, string) {
		n, _ := strconv.Atoi(cursor)
		next := ""
		if n < 409 {
			next = strconv.Itoa(n + 1)
		}
		return toolsJSON("p"+cursor+"_", 1000, next), ""
	}}
	whole := strings.TrimSuffix(toolsJSON("t", 50_000, ""), "]}") +
		`,{"name":"badheader","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"X A"}}}}]}`
	onePage := &fakeServer{list: func(string) (string, string) { return whole, "" }}
	endless := &fakeServer{list: func(cursor string) (string, string) {
		return toolsJSON("c"+cursor+"_", 1, cursor+"x"), ""
	}}
	cases := []struct {
		name   string
		srv    *fakeServer
		opts   *LoadOptions
		reason string
		lists  int64
	}{
		{"paged", paged, nil, "list tools: more than 1000 tools (LoadOptions.MaxTools)", 2},
		{"paged-own-cap", paged, &LoadOptions{MaxTools: 5000}, "list tools: more than 5000 tools (LoadOptions.MaxTools)", 6},
		{"one-page", onePage, nil, "list tools: more than 1000 tools (LoadOptions.MaxTools)", 1},
		{"endless", endless, nil, "list tools: more than 100 pages (LoadOptions.MaxListPages)", 100},
		{"endless-own-cap", endless, &LoadOptions{MaxListPages: 3}, "list tools: more than 3 pages (LoadOptions.MaxListPages)", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var opts LoadOptions
			if c.opts != nil {
				opts = *c.opts
			}
			var log syncBuffer
			opts.Logger = slog.New(slog.NewTextHandler(&log, nil))
			start := time.Now()
			servers := loadFake(context.Background(), "s", c.srv, &opts)
			defer servers.Close()
			if d := time.Since(start); d > time.Minute {
				t.Errorf("Load took %v", d)
			}
			if strings.Contains(log.String(), "excluding tool") {
				t.Errorf("the SDK client decoded the page over the cap: %s", log.String())
			}
			st := servers.Status()[0]
			if st.State != StateFailed || st.Reason != c.reason {
				t.Errorf("status = %s %q, want failed %q", st.State, st.Reason, c.reason)
			}
			if len(servers.Tools()) != 0 || len(st.Tools) != 0 {
				t.Errorf("%d tools registered, want none", len(servers.Tools()))
			}
			if got := c.srv.lists.Swap(0); got != c.lists {
				t.Errorf("tools/list called %d times, want %d", got, c.lists)
			}
		})
	}
}

func TestLoadFailingPageRegistersNothing(t *testing.T) {
	srv := &fakeServer{list: func(cursor string) (string, string) {
		if cursor == "" {
			return toolsJSON("a", 3, "page2"), ""
		}
		return "", "database on fire"
	}}
	servers := loadFake(context.Background(), "s", srv, nil)
	defer servers.Close()
	st := servers.Status()[0]
	if want := `list tools: calling "tools/list": database on fire`; st.State != StateFailed || st.Reason != want {
		t.Errorf("status = %s %q, want failed %q", st.State, st.Reason, want)
	}
	if n := len(servers.Tools()); n != 0 {
		t.Errorf("%d tools of the first page registered, want none", n)
	}
}

// changes returns a channel that gets a value after every OnChange call.
func changes(s *Servers) <-chan struct{} {
	ch := make(chan struct{}, 100)
	s.OnChange(func() { ch <- struct{}{} })
	return ch
}

func waitChange(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		t.Fatalf("no OnChange call after %s", what)
	}
}

func namesOf(tools []toolnexus.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}

func TestLoadDeadServerLosesItsTools(t *testing.T) {
	srv := &fakeServer{list: func(string) (string, string) { return toolsJSON("t", 2, ""), "" }}
	other := &fakeServer{list: func(string) (string, string) { return toolsJSON("o", 1, ""), "" }}
	cfg := &Config{Servers: map[string]ServerConfig{"a": {Transport: TransportStdio}, "b": {Transport: TransportStdio}}}
	servers := Load(context.Background(), cfg, &LoadOptions{Dial: func(name string) mcpsdk.Transport {
		if name == "a" {
			return srv
		}
		return other
	}})
	defer servers.Close()
	ch := changes(servers)
	if got := namesOf(servers.Tools()); !slices.Equal(got, []string{"a_t0", "a_t1", "b_o0"}) {
		t.Fatalf("tools = %v", got)
	}
	srv.hangUp()
	waitChange(t, ch, "the server hung up")
	if got := namesOf(servers.Tools()); !slices.Equal(got, []string{"b_o0"}) {
		t.Errorf("tools after a's death = %v, want [b_o0]", got)
	}
	st := statusByName(servers)["a"]
	if st.State != StateFailed || st.Reason != "connection closed" || len(st.Tools) != 0 {
		t.Errorf("status a = %+v, want failed, connection closed, no tools", st)
	}
}

func TestLoadToolListChanged(t *testing.T) {
	ctx := context.Background()
	server := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "live", Version: "1"}, nil)
	handler := func(name string) mcpsdk.ToolHandler {
		return func(context.Context, *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
			return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: name}}}, nil
		}
	}
	add := func(name, desc string) {
		server.AddTool(&mcpsdk.Tool{Name: name, Description: desc, InputSchema: json.RawMessage(`{"type":"object"}`)}, handler(name))
	}
	add("one", "first")
	add("two", "second")
	clientT, serverT := mcpsdk.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverT, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	servers := loadFake(ctx, "s", clientT, nil)
	defer servers.Close()
	ch := changes(servers)
	before := servers.Tools()
	if got := namesOf(before); !slices.Equal(got, []string{"s_one", "s_two"}) {
		t.Fatalf("tools = %v", got)
	}

	add("three", "third")
	server.RemoveTools("one")
	deadline := time.Now().Add(30 * time.Second)
	for !slices.Equal(namesOf(servers.Tools()), []string{"s_three", "s_two"}) {
		if time.Now().After(deadline) {
			t.Fatalf("tools = %v after tools/list_changed, want [s_three s_two]", namesOf(servers.Tools()))
		}
		waitChange(t, ch, "tools/list_changed")
	}
	after := servers.Tools()
	if !reflect.DeepEqual(before[1], after[1]) {
		t.Errorf("unchanged tool s_two differs after re-listing:\n%+v\n%+v", before[1], after[1])
	}
	if res := after[0].Handler.Call(ctx, json.RawMessage(`{}`)); res.Output != "three" {
		t.Errorf("s_three = %+v", res)
	}
	if st := servers.Status()[0]; !slices.Equal(st.Tools, []string{"s_three", "s_two"}) || st.State != StateConnected {
		t.Errorf("status = %+v", st)
	}
}

func TestLoadOutputCleanedAndCapped(t *testing.T) {
	big := strings.Repeat("A", 10<<20)
	srv := &fakeServer{
		list: func(string) (string, string) { return toolsJSON("t", 1, ""), "" },
		call: func(name string) string {
			text, _ := json.Marshal("\x1b[31mred\x1b[0m\r\nok\rnext\u009b2J\x00\t" + big + "tail")
			return `{"content":[{"type":"text","text":` + string(text) + `}]}`
		},
	}
	for _, opt := range []int{0, 1000} {
		t.Run(strconv.Itoa(opt), func(t *testing.T) {
			servers := loadFake(context.Background(), "s", srv, &LoadOptions{MaxOutputBytes: opt})
			defer servers.Close()
			res := servers.Tools()[0].Handler.Call(context.Background(), json.RawMessage(`{}`))
			limit := opt
			if limit == 0 {
				limit = toolnexus.DefaultMaxOutputBytes
			}
			head := `\x1b[31mred\x1b[0m` + "\nok" + `\r` + "next" + `\u009b` + "2J" + `\x00` + "\t"
			if len(res.Output) > limit || !strings.HasPrefix(res.Output, head) || !strings.HasSuffix(res.Output, "Atail") {
				t.Errorf("Output (%d bytes) = %.100q...%q, want at most %d bytes starting %q", len(res.Output), res.Output, res.Output[max(0, len(res.Output)-20):], limit, head)
			}
			wantCut := len(head) + len(big) + len("tail") - limit + len(fmt.Sprintf("\n\n[... %d bytes truncated ...]\n\n", len(head)+len(big)+4))
			if note := fmt.Sprintf("[... %d bytes truncated ...]", wantCut); !strings.Contains(res.Output, note) {
				t.Errorf("Output lacks %q", note)
			}
			if strings.ContainsAny(res.Output, "\x1b\r\x00\u009b") {
				t.Errorf("Output keeps a control character")
			}
		})
	}
}

// endless writes a never-ending body: prefix, then "x" until the client
// goes away.
func endless(contentType, prefix string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(http.StatusOK)
		w.Write([]byte(prefix))
		chunk := []byte(strings.Repeat("x", 64<<10))
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}
}

func TestLoadEndlessHTTPResponses(t *testing.T) {
	cases := []struct {
		name, contentType, prefix string
		opts                      *LoadOptions
		want                      string
		transport                 string
	}{
		{"legacy-sse-own-cap", "text/event-stream", "event: endpoint\ndata: ", &LoadOptions{MaxEventSize: 1 << 20}, "SSE event exceeded 1048576 bytes without terminating", TransportSSE},
		{"sse-default", "text/event-stream", "data: ", nil, "SSE event exceeded 16777216 bytes without terminating", ""},
		{"sse-own-cap", "text/event-stream", "data: ", &LoadOptions{MaxEventSize: 1 << 20}, "SSE event exceeded 1048576 bytes without terminating", ""},
		{"json-default", "application/json", `{"jsonrpc":"2.0","id":1,"result":"`, nil, "response body is larger than 16777216 bytes (LoadOptions.MaxEventSize)", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hs := httptest.NewServer(endless(c.contentType, c.prefix))
			defer hs.Close()
			transport := TransportHTTP
			if c.transport != "" {
				transport = c.transport
			}
			cfg := &Config{Servers: map[string]ServerConfig{"r": {Transport: transport, URL: hs.URL, Timeout: time.Minute}}}
			start := time.Now()
			servers := Load(context.Background(), cfg, c.opts)
			defer servers.Close()
			st := servers.Status()[0]
			if st.State != StateFailed || !strings.Contains(st.Reason, c.want) {
				t.Errorf("status = %s %q, want failed with %q", st.State, st.Reason, c.want)
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("Load took %v; the cap should end it long before the 1m timeout", d)
			}
		})
	}
}

func TestReasonEscapesStderr(t *testing.T) {
	c := &conn{stderr: &tailBuffer{max: 4096}}
	c.stderr.Write([]byte("line one\n\x1b[31mred alert\x1b[0m\r\n"))
	want := `initialize: EOF; stderr: line one | \x1b[31mred alert\x1b[0m`
	if got := c.reason(errors.New("initialize: EOF")); got != want {
		t.Errorf("reason = %q, want %q", got, want)
	}
}

// TestLoadCapsToolsOverHTTP: the cap on tools holds on every HTTP
// transport (event-stream and JSON answers, legacy SSE), with the same
// reason as on stdio.
func TestLoadCapsToolsOverHTTP(t *testing.T) {
	srv := testserver.NewSDKServer() // 10 tools
	sse := httptest.NewServer(mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return srv }, nil))
	defer sse.Close()
	plain := httptest.NewServer(mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return srv }, &mcpsdk.StreamableHTTPOptions{JSONResponse: true}))
	defer plain.Close()
	legacy := httptest.NewServer(mcpsdk.NewSSEHandler(func(*http.Request) *mcpsdk.Server { return srv }, nil))
	defer legacy.Close()
	cfg := &Config{Servers: map[string]ServerConfig{
		"sse":    {Transport: TransportHTTP, URL: sse.URL},
		"plain":  {Transport: TransportHTTP, URL: plain.URL},
		"legacy": {Transport: TransportSSE, URL: legacy.URL},
	}}
	servers := Load(context.Background(), cfg, &LoadOptions{MaxTools: 4})
	defer servers.Close()
	for _, st := range servers.Status() {
		if want := "list tools: more than 4 tools (LoadOptions.MaxTools)"; st.State != StateFailed || st.Reason != want {
			t.Errorf("%s: status = %s %q, want failed %q", st.Name, st.State, st.Reason, want)
		}
	}
	if n := len(servers.Tools()); n != 0 {
		t.Errorf("%d tools, want none", n)
	}
	all := Load(context.Background(), cfg, &LoadOptions{MaxTools: 10})
	defer all.Close()
	if n := len(all.Tools()); n != 30 {
		t.Errorf("with MaxTools 10: %d tools, want 30; status %+v", n, all.Status())
	}
}

// TestLoadListChangedFlood: a server that sends tools/list_changed
// without pause is listed at most once per relistInterval.
func TestLoadListChangedFlood(t *testing.T) {
	srv := &fakeServer{list: func(string) (string, string) { return toolsJSON("t", 10, ""), "" }}
	servers := loadFake(context.Background(), "s", srv, nil)
	defer servers.Close()
	srv.lists.Store(0)
	start := time.Now()
	for time.Since(start) < 500*time.Millisecond {
		srv.notify("notifications/tools/list_changed")
	}
	// At least one listing follows (however slow the machine: waited for,
	// up to a minute), then at most one more per relistInterval.
	for deadline := time.Now().Add(time.Minute); srv.lists.Load() < 1 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(2 * relistInterval)
	elapsed := time.Since(start)
	if n, most := srv.lists.Load(), int64(elapsed/relistInterval)+2; n < 1 || n > most {
		t.Errorf("%d listings in %v of notifications, want 1 to %d", n, elapsed, most)
	}
	if st := servers.Status()[0]; st.State != StateConnected || len(st.Tools) != 10 {
		t.Errorf("status = %+v", st)
	}
}

// TestLoadUncheckedReported: a tool whose schema the engine cannot fully
// check locally (a keyword it does not know) is still used, its arguments
// are checked for what the engine does know, and the status says what is
// left to the server.
func TestLoadUncheckedReported(t *testing.T) {
	srv := &fakeServer{
		list: func(string) (string, string) {
			return `{"tools":[
				{"name":"full","inputSchema":{"type":"object","properties":{"n":{"type":"integer"}}}},
				{"name":"odd","inputSchema":{"type":"object","properties":{"n":{"type":"integer","x-frobnicate":3}}}}]}`, ""
		},
		call: func(string) string { return `{"content":[{"type":"text","text":"ran"}]}` },
	}
	servers := loadFake(context.Background(), "s", srv, nil)
	defer servers.Close()
	st := servers.Status()[0]
	if st.State != StateConnected {
		t.Fatalf("state = %s %q, want connected", st.State, st.Reason)
	}
	if want := []string{"s_full", "s_odd"}; !slices.Equal(st.Tools, want) {
		t.Errorf("Tools = %v, want %v", st.Tools, want)
	}
	if len(st.Unchecked) != 1 || !strings.HasPrefix(st.Unchecked[0], "odd: ") || !strings.Contains(st.Unchecked[0], "x-frobnicate") {
		t.Errorf("Unchecked = %q, want one entry for odd naming x-frobnicate", st.Unchecked)
	}
	reg := toolnexus.NewRegistry()
	if err := reg.Add(servers.Tools()...); err != nil {
		t.Fatal(err)
	}
	// What the engine knows is still checked locally on the partly checked tool.
	res := reg.Execute(context.Background(), "s_odd", json.RawMessage(`{"n":"seven"}`))
	if !res.IsError || !strings.Contains(res.Output, `"n" must be an integer`) {
		t.Errorf("bad arguments: %+v, want a local integer error", res)
	}
	if res := reg.Execute(context.Background(), "s_odd", json.RawMessage(`{"n":7}`)); res.IsError || res.Output != "ran" {
		t.Errorf("good arguments: %+v, want the server's output", res)
	}
}
