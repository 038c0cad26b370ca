package interop_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/anthropics/anthropic-sdk-go/v2"
	aoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	aparam "github.com/anthropics/anthropic-sdk-go/v2/packages/param"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"google.golang.org/genai"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render"
)

type WeatherArgs struct {
	City string `json:"city" jsonschema:"description=City name"`
	Unit string `json:"unit,omitempty" validate:"omitempty,oneof=celsius fahrenheit"`
}

func registry() *toolnexus.Registry {
	reg := toolnexus.NewRegistry()
	toolnexus.MustRegister(reg, "get_weather", "Get the weather", func(_ context.Context, a WeatherArgs) (string, error) {
		return "22C in " + a.City, nil
	})
	return reg
}

// fakeAPI stands in for a provider on loopback: it prints the "tools" of
// the request it receives and answers with response.
func fakeAPI(response string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Tools json.RawMessage `json:"tools"`
		}
		b, _ := io.ReadAll(r.Body)
		json.Unmarshal(b, &body)
		fmt.Printf("received tools: %s\n", body.Tools)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, response)
	}))
}

// OpenAI Chat Completions: hand each rendered entry to the SDK with
// param.Override, so the schema bytes (and their key order) are sent as
// rendered.
func Example_openAIChat() {
	srv := fakeAPI(`{"id":"c","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`)
	defer srv.Close()
	client := openai.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test"))

	rendered, err := render.OpenAIStrict(registry().Tools())
	if err != nil {
		panic(err)
	}
	tools := make([]openai.ChatCompletionToolUnionParam, len(rendered))
	for i := range rendered {
		fn := param.Override[openai.ChatCompletionFunctionToolParam](rendered[i])
		tools[i] = openai.ChatCompletionToolUnionParam{OfFunction: &fn}
	}
	_, err = client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    "gpt-5",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather in Paris?")},
		Tools:    tools,
	})
	fmt.Println(err)
	// Output:
	// received tools: [{"type":"function","function":{"name":"get_weather","description":"Get the weather","parameters":{"type":"object","properties":{"city":{"type":"string","description":"City name"},"unit":{"type":["string","null"],"enum":["celsius","fahrenheit",null]}},"required":["city","unit"],"additionalProperties":false},"strict":true}}]
	// <nil>
}

// OpenAI Responses: the same route with responses.FunctionToolParam;
// "strict" is always explicit.
func Example_openAIResponses() {
	srv := fakeAPI(`{"id":"r","object":"response","created_at":0,"model":"m","status":"completed","output":[]}`)
	defer srv.Close()
	client := openai.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test"))

	rendered := render.OpenAIResponses(registry().Tools())
	tools := make([]responses.ToolUnionParam, len(rendered))
	for i := range rendered {
		fn := param.Override[responses.FunctionToolParam](rendered[i])
		tools[i] = responses.ToolUnionParam{OfFunction: &fn}
	}
	_, err := client.Responses.New(context.Background(), responses.ResponseNewParams{
		Model: "gpt-5",
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Weather in Paris?")},
		Tools: tools,
	})
	fmt.Println(err)
	// Output:
	// received tools: [{"type":"function","name":"get_weather","description":"Get the weather","parameters":{"type":"object","properties":{"city":{"type":"string","description":"City name"},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city"],"additionalProperties":false},"strict":false}]
	// <nil>
}

// Anthropic: param.Override[anthropic.ToolParam] sends each entry verbatim.
func Example_anthropic() {
	srv := fakeAPI(`{"id":"m","type":"message","role":"assistant","model":"c","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)
	defer srv.Close()
	client := anthropic.NewClient(aoption.WithoutEnvironmentDefaults(), aoption.WithBaseURL(srv.URL), aoption.WithAPIKey("test"))

	rendered, err := render.Anthropic(registry().Tools())
	if err != nil {
		panic(err)
	}
	tools := make([]anthropic.ToolUnionParam, len(rendered))
	for i := range rendered {
		tool := aparam.Override[anthropic.ToolParam](rendered[i])
		tools[i] = anthropic.ToolUnionParam{OfTool: &tool}
	}
	_, err = client.Messages.New(context.Background(), anthropic.MessageNewParams{
		Model:     "claude-sonnet-4-5",
		MaxTokens: 1024,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Weather in Paris?"))},
		Tools:     tools,
	})
	fmt.Println(err)
	// Output:
	// received tools: [{"name":"get_weather","description":"Get the weather","input_schema":{"type":"object","properties":{"city":{"type":"string","description":"City name"},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city"],"additionalProperties":false}}]
	// <nil>
}

// Gemini: decode the rendered JSON into the SDK's own []*genai.Tool. genai
// sends every object with sorted keys, so PropertyOrdering carries the
// field order as data.
func Example_gemini() {
	srv := fakeAPI(`{"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]}}]}`)
	defer srv.Close()
	client, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey: "test", Backend: genai.BackendGeminiAPI, HTTPOptions: genai.HTTPOptions{BaseURL: srv.URL},
	})
	if err != nil {
		panic(err)
	}

	rendered, err := render.GeminiWith(registry().Tools(), render.GeminiOptions{PropertyOrdering: true})
	if err != nil {
		panic(err)
	}
	var tools []*genai.Tool
	if err := json.Unmarshal(rendered.AppendJSON(nil), &tools); err != nil {
		panic(err)
	}
	_, err = client.Models.GenerateContent(context.Background(), "gemini-2.5-flash", genai.Text("Weather in Paris?"),
		&genai.GenerateContentConfig{Tools: tools})
	fmt.Println(err)
	// Output:
	// received tools: [{"functionDeclarations":[{"description":"Get the weather","name":"get_weather","parameters":{"properties":{"city":{"description":"City name","type":"STRING"},"unit":{"enum":["celsius","fahrenheit"],"type":"STRING"}},"propertyOrdering":["city","unit"],"required":["city"],"type":"OBJECT"}}]}]
	// <nil>
}

// MCP: serve render.MCP output from a go-sdk server, keeping each schema as
// json.RawMessage so it is sent byte for byte, and list it with a client.
func Example_mcp() {
	ctx := context.Background()
	reg := registry()
	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "v1"}, nil)
	for _, r := range render.MCP(reg.Tools()) {
		var tool mcp.Tool
		if err := json.Unmarshal(r.AppendJSON(nil), &tool); err != nil {
			panic(err)
		}
		tool.InputSchema = r.InputSchema
		name := r.Name
		server.AddTool(&tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res := reg.Execute(ctx, name, req.Params.Arguments)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Output}}, IsError: res.IsError}, nil
		})
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		panic(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		panic(err)
	}
	schema, _ := json.Marshal(list.Tools[0].InputSchema)
	fmt.Println(list.Tools[0].Name, string(schema))
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Paris"}})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// get_weather {"additionalProperties":false,"properties":{"city":{"description":"City name","type":"string"},"unit":{"enum":["celsius","fahrenheit"],"type":"string"}},"required":["city"],"type":"object"}
	// 22C in Paris
}
