package mcp

import (
	"context"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoadIncludeExcludeTools: "includeTools" and "excludeTools" in
// mcp.json (Gemini CLI's form) choose which of a server's tools are
// loaded; exclude wins.
func TestLoadIncludeExcludeTools(t *testing.T) {
	for _, c := range []struct {
		entry string
		want  []string
	}{
		{`{"command": "unused"}`, []string{"s_a", "s_b", "s_c"}},
		{`{"command": "unused", "includeTools": ["a", "c", "missing"]}`, []string{"s_a", "s_c"}},
		{`{"command": "unused", "excludeTools": ["b"]}`, []string{"s_a", "s_c"}},
		{`{"command": "unused", "includeTools": ["a", "b"], "excludeTools": ["b"]}`, []string{"s_a"}},
	} {
		srv := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "three", Version: "1"}, nil)
		for _, name := range []string{"a", "b", "c"} {
			mcpsdk.AddTool(srv, &mcpsdk.Tool{Name: name, Description: name},
				func(context.Context, *mcpsdk.CallToolRequest, struct{}) (*mcpsdk.CallToolResult, any, error) {
					return &mcpsdk.CallToolResult{}, nil, nil
				})
		}
		clientT, serverT := mcpsdk.NewInMemoryTransports()
		_, err := srv.Connect(t.Context(), serverT, nil)
		require.NoError(t, err)
		cfg, err := ParseConfig([]byte(`{"servers": {"s": ` + c.entry + `}}`))
		require.NoError(t, err)
		servers := Load(t.Context(), cfg, &LoadOptions{Dial: func(string) mcpsdk.Transport { return clientT }})
		require.NoError(t, servers.Err())
		var names []string
		for _, tl := range servers.Tools() {
			names = append(names, tl.Name)
		}
		assert.Equal(t, c.want, names, c.entry)
		servers.Close()
	}
}
