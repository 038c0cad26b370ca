package interop

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	aparam "github.com/anthropics/anthropic-sdk-go/v2/packages/param"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	"github.com/toolnexus/toolnexus/render"
)

// searchExecutor runs a registry of forecast (typed, deferred),
// send_invoice (raw, deferred) and echo, answering tool searches.
func searchExecutor(t *testing.T) (*exec.Executor, []toolnexus.Tool) {
	t.Helper()
	reg := toolnexus.NewRegistry()
	type forecastArgs struct {
		City string `json:"city"`
		Days int    `json:"days,omitempty" validate:"omitempty,min=1,max=14"`
	}
	if err := toolnexus.Register(reg, "forecast", "Weather forecast for the next days",
		func(_ context.Context, a forecastArgs) (string, error) { return "sun", nil }); err != nil {
		t.Fatal(err)
	}
	raw := toolnexus.HandlerFunc(func(_ context.Context, a json.RawMessage) (string, error) { return string(a), nil })
	if err := reg.Add(
		toolnexus.Tool{Name: "send_invoice", Description: "Email an invoice to a customer",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"customer":{"type":"string"}},"required":["customer"]}`), Handler: raw},
		toolnexus.Tool{Name: "echo", Description: "Echo", Handler: raw}); err != nil {
		t.Fatal(err)
	}
	e := exec.New(reg, &exec.Options{ToolSearch: &exec.ToolSearch{Deferred: []string{"forecast", "send_invoice"}}})
	return e, reg.Tools()
}

// TestResponsesToolSearchSDK: the SDK reads our parse's input (a client
// tool_search_call as the SDK types it), and the tool_search_output we
// answer with decodes into responses.ResponseToolSearchOutputItemParam
// with no unknown field, matches the golden bytes, and reaches the API
// through the SDK byte for byte.
func TestResponsesToolSearchSDK(t *testing.T) {
	e, _ := searchExecutor(t)
	reply := `{"id":"resp_1","object":"response","created_at":0,"model":"gpt-test","status":"completed","output":[` +
		`{"type":"tool_search_call","id":"tsc_1","call_id":"call_s","execution":"client","arguments":{"query":"weather forecast"},"status":"completed"},` +
		`{"type":"tool_search_call","id":"tsc_2","call_id":"call_n","execution":"client","arguments":{"query":"zebra"},"status":"completed"}]}`
	var sdk responses.Response
	if err := json.Unmarshal([]byte(reply), &sdk); err != nil {
		t.Fatal(err)
	}
	call := sdk.Output[0].AsToolSearchCall()
	if call.Execution != "client" || call.CallID != "call_s" || call.Arguments.(map[string]any)["query"] != "weather forecast" {
		t.Fatalf("SDK reads the call as %+v", call)
	}
	outs, err := e.ResponsesJSON(context.Background(), []byte(reply))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"type":"tool_search_output","call_id":"call_s","execution":"client","status":"completed","tools":[` +
			`{"type":"function","name":"forecast","description":"Weather forecast for the next days","parameters":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","maximum":14,"minimum":1}},"required":["city"],"additionalProperties":false},"defer_loading":true,"strict":false}]}`,
		`{"type":"tool_search_output","call_id":"call_n","execution":"client","status":"completed","tools":[]}`,
	}
	if len(outs) != len(want) {
		t.Fatalf("%d outputs", len(outs))
	}
	items := make([]responses.ResponseInputItemUnionParam, len(outs))
	var sent []byte
	for i := range outs {
		b, err := json.Marshal(outs[i])
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != want[i] {
			t.Errorf("output %d:\ngot  %s\nwant %s", i, b, want[i])
		}
		requireKnown[responses.ResponseToolSearchOutputItemParam](t, "tool_search_output", b)
		v := roundTrip[responses.ResponseToolSearchOutputItemParam](t, "tool_search_output", b)
		if v.Execution != "client" || v.CallID.Value != outs[i].CallID {
			t.Errorf("SDK reads output %d as %+v", i, v)
		}
		ov := param.Override[responses.ResponseToolSearchOutputItemParam](json.RawMessage(b))
		items[i] = responses.ResponseInputItemUnionParam{OfToolSearchOutput: &ov}
		sent = append(append(sent, ','), b...)
	}
	if f := roundTrip[responses.ResponseToolSearchOutputItemParam](t, "found", []byte(want[0])).Tools[0].OfFunction; f == nil ||
		f.Name != "forecast" || !f.DeferLoading.Value {
		t.Errorf("SDK reads the found tool as %+v", f)
	}
	c := newCapture(t, responsesResponse)
	client := openaiClient(t, c.srv.URL)
	if _, err := client.Responses.New(context.Background(), responses.ResponseNewParams{
		Model: "gpt-test", Input: responses.ResponseNewParamsInputUnion{OfInputItemList: items},
	}); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Input json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(c.body(t), &body); err != nil {
		t.Fatal(err)
	}
	sent[0] = '['
	requireBytes(t, "responses input", body.Input, append(sent, ']'))
}

