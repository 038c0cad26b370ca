package exec_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	"github.com/toolnexus/toolnexus/httptool"
	"github.com/toolnexus/toolnexus/mcp"
	"github.com/toolnexus/toolnexus/openapi"
	"github.com/toolnexus/toolnexus/render"
)

// renamedKeys renders tool for Anthropic and Gemini with RenameKeys and
// returns the top-level property keys of each copy, in order.
func renamedKeys(t *testing.T, tool toolnexus.Tool) (anthropic, gemini []string) {
	t.Helper()
	a, err := render.AnthropicWith([]toolnexus.Tool{tool}, render.AnthropicOptions{RenameKeys: true})
	require.NoError(t, err)
	g, err := render.GeminiWith([]toolnexus.Tool{tool}, render.GeminiOptions{RenameKeys: true})
	require.NoError(t, err)
	return keysOf(t, a[0].InputSchema), keysOf(t, g[0].FunctionDeclarations[0].Parameters)
}

func keysOf(t *testing.T, schema json.RawMessage) []string {
	t.Helper()
	var s struct {
		Properties json.RawMessage `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(schema, &s))
	dec := json.NewDecoder(bytesReader(s.Properties))
	var keys []string
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch tok := tok.(type) {
		case json.Delim:
			if tok == '{' || tok == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 {
				keys = append(keys, tok)
				// skip the value
				var v json.RawMessage
				require.NoError(t, dec.Decode(&v))
			}
		}
	}
	return keys
}

// callBoth runs one call of tool name with the arguments args (written with
// the provider's renamed keys) through exec's Anthropic and Gemini methods.
func callBoth(t *testing.T, reg *toolnexus.Registry, name, anthropicArgs, geminiArgs string) {
	t.Helper()
	ctx := context.Background()
	e := exec.New(reg, nil)
	msg, err := e.AnthropicJSON(ctx, []byte(`[{"type":"tool_use","id":"toolu_1","name":"`+name+`","input":`+anthropicArgs+`}]`))
	require.NoError(t, err)
	b, _ := json.Marshal(msg)
	assert.NotContains(t, string(b), `"is_error":true`, "anthropic: %s", b)
	content, err := e.GeminiJSON(ctx, []byte(`[{"functionCall":{"name":"`+name+`","args":`+geminiArgs+`}}]`))
	require.NoError(t, err)
	b, _ = json.Marshal(content)
	assert.NotContains(t, string(b), `"error"`, "gemini: %s", b)
}

// TestRenamedKeysTyped: a typed tool whose JSON names Anthropic and Gemini
// refuse is rendered with renamed keys (at every level), and a call that
// uses them reaches the handler under the declared names.
func TestRenamedKeysTyped(t *testing.T) {
	type inner struct {
		SortBy string `json:"sort by"`
	}
	type args struct {
		Status string `json:"filter[status]"`
		Top    int    `json:"$top,omitempty"`
		Inner  inner  `json:"inner"`
	}
	var mu sync.Mutex
	var got []args
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.Register(reg, "list", "List things", func(_ context.Context, a args) (string, error) {
		mu.Lock()
		got = append(got, a)
		mu.Unlock()
		return "ok", nil
	}))
	tool, _ := reg.Get("list")
	a, g := renamedKeys(t, tool)
	assert.Equal(t, []string{"filter_status_", "_top", "inner"}, a)
	assert.Equal(t, []string{"filter_status_", "_top", "inner"}, g)
	callBoth(t, reg, "list",
		`{"filter_status_":"open","_top":5,"inner":{"sort_by":"name"}}`,
		`{"filter_status_":"open","_top":5,"inner":{"sort_by":"name"}}`)
	want := args{Status: "open", Top: 5, Inner: inner{SortBy: "name"}}
	assert.Equal(t, []args{want, want}, got)
}

// TestRenamedKeysRaw: a raw tool's handler gets the declared keys.
func TestRenamedKeysRaw(t *testing.T) {
	var mu sync.Mutex
	var got []string
	reg := toolnexus.NewRegistry()
	require.NoError(t, reg.Add(toolnexus.Tool{Name: "raw", Description: "Raw",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"@odata.type":{"type":"string"},"ok":{"type":"string"}},"required":["@odata.type"]}`),
		Handler: toolnexus.HandlerFunc(func(_ context.Context, args json.RawMessage) (string, error) {
			mu.Lock()
			got = append(got, string(args))
			mu.Unlock()
			return "done", nil
		})}))
	tool, _ := reg.Get("raw")
	a, g := renamedKeys(t, tool)
	assert.Equal(t, []string{"_odata.type", "ok"}, a)
	assert.Equal(t, []string{"_odata_type", "ok"}, g)
	callBoth(t, reg, "raw", `{"_odata.type":"file","ok":"y"}`, `{"_odata_type":"file","ok":"y"}`)
	assert.Equal(t, []string{`{"@odata.type":"file","ok":"y"}`, `{"@odata.type":"file","ok":"y"}`}, got)
}

