package main

import (
	"context"
	"fmt"

	"github.com/toolnexus/toolnexus"
)

// WeatherArgs are the arguments of get_weather.
type WeatherArgs struct {
	City string `json:"city" jsonschema:"description=City name"`                                                                                  // required
	Unit string `json:"unit,omitempty" validate:"omitempty,oneof=celsius fahrenheit" jsonschema:"description=Temperature unit (default celsius)"` // "" means celsius
}

// newRegistry returns the registry the loops use: one typed tool,
// get_weather, with canned weather so the example needs no network.
func newRegistry() (*toolnexus.Registry, error) {
	reg := toolnexus.NewRegistry()
	weather := map[string]int{"Paris": 22, "Tokyo": 18, "Lima": 19}
	err := toolnexus.Register(reg, "get_weather", "Get the current weather for a city",
		func(ctx context.Context, a WeatherArgs) (string, error) {
			c, ok := weather[a.City]
			if !ok {
				return "", fmt.Errorf("no weather data for %q", a.City)
			}
			if a.Unit == "fahrenheit" {
				return fmt.Sprintf("%dF and sunny", c*9/5+32), nil
			}
			return fmt.Sprintf("%dC and sunny", c), nil
		})
	return reg, err
}

// question is the user's first message in every loop.
const question = "What is the weather in Paris, and in Tokyo in kelvin?"

// maxTurns bounds every loop: a model that keeps calling tools is stopped.
const maxTurns = 8
