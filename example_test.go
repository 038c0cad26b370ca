package toolnexus_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolnexus/toolnexus"
)

type WeatherArgs struct {
	City string `json:"city" jsonschema:"description=City name" validate:"required"`
	Unit string `json:"unit,omitempty" validate:"omitempty,oneof=celsius fahrenheit"`
	Days int    `json:"days,omitempty" validate:"omitempty,min=1,max=14"`
}

func ExampleRegister() {
	reg := toolnexus.NewRegistry()
	err := toolnexus.Register(reg, "get_weather", "Current weather for a city.",
		func(ctx context.Context, a WeatherArgs) (string, error) {
			return fmt.Sprintf("%s: 18 degrees", a.City), nil
		})
	if err != nil {
		panic(err)
	}
	tool, _ := reg.Get("get_weather")
	fmt.Println(string(tool.InputSchema))
	// Output:
	// {"type":"object","properties":{"city":{"type":"string","description":"City name","minLength":1},"unit":{"type":"string","enum":["celsius","fahrenheit"]},"days":{"type":"integer","maximum":14,"minimum":1}},"required":["city"],"additionalProperties":false}
}

func ExampleRegistry_Execute() {
	reg := toolnexus.NewRegistry()
	toolnexus.MustRegister(reg, "get_weather", "Current weather for a city.",
		func(ctx context.Context, a WeatherArgs) (string, error) {
			return fmt.Sprintf("%s: 18 degrees %s", a.City, a.Unit), nil
		})
	ctx := context.Background()
	for _, args := range []string{
		`{"city":"Paris","unit":"celsius"}`,
		`{"City":"Paris"}`,
		`{"city":"Paris","unit":"kelvin","days":30}`,
	} {
		res := reg.Execute(ctx, "get_weather", json.RawMessage(args))
		fmt.Printf("error=%t %s\n", res.IsError, res.Output)
	}
	res := reg.Execute(ctx, "get_forecast", nil)
	fmt.Printf("error=%t %s\n", res.IsError, res.Output)
	// Output:
	// error=false Paris: 18 degrees celsius
	// error=true invalid arguments for "get_weather": unknown property "City"; property names are case-sensitive: did you mean "city"?; "city" is required
	// error=true invalid arguments for "get_weather": "unit" must be one of [celsius fahrenheit]; "days" must be at most 14
	// error=true unknown tool "get_forecast"; available tools: get_weather
}

// Each tag and the schema it produces.
func ExampleRegister_tags() {
	type Args struct {
		// json: the property name; omitempty/omitzero make it optional.
		Query string `json:"query" jsonschema:"description=Search terms" validate:"min=2"`
		// validate rules become schema keywords: oneof → enum.
		Sort string `json:"sort,omitempty" validate:"omitempty,oneof=relevance date"`
		// min/max on numbers → minimum/maximum; jsonschema adds a default.
		Limit int `json:"limit,omitempty" jsonschema:"default=10" validate:"omitempty,min=1,max=50"`
		// dive applies the rules after it to each item.
		Tags []string `json:"tags,omitempty" validate:"omitempty,max=3,dive,min=1"`
		// jsonschema_description is an alternative to description=.
		Email string `json:"email,omitempty" jsonschema_description:"Notify this address" validate:"omitempty,email"`
	}
	schema, err := toolnexus.SchemaFor[Args]()
	if err != nil {
		panic(err)
	}
	fmt.Println(string(schema))
	// Output:
	// {"type":"object","properties":{"query":{"type":"string","description":"Search terms","minLength":2},"sort":{"type":"string","enum":["relevance","date"]},"limit":{"type":"integer","maximum":50,"minimum":1,"default":10},"tags":{"type":"array","items":{"type":"string","minLength":1},"maxItems":3},"email":{"type":"string","description":"Notify this address","format":"email"}},"required":["query"],"additionalProperties":false}
}

func ExampleRegistry_Add() {
	reg := toolnexus.NewRegistry()
	err := reg.Add(toolnexus.Tool{
		Name:        "echo",
		Description: "Echo the arguments back.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`),
		Handler: toolnexus.HandlerFunc(func(ctx context.Context, args json.RawMessage) (string, error) {
			return string(args), nil
		}),
	})
	fmt.Println(err)
	fmt.Println(reg.Execute(context.Background(), "echo", json.RawMessage(`{"text":"hi"}`)).Output)
	fmt.Println(reg.Execute(context.Background(), "echo", nil).Output)
	// Output:
	// <nil>
	// {"text":"hi"}
	// {}
}

func ExampleRegistry_Tools() {
	reg := toolnexus.NewRegistry()
	for _, name := range []string{"search", "get_weather", "add"} {
		toolnexus.MustRegister(reg, name, "", func(context.Context, struct{}) (string, error) { return "", nil })
	}
	for _, t := range reg.Tools() {
		fmt.Println(t.Name, string(t.InputSchema))
	}
	// Output:
	// add {"type":"object","properties":{},"additionalProperties":false}
	// get_weather {"type":"object","properties":{},"additionalProperties":false}
	// search {"type":"object","properties":{},"additionalProperties":false}
}
