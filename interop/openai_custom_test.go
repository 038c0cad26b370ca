package interop

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
	"github.com/toolnexus/toolnexus/render"
)

func customTools(t *testing.T) []toolnexus.Tool {
	t.Helper()
	fn := func(_ context.Context, in string) (string, error) { return "ran " + in, nil }
	sql, err := toolnexus.NewFreeform("crm__sql", "Run SQL", toolnexus.Format{Type: "grammar", Syntax: "regex", Definition: `SELECT \w+`}, fn)
	if err != nil {
		t.Fatal(err)
	}
	note, err := toolnexus.NewFreeform("crm__note", "Note", toolnexus.Format{}, fn)
	if err != nil {
		t.Fatal(err)
	}
	lookup := toolnexus.Tool{Name: "crm__lookup", Description: "Look up",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`),
		Handler:     toolnexus.HandlerFunc(func(_ context.Context, a json.RawMessage) (string, error) { return "found " + string(a), nil })}
	return []toolnexus.Tool{sql, note, lookup}
}

func TestOpenAIResponsesCustomNamespaceSearchSDK(t *testing.T) {
	tools := customTools(t)
	ns, err := render.OpenAIResponsesNamespace("crm", "Customer records", tools, render.OpenAIOptions{})
	if err != nil {
		t.Fatal(err)
	}
	flat := render.OpenAIResponses(tools)
	rendered := append(render.OpenAIResponsesTools{ns, render.OpenAIToolSearch("")}, flat...)
	if err := rendered.Defer("lookup", "crm__note"); err != nil {
		t.Fatal(err)
	}
	requireKnown[responses.NamespaceToolParam](t, "namespace", rendered[0].AppendJSON(nil))
	requireKnown[responses.ToolSearchToolParam](t, "tool_search", rendered[1].AppendJSON(nil))
	requireKnown[responses.CustomToolParam](t, "custom grammar", rendered[2].AppendJSON(nil))
	requireKnown[responses.CustomToolParam](t, "custom text", rendered[3].AppendJSON(nil))
	requireKnown[responses.FunctionToolParam](t, "function", rendered[4].AppendJSON(nil))

	c := newCapture(t, responsesResponse)
	client := openaiClient(t, c.srv.URL)
	sdkTools := make([]responses.ToolUnionParam, len(rendered))
	for i := range rendered {
		fn := param.Override[responses.FunctionToolParam](rendered[i])
		sdkTools[i] = responses.ToolUnionParam{OfFunction: &fn}
	}
	choice, err := render.OpenAIResponsesAllowedTools("auto", tools[:1])
	if err != nil {
		t.Fatal(err)
	}
	requireKnown[responses.ToolChoiceAllowedParam](t, "allowed_tools", choice)
	requireKnown[responses.ToolChoiceCustomParam](t, "tool_choice custom", render.OpenAIResponsesToolChoice(tools[0]))
	requireKnown[responses.ToolChoiceFunctionParam](t, "tool_choice function", render.OpenAIResponsesToolChoice(tools[2]))
	if _, err := client.Responses.New(context.Background(), responses.ResponseNewParams{
		Model: "gpt-test",
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("hi")},
		Tools: sdkTools,
	}); err != nil {
		t.Fatal(err)
	}
	requireBytes(t, "responses tools", c.tools(t), rendered.AppendJSON(nil))
}

func TestOpenAIChatCustomSDK(t *testing.T) {
	tools := customTools(t)
	rendered := render.OpenAI(tools)
	requireKnown[openai.ChatCompletionCustomToolParam](t, "chat custom grammar", rendered[0].AppendJSON(nil))
	requireKnown[openai.ChatCompletionCustomToolParam](t, "chat custom text", rendered[1].AppendJSON(nil))
	requireKnown[openai.ChatCompletionFunctionToolParam](t, "chat function", rendered[2].AppendJSON(nil))
	choice, err := render.OpenAIAllowedTools("required", tools)
	if err != nil {
		t.Fatal(err)
	}
	requireKnown[openai.ChatCompletionAllowedToolChoiceParam](t, "chat allowed_tools", choice)
	requireKnown[openai.ChatCompletionNamedToolChoiceCustomParam](t, "chat tool_choice custom", render.OpenAIToolChoice(tools[0]))

	c := newCapture(t, chatResponse)
	client := openaiClient(t, c.srv.URL)
	if _, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    "gpt-test",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")},
		Tools:    chatTools(rendered),
	}); err != nil {
		t.Fatal(err)
	}
	requireBytes(t, "chat tools", c.tools(t), rendered.AppendJSON(nil))
}

// TestOpenAICustomCallOutputSDK runs calls decoded from SDK-shaped items
// and checks the answers decode into the SDK's input item params.
func TestOpenAICustomCallOutputSDK(t *testing.T) {
	reg := toolnexus.NewRegistry()
	if err := reg.Add(customTools(t)...); err != nil {
		t.Fatal(err)
	}
	reply := `{"output":[{"type":"custom_tool_call","id":"ctc_1","call_id":"call_1","namespace":"crm","name":"sql","input":"SELECT a"},` +
		`{"type":"function_call","id":"fc_1","call_id":"call_2","namespace":"crm","name":"lookup","arguments":"{\"id\":\"7\"}","status":"completed"}]}`
	var sdk responses.Response
	if err := json.Unmarshal([]byte(reply), &sdk); err != nil {
		t.Fatal(err)
	}
	if sdk.Output[0].AsCustomToolCall().Namespace != "crm" || sdk.Output[1].AsFunctionCall().Namespace != "crm" {
		t.Fatalf("SDK does not read the namespaces: %+v", sdk.Output)
	}
	out, err := exec.New(reg, nil).ResponsesJSON(context.Background(), []byte(reply))
	if err != nil {
		t.Fatal(err)
	}
	b0, _ := json.Marshal(out[0])
	b1, _ := json.Marshal(out[1])
	requireKnown[responses.ResponseCustomToolCallOutputParam](t, "custom_tool_call_output", b0)
	requireKnown[responses.ResponseInputItemFunctionCallOutputParam](t, "function_call_output", b1)
	if string(b0) != `{"type":"custom_tool_call_output","call_id":"call_1","output":"ran SELECT a"}` ||
		string(b1) != `{"type":"function_call_output","call_id":"call_2","output":"found {\"id\":\"7\"}"}` {
		t.Errorf("outputs: %s %s", b0, b1)
	}
}
