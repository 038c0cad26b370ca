package exec_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

type exampleArgs struct {
	City string `json:"city"`
}

func exampleRegistry() *toolnexus.Registry {
	reg := toolnexus.NewRegistry()
	toolnexus.MustRegister(reg, "get_weather", "Get the weather for a city",
		func(ctx context.Context, a exampleArgs) (string, error) {
			return "22C and sunny in " + a.City, nil
		})
	return reg
}

// One valid call and one whose arguments miss a required property.
func ExampleExecutor_Run() {
	e := exec.New(exampleRegistry(), nil)
	ctx := context.Background()

	ok := e.Run(ctx, exec.Call{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)})
	bad := e.Run(ctx, exec.Call{ID: "call_2", Name: "get_weather", Arguments: json.RawMessage(`{"town":"Paris"}`)})

	fmt.Println(ok.ID, ok.IsError, ok.Output)
	fmt.Println(bad.ID, bad.IsError, bad.Output)
	// Output:
	// call_1 false 22C and sunny in Paris
	// call_2 true invalid arguments for "get_weather": unknown property "town"; allowed: city; "city" is required
}

func ExampleExecutor_RunAll() {
	e := exec.New(exampleRegistry(), &exec.Options{Concurrency: 2})
	results, err := e.RunAll(context.Background(), []exec.Call{
		{ID: "a", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)},
		{ID: "b", Name: "get_time"},
		{ID: "c", Name: "get_weather", Arguments: json.RawMessage(`"{\"city\":\"Rome\"}"`)}, // encoded twice: unwrapped once
	})
	if err != nil {
		panic(err)
	}
	for _, r := range results {
		fmt.Printf("%s %v %s\n", r.ID, r.IsError, r.Output)
	}
	// Output:
	// a false 22C and sunny in Oslo
	// b true unknown tool "get_time"; available tools: get_weather
	// c false 22C and sunny in Rome
}

// An assistant message from OpenAI Chat Completions, as raw bytes, becomes
// the tool messages to append.
func ExampleExecutor_OpenAIChatJSON() {
	reply := []byte(`{"role":"assistant","content":null,"tool_calls":[
		{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}},
		{"id":"call_2","type":"function","function":{"name":"get_weather","arguments":"{\"city\":"}}]}`)
	msgs, err := exec.New(exampleRegistry(), nil).OpenAIChatJSON(context.Background(), reply)
	if err != nil {
		panic(err)
	}
	for _, m := range msgs {
		b, _ := json.Marshal(m)
		fmt.Println(string(b))
	}
	// Output:
	// {"role":"tool","tool_call_id":"call_1","content":"22C and sunny in Paris"}
	// {"role":"tool","tool_call_id":"call_2","content":"error: invalid arguments for \"get_weather\": arguments are not valid JSON: unexpected end of input (truncated?)"}
}

func ExampleExecutor_ResponsesJSON() {
	output := []byte(`[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Lima\"}","status":"completed"}]`)
	items, err := exec.New(exampleRegistry(), nil).ResponsesJSON(context.Background(), output)
	if err != nil {
		panic(err)
	}
	b, _ := json.Marshal(items)
	fmt.Println(string(b))
	// Output:
	// [{"type":"function_call_output","call_id":"call_1","output":"22C and sunny in Lima"}]
}

// The Anthropic content blocks are unmarshalled into exec structs; the
// answer is one user message.
func ExampleExecutor_Anthropic() {
	var reply struct {
		Content []exec.AnthropicContentBlock `json:"content"`
	}
	_ = json.Unmarshal([]byte(`{"role":"assistant","content":[
		{"type":"text","text":"Checking both."},
		{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}},
		{"type":"tool_use","id":"toolu_2","name":"get_weather","input":{}}]}`), &reply)
	msg, err := exec.New(exampleRegistry(), nil).Anthropic(context.Background(), reply.Content)
	if err != nil {
		panic(err)
	}
	b, _ := json.MarshalIndent(msg, "", "  ")
	fmt.Println(string(b))
	// Output:
	// {
	//   "role": "user",
	//   "content": [
	//     {
	//       "type": "tool_result",
	//       "tool_use_id": "toolu_1",
	//       "content": "22C and sunny in Paris"
	//     },
	//     {
	//       "type": "tool_result",
	//       "tool_use_id": "toolu_2",
	//       "content": "invalid arguments for \"get_weather\": \"city\" is required",
	//       "is_error": true
	//     }
	//   ]
	// }
}

func ExampleExecutor_GeminiJSON() {
	content := []byte(`{"role":"model","parts":[
		{"functionCall":{"id":"fc_1","name":"get_weather","args":{"city":"Paris"}}},
		{"functionCall":{"name":"get_time","args":{}}}]}`)
	reply, err := exec.New(exampleRegistry(), nil).GeminiJSON(context.Background(), content)
	if err != nil {
		panic(err)
	}
	b, _ := json.Marshal(reply)
	fmt.Println(string(b))
	// Output:
	// {"role":"user","parts":[{"functionResponse":{"id":"fc_1","name":"get_weather","response":{"output":"22C and sunny in Paris"}}},{"functionResponse":{"name":"get_time","response":{"error":"unknown tool \"get_time\"; available tools: get_weather"}}}]}
}

// Hooks: Before refuses a call without running it, After truncates outputs.
func ExampleOptions_hooks() {
	e := exec.New(exampleRegistry(), &exec.Options{
		Before: func(ctx context.Context, c *exec.Call) *toolnexus.Result {
			if strings.Contains(string(c.Arguments), "Atlantis") {
				return &toolnexus.Result{Output: "the user did not approve this call", IsError: true}
			}
			return nil
		},
		After: func(ctx context.Context, c exec.Call, r *exec.Result) {
			if len(r.Output) > 12 {
				r.Output = r.Output[:12] + "…"
			}
		},
	})
	for _, city := range []string{"Atlantis", "Paris"} {
		r := e.Run(context.Background(), exec.Call{Name: "get_weather", Arguments: json.RawMessage(`{"city":"` + city + `"}`)})
		fmt.Println(r.IsError, r.Output)
	}
	// Output:
	// true the user did…
	// false 22C and sunn…
}

// Logging names the tool, the call id, the duration and the error status;
// arguments and outputs stay out unless asked for.
func ExampleOptions_logger() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == "duration" {
				return slog.Attr{} // unstable in an example
			}
			return a
		},
	}))
	e := exec.New(exampleRegistry(), &exec.Options{Logger: logger})
	e.Run(context.Background(), exec.Call{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"secret-place"}`)})
	e.Run(context.Background(), exec.Call{ID: "call_2", Name: "get_weather", Arguments: json.RawMessage(`{}`)})
	// Output:
	// level=INFO msg="tool call" tool=get_weather call_id=call_1 is_error=false
	// level=WARN msg="tool call" tool=get_weather call_id=call_2 is_error=true error_kind=invalid_arguments
}
