package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	toolexec "github.com/toolnexus/toolnexus/exec"
)

var pngBytes = []byte("\x89PNG\r\n\x1a\nfake")

type sumOut struct {
	Sum int `json:"sum"`
}

// richRegistry has tools returning every kind of part, a typed output,
// and one that reports progress and logs.
func richRegistry(t *testing.T) *toolnexus.Registry {
	t.Helper()
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.RegisterResult(reg, "mixed", "every part", func(ctx context.Context, _ struct{}) toolnexus.Result {
		return toolnexus.ContentResult(
			toolnexus.TextPart("chart:"),
			toolnexus.ImagePart("image/png", pngBytes),
			toolnexus.AudioPart("audio/wav", []byte("RIFF")),
			toolnexus.ResourcePart("test://r", "application/json", `{"a":1}`),
			toolnexus.ResourceLinkPart("file:///x.txt", "x.txt", "text/plain"),
			toolnexus.FilePart("a.pdf", "application/pdf", []byte("%PDF")),
			toolnexus.ImageURLPart("image/png", "https://example.com/a.png"),
		)
	}))
	require.NoError(t, toolnexus.RegisterOutput(reg, "sum", "adds", func(ctx context.Context, in struct {
		A int `json:"a"`
		B int `json:"b"`
	}) (sumOut, error) {
		return sumOut{Sum: in.A + in.B}, nil
	}))
	require.NoError(t, toolnexus.Register(reg, "slow", "reports", func(ctx context.Context, _ struct{}) (string, error) {
		for i := 0; i <= 2; i++ {
			toolnexus.ReportProgress(ctx, float64(i*50), 100, "")
			toolnexus.Log(ctx, slog.LevelInfo, "step")
		}
		toolnexus.Log(ctx, slog.LevelDebug, "detail")
		return "done", nil
	}))
	return reg
}

func TestServeRichContent(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s := NewServer(richRegistry(t), nil)
	defer s.Close()
	var mu sync.Mutex
	var progress []*mcpsdk.ProgressNotificationParams
	var logs []*mcpsdk.LoggingMessageParams
	c := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "c", Version: "1"}, &mcpsdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcpsdk.ProgressNotificationClientRequest) {
			mu.Lock()
			progress = append(progress, r.Params)
			mu.Unlock()
		},
		LoggingMessageHandler: func(_ context.Context, r *mcpsdk.LoggingMessageRequest) {
			mu.Lock()
			logs = append(logs, r.Params)
			mu.Unlock()
		},
	})
	ct, st := mcpsdk.NewInMemoryTransports()
	go s.Run(ctx, st)
	// The version the conformance suite speaks: logging/setLevel sets the
	// session's level (later versions send it with each request).
	cs, err := c.Connect(ctx, ct, &mcpsdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	defer cs.Close()
	require.NotNil(t, cs.InitializeResult().Capabilities.Logging)

	// tools/list: the typed-output tool has its outputSchema.
	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	schemas := map[string]any{}
	for _, tool := range list.Tools {
		schemas[tool.Name] = tool.OutputSchema
	}
	require.Nil(t, schemas["mixed"])
	b, _ := json.Marshal(schemas["sum"])
	require.JSONEq(t, `{"type":"object","properties":{"sum":{"type":"integer"}},"required":["sum"],"additionalProperties":false}`, string(b))

	// structuredContent plus its JSON text.
	res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "sum", Arguments: map[string]any{"a": 2, "b": 40}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	require.Equal(t, map[string]any{"sum": float64(42)}, res.StructuredContent)
	require.Equal(t, []mcpsdk.Content{&mcpsdk.TextContent{Text: `{"sum":42}`}}, res.Content)

	// Every part kind.
	res, err = cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "mixed", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.Equal(t, []mcpsdk.Content{
		&mcpsdk.TextContent{Text: "chart:"},
		&mcpsdk.ImageContent{Data: pngBytes, MIMEType: "image/png"},
		&mcpsdk.AudioContent{Data: []byte("RIFF"), MIMEType: "audio/wav"},
		&mcpsdk.EmbeddedResource{Resource: &mcpsdk.ResourceContents{URI: "test://r", MIMEType: "application/json", Text: `{"a":1}`}},
		&mcpsdk.ResourceLink{URI: "file:///x.txt", Name: "x.txt", MIMEType: "text/plain"},
		&mcpsdk.EmbeddedResource{Resource: &mcpsdk.ResourceContents{URI: "file:///a.pdf", MIMEType: "application/pdf", Blob: []byte("%PDF")}},
		&mcpsdk.ResourceLink{URI: "https://example.com/a.png", Name: "https://example.com/a.png", MIMEType: "image/png"},
	}, res.Content)

	// Progress only with a token; logs only after setLevel, at or above it.
	_, err = cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "slow", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.NoError(t, cs.SetLoggingLevel(ctx, &mcpsdk.SetLoggingLevelParams{Level: "info"}))
	params := &mcpsdk.CallToolParams{Name: "slow", Arguments: map[string]any{}}
	params.SetProgressToken("tok-1")
	res, err = cs.CallTool(ctx, params)
	require.NoError(t, err)
	require.Equal(t, []mcpsdk.Content{&mcpsdk.TextContent{Text: "done"}}, res.Content)
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(progress) == 3 && len(logs) == 3
	}, 5*time.Second, 10*time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	for i, p := range progress {
		require.Equal(t, "tok-1", p.ProgressToken)
		require.Equal(t, float64(i*50), p.Progress)
		require.Equal(t, float64(100), p.Total)
	}
	for _, l := range logs {
		require.Equal(t, mcpsdk.LoggingLevel("info"), l.Level)
		require.Equal(t, "slow", l.Logger)
		require.Equal(t, "step", l.Data)
	}
}

