package einotool_test

import (
	"context"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
)

// BenchmarkCall is one tool call of weather through the adapter (the
// registry's checking and Execute) and through eino's own utils.InferTool
// of the same function (which decodes the arguments and checks nothing).
func BenchmarkCall(b *testing.B) {
	ctx := context.Background()
	args := `{"city":"Paris","unit":"celsius"}`
	native, err := utils.InferTool("get_weather", "Current weather for a city.", weather)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		tool tool.InvokableTool
	}{
		{"adapter", registryTools(b, weatherRegistry(b), nil)[0].(tool.InvokableTool)},
		{"native", native},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				out, err := c.tool.InvokableRun(ctx, args)
				if err != nil || out != "18°C in Paris, light rain" {
					b.Fatalf("InvokableRun = %q, %v", out, err)
				}
			}
		})
	}
}
