package render_test

import (
	"encoding/json"
	"fmt"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render"
)

// Deferred tools plus the client-side search tool: the model sees the
// search tool and loads "forecast" through it (exec answers the search,
// see exec.ToolSearch).
func ExampleAnthropicToolSearch() {
	tools := []toolnexus.Tool{{Name: "forecast", Description: "Weather forecast",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}}
	rendered, err := render.AnthropicWith(tools, render.AnthropicOptions{Defer: []string{"forecast"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	rendered = append(rendered, render.AnthropicToolSearch("Find tools for a task"))
	b, _ := json.MarshalIndent(rendered, "", "  ")
	fmt.Println(string(b))
	// Output:
	// [
	//   {
	//     "name": "forecast",
	//     "description": "Weather forecast",
	//     "input_schema": {
	//       "type": "object",
	//       "properties": {
	//         "city": {
	//           "type": "string"
	//         }
	//       },
	//       "required": [
	//         "city"
	//       ]
	//     },
	//     "defer_loading": true
	//   },
	//   {
	//     "name": "tool_search",
	//     "description": "Find tools for a task",
	//     "input_schema": {
	//       "type": "object",
	//       "properties": {
	//         "query": {
	//           "type": "string",
	//           "description": "Words to look for in tool names and descriptions"
	//         }
	//       },
	//       "required": [
	//         "query"
	//       ],
	//       "additionalProperties": false
	//     }
	//   }
	// ]
}
