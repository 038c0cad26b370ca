package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render/rendertest"
)

// TestRegistryBytesUntouched renders a Registry's tools with every renderer
// and option set and checks that the schema bytes the Registry holds are
// exactly what they were before.
func TestRegistryBytesUntouched(t *testing.T) {
	reg := toolnexus.NewRegistry()
	require.NoError(t, reg.Add(rendertest.Tools()...))
	before := map[string][]byte{}
	for _, tl := range reg.Tools() {
		before[tl.Name] = bytes.Clone(tl.InputSchema)
	}
	tools := reg.Tools()
	for _, p := range providers {
		for range 2 { // the second round is served from the rewrite caches
			out, err := p.render(tools)
			require.NoError(t, err, "%s", p.dir)
			for i := range out { // scribble: the output must not alias the registry
				out[i] = 0
			}
		}
	}
	_, err := OpenAIWith(tools, OpenAIOptions{Strict: true, Fallback: true})
	require.NoError(t, err)
	for _, tl := range reg.Tools() {
		assert.Equal(t, string(tl.InputSchema), string(before[tl.Name]), "%s: registry schema changed:\nbefore %s\nafter  %s", tl.Name, before[tl.Name], tl.InputSchema)
	}
	require.Len(t, before, len(rendertest.Cases()), "%d tools in the registry", len(before))
}

func TestEmptyLists(t *testing.T) {
	for _, c := range []struct {
		name string
		got  any
		want string
	}{
		{"OpenAI", OpenAI(nil), `[]`},
		{"OpenAIResponses", OpenAIResponses(nil), `[]`},
		{"Anthropic", must(Anthropic(nil)), `[]`},
		{"MCP", MCP(nil), `[]`},
		{"Gemini", must(Gemini(nil)), `[{"functionDeclarations":[]}]`},
		{"GeminiJSONSchema", must(GeminiWith(nil, GeminiOptions{JSONSchema: true})), `[{"functionDeclarations":[]}]`},
	} {
		b, err := json.Marshal(c.got)
		if assert.NoError(t, err, "%s(nil) = %s, %v; want %s", c.name, b, err, c.want) {
			assert.Equal(t, c.want, string(b), "%s(nil) = %s, %v; want %s", c.name, b, err, c.want)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestAppendJSONMatchesMarshal checks that the direct bytes path and
// json.Marshal agree (encoding/json re-compacts MarshalJSON output, so this
// also proves the output is compact, valid JSON), and that AppendJSON
// appends to what is already in dst.
func TestAppendJSONMatchesMarshal(t *testing.T) {
	tools := rendertest.Tools()
	type appender interface {
		json.Marshaler
		AppendJSON([]byte) []byte
	}
	strict := must(OpenAIStrict(tools[:5]))
	rstrict := must(OpenAIResponsesWith(tools, OpenAIOptions{Strict: true, Fallback: true}))
	for name, v := range map[string]appender{
		"OpenAI": OpenAI(tools), "OpenAIStrict": strict, "OpenAIResponses": OpenAIResponses(tools),
		"OpenAIResponsesStrict": rstrict, "Anthropic": must(Anthropic(tools)), "Gemini": must(Gemini(tools)),
		"MCP": MCP(tools),
	} {
		m, err := json.Marshal(v)
		require.NoError(t, err, "%s", name)
		a := v.AppendJSON([]byte("prefix"))
		assert.Equal(t, "prefix"+string(m), string(a), "%s: AppendJSON and json.Marshal differ:\n%s\n%s", name, a, m)
	}
}

func geminiParams(t *testing.T, schema string, opts GeminiOptions) string {
	t.Helper()
	out, err := GeminiWith([]toolnexus.Tool{{Name: "t", InputSchema: json.RawMessage(schema)}}, opts)
	require.NoError(t, err)
	return string(out[0].FunctionDeclarations[0].Parameters)
}

// TestEntryMarshalJSON checks that each entry marshals to exactly its bytes
// inside the list, the form SDK raw-JSON routes take.
func TestEntryMarshalJSON(t *testing.T) {
	tools := rendertest.Tools()
	var parts []string
	join := func(open, close string) string { return open + strings.Join(parts, ",") + close }
	check := func(name string, list json.Marshaler, want string) {
		t.Helper()
		b, err := json.Marshal(list)
		if assert.NoError(t, err, "%s: entries joined differ from the list:\n%s\n%s", name, want, b) {
			assert.Equal(t, want, string(b), "%s: entries joined differ from the list:\n%s\n%s", name, want, b)
		}
		parts = parts[:0]
	}
	entry := func(v json.Marshaler) {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		parts = append(parts, string(b))
	}
	oa := OpenAI(tools)
	for _, e := range oa {
		entry(e)
	}
	check("OpenAI", oa, join("[", "]"))
	rs := must(OpenAIResponsesWith(tools, strictFallback))
	for _, e := range rs {
		entry(e)
	}
	check("OpenAIResponses", rs, join("[", "]"))
	an := must(Anthropic(tools))
	for _, e := range an {
		entry(e)
	}
	check("Anthropic", an, join("[", "]"))
	mc := MCP(tools)
	for _, e := range mc {
		entry(e)
	}
	check("MCP", mc, join("[", "]"))
	ge := must(Gemini(tools))
	for _, e := range ge[0].FunctionDeclarations {
		entry(e)
	}
	check("Gemini", ge, join(`[{"functionDeclarations":[`, `]}]`))
	b, _ := json.Marshal(ge[0])
	want, _ := json.Marshal(ge)
	assert.Equal(t, string(want), "["+string(b)+"]", "GeminiTool.MarshalJSON: %s", b)
}
