package exec_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/toolnexus/toolnexus"
)

// WeatherArgs are the arguments of the get_weather test tool.
type WeatherArgs struct {
	City string `json:"city" jsonschema:"description=City name"`
	Unit string `json:"unit,omitempty" validate:"omitempty,oneof=celsius fahrenheit"`
}

// testRegistry holds the tools every test uses:
//
//	get_weather  typed; "22C in Paris" (°F with unit fahrenheit)
//	fail         returns an error "city not found"
//	boom         panics
//	bad_utf8     returns invalid UTF-8 bytes
//	echo         raw tool, returns its arguments
func testRegistry(t testing.TB) *toolnexus.Registry {
	t.Helper()
	reg := toolnexus.NewRegistry()
	err := toolnexus.Register(reg, "get_weather", "Get the weather for a city",
		func(ctx context.Context, a WeatherArgs) (string, error) {
			if a.Unit == "fahrenheit" {
				return "72F in " + a.City, nil
			}
			return "22C in " + a.City, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	err = reg.Add(
		toolnexus.Tool{Name: "fail", Description: "always fails",
			Handler: toolnexus.HandlerFunc(func(ctx context.Context, args json.RawMessage) (string, error) {
				return "", errors.New("city not found")
			})},
		toolnexus.Tool{Name: "boom", Description: "always panics",
			Handler: toolnexus.HandlerFunc(func(ctx context.Context, args json.RawMessage) (string, error) {
				panic("kaboom")
			})},
		toolnexus.Tool{Name: "bad_utf8", Description: "returns invalid UTF-8",
			Handler: toolnexus.HandlerFunc(func(ctx context.Context, args json.RawMessage) (string, error) {
				return "ok \xff\xfe done", nil
			})},
		toolnexus.Tool{Name: "echo", Description: "returns its arguments",
			Handler: toolnexus.HandlerFunc(func(ctx context.Context, args json.RawMessage) (string, error) {
				return string(args), nil
			})},
	)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// mustJSON marshals v or fails the test.
func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal(%T): %v", v, err)
	}
	return string(b)
}

func quote(s string) string { return fmt.Sprintf("%q", s) }
