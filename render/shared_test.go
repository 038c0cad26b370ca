package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
	"github.com/toolnexus/toolnexus/render/rendertest"
)

func oneTool(name, schema string) []toolnexus.Tool {
	return []toolnexus.Tool{{Name: name, InputSchema: json.RawMessage(schema)}}
}

// noDuplicateKeys fails when any object in the JSON text b repeats a key.
func noDuplicateKeys(t *testing.T, b []byte) {
	t.Helper()
	tree, err := jsonx.Parse(b)
	require.NoError(t, err, "output is not JSON: %v\n%s", err, b)
	p, ok := duplicateKey(tree, "")
	require.False(t, ok, "output repeats the key at %s:\n%s", p, b)
}

func TestPassThroughNeverEmitsInvalidJSON(t *testing.T) {
	for _, bad := range []string{
		"{\"type\":\"object\",\"description\":\"\xff\"}",
		`{"type":"object",`,
		`"just a string"`,
		`{"type":"object"} trailing`,
	} {
		tools := []toolnexus.Tool{{Name: "ok", InputSchema: json.RawMessage(`{"type":"object"}`)}, {Name: "bad", Description: "d\xfe", InputSchema: json.RawMessage(bad)}}
		outputs := map[string][]byte{
			"OpenAI":          OpenAI(tools).AppendJSON(nil),
			"OpenAIResponses": OpenAIResponses(tools).AppendJSON(nil),
			"MCP":             MCP(tools).AppendJSON(nil),
		}
		for name, b := range outputs {
			assert.True(t, utf8.Valid(b), "%s(%q) emitted invalid output: %q", name, bad, b)
			assert.True(t, json.Valid(b), "%s(%q) emitted invalid output: %q", name, bad, b)
			assert.False(t, bytes.Contains(bytes.ReplaceAll(b, openAIEmptySchema, nil), []byte(bad)), "%s copied the bad schema %q", name, bad)
		}
		p := OpenAI(tools)[1].Function.Parameters
		assert.Equal(t, `{"type":"object","properties":{}}`, string(p), "OpenAI substitute = %s", p)
		for name, err := range map[string]error{
			"CheckSchemas":  CheckSchemas(tools),
			"OpenAIWith":    second(OpenAIWith(tools, OpenAIOptions{})),
			"ResponsesWith": second(OpenAIResponsesWith(tools, OpenAIOptions{})),
			"Anthropic":     second(Anthropic(tools)),
			"GeminiJSON":    second(GeminiWith(tools, GeminiOptions{JSONSchema: true})),
			"Gemini":        second(Gemini(tools)),
			"Strict":        second(OpenAIStrict(tools)),
		} {
			var se *SchemaError
			if assert.ErrorAs(t, err, &se, "%s(%q): err = %v, want a *SchemaError for tool bad", name, bad, err) {
				if assert.ErrorIs(t, err, ErrUnsupportedSchema, "%s(%q): err = %v, want a *SchemaError for tool bad", name, bad, err) {
					assert.Equal(t, "bad", se.Tool, "%s(%q): err = %v, want a *SchemaError for tool bad", name, bad, err)
				}
			}
		}
	}
	assert.NoError(t, CheckSchemas(rendertest.Tools()), "CheckSchemas refused a case schema")
}

func second[T any](_ T, err error) error { return err }

func TestProviderNameRules(t *testing.T) {
	long := strings.Repeat("a", 65)
	for _, name := range []string{"", "a b", "na\xffme", long, "a.b", "a:b", "é"} {
		tools := []toolnexus.Tool{{Name: name}}
		for rname, err := range map[string]error{
			"Anthropic":     second(Anthropic(tools)),
			"OpenAIStrict":  second(OpenAIStrict(tools)),
			"OpenAIWith":    second(OpenAIWith(tools, OpenAIOptions{})),
			"ResponsesWith": second(OpenAIResponsesWith(tools, OpenAIOptions{Strict: true})),
		} {
			assert.ErrorIs(t, err, ErrUnsupportedName, "%s(%q): err = %v, want ErrUnsupportedName", rname, name, err)
		}
		b := OpenAI(tools).AppendJSON(nil)
		assert.True(t, utf8.Valid(b), "OpenAI(%q) emitted %q", name, b)
		assert.True(t, json.Valid(b), "OpenAI(%q) emitted %q", name, b)
	}
	for _, name := range []string{"", "a b", "na\xffme", long, "1x", "-x", ".x", "é", "a/b"} {
		_, err := Gemini([]toolnexus.Tool{{Name: name}})
		if assert.ErrorIs(t, err, ErrUnsupportedName, "Gemini(%q): err = %v", name, err) {
			assert.True(t, strings.HasPrefix(err.Error(), "render.Gemini: tool "), "Gemini(%q): err = %v", name, err)
		}
	}
	for _, name := range []string{"a.b:c-d_e", "_x", strings.Repeat("a", 64)} {
		_, err := Gemini([]toolnexus.Tool{{Name: name}})
		assert.NoError(t, err, "Gemini(%q) refused a valid name", name)
	}
	_, err := Anthropic([]toolnexus.Tool{{Name: "Ab_-9"}})
	assert.NoError(t, err, "Anthropic refused a valid name")
}
