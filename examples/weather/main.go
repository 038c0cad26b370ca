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
	"strings"
	"time"
	_ "time/tzdata" // local_time works on machines without a zoneinfo database

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render"
)

// WeatherArgs are the arguments of get_weather. The tags give the schema
// the model sees and the rules Execute enforces before the function runs.
type WeatherArgs struct {
	City string `json:"city" jsonschema:"description=City name\\, e.g. Paris" validate:"required"`
	Unit string `json:"unit,omitempty" jsonschema:"description=Temperature unit" validate:"omitempty,oneof=celsius fahrenheit"`
	Days int    `json:"days,omitempty" jsonschema:"description=Forecast length in days" validate:"omitempty,min=1,max=14"`
}

// TimeArgs are the arguments of local_time.
type TimeArgs struct {
	Timezone string `json:"timezone" jsonschema:"description=IANA time zone name\\, e.g. Europe/Paris" validate:"required"`
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

// chatCompletion is the part of an OpenAI Chat Completions response this
// example reads (OpenAI API reference, "The chat completion object").
type chatCompletion struct {
	Choices []struct {
		Message struct {
			ToolCalls []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"` // a JSON-encoded string
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
	} `json:"choices"`
}

// toolMessage is a Chat Completions tool result message.
type toolMessage struct {
	Role       string `json:"role"`
	ToolCallID string `json:"tool_call_id"`
	Content    string `json:"content"`
}

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

	var reply chatCompletion
	if err := json.Unmarshal(recordedReply, &reply); err != nil {
		return fmt.Errorf("reading the recorded reply: %w", err)
	}
	if len(reply.Choices) == 0 {
		return fmt.Errorf("the recorded reply has no choices")
	}
	fmt.Fprintln(w, "\n# Tool messages for the recorded assistant reply")
	ctx := context.Background()
	for _, call := range reply.Choices[0].Message.ToolCalls {
		res := reg.Execute(ctx, call.Function.Name, json.RawMessage(call.Function.Arguments))
		msg, err := json.Marshal(toolMessage{Role: "tool", ToolCallID: call.ID, Content: res.Output})
		if err != nil {
			return err
		}
		status := "ok   "
		if res.IsError {
			status = "error"
		}
		fmt.Fprintf(w, "%s %s\n", status, strings.TrimSpace(string(msg)))
	}
	return nil
}
