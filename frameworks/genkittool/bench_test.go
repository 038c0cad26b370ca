package genkittool_test

import (
	"context"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/toolnexus/toolnexus/frameworks/genkittool"
)

// BenchmarkCall measures one tool call of the same function (weather) the
// way Genkit's generate loop makes it: ai.Tool.RunRawMultipart with the
// tool request's input as a plugin decodes it (map[string]any). adapter is
// the registry tool from Define (checked by the registry), native the same
// function as genkit.DefineTool (checked by Genkit's own schema validation).
func BenchmarkCall(b *testing.B) {
	ctx := context.Background()
	g := genkit.Init(ctx)
	if _, err := genkittool.Define(g, weatherRegistry(b)); err != nil {
		b.Fatal(err)
	}
	genkit.DefineTool(g, "native_weather", "Current weather for a city.", func(tc *ai.ToolContext, a WeatherArgs) (string, error) {
		return weather(tc, a)
	})
	input := map[string]any{"city": "Paris", "unit": "celsius"}
	for _, bc := range []struct{ name, tool string }{{"adapter", "get_weather"}, {"native", "native_weather"}} {
		tool := genkit.LookupTool(g, bc.tool)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				resp, err := tool.RunRawMultipart(ctx, input)
				if err != nil || resp.Output != "18°C, light rain in Paris" {
					b.Fatalf("%v %v", resp, err)
				}
			}
		})
	}
}
