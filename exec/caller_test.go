package exec_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

// TestProgrammaticCallers: calls made by the providers' hosted code
// execution run as any other; a Responses call's caller is echoed on its
// output (also when another field of the item is wrongly typed), and an
// Anthropic tool_use block's caller needs nothing in its tool_result.
func TestProgrammaticCallers(t *testing.T) {
	reg := toolnexus.NewRegistry()
	toolnexus.MustRegister(reg, "sum", "", func(_ context.Context, a struct {
		A int `json:"a"`
	}) (string, error) {
		return "ok", nil
	})
	e := exec.New(reg, nil)
	outs, err := e.ResponsesJSON(context.Background(), []byte(`[`+
		`{"type":"function_call","call_id":"c1","name":"sum","arguments":"{\"a\":1}","caller":{"type":"program","caller_id":"ci_1"}},`+
		`{"type":"function_call","call_id":"c2","name":"sum","arguments":"{\"a\":1}","caller":null},`+
		`{"type":"function_call","call_id":"c3","name":"sum","arguments":"{\"a\":1}","caller":{"type":"direct"},"status":5}]`))
	require.NoError(t, err)
	got, _ := json.Marshal(outs)
	assert.Equal(t, `[{"type":"function_call_output","call_id":"c1","output":"ok","caller":{"type":"program","caller_id":"ci_1"}},`+
		`{"type":"function_call_output","call_id":"c2","output":"ok"},`+
		`{"type":"function_call_output","call_id":"c3","output":"error: the tool call could not be read: \"status\" is a number, want a string","caller":{"type":"direct"}}]`, string(got))

	msg, err := e.AnthropicJSON(context.Background(), []byte(`[{"type":"tool_use","id":"t1","name":"sum","input":{"a":1},"caller":{"type":"code_execution_20250825","tool_id":"srvtoolu_1"}}]`))
	require.NoError(t, err)
	got, _ = json.Marshal(msg)
	assert.Equal(t, `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}`, string(got))
}
