package anthropicrunner_test

import (
	"context"
	"encoding/json"
	"testing"

	anthropic "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/toolrunner"

	"github.com/toolnexus/toolnexus/interop/anthropicrunner"
)

// BenchmarkCall runs one tool call of the same function, as the runner
// makes it (BetaTool.Execute with the tool_use input), through the adapter
// (a registry tool: checked, decoded, validated, run by exec) and through
// the SDK's own helper, toolrunner.NewBetaToolFromJSONSchema (encoding/json
// into the struct, then the function).
func BenchmarkCall(b *testing.B) {
	ctx := context.Background()
	input := json.RawMessage(`{"city":"Paris","unit":"celsius"}`)
	weather := func(a WeatherArgs) string { return "18°C in " + a.City }
	check := func(b *testing.B, blocks []anthropic.BetaToolResultBlockParamContentUnion, err error) {
		if err != nil || len(blocks) != 1 || blocks[0].OfText.Text != "18°C in Paris" {
			b.Fatalf("call: %v %+v", err, blocks)
		}
	}
	b.Run("adapter", func(b *testing.B) {
		tools, err := anthropicrunner.Tools(weatherRegistry(b), nil)
		if err != nil {
			b.Fatal(err)
		}
		tool := tools[0]
		blocks, err := tool.Execute(ctx, input)
		check(b, blocks, err)
		b.ReportAllocs()
		for b.Loop() {
			tool.Execute(ctx, input)
		}
	})
	b.Run("native", func(b *testing.B) {
		tool, err := toolrunner.NewBetaToolFromJSONSchema("get_weather", "Current weather for a city.",
			func(_ context.Context, a WeatherArgs) (anthropic.BetaToolResultBlockParamContentUnion, error) {
				return anthropic.BetaToolResultBlockParamContentUnion{OfText: &anthropic.BetaTextBlockParam{Text: weather(a)}}, nil
			})
		if err != nil {
			b.Fatal(err)
		}
		blocks, err := tool.Execute(ctx, input)
		check(b, blocks, err)
		b.ReportAllocs()
		for b.Loop() {
			tool.Execute(ctx, input)
		}
	})
}
