package anthropicrunner_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"sync"

	anthropic "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/interop/anthropicrunner"
)

// Example runs a registry tool in the SDK's beta tool runner. The model (a
// loopback stand-in here) first calls get_weather with a unit the tool does
// not take, reads the registry's message, and calls again.
func Example() {
	type WeatherArgs struct {
		City string `json:"city" validate:"required"`
		Unit string `json:"unit,omitempty" validate:"omitempty,oneof=celsius fahrenheit"`
	}
	reg := toolnexus.NewRegistry()
	err := toolnexus.Register(reg, "get_weather", "Current weather for a city.",
		func(ctx context.Context, a WeatherArgs) (string, error) { return "18°C in " + a.City, nil })
	if err != nil {
		log.Fatal(err)
	}
	tools, err := anthropicrunner.Tools(reg, nil) // nil: exec's default options
	if err != nil {
		log.Fatal(err) // a tool Anthropic would refuse
	}

	api := scriptedMessagesAPI() // stands in for api.anthropic.com
	defer api.Close()
	client := anthropic.NewClient(option.WithBaseURL(api.URL), option.WithAPIKey("test"))
	runner := client.Beta.Messages.NewToolRunner(tools, anthropic.BetaToolRunnerParams{
		BetaMessageNewParams: anthropic.BetaMessageNewParams{
			Model:     anthropic.ModelClaudeSonnet5_5,
			MaxTokens: 1024,
			Messages: []anthropic.BetaMessageParam{
				anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock("Weather in Paris, in kelvin?")),
			},
		},
	})
	final, err := runner.RunToCompletion(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range runner.Messages() { // the runner's transcript
		if m.OfUser == nil {
			continue
		}
		for _, block := range m.OfUser.Content {
			if r := block.OfToolResult; r != nil {
				fmt.Println(r.IsError.Value, r.Content[0].OfText.Text)
			}
		}
	}
	fmt.Println(final.Content[0].Text)
	// Output:
	// true Error: invalid arguments for "get_weather": "unit" must be one of [celsius fahrenheit]
	// false 18°C in Paris
	// It is 18°C in Paris.
}

// scriptedMessagesAPI answers the Messages API with a bad tool call, a good
// one and a final text, in turn.
func scriptedMessagesAPI() *httptest.Server {
	replies := []string{
		toolUse("toolu_1", "get_weather", `{"city":"Paris","unit":"kelvin"}`),
		toolUse("toolu_2", "get_weather", `{"city":"Paris"}`),
		endTurn("It is 18°C in Paris."),
	}
	var mu sync.Mutex
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		reply := endTurn("(script ended)")
		if len(replies) > 0 {
			reply, replies = replies[0], replies[1:]
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, reply)
	}))
}