// TestRenamedKeysOpenAPI: an imported operation with the query parameters
// filter[status] and $top sends them under those names.
func TestRenamedKeysOpenAPI(t *testing.T) {
	var mu sync.Mutex
	var queries []url.Values
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		queries = append(queries, r.URL.Query())
		mu.Unlock()
		_, _ = w.Write([]byte(`[]`))
	}))
	defer hs.Close()
	u, _ := url.Parse(hs.URL)
	doc := `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/orders":{"get":{"operationId":"listOrders",
		"parameters":[{"name":"filter[status]","in":"query","schema":{"type":"string"}},{"name":"$top","in":"query","schema":{"type":"integer"}}],
		"responses":{"200":{"description":"ok"}}}}}}`
	res, err := openapi.Import([]byte(doc), &openapi.Options{BaseURL: hs.URL, HTTP: &httptool.Options{AllowHosts: []string{u.Hostname()}}})
	require.NoError(t, err)
	reg := toolnexus.NewRegistry()
	require.NoError(t, reg.Add(res.Tools...))
	tool, ok := reg.Get("listOrders")
	require.True(t, ok)
	a, g := renamedKeys(t, tool)
	assert.Equal(t, []string{"_top", "filter_status_"}, a)
	assert.Equal(t, []string{"_top", "filter_status_"}, g)
	callBoth(t, reg, "listOrders", `{"filter_status_":"open","_top":5}`, `{"filter_status_":"open","_top":5}`)
	want := url.Values{"filter[status]": {"open"}, "$top": {"5"}}
	assert.Equal(t, []url.Values{want, want}, queries)
}

// TestRenamedKeysMCP: a tool loaded from an MCP server that declares
// $top and "page size" gets its arguments under those names.
func TestRenamedKeysMCP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var mu sync.Mutex
	var got []string
	up := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "up", Version: "1"}, nil)
	up.AddTool(&mcpsdk.Tool{Name: "search", InputSchema: json.RawMessage(`{"type":"object","properties":{"$top":{"type":"integer"},"page size":{"type":"integer"}}}`)},
		func(_ context.Context, req *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
			mu.Lock()
			got = append(got, string(req.Params.Arguments))
			mu.Unlock()
			return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: "found"}}}, nil
		})
	hs := httptest.NewServer(mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return up }, nil))
	defer hs.Close()
	cfg, err := mcp.ParseConfig([]byte(`{"mcp": {"up": {"type": "http", "url": "` + hs.URL + `"}}}`))
	require.NoError(t, err)
	servers := mcp.Load(ctx, cfg, nil)
	defer servers.Close()
	require.NoError(t, servers.Err())
	reg := toolnexus.NewRegistry()
	require.NoError(t, reg.Add(servers.Tools()...))
	tool, _ := reg.Get("up_search")
	a, g := renamedKeys(t, tool)
	assert.Equal(t, []string{"_top", "page_size"}, a)
	assert.Equal(t, []string{"_top", "page_size"}, g)
	callBoth(t, reg, "up_search", `{"_top":3,"page_size":10}`, `{"_top":3,"page_size":10}`)
	assert.Equal(t, []string{`{"$top":3,"page size":10}`, `{"$top":3,"page size":10}`}, got)
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

// BenchmarkRestoreKeys: one Anthropic tool_use through the Executor, with
// declared keys and with keys renamed for Anthropic, against the floor of
// the registry's Execute of the same arguments.
func BenchmarkRestoreKeys(b *testing.B) {
	type args struct {
		Status string `json:"filter[status]"`
		Top    int    `json:"$top,omitempty"`
		City   string `json:"city"`
	}
	reg := toolnexus.NewRegistry()
	require.NoError(b, toolnexus.Register(reg, "list", "List", func(context.Context, args) (string, error) { return "ok", nil }))
	e := exec.New(reg, nil)
	ctx := context.Background()
	declared := json.RawMessage(`{"filter[status]":"open","$top":5,"city":"Oslo"}`)
	renamed := json.RawMessage(`{"filter_status_":"open","_top":5,"city":"Oslo"}`)
	b.Run("ExecuteFloor", func(b *testing.B) {
		for b.Loop() {
			reg.Execute(ctx, "list", declared)
		}
	})
	for name, in := range map[string]json.RawMessage{"Declared": declared, "Renamed": renamed} {
		blocks := []exec.AnthropicContentBlock{{Type: "tool_use", ID: "toolu_1", Name: "list", Input: in}}
		b.Run("Anthropic"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Anthropic(ctx, blocks); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestRenamedKeysErrorNote: an error result of a call sent with renamed
// keys names the declared keys and then pairs each with the key the model
// sent; a call sent with the declared keys gets no such note.
func TestRenamedKeysErrorNote(t *testing.T) {
	type args struct {
		Top int `json:"$top" validate:"max=50"`
	}
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.Register(reg, "list", "List", func(context.Context, args) (string, error) { return "ok", nil }))
	e := exec.New(reg, nil)
	run := func(input string) string {
		msg, err := e.AnthropicJSON(context.Background(), []byte(`[{"type":"tool_use","id":"toolu_1","name":"list","input":`+input+`}]`))
		require.NoError(t, err)
		return msg.Content[0].Content
	}
	assert.Equal(t, "invalid arguments for \"list\": \"$top\" must be at most 50\n(The tool's messages name its own keys: \"$top\" is the \"_top\" you sent.)", run(`{"_top":99}`))
	assert.Equal(t, `invalid arguments for "list": "$top" must be at most 50`, run(`{"$top":99}`))
}
