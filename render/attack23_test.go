package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus"
)

func a23Tool(schema string) toolnexus.Tool {
	return toolnexus.Tool{Name: "t", Description: "d", InputSchema: json.RawMessage(schema)}
}

// TestA23StrictRecursionPercentEncoded: a cycle through a $defs name that
// the $ref writes percent-encoded ("#/$defs/a%20b") is as recursive as
// one written plainly; Anthropic strict must refuse both.
func TestA23StrictRecursionPercentEncoded(t *testing.T) {
	for _, ref := range []string{"#/$defs/a b", "#/$defs/a%20b", "#/%24defs/a%20b"} {
		s := fmt.Sprintf(`{"type":"object","properties":{"x":{"$ref":%q}},"required":["x"],
			"$defs":{"a b":{"type":"object","properties":{"c":{"$ref":%q}},"required":["c"]}}}`, ref, ref)
		_, err := AnthropicWith([]toolnexus.Tool{a23Tool(s)}, AnthropicOptions{Strict: true})
		if !errors.Is(err, ErrNotStrict) {
			t.Errorf("%s: err = %v, want ErrNotStrict (recursive)", ref, err)
		}
	}
}

// TestA23StrictRecursionDAG: the recursion check must not walk every path
// of a $ref DAG (2^30 paths for 30 definitions each referenced twice).
func TestA23StrictRecursionDAG(t *testing.T) {
	const n = 30
	var defs []string
	for i := 0; i < n; i++ {
		next := fmt.Sprintf(`{"$ref":"#/$defs/d%d"}`, i+1)
		if i == n-1 {
			next = `{"type":"string"}`
		}
		defs = append(defs, fmt.Sprintf(`"d%d":{"type":"object","properties":{"a":%s,"b":%s},"required":["a","b"]}`, i, next, next))
	}
	s := `{"type":"object","properties":{"x":{"$ref":"#/$defs/d0"}},"required":["x"],"$defs":{` + strings.Join(defs, ",") + `}}`
	done := make(chan error, 1)
	go func() {
		_, err := AnthropicWith([]toolnexus.Tool{a23Tool(s)}, AnthropicOptions{Strict: true})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Logf("err: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("AnthropicWith strict still running after 10s")
	}
}

// TestA23RenameRefPercentEncoded: a $ref into a renamed property written
// percent-encoded is as broken after the rename as a plain one.
func TestA23RenameRefPercentEncoded(t *testing.T) {
	for _, ref := range []string{"#/properties/a b", "#/properties/a%20b"} {
		s := fmt.Sprintf(`{"type":"object","properties":{"a b":{"type":"string"},"c":{"$ref":%q}}}`, ref)
		out, err := AnthropicWith([]toolnexus.Tool{a23Tool(s)}, AnthropicOptions{RenameKeys: true})
		if !errors.Is(err, ErrPropertyKey) {
			t.Errorf("%s: err = %v, schema %s; want ErrPropertyKey", ref, err, func() string {
				if len(out) > 0 {
					return string(out[0].InputSchema)
				}
				return ""
			}())
		}
	}
}

// anthropicStrictRefused are keywords Anthropic's strict mode refuses.
var anthropicStrictRefused = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"minLength", "maxLength", "maxItems", "uniqueItems", "minProperties", "maxProperties"}

