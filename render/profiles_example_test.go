package render_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render"
)

// ListArgs has the keys of a REST API's query parameters, which Anthropic
// refuses as property keys.
type ListArgs struct {
	Status string `json:"filter[status]"`
	Top    int    `json:"$top,omitempty" validate:"omitempty,min=1,max=100"`
}

func listOrders(_ context.Context, a ListArgs) (string, error) {
	return fmt.Sprintf("%d orders with status %s", a.Top, a.Status), nil
}

// AnthropicOptions.RenameKeys sends the keys renamed; package exec maps a
// call's arguments back to the declared keys (render.RestoreKeys), so the
// handler reads filter[status] and $top. With Strict, the bounds
// Anthropic's strict mode refuses become description hints.
func ExampleAnthropicWith_renameKeys() {
	tool, _ := toolnexus.NewTool("list_orders", "List orders", listOrders)
	tools := []toolnexus.Tool{tool}
	_, err := render.Anthropic(tools)
	fmt.Println(errors.Is(err, render.ErrPropertyKey))
	fmt.Println(err)

	out, _ := render.AnthropicWith(tools, render.AnthropicOptions{RenameKeys: true, Strict: true})
	fmt.Println(string(out[0].InputSchema))
	args, note := render.RestoreKeys("anthropic", &tool, []byte(`{"filter_status_":"open","_top":5}`))
	fmt.Println(string(args))
	fmt.Println(note)
	// Output:
	// true
	// render.Anthropic: tool "list_orders": /properties/filter[status]: the property key "filter[status]" does not match ^[a-zA-Z0-9_.-]{1,64}$ (set RenameKeys to send it renamed, and CheckOptions.RenameKeys at registration; exec maps the model's arguments back)
	// {"type":"object","properties":{"filter_status_":{"type":"string"},"_top":{"type":"integer","description":"Must be at least 1. Must be at most 100."}},"required":["filter_status_"],"additionalProperties":false}
	// {"filter[status]":"open","$top":5}
	// (The tool's messages name its own keys: "filter[status]" is the "filter_status_" you sent, "$top" is the "_top" you sent.)
}

// Check refuses at registration a tool a target provider would refuse.
func ExampleCheck() {
	reg := toolnexus.NewRegistryWith(&toolnexus.Options{CheckTool: render.Check("anthropic", "openai-chat")})
	err := toolnexus.Register(reg, "list_orders", "List orders", listOrders)
	fmt.Println(errors.Is(err, render.ErrPropertyKey))
	// Output:
	// true
}

// Profiles lists what each provider API accepts, with sources.
func ExampleProfiles() {
	for _, p := range render.Profiles() {
		most := "no documented limit on tools"
		if p.MaxTools.Max > 0 {
			most = fmt.Sprintf("at most %d tools", p.MaxTools.Max)
		}
		fmt.Printf("%s: names %s, %s\n", p.Name, p.ToolName.Regexp, most)
	}
	// Output:
	// openai-chat: names ^[a-zA-Z0-9_-]{1,64}$, at most 128 tools
	// openai-chat-strict: names ^[a-zA-Z0-9_-]{1,64}$, at most 128 tools
	// openai-responses: names ^[a-zA-Z0-9_-]{1,64}$, at most 128 tools
	// openai-responses-strict: names ^[a-zA-Z0-9_-]{1,64}$, at most 128 tools
	// anthropic: names ^[a-zA-Z0-9_-]{1,64}$, no documented limit on tools
	// anthropic-strict: names ^[a-zA-Z0-9_-]{1,64}$, no documented limit on tools
	// gemini: names ^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$, at most 512 tools
	// gemini-json-schema: names ^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$, at most 512 tools
	// mcp: names ^[A-Za-z0-9_.-]{1,128}$, no documented limit on tools
}
