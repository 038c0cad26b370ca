package exec_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolnexus/toolnexus/exec"
)

// A streamed Anthropic reply: the get_weather call runs at its
// content_block_stop, while the rest of the reply still streams in.
func ExampleExecutor_AnthropicStream() {
	body := strings.NewReader(`event: message_start
data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_01","name":"get_weather","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Par"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"is\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: message_stop
data: {"type":"message_stop"}

`)
	e := exec.New(exampleRegistry(), nil)
	msg, err := e.AnthropicStream(context.Background(), body)
	if err != nil {
		fmt.Println(err)
	}
	out, _ := json.Marshal(msg)
	fmt.Println(string(out))
	// Output:
	// {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":"22C and sunny in Paris"}]}
}

// Feeding a Chat Completions stream event by event, as a host that shows
// the text as it arrives would; the second call was cut off.
func ExampleOpenAIChatFeed() {
	f := exec.New(exampleRegistry(), nil).NewOpenAIChatFeed(context.Background())
	for _, data := range []string{
		`{"choices":[{"index":0,"delta":{"content":"Checking."}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"Oslo\"}"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_2","type":"function","function":{"name":"get_weather","arguments":"{\"ci"}}]}}]}`,
	} {
		if err := f.Feed([]byte(data)); err != nil {
			fmt.Println(err)
		}
	}
	msgs, err := f.Close()
	for _, m := range msgs {
		fmt.Println(m.ToolCallID, m.Content)
	}
	fmt.Println(err)
	// Output:
	// call_1 22C and sunny in Oslo
	// call_2 error: tool "get_weather" was not run: the stream ended before its arguments were complete
	// exec: stream incomplete: the stream ended before the reply was complete
}
