package interop

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"
	"google.golang.org/genai"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	"github.com/toolnexus/toolnexus/render"
)

// odataArgs has the keys of a REST API that Anthropic and Gemini refuse,
// and bounds Anthropic's strict mode refuses.
type odataArgs struct {
	Top    int    `json:"$top,omitempty" validate:"omitempty,min=1,max=50"`
	Filter string `json:"filter[status]" validate:"min=2"`
	Page   struct {
		Size int `json:"page-size,omitempty"`
	} `json:"page"`
}

func odataRegistry(t *testing.T) (*toolnexus.Registry, *[]odataArgs) {
	t.Helper()
	var mu sync.Mutex
	var got []odataArgs
	reg := toolnexus.NewRegistry()
	if err := toolnexus.Register(reg, "orders", "List orders", func(_ context.Context, a odataArgs) (string, error) {
		mu.Lock()
		got = append(got, a)
		mu.Unlock()
		return "ok", nil
	}); err != nil {
		t.Fatal(err)
	}
	return reg, &got
}

// schemaKeys collects every property key of a JSON Schema, at any level.
func schemaKeys(t *testing.T, schema map[string]any, out *[]string) {
	t.Helper()
	if props, ok := schema["properties"].(map[string]any); ok {
		for k, v := range props {
			*out = append(*out, k)
			if sub, ok := v.(map[string]any); ok {
				schemaKeys(t, sub, out)
			}
		}
	}
}

// TestAnthropicRenamedStrictSDK: the strict, renamed rendering goes through
// anthropic-sdk-go's ToolParam into a request whose every property key
// follows the profile's rule and whose schema holds no keyword Anthropic's
// strict mode refuses; a tool_use the SDK parses, written with the renamed
// keys, runs the handler with the declared ones.
func TestAnthropicRenamedStrictSDK(t *testing.T) {
	reg, got := odataRegistry(t)
	rendered, err := render.AnthropicWith(reg.Tools(), render.AnthropicOptions{Strict: true, RenameKeys: true})
	if err != nil {
		t.Fatal(err)
	}
	tool := param.Override[anthropic.ToolParam](rendered[0])
	c := newCapture(t, anthropicResponse)
	client := anthropicClient(t, c.srv.URL)
	if _, err := client.Messages.New(context.Background(), anthropic.MessageNewParams{
		Model: "claude-test", MaxTokens: 64,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("orders?"))},
		Tools:    []anthropic.ToolUnionParam{{OfTool: &tool}},
	}); err != nil {
		t.Fatal(err)
	}
	var sent []struct {
		Strict      bool           `json:"strict"`
		InputSchema map[string]any `json:"input_schema"`
	}
	if err := json.Unmarshal(c.tools(t), &sent); err != nil {
		t.Fatal(err)
	}
	var keys []string
	schemaKeys(t, sent[0].InputSchema, &keys)
	rule := regexp.MustCompile(profile(t, "anthropic-strict").PropertyKey.Regexp)
	for _, k := range keys {
		if !rule.MatchString(k) {
			t.Errorf("key %q sent, outside %s", k, rule)
		}
	}
	raw, _ := json.Marshal(sent[0].InputSchema)
	for _, kw := range []string{`"minimum"`, `"maximum"`, `"minLength"`} {
		if strings.Contains(string(raw), kw) {
			t.Errorf("strict schema holds %s: %s", kw, raw)
		}
	}
	if !sent[0].Strict {
		t.Errorf("not strict: %s", c.tools(t))
	}

	var msg anthropic.Message
	reply := `{"id":"msg_2","type":"message","role":"assistant","model":"claude-test","stop_reason":"tool_use","stop_sequence":null,` +
		`"usage":{"input_tokens":1,"output_tokens":1},"content":[{"type":"tool_use","id":"toolu_1","name":"orders",` +
		`"input":{"_top":5,"filter_status_":"open","page":{"page-size":20}}}]}`
	if err := json.Unmarshal([]byte(reply), &msg); err != nil {
		t.Fatal(err)
	}
	blocks, _ := json.Marshal(msg.Content)
	if _, err := exec.New(reg, nil).AnthropicJSON(context.Background(), blocks); err != nil {
		t.Fatal(err)
	}
	if len(*got) != 1 || (*got)[0].Top != 5 || (*got)[0].Filter != "open" || (*got)[0].Page.Size != 20 {
		t.Fatalf("handler got %+v", *got)
	}
}

// TestGeminiRenamedSDK: the renamed "parameters" decode into genai.Schema,
// every property key (at every level) follows Gemini's parameter name
// rule, and a genai.FunctionCall with those keys runs the handler with the
// declared ones.
func TestGeminiRenamedSDK(t *testing.T) {
	reg, got := odataRegistry(t)
	rendered, err := render.GeminiWith(reg.Tools(), render.GeminiOptions{RenameKeys: true})
	if err != nil {
		t.Fatal(err)
	}
	var decl genai.FunctionDeclaration
	b, _ := json.Marshal(rendered[0].FunctionDeclarations[0])
	if err := json.Unmarshal(b, &decl); err != nil {
		t.Fatal(err)
	}
	rule := regexp.MustCompile(profile(t, "gemini").PropertyKey.Regexp)
	var walk func(s *genai.Schema)
	n := 0
	walk = func(s *genai.Schema) {
		for k, v := range s.Properties {
			n++
			if !rule.MatchString(k) {
				t.Errorf("key %q outside %s", k, rule)
			}
			walk(v)
		}
	}
	walk(decl.Parameters)
	if n != 4 {
		t.Errorf("%d keys, want 4", n)
	}
	call := genai.NewPartFromFunctionCall("orders", map[string]any{"_top": 5, "filter_status_": "open", "page": map[string]any{"page_size": 20}})
	parts, _ := json.Marshal([]*genai.Part{call})
	if _, err := exec.New(reg, nil).GeminiJSON(context.Background(), parts); err != nil {
		t.Fatal(err)
	}
	if len(*got) != 1 || (*got)[0].Top != 5 || (*got)[0].Filter != "open" || (*got)[0].Page.Size != 20 {
		t.Fatalf("handler got %+v", *got)
	}
}

func profile(t *testing.T, name string) render.Profile {
	t.Helper()
	for _, p := range render.Profiles() {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no profile %q", name)
	return render.Profile{}
}
