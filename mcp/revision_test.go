package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
)

type hourly struct {
	Hour int     `json:"hour"`
	Temp float64 `json:"temp"`
}

func hourlyRegistry(t *testing.T) *toolnexus.Registry {
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.RegisterOutput(reg, "forecast", "Hourly forecast.", func(context.Context, struct{}) ([]hourly, error) {
		return []hourly{{Hour: 9, Temp: 18.5}}, nil
	}))
	return reg
}

// sseJSON is the JSON-RPC message of an HTTP reply, sent as JSON or as one
// server-sent event.
func sseJSON(t *testing.T, body string) map[string]json.RawMessage {
	t.Helper()
	if i := strings.Index(body, "data: "); i >= 0 {
		body = strings.TrimSpace(body[i+len("data: "):])
	}
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(body), &m), body)
	return m
}

// TestNonObjectOutputByRevision: a tool whose output is an array is sent
// as it is to a 2026-07-28 client (SEP-2106 allows any JSON), and wrapped
// under "result" for clients of 2025-11-25 and 2025-06-18, whose
// structuredContent and outputSchema must be objects.
func TestNonObjectOutputByRevision(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	hs := newHTTPTestServer(t, hourlyRegistry(t), nil)
	items := `{"type":"object","properties":{"hour":{"type":"integer"},"temp":{"type":"number"}},"required":["hour","temp"],"additionalProperties":false}`

	// In process the go-sdk client speaks 2026-07-28.
	srv := NewServer(hourlyRegistry(t), nil)
	t.Cleanup(func() { srv.Close() })
	st, ct := mcpsdk.NewInMemoryTransports()
	go func() { _ = srv.Run(ctx, st) }()
	cs := connectClient(t, ctx, ct, nil, nil)
	require.Equal(t, anyJSONRevision, cs.InitializeResult().ProtocolVersion)
	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	b, _ := json.Marshal(list.Tools[0].OutputSchema)
	assert.JSONEq(t, `{"type":"array","items":`+items+`}`, string(b))
	res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "forecast"})
	require.NoError(t, err)
	b, _ = json.Marshal(res.StructuredContent)
	assert.JSONEq(t, `[{"hour":9,"temp":18.5}]`, string(b))

	// Over HTTP it speaks 2025-11-25, and checks the wrapped value against
	// the wrapped schema itself.
	old := connectClient(t, ctx, &mcpsdk.StreamableClientTransport{Endpoint: hs.URL, MaxRetries: -1}, nil, nil)
	require.Equal(t, "2025-11-25", old.InitializeResult().ProtocolVersion)
	res, err = old.CallTool(ctx, &mcpsdk.CallToolParams{Name: "forecast"})
	require.NoError(t, err)
	b, _ = json.Marshal(res.StructuredContent)
	assert.JSONEq(t, `{"result":[{"hour":9,"temp":18.5}]}`, string(b))

	id := initSession(t, hs.URL, nil) // 2025-06-18
	h := map[string]string{"Mcp-Session-Id": id}
	_, body := listRaw(t, hs.URL, id, nil)
	var lr struct {
		Tools []struct {
			OutputSchema json.RawMessage `json:"outputSchema"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(sseJSON(t, body)["result"], &lr))
	assert.JSONEq(t, `{"type":"object","properties":{"result":{"type":"array","items":`+items+`}},"required":["result"]}`, string(lr.Tools[0].OutputSchema))
	_, body, _ = rawPost(t, hs.URL, h, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"forecast","arguments":{}}}`)
	var cr struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	require.NoError(t, json.Unmarshal(sseJSON(t, body)["result"], &cr))
	assert.JSONEq(t, `{"result":[{"hour":9,"temp":18.5}]}`, string(cr.StructuredContent))
}
