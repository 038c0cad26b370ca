package otel_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	toolotel "github.com/toolnexus/toolnexus/otel"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// BenchmarkRun measures one Executor.Run of a trivial typed tool: plain
// exec, instrumented with no-op providers, and instrumented with the SDK
// (every span sampled and batched to a no-op exporter, metrics aggregated
// by a manual reader).
func BenchmarkRun(b *testing.B) {
	reg := toolnexus.NewRegistry()
	toolnexus.MustRegister(reg, "get_weather", "Weather.",
		func(ctx context.Context, a weatherArgs) (string, error) { return "18°C", nil })
	call := exec.Call{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	b.Cleanup(func() { _ = tp.Shutdown(context.Background()); _ = mp.Shutdown(context.Background()) })
	for _, c := range []struct {
		name string
		ex   *exec.Executor
	}{
		{"exec", exec.New(reg, nil)},
		{"otel-noop", toolotel.NewExecutor(reg, nil, &toolotel.Options{
			TracerProvider: tracenoop.NewTracerProvider(), MeterProvider: metricnoop.NewMeterProvider()})},
		{"otel-sdk", toolotel.NewExecutor(reg, nil, &toolotel.Options{TracerProvider: tp, MeterProvider: mp})},
	} {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if r := c.ex.Run(ctx, call); r.IsError {
					b.Fatal(r.Output)
				}
			}
		})
	}
}
