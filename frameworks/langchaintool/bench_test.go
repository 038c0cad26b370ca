package langchaintool_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolnexus/toolnexus/frameworks/langchaintool"
)

// nativeWeather is get_weather as langchaingo users write a tools.Tool:
// json.Unmarshal of the input into the same arguments struct, then the
// same function. It checks nothing beyond what encoding/json refuses.
type nativeWeather struct{}

func (nativeWeather) Name() string        { return "get_weather" }
func (nativeWeather) Description() string { return "Current weather for a city." }
func (nativeWeather) Call(ctx context.Context, input string) (string, error) {
	var a WeatherArgs
	if err := json.Unmarshal([]byte(input), &a); err != nil {
		return "error: " + err.Error(), nil
	}
	return weather(ctx, a)
}

// BenchmarkCall is one call of get_weather through tools.Tool.Call: the
// adapter (Tools: the registry's checks, exec, the output cap) against the
// hand-written native tool.
func BenchmarkCall(b *testing.B) {
	ctx := context.Background()
	const input = `{"city":"Paris","unit":"celsius"}`
	const want = "18°C, light rain in Paris"
	for _, c := range []struct {
		name string
		call func(context.Context, string) (string, error)
	}{
		{"adapter", langchaintool.Tools(weatherRegistry(b), nil)[0].Call},
		{"native", nativeWeather{}.Call},
	} {
		b.Run(c.name, func(b *testing.B) {
			if out, _ := c.call(ctx, input); out != want {
				b.Fatalf("output %q, want %q", out, want)
			}
			b.ReportAllocs()
			for b.Loop() {
				_, _ = c.call(ctx, input)
			}
		})
	}
}