// TestA23AnthropicStrictNoRefusedKeywords: bounds everywhere a strict schema
// can hold them leave none in the output.
func TestA23AnthropicStrictNoRefusedKeywords(t *testing.T) {
	b := `"minimum":1,"maximum":9,"exclusiveMinimum":0,"exclusiveMaximum":10,"multipleOf":1`
	str := `"minLength":1,"maxLength":5`
	arr := `"minItems":2,"maxItems":5,"uniqueItems":true`
	s := `{"type":"object","minProperties":1,"maxProperties":9,"properties":{
		"n":{"type":"integer",` + b + `},
		"s":{"type":["string","null"],` + str + `},
		"l":{"type":"array",` + arr + `,"items":{"type":"number",` + b + `}},
		"u":{"anyOf":[{"type":"string",` + str + `},{"type":"integer",` + b + `}]},
		"o":{"oneOf":[{"type":"string",` + str + `},{"type":"array",` + arr + `,"items":{"type":"string"}}]},
		"r":{"$ref":"#/$defs/d"},
		"rd":{"$ref":"#/$defs/d","description":"with a note"},
		"e":{"type":"integer","enum":[1,2],` + b + `}
	},"required":["n","s","l"],"$defs":{"d":{"type":"string",` + str + `}}}`
	out, err := AnthropicWith([]toolnexus.Tool{a23Tool(s)}, AnthropicOptions{Strict: true})
	if err != nil {
		t.Skipf("refused: %v", err)
	}
	got := string(out[0].InputSchema)
	for _, k := range anthropicStrictRefused {
		if strings.Contains(got, `"`+k+`"`) {
			t.Errorf("strict output keeps %q: %s", k, got)
		}
	}
	if strings.Contains(got, `"minItems":2`) {
		t.Errorf("strict output keeps minItems 2: %s", got)
	}
	t.Log(got)
}

// TestA23Concurrent: renderers and RestoreKeys on the same and on fresh
// schemas from many goroutines (run with -race).
func TestA23Concurrent(t *testing.T) {
	done := make(chan struct{})
	for g := 0; g < 16; g++ {
		go func(g int) {
			defer func() { done <- struct{}{} }()
			for i := 0; i < 50; i++ {
				s := fmt.Sprintf(`{"type":"object","properties":{"a b":{"type":"string"},"k%d":{"$ref":"#/$defs/d"}},"$defs":{"d":{"type":"object","properties":{"x-%d":{"type":"integer","minimum":1}},"required":["x-%d"]}},"required":["a b"]}`, i%5, i%3, i%3)
				tool := a23Tool(s)
				_, _ = AnthropicWith([]toolnexus.Tool{tool}, AnthropicOptions{RenameKeys: true, Strict: g%2 == 0})
				_, _ = GeminiWith([]toolnexus.Tool{tool}, GeminiOptions{RenameKeys: true})
				_, _ = OpenAIWith([]toolnexus.Tool{tool}, OpenAIOptions{Strict: true, Fallback: true})
				out, _ := RestoreKeys("anthropic", &tool, json.RawMessage(fmt.Sprintf(`{"a_b":"v","k%d":{"x-%d":3}}`, i%5, i%3)))
				if !strings.Contains(string(out), `"a b"`) {
					t.Errorf("anthropic: %s", out)
				}
				out, _ = RestoreKeys("gemini", &tool, json.RawMessage(fmt.Sprintf(`{"a_b":"v","k%d":{"x_%d":3}}`, i%5, i%3)))
				if !strings.Contains(string(out), fmt.Sprintf(`"x-%d"`, i%3)) {
					t.Errorf("gemini: %s", out)
				}
			}
		}(g)
	}
	for g := 0; g < 16; g++ {
		<-done
	}
}

// TestA23AnthropicStrictBesideRef: a bound beside a $ref is dropped from
// Anthropic's strict copy; it should still be stated as a hint (or refused).
func TestA23AnthropicStrictBesideRef(t *testing.T) {
	s := `{"type":"object","properties":{"n":{"$ref":"#/$defs/n","maximum":5}},"required":["n"],"$defs":{"n":{"type":"integer"}}}`
	out, err := AnthropicWith([]toolnexus.Tool{a23Tool(s)}, AnthropicOptions{Strict: true})
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	got := string(out[0].InputSchema)
	if !strings.Contains(got, "at most 5") {
		t.Errorf("maximum 5 beside $ref dropped without a hint: %s", got)
	}
}
