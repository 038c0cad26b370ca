package render

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
)

// TestRewriteCacheIsByContent shows that the rewrite cache cannot serve a
// stale answer: the same buffer with new contents renders the new schema.
func TestRewriteCacheIsByContent(t *testing.T) {
	buf := []byte(`{"type":"object","properties":{"a":{"type":"string"}}}`)
	tools := []toolnexus.Tool{{Name: "t", InputSchema: buf}}
	first := must(OpenAIStrict(tools))
	require.Contains(t, string(first[0].Function.Parameters), `"a"`, string(first[0].Function.Parameters))
	copy(buf, `{"type":"object","properties":{"b":{"type":"string"}}}`)
	second := must(OpenAIStrict(tools))
	require.Contains(t, string(second[0].Function.Parameters), `"b"`, "stale cache entry: %s", second[0].Function.Parameters)
}

// TestCacheKeepsNoCallerBuffer: a cached pass-through answer must not be
// the first caller's buffer, or a caller that later reuses that buffer
// changes what every other caller with the first bytes is sent.
func TestCacheKeepsNoCallerBuffer(t *testing.T) {
	const schema = `{"type":"object","properties":{"keep":{"type":"string"}}}`
	buf := []byte(schema)
	OpenAI([]toolnexus.Tool{{Name: "t", InputSchema: buf}})
	copy(buf, `{"type":"object","properties":{"GONE":{"type":"string"}}}`)
	got := OpenAI([]toolnexus.Tool{{Name: "u", InputSchema: []byte(schema)}})
	require.Equal(t, schema, string(got[0].Function.Parameters))
}
