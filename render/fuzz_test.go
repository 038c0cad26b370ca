package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

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
	if !errors.Is(err, ErrSchemaLimit) || !strings.Contains(err.Error(), "more than 50000 schema nodes") {
		t.Fatalf("err = %v", err)
	}
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
		if out, err := strictSchema(in); err == nil {
			tree, perr := jsonx.Parse(out)
			if perr != nil || !utf8.Valid(out) {
				t.Fatalf("strict output is not UTF-8 JSON: %q", out)
			}
			if errs := checkStrictNode(tree, "", 0); len(errs) > 0 {
				t.Fatalf("strict output breaks the rules for %s:\n%s\n%v", s, out, errs)
			}
			if p, dup := duplicateKey(tree, ""); dup {
				t.Fatalf("strict output repeats the key at %s: %s", p, out)
			}
			for _, ref := range findRefs(tree) {
				if _, err := resolveRef(tree, ref); err != nil {
					t.Fatalf("strict output $ref %q does not resolve (%v): %s", ref, err, out)
				}
			}
			refsStandAlone(t, out)
		}
		if out, err := geminiSchema(in, 2, true, false); err == nil && out != nil {
			tree, perr := jsonx.Parse(out)
			if perr != nil || !utf8.Valid(out) {
				t.Fatalf("gemini output is not UTF-8 JSON: %q", out)
			}
			if p, dup := duplicateKey(tree, ""); dup {
				t.Fatalf("gemini output repeats the key at %s: %s", p, out)
			}
			if errs := checkGeminiNode(tree, ""); len(errs) > 0 {
				t.Fatalf("gemini output breaks the rules for %s:\n%s\n%v", s, out, errs)
			}
		}
		if json.Valid(in) {
			checkAnthropic(in)
		}
		tools := []toolnexus.Tool{{Name: "f", InputSchema: in}}
		for _, b := range [][]byte{OpenAI(tools).AppendJSON(nil), MCP(tools).AppendJSON(nil), OpenAIResponses(tools).AppendJSON(nil)} {
			if !utf8.Valid(b) || !json.Valid(b) {
				t.Fatalf("pass-through output is not UTF-8 JSON: %q", b)
			}
		}
	})
}
