package otel_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	"github.com/toolnexus/toolnexus/mcp"
	toolotel "github.com/toolnexus/toolnexus/otel"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// An executor whose tool calls are traced and counted. A real program
// passes its own providers (or sets the global ones and passes nil).
func ExampleNewExecutor() {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))

	type Args struct {
		City string `json:"city" validate:"required"`
	}
	reg := toolnexus.NewRegistry()
	toolnexus.MustRegister(reg, "get_weather", "Current weather for a city.",
		func(ctx context.Context, a Args) (string, error) { return "18°C, light rain", nil })

	ex := toolotel.NewExecutor(reg, nil, &toolotel.Options{TracerProvider: tp, MeterProvider: mp})
	res := ex.Run(context.Background(), exec.Call{ID: "call_1", Name: "get_weather",
		Arguments: json.RawMessage(`{"city":"Paris"}`)})
	fmt.Println(res.Output)

	for _, s := range spans.GetSpans() {
		fmt.Println(s.Name)
		for _, kv := range s.Attributes {
			fmt.Printf("  %s=%s\n", kv.Key, kv.Value.Emit())
		}
	}
	var rm metricdata.ResourceMetrics
	_ = reader.Collect(context.Background(), &rm)
	for _, m := range rm.ScopeMetrics[0].Metrics {
		if sum, ok := m.Data.(metricdata.Sum[int64]); ok {
			p := sum.DataPoints[0]
			tool, _ := p.Attributes.Value("tool")
			isErr, _ := p.Attributes.Value("is_error")
			fmt.Printf("%s{tool=%s,is_error=%v} %d\n", m.Name, tool.AsString(), isErr.AsBool(), p.Value)
		}
	}
	// Output:
	// 18°C, light rain
	// execute_tool get_weather
	//   gen_ai.operation.name=execute_tool
	//   gen_ai.tool.name=get_weather
	//   gen_ai.tool.type=function
	//   gen_ai.tool.call.id=call_1
	// toolnexus.tool.calls{tool=get_weather,is_error=false} 1
}

// Serving a registry over MCP with each tools/call traced, continuing the
// trace the client sent in params._meta.
func ExampleMCPServerMiddleware() {
	reg := toolnexus.NewRegistry()
	srv := mcp.NewServer(reg, nil)
	defer srv.Close()
	srv.SDKServer().AddReceivingMiddleware(toolotel.MCPServerMiddleware(reg, nil)) // global providers
	// srv.ServeStdio(ctx) or srv.ListenAndServe(ctx, addr, nil) as usual.
}
