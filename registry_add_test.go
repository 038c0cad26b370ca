package toolnexus

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAddTypedToolSchemaCheck: Add skips the schema parse only for a typed
// tool carrying its own reflected schema bytes; the same handler with
// other bytes, even equal ones, is checked in full.
func TestAddTypedToolSchemaCheck(t *testing.T) {
	tool, err := NewTool("get_weather", "Weather.", weatherFn)
	require.NoError(t, err)
	assert.True(t, schemaIsHandlers(&tool))
	require.NoError(t, NewRegistry().Add(tool))

	same := tool
	same.InputSchema = append(json.RawMessage(nil), tool.InputSchema...)
	assert.False(t, schemaIsHandlers(&same), "equal bytes elsewhere in memory are not the handler's own")
	require.NoError(t, NewRegistry().Add(same))

	bad := tool
	bad.InputSchema = json.RawMessage(`{"type":"string"}`)
	err = NewRegistry().Add(bad)
	require.ErrorIs(t, err, ErrInvalidSchema)
	assert.Contains(t, err.Error(), `schema root must have "type":"object"`)

	raw := Tool{Name: "raw", InputSchema: tool.InputSchema, Handler: HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "", nil })}
	assert.False(t, schemaIsHandlers(&raw), "a raw handler owns no schema")
}

// BenchmarkAddTyped is Add of one typed tool already built (its schema is
// not parsed again).
func BenchmarkAddTyped(b *testing.B) {
	tool, err := NewTool("plan_trip", "Plan a trip.", tripFn)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		if err := NewRegistry().Add(tool); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

// A nil *Registry is a registration mistake: Add and Register report it as
// an error, never a panic.
func TestAddToNilRegistry(t *testing.T) {
	var r *Registry
	err := Register(r, "t", "d", func(context.Context, struct{}) (string, error) { return "", nil })
	require.Error(t, err)
	assert.Equal(t, "toolnexus: Add on a nil *Registry: make one with NewRegistry (or use a Registry value)", err.Error())
	assert.EqualError(t, r.Replace(nil), "toolnexus: Replace on a nil *Registry: make one with NewRegistry (or use a Registry value)")
}
