package exec_test

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

// customRegistry is testRegistry plus the freeform tool run_sql (echoes
// "sql: "+input) and the namespaced tools crm__lookup and crm__note
// (freeform).
func customRegistry(t *testing.T) *toolnexus.Registry {
	t.Helper()
	reg := testRegistry(t)
	sql, err := toolnexus.NewFreeform("run_sql", "Run one SQL query",
		toolnexus.Format{Type: "grammar", Syntax: "lark", Definition: `start: "SELECT" /.+/`},
		func(_ context.Context, in string) (string, error) { return "sql: " + in, nil })
	if err != nil {
		t.Fatal(err)
	}
	note, err := toolnexus.NewFreeform("crm__note", "Add a note", toolnexus.Format{},
		func(_ context.Context, in string) (string, error) { return "noted " + in, nil })
	if err != nil {
		t.Fatal(err)
	}
	lookup := toolnexus.Tool{Name: "crm__lookup", Description: "Look up a customer",
		Handler: toolnexus.HandlerFunc(func(_ context.Context, args json.RawMessage) (string, error) {
			return "customer " + string(args), nil
		})}
	if err := reg.Add(sql, note, lookup); err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestResponsesCustomToolCallAndNamespace(t *testing.T) {
	raw, err := os.ReadFile("testdata/custom/responses.json")
	if err != nil {
		t.Fatal(err)
	}
	e := exec.New(customRegistry(t), nil)
	for _, parse := range []string{"fast", "slow"} {
		var out []exec.ResponsesOutput
		if parse == "fast" {
			out, err = e.ResponsesJSON(context.Background(), raw)
		} else {
			var r struct{ Output []exec.ResponsesItem }
			if err := json.Unmarshal(raw, &r); err != nil {
				t.Fatal(err)
			}
			out, err = e.Responses(context.Background(), r.Output)
		}
		if err != nil {
			t.Fatal(err)
		}
		got := mustJSON(t, out)
		want := `[{"type":"custom_tool_call_output","call_id":"call_sql","output":"sql: SELECT \"a\"\nFROM t"},` +
			`{"type":"function_call_output","call_id":"call_crm","output":"customer {\"id\":\"42\"}"},` +
			`{"type":"function_call_output","call_id":"call_bare","output":"error: unknown tool \"lookup\"` // prefix; checked below
		if len(got) < len(want) || got[:len(want)] != want {
			t.Fatalf("%s: got\n%s\nwant prefix\n%s", parse, got, want)
		}
		if out[3].Type != "custom_tool_call_output" || out[3].CallID != "call_wrong" ||
			out[3].Output != `error: tool "echo" takes JSON arguments, not freeform text: call it as a function` {
			t.Errorf("%s: custom call of a JSON tool: %+v", parse, out[3])
		}
		if !reflect.DeepEqual(out[4], exec.ResponsesOutput{Type: "custom_tool_call_output", CallID: "call_ns", Output: "noted x"}) {
			t.Errorf("%s: namespaced custom call: %+v", parse, out[4])
		}
		if len(out) != 5 {
			t.Errorf("%s: %d outputs, want 5", parse, len(out))
		}
	}
}

func TestChatCustomToolCalls(t *testing.T) {
	raw, err := os.ReadFile("testdata/custom/chat.json")
	if err != nil {
		t.Fatal(err)
	}
	e := exec.New(customRegistry(t), nil)
	calls, err := exec.ParseOpenAIChat(raw)
	if err != nil {
		t.Fatal(err)
	}
	var slow struct {
		Choices []struct{ Message exec.OpenAIMessage }
	}
	if err := json.Unmarshal(raw, &slow); err != nil {
		t.Fatal(err)
	}
	for name, cs := range map[string][]exec.OpenAIToolCall{"fast": calls, "slow": slow.Choices[0].Message.ToolCalls} {
		out, err := e.OpenAIChat(context.Background(), cs)
		if err != nil {
			t.Fatal(err)
		}
		want := `[{"role":"tool","tool_call_id":"call_1","content":"sql: SELECT 1"},` +
			`{"role":"tool","tool_call_id":"call_2","content":"{\"a\":1}"},` +
			`{"role":"tool","tool_call_id":"call_3","content":"error: tool \"get_weather\" takes JSON arguments, not freeform text: call it as a function"}]`
		if got := mustJSON(t, out); got != want {
			t.Errorf("%s:\ngot  %s\nwant %s", name, got, want)
		}
	}
}

func TestResponsesStreamCustomToolCall(t *testing.T) {
	f, err := os.Open("testdata/custom/responses.sse")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, err := exec.New(customRegistry(t), nil).ResponsesStream(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"type":"custom_tool_call_output","call_id":"call_sql","output":"sql: SELECT \"a\"\nFROM t"},` +
		`{"type":"function_call_output","call_id":"call_crm","output":"customer {\"id\":\"42\"}"}]`
	if got := mustJSON(t, out); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