// TestAnthropicToolSearchSDK: render.AnthropicToolSearch and the deferred
// tools decode into anthropic.ToolParam and go through the SDK byte for
// byte; the tool_result answering a search holds tool_reference blocks
// the SDK reads as ToolReferenceBlockParam.
func TestAnthropicToolSearchSDK(t *testing.T) {
	e, tools := searchExecutor(t)
	rendered, err := render.AnthropicWith(tools, render.AnthropicOptions{Defer: []string{"forecast", "send_invoice"}})
	if err != nil {
		t.Fatal(err)
	}
	rendered = append(rendered, render.AnthropicToolSearch(""))
	sdkTools := make([]anthropic.ToolUnionParam, len(rendered))
	for i := range rendered {
		raw := rendered[i].AppendJSON(nil)
		requireKnown[anthropic.ToolParam](t, rendered[i].Name, raw)
		tool := aparam.Override[anthropic.ToolParam](rendered[i])
		sdkTools[i] = anthropic.ToolUnionParam{OfTool: &tool}
	}
	if got := string(rendered[len(rendered)-1].AppendJSON(nil)); got != `{"name":"tool_search","description":"Search the deferred tools by name and description and load the ones that match.","input_schema":`+render.ToolSearchSchema+`}` {
		t.Errorf("search tool: %s", got)
	}

	calls := `{"type":"tool_use","id":"toolu_1","name":"tool_search","input":{"query":"invoice"}}`
	var assistant anthropic.MessageParam
	if err := json.Unmarshal([]byte(`{"role":"assistant","content":[`+calls+`]}`), &assistant); err != nil {
		t.Fatal(err)
	}
	msg, err := e.AnthropicJSON(context.Background(), []byte(`[`+calls+`,{"type":"tool_use","id":"toolu_2","name":"tool_search","input":{"query":7}}]`))
	if err != nil {
		t.Fatal(err)
	}
	ours, _ := json.Marshal(msg)
	if want := `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"tool_reference","tool_name":"send_invoice"}]},` +
		`{"type":"tool_result","tool_use_id":"toolu_2","content":"invalid arguments for \"tool_search\": \"query\" is a number, want a string","is_error":true}]}`; string(ours) != want {
		t.Errorf("answer:\ngot  %s\nwant %s", ours, want)
	}
	requireKnown[anthropic.MessageParam](t, "tool_result", ours)
	// The SDK holds a string "content" as one text block, so only the
	// tool_reference answer makes the round trip.
	msg.Content = msg.Content[:1]
	ours, _ = json.Marshal(msg)
	user := roundTrip[anthropic.MessageParam](t, "tool_result", ours)
	if ref := user.OfUser.Content[0].OfToolResult.Content[0].OfToolReference; ref == nil || ref.ToolName != "send_invoice" {
		t.Fatalf("SDK does not read the tool_reference block: %s", ours)
	}

	c := newCapture(t, anthropicResponse)
	client := anthropicClient(t, c.srv.URL)
	if _, err := client.Messages.New(context.Background(), anthropic.MessageNewParams{
		Model: "claude-test", MaxTokens: 64, Tools: sdkTools,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("bill Acme")), assistant, user},
	}); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Tools    json.RawMessage   `json:"tools"`
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(c.body(t), &body); err != nil {
		t.Fatal(err)
	}
	requireBytes(t, "anthropic tools", body.Tools, rendered.AppendJSON(nil))
	requireSameJSON(t, "anthropic tool_result on the wire", body.Messages[2], ours)
}

// TestResponsesToolSearchNamespaceSDK: a namespace entry in a
// tool_search_output (custom and function tools inside) decodes into the
// SDK's ToolSearchOutputNamespaceToolParam with no unknown field.
func TestResponsesToolSearchNamespaceSDK(t *testing.T) {
	reg := toolnexus.NewRegistry()
	if err := reg.Add(customTools(t)...); err != nil {
		t.Fatal(err)
	}
	e := exec.New(reg, &exec.Options{ToolSearch: &exec.ToolSearch{
		Deferred: []string{"crm__sql", "crm__note", "crm__lookup"}, Namespaces: map[string]string{"crm": "Customer records"}}})
	outs, err := e.ResponsesJSON(context.Background(), []byte(`[{"type":"tool_search_call","call_id":"c","execution":"client","arguments":{"query":"sql note look"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(outs[0])
	requireKnown[responses.ResponseToolSearchOutputItemParam](t, "tool_search_output", b)
	v := roundTrip[responses.ResponseToolSearchOutputItemParam](t, "tool_search_output", b)
	ns := v.Tools[0].OfNamespace
	if len(v.Tools) != 1 || ns == nil || ns.Name != "crm" || len(ns.Tools) != 3 || ns.Tools[0].OfCustom == nil ||
		ns.Tools[0].OfCustom.Name != "note" || ns.Tools[2].OfFunction == nil || !ns.Tools[2].OfFunction.DeferLoading.Value {
		t.Errorf("SDK reads the namespace as %+v\n%s", ns, b)
	}
}
