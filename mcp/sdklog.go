package mcp

import (
	"context"
	"log/slog"
	"maps"
	"sort"
	"sync"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// dropped returns "name: reason" for every tool the server listed that
// the SDK client left out of the result (it excludes tools whose
// x-mcp-header annotations it rejects, logging why).
func (c *conn) dropped(listed []*mcpsdk.Tool) []string {
	kept := map[string]bool{}
	for _, t := range listed {
		kept[t.Name] = true
	}
	reasons := c.drops.state.take()
	var out []string
	note := func(name string) {
		if kept[name] {
			return
		}
		kept[name] = true // once per name
		reason, ok := reasons[name]
		if !ok {
			reason = "left out by the MCP SDK client while listing"
		}
		out = append(out, cleanOutput(name, maxLabel)+": dropped by the MCP SDK client: "+cleanOutput(reason, maxLabel))
	}
	for _, name := range c.store.names() {
		note(name)
	}
	rest := make([]string, 0, len(reasons))
	for name := range reasons {
		rest = append(rest, name)
	}
	sort.Strings(rest)
	for _, name := range rest {
		note(name)
	}
	return out
}

// dropRecorder is the SDK client's slog.Handler. It notes the reason of
// every "excluding tool from tools/list" record (attributes "tool" and
// "error") and passes all records on to next (nil: none).
type dropRecorder struct {
	next  slog.Handler
	state *dropState
}

type dropState struct {
	mu      sync.Mutex
	reasons map[string]string // tool name -> why the client excluded it
}

func (d *dropState) reset() {
	d.mu.Lock()
	defer d.mu.Unlock()
	clear(d.reasons)
}

func (d *dropState) take() map[string]string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return maps.Clone(d.reasons)
}

func (h *dropRecorder) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelError || (h.next != nil && h.next.Enabled(ctx, l))
}

func (h *dropRecorder) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "excluding tool from tools/list" {
		var tool, reason string
		r.Attrs(func(a slog.Attr) bool {
			switch a.Key {
			case "tool":
				tool = a.Value.String()
			case "error":
				reason = a.Value.String()
			}
			return true
		})
		if tool != "" {
			h.state.mu.Lock()
			h.state.reasons[tool] = reason
			h.state.mu.Unlock()
		}
	}
	if h.next != nil && h.next.Enabled(ctx, r.Level) {
		return h.next.Handle(ctx, r)
	}
	return nil
}

func (h *dropRecorder) WithAttrs(attrs []slog.Attr) slog.Handler {
	out := *h
	if h.next != nil {
		out.next = h.next.WithAttrs(attrs)
	}
	return &out
}

func (h *dropRecorder) WithGroup(name string) slog.Handler {
	out := *h
	if h.next != nil {
		out.next = h.next.WithGroup(name)
	}
	return &out
}
