package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnexus/toolnexus"
)

// askServer serves one tool, "ask", that asks the client for a form (or a
// URL visit when url is set) and returns what the client answered.
func askServer(t *testing.T, url string) mcpsdk.Transport {
	t.Helper()
	s := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "asker", Version: "1"}, nil)
	s.AddTool(&mcpsdk.Tool{Name: "ask", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
			if r, ok := req.Params.InputResponses["q"].(*mcpsdk.ElicitResult); ok {
				b, _ := json.Marshal(r)
				return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: string(b)}}}, nil
			}
			ep := &mcpsdk.ElicitParams{Mode: "form", Message: "Your name?",
				RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}}
			if url != "" {
				ep = &mcpsdk.ElicitParams{Mode: "url", Message: "Log in", URL: url, ElicitationID: "e1"}
			}
			return &mcpsdk.CallToolResult{InputRequests: mcpsdk.InputRequestMap{"q": ep}}, nil
		})
	ct, st := mcpsdk.NewInMemoryTransports()
	go s.Run(t.Context(), st)
	return ct
}

func TestLoadAnswerElicitation(t *testing.T) {
	cases := []struct {
		name, url string
		answer    toolnexus.Answer
		wantKind  string
		wantData  string
		want      string
	}{
		{"form accepted", "", toolnexus.Answer{OK: true, Data: json.RawMessage(`{"name":"Ada"}`)}, "form",
			`{"schema":{"properties":{"name":{"type":"string"}},"type":"object"}}`, `{"action":"accept","content":{"name":"Ada"}}`},
		{"form declined", "", toolnexus.Answer{}, "form",
			`{"schema":{"properties":{"name":{"type":"string"}},"type":"object"}}`, `{"action":"decline"}`},
		{"url", "https://example.test/login", toolnexus.Answer{OK: true}, "url",
			`{"url":"https://example.test/login"}`, `{"action":"accept"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got toolnexus.PendingRequest
			var server string
			cfg := &Config{Servers: map[string]ServerConfig{"s": {Transport: TransportStdio}}}
			servers := Load(t.Context(), cfg, &LoadOptions{
				Dial: func(string) mcpsdk.Transport { return askServer(t, c.url) },
				Answer: func(_ context.Context, srv string, p toolnexus.PendingRequest) (toolnexus.Answer, error) {
					got, server = p, srv
					return c.answer, nil
				}})
			defer servers.Close()
			reg := toolnexus.NewRegistry()
			for _, tl := range servers.Tools() {
				if err := reg.Add(tl); err != nil {
					t.Fatal(err)
				}
			}
			res := reg.Execute(t.Context(), "s_ask", nil)
			if res.IsError || res.Output != c.want {
				t.Errorf("result %+v, want %s", res, c.want)
			}
			if server != "s" || got.Kind != c.wantKind || string(got.Data) != c.wantData || got.ID == "" {
				t.Errorf("answerer got %q %+v (data %s)", server, got, got.Data)
			}
		})
	}
}

// Without an answerer, no elicitation is advertised.
func TestLoadNoAnswererNoElicitation(t *testing.T) {
	cfg := &Config{Servers: map[string]ServerConfig{"s": {Transport: TransportStdio}}}
	servers := Load(t.Context(), cfg, &LoadOptions{Dial: func(string) mcpsdk.Transport { return askServer(t, "") }})
	defer servers.Close()
	reg := toolnexus.NewRegistry()
	for _, tl := range servers.Tools() {
		if err := reg.Add(tl); err != nil {
			t.Fatal(err)
		}
	}
	if res := reg.Execute(t.Context(), "s_ask", nil); !res.IsError {
		t.Errorf("result %+v, want an error (the client cannot answer)", res)
	}
}

// Over streamable HTTP, a server of 2025-11-25 that sends
// elicitation/create itself while the call runs gets its answer. (The
// loader keeps the streamable transport's own connection: a wrapped one
// hides the session state the SDK hands it, and against the conformance
// suite's TypeScript server the answer then never arrived; the suite's
// elicitation-sep1034-client-defaults scenario in .ci/conformance.sh
// checks that.)
func TestLoadAnswerElicitationOverHTTP(t *testing.T) {
	s := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "asker", Version: "1"}, &mcpsdk.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	s.AddTool(&mcpsdk.Tool{Name: "ask", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
			r, err := req.Session.Elicit(ctx, &mcpsdk.ElicitParams{Mode: "form", Message: "Your name?",
				RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}})
			if err != nil {
				return nil, err
			}
			return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: fmt.Sprint(r.Content["name"])}}}, nil
		})
	hs := httptest.NewServer(mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return s }, nil))
	defer hs.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	cfg := &Config{Servers: map[string]ServerConfig{"s": {Name: "s", Transport: TransportHTTP, URL: hs.URL}}}
	servers := Load(ctx, cfg, &LoadOptions{Answer: func(context.Context, string, toolnexus.PendingRequest) (toolnexus.Answer, error) {
		return toolnexus.Answer{OK: true, Data: json.RawMessage(`{"name":"Ada"}`)}, nil
	}})
	defer servers.Close()
	if err := servers.Err(); err != nil {
		t.Fatal(err)
	}
	reg := toolnexus.NewRegistry()
	if err := reg.Add(servers.Tools()...); err != nil {
		t.Fatal(err)
	}
	if res := reg.Execute(ctx, "s_ask", nil); res.IsError || res.Output != "Ada" {
		t.Errorf("result %+v, want Ada", res)
	}
}