func TestMCPLevel(t *testing.T) {
	for l, want := range map[slog.Level]mcpsdk.LoggingLevel{
		slog.LevelDebug: "debug", slog.LevelInfo: "info", slog.LevelInfo + 2: "notice",
		slog.LevelWarn: "warning", slog.LevelError: "error", slog.LevelError + 4: "critical",
	} {
		require.Equal(t, want, mcpLevel(l), "level %v", l)
	}
}

func TestResultFromMCP(t *testing.T) {
	// Text only: Output, no Content; structuredContent kept beside the text.
	r := resultFromMCP(&mcpsdk.CallToolResult{
		Content:           []mcpsdk.Content{&mcpsdk.TextContent{Text: "see structured content"}},
		StructuredContent: map[string]any{"z": 1, "a": []any{true}},
	})
	require.Equal(t, "see structured content", r.Output)
	require.Nil(t, r.Content)
	require.Equal(t, `{"a":[true],"z":1}`, string(r.Structured))
	require.Equal(t, `{"a":[true],"z":1}`, r.Text())

	// Structured without text: Output is its JSON.
	r = resultFromMCP(&mcpsdk.CallToolResult{StructuredContent: map[string]any{"n": 1}})
	require.Equal(t, `{"n":1}`, r.Output)

	// Rich content stays parts, text included, in order.
	r = resultFromMCP(&mcpsdk.CallToolResult{Content: []mcpsdk.Content{
		&mcpsdk.TextContent{Text: "look"},
		&mcpsdk.ImageContent{Data: pngBytes, MIMEType: "image/png"},
		&mcpsdk.AudioContent{Data: []byte("RIFF"), MIMEType: "audio/wav"},
		&mcpsdk.ResourceLink{URI: "file:///x", Name: "x"},
		&mcpsdk.EmbeddedResource{Resource: &mcpsdk.ResourceContents{URI: "test://b", MIMEType: "application/octet-stream", Blob: []byte{1}}},
		&mcpsdk.EmbeddedResource{Resource: &mcpsdk.ResourceContents{URI: "test://t", MIMEType: "text/plain", Text: "hi"}},
		&mcpsdk.EmbeddedResource{},
	}})
	require.Equal(t, "look", r.Output)
	require.Equal(t, []toolnexus.Part{
		toolnexus.TextPart("look"),
		toolnexus.ImagePart("image/png", pngBytes),
		toolnexus.AudioPart("audio/wav", []byte("RIFF")),
		toolnexus.ResourceLinkPart("file:///x", "x", ""),
		{Kind: toolnexus.PartResource, URL: "test://b", MIMEType: "application/octet-stream", Data: []byte{1}},
		toolnexus.ResourcePart("test://t", "text/plain", "hi"),
	}, r.Content)
}

// TestLoadRichContent loads a go-sdk server (served in process over
// loopback HTTP) whose tools return an image and a structured result: the
// image stays a part and reaches an Anthropic tool_result as an image
// block; structuredContent and the text are both kept; the outputSchema
// stays on the Tool.
func TestLoadRichContent(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	up := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "up", Version: "1"}, nil)
	up.AddTool(&mcpsdk.Tool{Name: "snap", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
			return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{
				&mcpsdk.TextContent{Text: "a photo"},
				&mcpsdk.ImageContent{Data: pngBytes, MIMEType: "image/png"},
			}}, nil
		})
	type weather struct {
		TempC int `json:"temp_c"`
	}
	mcpsdk.AddTool(up, &mcpsdk.Tool{Name: "weather"},
		func(context.Context, *mcpsdk.CallToolRequest, struct{}) (*mcpsdk.CallToolResult, weather, error) {
			return nil, weather{TempC: 21}, nil
		})
	hs := httptest.NewServer(mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return up }, nil))
	defer hs.Close()
	cfg, err := ParseConfig([]byte(`{"mcp": {"up": {"type": "http", "url": "` + hs.URL + `"}}}`))
	require.NoError(t, err)
	servers := Load(ctx, cfg, nil)
	defer servers.Close()
	require.NoError(t, servers.Err())
	reg := toolnexus.NewRegistry()
	require.NoError(t, reg.Add(servers.Tools()...))

	w, ok := reg.Get("up_weather")
	require.True(t, ok)
	require.JSONEq(t, `{"type":"object","properties":{"temp_c":{"type":"integer"}},"required":["temp_c"],"additionalProperties":false}`, string(w.OutputSchema))
	res := reg.Execute(ctx, "up_weather", nil)
	require.Equal(t, `{"temp_c":21}`, string(res.Structured))
	require.Equal(t, `{"temp_c":21}`, res.Output) // the SDK's JSON text block

	res = reg.Execute(ctx, "up_snap", nil)
	require.False(t, res.IsError, res.Output)
	require.Equal(t, "a photo", res.Output)
	require.Equal(t, []toolnexus.Part{toolnexus.TextPart("a photo"), toolnexus.ImagePart("image/png", pngBytes)}, res.Content)

	msg, err := toolexec.New(reg, nil).AnthropicJSON(ctx, []byte(`[{"type":"tool_use","id":"toolu_1","name":"up_snap","input":{}}]`))
	require.NoError(t, err)
	b, err := json.Marshal(msg)
	require.NoError(t, err)
	require.Equal(t, `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[`+
		`{"type":"text","text":"a photo"},`+
		`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"`+base64.StdEncoding.EncodeToString(pngBytes)+`"}}]}]}`,
		string(b))
}
