// Package testserver builds the MCP server and the toolnexus registry that
// the mcp package's tests talk to, in process or through the mcptest
// program next to it.
package testserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnexus/toolnexus"
)

// OrderedSchema is the input schema of the "get.weather/v2" tool: its keys
// are deliberately not sorted, so a client that re-encodes a map would
// change the bytes.
const OrderedSchema = `{"type":"object","properties":{"zeta":{"type":"string","description":"last letter"},"alpha":{"type":"integer"}},"required":["zeta"],"additionalProperties":false}`

// LongToolName is 70 characters long, over the 64-character limit.
const LongToolName = "a_tool_with_a_very_long_name_that_goes_on_and_on_past_the_sixty_four_x"

// NewSDKServer returns an MCP server made directly with the Go SDK (not
// with toolnexus) offering:
//
//   - echo {text}: returns text
//   - add {a, b}: returns the sum as text
//   - fail {}: isError with two text blocks "first problem", "second problem"
//   - structured {}: structuredContent {"z":1,"a":[true]} plus a text block
//   - pid {}: the server's process id
//   - spawn {}: starts "sleep 600" as a child and returns its pid
//   - sleep {ms}: sleeps, watching ctx
//   - get.weather/v2 {zeta, alpha}: schema OrderedSchema, returns the args
//   - LongToolName {}: returns "long"
//   - patch {}: returns "mcp patch" (server "apply" gives "apply_patch",
//     the name of a built-in tool)
func NewSDKServer() *mcpsdk.Server {
	s := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "testserver", Version: "1.2.3"}, nil)
	type echoArgs struct {
		Text string `json:"text" jsonschema:"the text to echo"`
	}
	mcpsdk.AddTool(s, &mcpsdk.Tool{Name: "echo", Description: "Echo the text back"},
		func(ctx context.Context, _ *mcpsdk.CallToolRequest, a echoArgs) (*mcpsdk.CallToolResult, any, error) {
			return text(a.Text), nil, nil
		})
	type addArgs struct {
		A float64 `json:"a"`
		B float64 `json:"b"`
	}
	mcpsdk.AddTool(s, &mcpsdk.Tool{Name: "add", Description: "Add two numbers"},
		func(ctx context.Context, _ *mcpsdk.CallToolRequest, a addArgs) (*mcpsdk.CallToolResult, any, error) {
			return text(strconv.FormatFloat(a.A+a.B, 'g', -1, 64)), nil, nil
		})
	raw := func(name, desc, schema string, h mcpsdk.ToolHandler) {
		s.AddTool(&mcpsdk.Tool{Name: name, Description: desc, InputSchema: json.RawMessage(schema)}, h)
	}
	raw("fail", "Always fails", `{"type":"object"}`, func(context.Context, *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
		return &mcpsdk.CallToolResult{IsError: true, Content: []mcpsdk.Content{
			&mcpsdk.TextContent{Text: "first problem"}, &mcpsdk.TextContent{Text: "second problem"},
		}}, nil
	})
	raw("structured", "Returns structured content", `{"type":"object"}`, func(context.Context, *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
		return &mcpsdk.CallToolResult{
			Content:           []mcpsdk.Content{&mcpsdk.TextContent{Text: "see structured content"}},
			StructuredContent: json.RawMessage(`{"z":1,"a":[true]}`),
		}, nil
	})
	raw("pid", "Returns the server's process id", `{"type":"object"}`, func(context.Context, *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
		return text(strconv.Itoa(os.Getpid())), nil
	})
	raw("spawn", "Starts a child process and returns its pid", `{"type":"object"}`, func(context.Context, *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
		cmd := exec.Command("sleep", "600")
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		go cmd.Wait()
		return text(strconv.Itoa(cmd.Process.Pid)), nil
	})
	raw("sleep", "Sleeps", `{"type":"object","properties":{"ms":{"type":"integer"}}}`, func(ctx context.Context, req *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
		var a struct{ Ms int }
		_ = json.Unmarshal(req.Params.Arguments, &a)
		select {
		case <-time.After(time.Duration(a.Ms) * time.Millisecond):
			return text("slept"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	raw("get.weather/v2", "Ordered schema", OrderedSchema, func(_ context.Context, req *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
		return text(string(req.Params.Arguments)), nil
	})
	raw("patch", "Shadows a built-in when the server is called apply", `{"type":"object"}`, func(context.Context, *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
		return text("mcp patch"), nil
	})
	raw(LongToolName, "Long name", `{"type":"object"}`, func(context.Context, *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
		return text("long"), nil
	})
	return s
}

func text(s string) *mcpsdk.CallToolResult {
	return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: s}}}
}

// WeatherArgs are the arguments of the registry's get_weather tool.
type WeatherArgs struct {
	City string `json:"city" jsonschema:"description=City name"`                                                                // required
	Unit string `json:"unit,omitempty" jsonschema:"enum=celsius,enum=fahrenheit" validate:"omitempty,oneof=celsius fahrenheit"` // "" means celsius
}

// NewRegistry returns the registry the serve tests expose: get_weather
// (typed) and boom (a raw tool whose handler fails).
func NewRegistry() (*toolnexus.Registry, error) {
	reg := toolnexus.NewRegistry()
	err := toolnexus.Register(reg, "get_weather", "Get the weather for a city",
		func(ctx context.Context, a WeatherArgs) (string, error) {
			unit := a.Unit
			if unit == "" {
				unit = "celsius"
			}
			return fmt.Sprintf("22 degrees %s in %s", unit, a.City), nil
		})
	if err != nil {
		return nil, err
	}
	err = reg.Add(toolnexus.Tool{
		Name:        "boom",
		Description: "Always fails",
		Annotations: &toolnexus.Annotations{ReadOnlyHint: true},
		Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) {
			return "", errors.New("boom failed on purpose")
		}),
	})
	return reg, err
}
