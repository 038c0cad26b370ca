package interop

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	"github.com/toolnexus/toolnexus/render"
)

// TestAllowedCallersSDK: "allowed_callers" as rendered for Anthropic
// (AnthropicOptions.AllowedCallers) and OpenAI Responses
// (OpenAIResponsesTools.AllowCallers) decodes into the SDKs' tool params
// with no unknown field and the values given; a call the providers'
// hosted code execution makes (a tool_use block with "caller", a
// function_call with "caller") decodes into the SDKs' types, runs, and
// its answer decodes into the SDKs' params, the Responses one with the
// caller echoed.
func TestAllowedCallersSDK(t *testing.T) {
	tools := caseTools()
	name := tools[0].Name
	a, err := render.AnthropicWith(tools, render.AnthropicOptions{AllowedCallers: map[string][]string{name: {"direct", "code_execution_20260120", "code_execution_20260521"}}})
	if err != nil {
		t.Fatal(err)
	}
	raw := a[0].AppendJSON(nil)
	requireKnown[anthropic.ToolParam](t, name, raw)
	var ap anthropic.ToolParam
	if err := json.Unmarshal(raw, &ap); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ap.AllowedCallers, []string{"direct", "code_execution_20260120", "code_execution_20260521"}) {
		t.Errorf("anthropic SDK allowed_callers %v", ap.AllowedCallers)
	}

	r := render.OpenAIResponses(tools)
	if err := r.AllowCallers(map[string][]string{name: {"programmatic"}}); err != nil {
		t.Fatal(err)
	}
	raw = r[0].AppendJSON(nil)
	requireKnown[responses.FunctionToolParam](t, name, raw)
	var rp responses.FunctionToolParam
	if err := json.Unmarshal(raw, &rp); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rp.AllowedCallers, []string{"programmatic"}) {
		t.Errorf("openai SDK allowed_callers %v", rp.AllowedCallers)
	}

	reg := toolnexus.NewRegistry()
	toolnexus.MustRegister(reg, "sum", "", func(_ context.Context, a struct {
		A int `json:"a"`
	}) (string, error) {
		return "ok", nil
	})
	e := exec.New(reg, nil)

	block := `{"type":"tool_use","id":"toolu_1","name":"sum","input":{"a":1},"caller":{"type":"code_execution_20260120","tool_id":"srvtoolu_1"}}`
	var sdkBlock anthropic.ToolUseBlock
	if err := json.Unmarshal([]byte(block), &sdkBlock); err != nil || sdkBlock.Caller.Type != "code_execution_20260120" || sdkBlock.Caller.ToolID != "srvtoolu_1" {
		t.Fatalf("SDK tool_use caller %+v (%v)", sdkBlock.Caller, err)
	}
	msg, err := e.AnthropicJSON(context.Background(), []byte(`[`+block+`]`))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(msg)
	if string(out) != `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}]}` {
		t.Errorf("anthropic answer %s", out)
	}
	requireKnown[anthropic.MessageParam](t, "tool_result", out)

	item := `{"type":"function_call","id":"fc_1","call_id":"call_1","name":"sum","arguments":"{\"a\":1}","caller":{"type":"program","caller_id":"ci_1"}}`
	var sdkCall responses.ResponseFunctionToolCall
	if err := json.Unmarshal([]byte(item), &sdkCall); err != nil || sdkCall.Caller.Type != "program" || sdkCall.Caller.CallerID != "ci_1" {
		t.Fatalf("SDK function_call caller %+v (%v)", sdkCall.Caller, err)
	}
	outs, err := e.ResponsesJSON(context.Background(), []byte(`[`+item+`]`))
	if err != nil {
		t.Fatal(err)
	}
	out, _ = json.Marshal(outs[0])
	if string(out) != `{"type":"function_call_output","call_id":"call_1","output":"ok","caller":{"type":"program","caller_id":"ci_1"}}` {
		t.Errorf("responses answer %s", out)
	}
	requireKnown[responses.ResponseInputItemFunctionCallOutputParam](t, "function_call_output", out)
	var back responses.ResponseInputItemFunctionCallOutputParam
	if err := json.Unmarshal(out, &back); err != nil || back.Caller.OfProgram == nil || back.Caller.OfProgram.CallerID != "ci_1" {
		t.Errorf("SDK function_call_output caller %+v (%v)", back.Caller, err)
	}
}
