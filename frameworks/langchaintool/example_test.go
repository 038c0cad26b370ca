package langchaintool_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/tools"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/frameworks/langchaintool"
)

// The registry's tools for llms.WithTools, and a reply's tool calls run
// through the registry: the bad call gets the registry's message, the
// good one its result, each as the tool-response message to append.
func Example() {
	ctx := context.Background()
	type WeatherArgs struct {
		City string `json:"city" validate:"required"`
		Unit string `json:"unit,omitempty" validate:"omitempty,oneof=celsius fahrenheit"`
	}
	reg := toolnexus.NewRegistry()
	err := toolnexus.Register(reg, "get_weather", "Current weather for a city.",
		func(ctx context.Context, a WeatherArgs) (string, error) { return "18°C in " + a.City, nil })
	if err != nil {
		fmt.Println(err)
		return
	}

	defs := langchaintool.Definitions(reg) // pass with llms.WithTools(defs) to GenerateContent
	fmt.Println(defs[0].Function.Name, string(defs[0].Function.Parameters.(json.RawMessage)))

	// resp as llm.GenerateContent(ctx, msgs, llms.WithTools(defs)) returns it:
	resp := &llms.ContentResponse{Choices: []*llms.ContentChoice{{ToolCalls: []llms.ToolCall{
		{ID: "call_1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "get_weather", Arguments: `{"city":"Paris","unit":"kelvin"}`}},
		{ID: "call_2", Type: "function", FunctionCall: &llms.FunctionCall{Name: "get_weather", Arguments: `{"city":"Paris"}`}},
	}}}}
	results, err := langchaintool.Execute(ctx, reg, resp, nil) // nil: exec's default options
	if err != nil {
		fmt.Println(err) // only when ctx ended first; results are complete anyway
	}
	for _, m := range results { // append to msgs after the assistant message with the calls
		r := m.Parts[0].(llms.ToolCallResponse)
		fmt.Println(m.Role, r.ToolCallID, r.Content)
	}
	// Output:
	// get_weather {"type":"object","properties":{"city":{"type":"string","minLength":1},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city"],"additionalProperties":false}
	// tool call_1 error: invalid arguments for "get_weather": "unit" must be one of [celsius fahrenheit]
	// tool call_2 18°C in Paris
}

// The registry's tools as tools.Tool values for langchaingo's agents, e.g.
// agents.NewExecutor(agents.NewOpenAIFunctionsAgent(llm, list)): the input
// is the arguments' JSON text, and a failed call is the observation.
func ExampleTools() {
	ctx := context.Background()
	type WeatherArgs struct {
		City string `json:"city" validate:"required"`
	}
	reg := toolnexus.NewRegistry()
	err := toolnexus.Register(reg, "get_weather", "Current weather for a city.",
		func(ctx context.Context, a WeatherArgs) (string, error) { return "18°C in " + a.City, nil })
	if err != nil {
		fmt.Println(err)
		return
	}

	list := langchaintool.Tools(reg, nil) // []tools.Tool
	fmt.Println(list[0].Description())
	for _, input := range []string{`{"town":"Paris"}`, `{"city":"Paris"}`} {
		out, err := list[0].Call(ctx, input) // err is always nil
		fmt.Println(out, err)
	}
	// Output:
	// Current weather for a city.
	// Input: one JSON object matching this JSON Schema: {"type":"object","properties":{"city":{"type":"string","minLength":1}},"required":["city"],"additionalProperties":false}
	// error: invalid arguments for "get_weather": unknown property "town"; allowed: city; "city" is required <nil>
	// 18°C in Paris <nil>
}

// langchaingo's own tools (here its Calculator) in a registry, whose
// checking applies to their one "input" argument.
func ExampleFromTools() {
	ctx := context.Background()
	list, err := langchaintool.FromTools(tools.Calculator{})
	if err != nil {
		fmt.Println(err)
		return
	}
	reg := toolnexus.NewRegistry()
	if err := reg.Add(list...); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(reg.Execute(ctx, "calculator", json.RawMessage(`{"input":"6*7"}`)).Output)
	fmt.Println(reg.Execute(ctx, "calculator", json.RawMessage(`{"expression":"6*7"}`)).Output)
	// Output:
	// 42
	// invalid arguments for "calculator": unknown property "expression"; allowed: input; "input" is required
}
