package render

import (
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus"
)

// TestRewriteCacheIsByContent shows that the rewrite cache cannot serve a
// stale answer: the same buffer with new contents renders the new schema.
func TestRewriteCacheIsByContent(t *testing.T) {
	buf := []byte(`{"type":"object","properties":{"a":{"type":"string"}}}`)
	tools := []toolnexus.Tool{{Name: "t", InputSchema: buf}}
	first := must(OpenAIStrict(tools))
	if !strings.Contains(string(first[0].Function.Parameters), `"a"`) {
		t.Fatal(string(first[0].Function.Parameters))
	}
	copy(buf, `{"type":"object","properties":{"b":{"type":"string"}}}`)
	second := must(OpenAIStrict(tools))
	if !strings.Contains(string(second[0].Function.Parameters), `"b"`) {
		t.Fatalf("stale cache entry: %s", second[0].Function.Parameters)
	}
}
