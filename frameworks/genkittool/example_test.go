package genkittool_test

import (
	"context"
	"fmt"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/frameworks/genkittool"
)

// ExampleDefine runs a registry tool in Genkit's own generate loop. The
// model (scripted here, genkit.DefineModel) first calls get_weather with a
// unit the registry refuses, reads the registry's message, retries and
// answers.
func ExampleDefine() {
	ctx := context.Background()
	reg := toolnexus.NewRegistry()
	err := toolnexus.Register(reg, "get_weather", "Current weather for a city.", weather) // WeatherArgs{City, Unit}
	if err != nil {
		panic(err)
	}

	g := genkit.Init(ctx)
	tools, err := genkittool.Define(g, reg) // one ai.Tool per registry tool, with its input schema
	if err != nil {
		panic(err)
	}

	script := []map[string]any{{"city": "Paris", "unit": "kelvin"}, {"city": "Paris"}}
	model := genkit.DefineModel(g, "example/scripted", &ai.ModelOptions{Supports: &ai.ModelSupports{Tools: true, Multiturn: true}},
		func(_ context.Context, req *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			turn := len(req.Messages) / 2 // user, then (model, tool) pairs
			if turn < len(script) {
				return &ai.ModelResponse{Request: req, Message: ai.NewMessage(ai.RoleModel, nil,
					ai.NewToolRequestPart(&ai.ToolRequest{Name: "get_weather", Input: script[turn]}))}, nil
			}
			return &ai.ModelResponse{Request: req, Message: ai.NewModelTextMessage("It is 18°C with light rain in Paris.")}, nil
		})

	resp, err := genkit.Generate(ctx, g, ai.WithModel(model), ai.WithPrompt("Weather in Paris?"),
		ai.WithTools(tools[0]))
	if err != nil {
		panic(err) // a bad tool call does not end up here
	}
	for _, msg := range resp.History() {
		for _, p := range msg.Content {
			if p.IsToolResponse() {
				fmt.Println("tool:", p.ToolResponse.Output)
			}
		}
	}
	fmt.Println("model:", resp.Text())
	// Output:
	// tool: invalid arguments for "get_weather": "unit" must be one of [celsius fahrenheit]
	// tool: 18°C, light rain in Paris
	// model: It is 18°C with light rain in Paris.
}
