package exec_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/exec"
)

// TestStreamRichResultEqualsWhole: a result with content parts (text and
// an image) streamed gives the same answer bytes as the reply sent whole
// (image blocks on Anthropic, input_image parts on Responses), not only
// its text form.
func TestStreamRichResultEqualsWhole(t *testing.T) {
	ctx := context.Background()
	e := exec.New(richRegistry(t), nil)
	anthropicSSE := `event: message_start
data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}

event: ping
data: {"type":"ping"}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"chart","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: message_stop
data: {"type":"message_stop"}

`
	streamed, err := e.AnthropicStream(ctx, strings.NewReader(anthropicSSE))
	if err != nil {
		t.Fatal(err)
	}
	whole, err := e.AnthropicJSON(ctx, []byte(`[{"type":"tool_use","id":"toolu_1","name":"chart","input":{}}]`))
	if err != nil {
		t.Fatal(err)
	}
	if s, w := mustJSON(t, streamed), mustJSON(t, whole); s != w || !strings.Contains(w, `"type":"image"`) {
		t.Errorf("Anthropic:\nstream %s\nwhole  %s", s, w)
	}

	item := `{"type":"function_call","id":"fc_1","call_id":"call_1","name":"chart","arguments":"{}","status":"completed"}`
	responsesSSE := "event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":" + item + "}\n\n" +
		"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\",\"output\":[" + item + "]}}\n\n"
	rs, err := e.ResponsesStream(ctx, strings.NewReader(responsesSSE))
	if err != nil {
		t.Fatal(err)
	}
	rw, err := e.ResponsesJSON(ctx, []byte("["+item+"]"))
	if err != nil {
		t.Fatal(err)
	}
	if s, w := mustJSON(t, rs), mustJSON(t, rw); s != w || !strings.Contains(w, `"type":"input_image"`) {
		t.Errorf("Responses:\nstream %s\nwhole  %s", s, w)
	}
}
