package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

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
	_, err := geminiSchema([]byte(s), 3, false)
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
	f.Fuzz(func(t *testing.T, s string) {
		in := []byte(s)
		if out, err := strictSchema(in); err == nil {
			tree, perr := jsonx.Parse(out)
			if perr != nil {
				t.Fatalf("strict output is not JSON: %s", out)
			}
			if errs := checkStrictNode(tree, "", 0); len(errs) > 0 {
				t.Fatalf("strict output breaks the rules for %s:\n%s\n%v", s, out, errs)
			}
		}
		if out, err := geminiSchema(in, 2, true); err == nil && out != nil {
			tree, perr := jsonx.Parse(out)
			if perr != nil {
				t.Fatalf("gemini output is not JSON: %s", out)
			}
			if errs := checkGeminiNode(tree, ""); len(errs) > 0 {
				t.Fatalf("gemini output breaks the rules for %s:\n%s\n%v", s, out, errs)
			}
		}
		if json.Valid(in) {
			checkAnthropicRoot(in)
		}
	})
}
