package exec_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

// a23Raw registers a raw tool "raw" with schema and returns the registry
// and the arguments its handler received.
func a23Raw(t *testing.T, opts *toolnexus.Options, schema string) (*toolnexus.Registry, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var got []string
	var reg *toolnexus.Registry
	if opts != nil {
		reg = toolnexus.NewRegistryWith(opts)
	} else {
		reg = toolnexus.NewRegistry()
	}
	require.NoError(t, reg.Add(toolnexus.Tool{Name: "raw", Description: "Raw", InputSchema: json.RawMessage(schema),
		Handler: toolnexus.HandlerFunc(func(_ context.Context, args json.RawMessage) (string, error) {
			mu.Lock()
			got = append(got, string(args))
			mu.Unlock()
			return "done", nil
		})}))
	return reg, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), got...) }
}

func a23Anthropic(t *testing.T, reg *toolnexus.Registry, input string) string {
	t.Helper()
	msg, err := exec.New(reg, nil).AnthropicJSON(context.Background(),
		[]byte(`[{"type":"tool_use","id":"toolu_1","name":"raw","input":`+input+`}]`))
	require.NoError(t, err)
	b, _ := json.Marshal(msg)
	return string(b)
}

// TestA23EscapedRenamedKey: a model that writes the renamed key with a JSON
// escape ("a\u005fb" is "a_b") must get it mapped back like "a_b".
func TestA23EscapedRenamedKey(t *testing.T) {
	reg, got := a23Raw(t, nil, `{"type":"object","properties":{"a b":{"type":"string"}}}`)
	a23Anthropic(t, reg, `{"a\u005fb":"x"}`)
	require.Len(t, got(), 1)
	assert.JSONEq(t, `{"a b":"x"}`, got()[0])
}

// TestA23LargeArguments: a registry that allows arguments over
// DefaultMaxArgumentBytes must still get renamed keys mapped back.
func TestA23LargeArguments(t *testing.T) {
	reg, got := a23Raw(t, &toolnexus.Options{MaxArgumentBytes: 4 << 20},
		`{"type":"object","properties":{"a b":{"type":"string"},"text":{"type":"string"}}}`)
	big := strings.Repeat("x", toolnexus.DefaultMaxArgumentBytes)
	a23Anthropic(t, reg, `{"a_b":"x","text":"`+big+`"}`)
	require.Len(t, got(), 1)
	assert.True(t, strings.HasPrefix(got()[0], `{"a b":"x"`), "handler got %.40s", got()[0])
}

// TestA23DeepArguments: the registry reads arguments 512 levels deep; a
// renamed key below level 64 of a recursive schema must be mapped back.
func TestA23DeepArguments(t *testing.T) {
	reg, got := a23Raw(t, nil, `{"type":"object","properties":{"a b":{"type":"string"},"c":{"$ref":"#"}}}`)
	n := 100
	in := strings.Repeat(`{"c":`, n) + `{"a_b":"x"}` + strings.Repeat(`}`, n)
	a23Anthropic(t, reg, in)
	require.Len(t, got(), 1)
	assert.Contains(t, got()[0], `"a b"`)
	assert.NotContains(t, got()[0], `"a_b"`)
}

// TestA23RecursiveAnyOfCPU: one call of 200 000 empty objects against a
// recursive schema with an anyOf of $refs must not take seconds of CPU in
// RestoreKeys.
func TestA23RecursiveAnyOfCPU(t *testing.T) {
	reg, got := a23Raw(t, nil, `{"type":"object","properties":{"a b":{},"l":{"type":"array","items":{"$ref":"#"}}},
		"anyOf":[{"$ref":"#/$defs/x"},{"$ref":"#/$defs/y"}],
		"$defs":{"x":{"anyOf":[{"$ref":"#"},{"$ref":"#/$defs/y"}]},"y":{"anyOf":[{"$ref":"#"},{"$ref":"#/$defs/x"}]}}}`)
	in := `{"a_b":1,"l":[` + strings.Repeat(`{},`, 199999) + `{}]}`
	start := time.Now()
	reg.Execute(context.Background(), "raw", json.RawMessage(`{"a b":1,"l":[`+strings.Repeat(`{},`, 199999)+`{}]}`))
	floor := time.Since(start)
	start = time.Now()
	a23Anthropic(t, reg, in)
	took := time.Since(start)
	t.Logf("Execute alone %v, through exec with renamed keys %v", floor, took)
	assert.Less(t, took, 10*floor+time.Second)
	assert.Len(t, got(), 2)
}

// TestA23RestoreHolds: cases that must keep working (checked, held).
func TestA23RestoreHolds(t *testing.T) {
	t.Run("renamed and declared key both sent: no duplicate key made", func(t *testing.T) {
		reg, got := a23Raw(t, nil, `{"type":"object","properties":{"a b":{"type":"string"}}}`)
		a23Anthropic(t, reg, `{"a_b":"x","a b":"y"}`)
		require.Len(t, got(), 1)
		// mapping a_b back would hand the handler {"a b":"x","a b":"y"}
		assert.Equal(t, `{"a_b":"x","a b":"y"}`, got()[0])
	})
	t.Run("declared key equal to another key's new name", func(t *testing.T) {
		reg, got := a23Raw(t, nil, `{"type":"object","properties":{"a b":{"type":"string"},"a_b":{"type":"string"}}}`)
		a23Anthropic(t, reg, `{"a_b_2":"renamed","a_b":"declared"}`)
		require.Len(t, got(), 1)
		assert.JSONEq(t, `{"a b":"renamed","a_b":"declared"}`, got()[0])
	})
	t.Run("free-form map keys stay", func(t *testing.T) {
		reg, got := a23Raw(t, nil, `{"type":"object","properties":{"a b":{"type":"string"},"m":{"type":"object","additionalProperties":{"type":"string"}}}}`)
		a23Anthropic(t, reg, `{"a_b":"x","m":{"a_b":"free"}}`)
		require.Len(t, got(), 1)
		assert.JSONEq(t, `{"a b":"x","m":{"a_b":"free"}}`, got()[0])
	})
}

// TestA23GeminiJSONSchemaNoRename: with GeminiOptions.JSONSchema nothing is
// renamed, so a key the model sends must reach the handler as sent. exec
// cannot tell how the tools were rendered and maps "a_b" to "a b" anyway.
// Known, not fixed (exec needs to know the rendering): set A23_KNOWN=1 to run.
func TestA23GeminiJSONSchemaNoRename(t *testing.T) {
	if os.Getenv("A23_KNOWN") == "" {
		t.Skip("known: exec restores Gemini keys even for tools rendered with JSONSchema (no renaming)")
	}
	reg, got := a23Raw(t, nil, `{"type":"object","properties":{"a b":{"type":"string"}},"additionalProperties":{"type":"string"}}`)
	_, err := exec.New(reg, nil).GeminiJSON(context.Background(), []byte(`[{"functionCall":{"name":"raw","args":{"a_b":"extra"}}}]`))
	require.NoError(t, err)
	require.Len(t, got(), 1)
	assert.Equal(t, `{"a_b":"extra"}`, got()[0])
}
