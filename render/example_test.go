package render_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render"
)

type WeatherArgs struct {
	City string `json:"city" jsonschema:"description=City name"`
	Unit string `json:"unit,omitempty" validate:"omitempty,oneof=celsius fahrenheit"`
}

func weather(context.Context, WeatherArgs) (string, error) { return "22C", nil }

func registry() *toolnexus.Registry {
	reg := toolnexus.NewRegistry()
	toolnexus.MustRegister(reg, "get_weather", "Get the weather", weather)
	return reg
}

func show(v json.Marshaler) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	os.Stdout.Write(append(b, '\n'))
}

func ExampleOpenAI() {
	show(render.OpenAI(registry().Tools()))
	// Output:
	// [{"type":"function","function":{"name":"get_weather","description":"Get the weather","parameters":{"type":"object","properties":{"city":{"type":"string","description":"City name"},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city"],"additionalProperties":false}}}]
}

// In strict mode the optional "unit" becomes required but nullable; Execute
// treats its null as absent.
func ExampleOpenAIStrict() {
	reg := registry()
	tools, err := render.OpenAIStrict(reg.Tools())
	if err != nil {
		panic(err)
	}
	show(tools)
	res := reg.Execute(context.Background(), "get_weather", json.RawMessage(`{"city":"Paris","unit":null}`))
	fmt.Println(res.Output, res.IsError)
	// Output:
	// [{"type":"function","function":{"name":"get_weather","description":"Get the weather","parameters":{"type":"object","properties":{"city":{"type":"string","description":"City name"},"unit":{"type":["string","null"],"enum":["celsius","fahrenheit",null]}},"required":["city","unit"],"additionalProperties":false},"strict":true}}]
	// 22C false
}

// A schema strict mode cannot express is an error naming the tool and the
// JSON path; OpenAIOptions.Fallback renders that tool non-strict instead.
func ExampleOpenAIWith() {
	type TagArgs struct {
		Labels map[string]string `json:"labels"`
	}
	tag, _ := toolnexus.NewTool("tag", "Attach labels", func(context.Context, TagArgs) (string, error) { return "ok", nil })
	_, err := render.OpenAIStrict([]toolnexus.Tool{tag})
	fmt.Println(err, errors.Is(err, render.ErrNotStrict))
	tools, _ := render.OpenAIWith([]toolnexus.Tool{tag}, render.OpenAIOptions{Strict: true, Fallback: true})
	fmt.Println(*tools[0].Function.Strict)
	// Output:
	// render.OpenAIStrict: tool "tag": /properties/labels/additionalProperties: a free-form map (additionalProperties is a schema) cannot be made strict true
	// false
}

func ExampleOpenAIResponses() {
	show(render.OpenAIResponses(registry().Tools()))
	// Output:
	// [{"type":"function","name":"get_weather","description":"Get the weather","parameters":{"type":"object","properties":{"city":{"type":"string","description":"City name"},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city"],"additionalProperties":false},"strict":false}]
}

func ExampleOpenAIResponsesWith() {
	tools, err := render.OpenAIResponsesWith(registry().Tools(), render.OpenAIOptions{Strict: true})
	if err != nil {
		panic(err)
	}
	show(tools)
	// Output:
	// [{"type":"function","name":"get_weather","description":"Get the weather","parameters":{"type":"object","properties":{"city":{"type":"string","description":"City name"},"unit":{"type":["string","null"],"enum":["celsius","fahrenheit",null]}},"required":["city","unit"],"additionalProperties":false},"strict":true}]
}

func ExampleAnthropic() {
	tools, err := render.Anthropic(registry().Tools())
	if err != nil {
		panic(err)
	}
	show(tools)
	// Output:
	// [{"name":"get_weather","description":"Get the weather","input_schema":{"type":"object","properties":{"city":{"type":"string","description":"City name"},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city"],"additionalProperties":false}}]
}

// Gemini gets its OpenAPI subset: upper-case types, no
// additionalProperties, and no parameters at all for a tool without
// arguments.
func ExampleGemini() {
	reg := registry()
	toolnexus.MustRegister(reg, "get_time", "Get the time", func(context.Context, struct{}) (string, error) { return "noon", nil })
	tools, err := render.Gemini(reg.Tools())
	if err != nil {
		panic(err)
	}
	show(tools)
	// Output:
	// [{"functionDeclarations":[{"name":"get_time","description":"Get the time"},{"name":"get_weather","description":"Get the weather","parameters":{"type":"OBJECT","properties":{"city":{"type":"STRING","description":"City name"},"unit":{"type":"STRING","enum":["celsius","fahrenheit"]}},"required":["city"]}}]}]
}

// With JSONSchema the schema goes unchanged into parametersJsonSchema.
func ExampleGeminiWith() {
	tools, err := render.GeminiWith(registry().Tools(), render.GeminiOptions{JSONSchema: true})
	if err != nil {
		panic(err)
	}
	show(tools)
	// Output:
	// [{"functionDeclarations":[{"name":"get_weather","description":"Get the weather","parametersJsonSchema":{"type":"object","properties":{"city":{"type":"string","description":"City name"},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city"],"additionalProperties":false}}]}]
}

func ExampleMCP() {
	tool, _ := toolnexus.NewTool("get_weather", "Get the weather", weather)
	tool.Title = "Weather"
	tool.Annotations = &toolnexus.Annotations{ReadOnlyHint: true}
	show(render.MCP([]toolnexus.Tool{tool}))
	// Output:
	// [{"name":"get_weather","title":"Weather","description":"Get the weather","inputSchema":{"type":"object","properties":{"city":{"type":"string","description":"City name"},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city"],"additionalProperties":false},"annotations":{"readOnlyHint":true}}]
}

// AppendJSON writes the same bytes as json.Marshal into a buffer you keep,
// without encoding/json's re-scan of the output.
func ExampleOpenAITools_AppendJSON() {
	buf := make([]byte, 0, 4096)
	buf = render.OpenAI(registry().Tools()).AppendJSON(buf[:0])
	fmt.Println(len(buf), json.Valid(buf))
	// Output:
	// 290 true
}

// A hand-built tool whose schema bytes are not JSON: OpenAI, which has no
// error result, sends {"type":"object"} in their place; CheckSchemas (and
// OpenAIWith) report the problem instead.
func ExampleCheckSchemas() {
	tools := []toolnexus.Tool{{Name: "broken", InputSchema: json.RawMessage(`{"type":"object",`)}}
	show(render.OpenAI(tools))
	err := render.CheckSchemas(tools)
	fmt.Println(err, errors.Is(err, render.ErrUnsupportedSchema))
	_, err = render.OpenAIWith(tools, render.OpenAIOptions{})
	fmt.Println(err)
	// Output:
	// [{"type":"function","function":{"name":"broken","description":"","parameters":{"type":"object","properties":{}}}}]
	// render.CheckSchemas: tool "broken": schema root: the schema is not valid JSON true
	// render.OpenAIWith: tool "broken": schema root: the schema is not valid JSON
}
