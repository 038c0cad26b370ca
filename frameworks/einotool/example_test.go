package einotool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/flow/agent/react"
	"github.com/cloudwego/eino/schema"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/frameworks/einotool"
	"github.com/toolnexus/toolnexus/render"
)

// A registry's tools in eino's react agent: the model calls get_weather
// with a bad unit, reads the registry's message, retries and answers.
func ExampleTools() {
	ctx := context.Background()
	reg := toolnexus.NewRegistry()
	toolnexus.MustRegister(reg, "get_weather", "Current weather for a city.", weather)

	tools, err := einotool.Tools(reg, nil) // []tool.BaseTool of tool.InvokableTool values
	if err != nil {
		log.Fatal(err)
	}
	chatModel := retryScript() // any model.ToolCallingChatModel; here a scripted one
	agent, err := react.NewAgent(ctx, &react.AgentConfig{
		ToolCallingModel: chatModel,
		ToolsConfig:      compose.ToolsNodeConfig{Tools: tools},
	})
	if err != nil {
		log.Fatal(err)
	}
	answer, err := agent.Generate(ctx, []*schema.Message{schema.UserMessage("Weather in Paris?")})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range chatModel.lastInput() {
		if m.Role == schema.Tool {
			fmt.Println("tool:", m.Content)
		}
	}
	fmt.Println("answer:", answer.Content)
	// Output:
	// tool: invalid arguments for "get_weather": "unit" must be one of [celsius fahrenheit]
	// tool: 18°C in Paris, light rain
	// answer: It is 18°C in Paris.
}

// An eino tool in a registry: its calls are checked against its schema
// before it runs, and it renders like any other tool.
func ExampleFromTool() {
	ctx := context.Background()
	forecastTool, err := utils.InferTool("forecast", "Forecast for a city.", forecast)
	if err != nil {
		log.Fatal(err)
	}
	tn, _, err := einotool.FromTool(ctx, forecastTool)
	if err != nil {
		log.Fatal(err)
	}
	reg := toolnexus.NewRegistry()
	if err := reg.Add(tn); err != nil {
		log.Fatal(err)
	}
	fmt.Println(reg.Execute(ctx, "forecast", json.RawMessage(`{"city":"Oslo","days":30}`)).Output)
	fmt.Println(reg.Execute(ctx, "forecast", json.RawMessage(`{"city":"Oslo"}`)).Output)
	tools, err := json.Marshal(render.OpenAI(reg.Tools()))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(tools))
	// Output:
	// invalid arguments for "forecast": "days" must be at most 14
	// Oslo: sunny
	// [{"type":"function","function":{"name":"forecast","description":"Forecast for a city.","parameters":{"properties":{"city":{"description":"City name","type":"string"},"days":{"maximum":14,"minimum":1,"type":"integer"}},"additionalProperties":false,"required":["city"],"type":"object"}}}]
}
