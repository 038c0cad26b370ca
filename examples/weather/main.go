// Command weather is the toolnexus library example: two typed tools, their
// OpenAI Chat Completions "tools" array, and the execution of a recorded
// assistant reply (testdata/assistant_reply.json) whose tool calls include
// one with invalid arguments. It needs no API key and no network.
//
//	go run ./examples/weather
package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"
	_ "time/tzdata" // local_time works on machines without a zoneinfo database

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	"github.com/toolnexus/toolnexus/render"
)

// WeatherArgs are the arguments of get_weather. The tags give the schema
// the model sees and the rules Execute enforces before the function runs.
type WeatherArgs struct {
	City string `json:"city" jsonschema:"description=City name\\, e.g. Paris" validate:"required"`                              // required
	Unit string `json:"unit,omitempty" jsonschema:"description=Temperature unit" validate:"omitempty,oneof=celsius fahrenheit"` // "" means celsius
	Days int    `json:"days,omitempty" jsonschema:"description=Forecast length in days" validate:"omitempty,min=1,max=14"`      // 0 means 1
}

// TimeArgs are the arguments of local_time.
type TimeArgs struct {
	Timezone string `json:"timezone" jsonschema:"description=IANA time zone name\\, e.g. Europe/Paris" validate:"required"` // required
}

func getWeather(_ context.Context, a WeatherArgs) (string, error) {
	unit := a.Unit
	if unit == "" {
		unit = "celsius"
	}
	days := max(a.Days, 1)
	temp := 18
	if unit == "fahrenheit" {
		temp = 64
	}
	return fmt.Sprintf("%s: %d° %s, light rain, forecast for %d day(s)", a.City, temp, unit, days), nil
}

// now is fixed so the example's output is reproducible.
var now = time.Date(2026, 11, 30, 15, 4, 5, 0, time.UTC)

func localTime(_ context.Context, a TimeArgs) (string, error) {
	loc, err := time.LoadLocation(a.Timezone)
	if err != nil {
		return "", fmt.Errorf("unknown time zone %q", a.Timezone)
	}
	return now.In(loc).Format(time.RFC3339), nil
}

//go:embed testdata/assistant_reply.json
var recordedReply []byte

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "weather:", err)
		os.Exit(1)
	}
}

func run(w io.Writer) error {
	reg := toolnexus.NewRegistry()
	if err := toolnexus.Register(reg, "get_weather", "Current weather and forecast for a city.", getWeather); err != nil {
		return err
	}
	if err := toolnexus.Register(reg, "local_time", "Current local time in a time zone.", localTime); err != nil {
		return err
	}

	tools, err := json.MarshalIndent(render.OpenAI(reg.Tools()), "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "# OpenAI Chat Completions tools")
	fmt.Fprintln(w, string(tools))

	// exec reads the reply (a whole chat completion, the assistant message or
	// its tool_calls array), runs every call against the registry, and returns
	// one Chat Completions tool message per call, in call order.
	msgs, err := exec.New(reg, nil).OpenAIChatJSON(context.Background(), recordedReply)
	if err != nil {
		return fmt.Errorf("running the recorded reply: %w", err)
	}
	fmt.Fprintln(w, "\n# Tool messages for the recorded assistant reply")
	for _, m := range msgs {
		line, err := json.Marshal(m)
		if err != nil {
			return err
		}
		fmt.Fprintln(w, string(line))
	}
	return nil
}
