package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnexus/toolnexus/render"
)

// syncBuffer is a bytes.Buffer safe for the transport's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.b.Bytes())
}

// TestMCPSDK builds a go-sdk server from render.MCP output (each entry
// decoded into an mcp.Tool, the schema kept as json.RawMessage), connects
// a go-sdk client in memory, and lists the tools: every tool the client
// gets equals the rendered one, and every inputSchema crossed the wire
// byte for byte.
func TestMCPSDK(t *testing.T) {
	ctx := context.Background()
	rendered := render.MCP(caseTools())
	server := mcp.NewServer(&mcp.Implementation{Name: "toolnexus-interop", Version: "v0.0.0"}, nil)
	for _, r := range rendered {
		var tool mcp.Tool
		if err := json.Unmarshal(r.AppendJSON(nil), &tool); err != nil {
			t.Fatalf("%s: rendered entry does not decode into mcp.Tool: %v", r.Name, err)
		}
		tool.InputSchema = r.InputSchema // keep the bytes, not a map
		server.AddTool(&tool, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		})
	}
	serverT, clientT := mcp.NewInMemoryTransports()
	var wire syncBuffer
	ss, err := server.Connect(ctx, &mcp.LoggingTransport{Transport: serverT, Writer: &wire}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v0.0.0"}, nil)
	cs, err := client.Connect(ctx, clientT, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(rendered) {
		t.Fatalf("listed %d tools, rendered %d", len(res.Tools), len(rendered))
	}
	// LoggingTransport logs a message after handing it over, so wait (at
	// most 30 s) until the tools/list response is in the log.
	for deadline := time.Now().Add(30 * time.Second); !bytes.Contains(wire.Bytes(), []byte(`"tools":[`)); {
		if time.Now().After(deadline) {
			t.Fatalf("tools/list response never logged:\n%s", wire.Bytes())
		}
		time.Sleep(5 * time.Millisecond)
	}
	byName := map[string]*mcp.Tool{}
	for _, tl := range res.Tools {
		byName[tl.Name] = tl
	}
	for _, r := range rendered {
		got, ok := byName[r.Name]
		if !ok {
			t.Fatalf("tool %s not listed", r.Name)
		}
		// Compare as the SDK sees both: our entry decoded into an
		// mcp.Tool, re-encoded, against the listed tool re-encoded.
		var want mcp.Tool
		if err := json.Unmarshal(r.AppendJSON(nil), &want); err != nil {
			t.Fatal(err)
		}
		if !sameJSON(t, &want, got) {
			w, _ := json.Marshal(&want)
			g, _ := json.Marshal(got)
			t.Errorf("%s: listed tool differs from the render\n got %s\nwant %s", r.Name, g, w)
		}
		if got.Title != r.Title || got.Description != r.Description {
			t.Errorf("%s: title %q description %q", r.Name, got.Title, got.Description)
		}
		if !bytes.Contains(wire.Bytes(), append([]byte(`"inputSchema":`), r.InputSchema...)) {
			t.Errorf("%s: inputSchema not sent byte for byte", r.Name)
		}
	}
	if w := byName["get_weather"]; w.Annotations == nil || !w.Annotations.ReadOnlyHint || w.Annotations.OpenWorldHint == nil || !*w.Annotations.OpenWorldHint {
		t.Errorf("annotations lost: %+v", w.Annotations)
	}

	call, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Paris"}})
	if err != nil || call.IsError || call.Content[0].(*mcp.TextContent).Text != "ok" {
		t.Fatalf("CallTool: %v %+v", err, call)
	}
}

func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	norm := func(v any) any {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var out any
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	return reflect.DeepEqual(norm(a), norm(b))
}
