package render

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
	"github.com/toolnexus/toolnexus/render/rendertest"
)

func TestGeminiRefBlowup(t *testing.T) {
	var defs []string
	for i := range 30 {
		defs = append(defs, fmt.Sprintf(`"D%d":{"type":"object","properties":{"a":{"$ref":"#/$defs/D%d"},"b":{"$ref":"#/$defs/D%d"}}}`, i, i+1, i+1))
	}
	defs = append(defs, `"D30":{"type":"string"}`)
	s := `{"type":"object","properties":{"x":{"$ref":"#/$defs/D0"}},"$defs":{` + strings.Join(defs, ",") + `}}`
	_, err := geminiSchema([]byte(s), 3, false, false)
	require.ErrorIs(t, err, ErrSchemaLimit, "err = %v", err)
	require.Contains(t, err.Error(), "more than 50000 schema nodes", "err = %v", err)
}

// FuzzRewrites feeds arbitrary JSON to the schema rewriters: they must
// never panic, and whatever they accept must come out as valid JSON that
// follows the provider's rules.
func FuzzRewrites(f *testing.F) {
	for _, tl := range rendertest.Tools() {
		f.Add(string(schemaOf(&tl)))
	}
	f.Add(`{"type":"object","properties":{"a":{"$ref":"#"}}}`)
	f.Add(`{"type":"object","properties":{"a":{"type":["null"]},"b":{"anyOf":[{"type":"null"}]},"c":{"enum":[]}}}`)
	// Review regressions: duplicate keys, ref cycles, escaped refs, refs
	// with siblings or into rewritten places, object enums, bad UTF-8.
	f.Add(`{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"string"}},"propertyOrdering":["zz","a","a"]}`)
	f.Add(`{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}`)
	f.Add(`{"type":"object","properties":{"a":{"$ref":"#/$defs/a%20b","description":"d"},"c":{"$ref":"#/properties/a"}},"$defs":{"a b":{"type":"string"}}}`)
	f.Add(`{"type":"object","properties":{"a":{"$ref":"#/properties/a/$defs/X","$defs":{"X":{"type":"string"}}},"u":{"oneOf":[{"type":"string"}]},"v":{"$ref":"#/properties/u/oneOf/0"}}}`)
	f.Add(`{"type":"object","properties":{"a":{"type":"string"},"a":{"const":null},"e":{"enum":[{"k":1},[1]]}}}`)
	f.Add("{\"type\":\"object\",\"description\":\"\xff\"}")
	f.Fuzz(func(t *testing.T, s string) {
		in := []byte(s)
		if out, _, err := openAIStrictRules.strict(in); err == nil {
			tree, perr := jsonx.Parse(out)
			require.NoError(t, perr, "strict output is not UTF-8 JSON: %q", out)
			require.True(t, utf8.Valid(out), "strict output is not UTF-8 JSON: %q", out)
			errs := checkStrictNode(tree, "", 0)
			require.Empty(t, errs, "strict output breaks the rules for %s:\n%s\n%v", s, out, errs)
			p, dup := duplicateKey(tree, "")
			require.False(t, dup, "strict output repeats the key at %s: %s", p, out)
			for _, ref := range findRefs(tree) {
				_, err := resolveRef(tree, ref)
				require.NoError(t, err, "strict output $ref %q does not resolve (%v): %s", ref, err, out)
			}
			refsStandAlone(t, out)
		}
		if out, err := geminiSchema(in, 2, true, false); err == nil && out != nil {
			tree, perr := jsonx.Parse(out)
			require.NoError(t, perr, "gemini output is not UTF-8 JSON: %q", out)
			require.True(t, utf8.Valid(out), "gemini output is not UTF-8 JSON: %q", out)
			p, dup := duplicateKey(tree, "")
			require.False(t, dup, "gemini output repeats the key at %s: %s", p, out)
			errs := checkGeminiNode(tree, "")
			require.Empty(t, errs, "gemini output breaks the rules for %s:\n%s\n%v", s, out, errs)
		}
		if json.Valid(in) {
			checkAnthropic(in)
		}
		tools := []toolnexus.Tool{{Name: "f", InputSchema: in}}
		for _, b := range [][]byte{OpenAI(tools).AppendJSON(nil), MCP(tools).AppendJSON(nil), OpenAIResponses(tools).AppendJSON(nil)} {
			require.True(t, utf8.Valid(b), "pass-through output is not UTF-8 JSON: %q", b)
			require.True(t, json.Valid(b), "pass-through output is not UTF-8 JSON: %q", b)
		}
	})
}
