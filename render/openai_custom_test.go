package render

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus"
)

func freeformTools(t *testing.T) []toolnexus.Tool {
	t.Helper()
	fn := func(context.Context, string) (string, error) { return "", nil }
	sql, err := toolnexus.NewFreeform("crm__sql", "Run SQL", toolnexus.Format{Type: "grammar", Syntax: "lark", Definition: `start: "SELECT" /.+/`}, fn)
	if err != nil {
		t.Fatal(err)
	}
	text, err := toolnexus.NewFreeform("crm__note", "Note", toolnexus.Format{}, fn)
	if err != nil {
		t.Fatal(err)
	}
	fnTool := toolnexus.Tool{Name: "crm__lookup", Description: "Look up", InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`)}
	return []toolnexus.Tool{sql, text, fnTool}
}

func TestOpenAICustomTools(t *testing.T) {
	tools := freeformTools(t)
	want := `[{"type":"custom","custom":{"name":"crm__sql","description":"Run SQL","format":{"type":"grammar","grammar":{"definition":"start: \"SELECT\" /.+/","syntax":"lark"}}}},` +
		`{"type":"custom","custom":{"name":"crm__note","description":"Note","format":{"type":"text"}}},` +
		`{"type":"function","function":{"name":"crm__lookup","description":"Look up","parameters":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}}}]`
	if got := string(OpenAI(tools).AppendJSON(nil)); got != want {
		t.Errorf("Chat:\ngot  %s\nwant %s", got, want)
	}
	strict, err := OpenAIStrict(tools)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(strict.AppendJSON(nil)); !strings.HasPrefix(got, want[:strings.Index(want, `{"type":"function"`)]) {
		t.Errorf("Chat strict keeps custom entries: %s", got)
	}
	wantR := `[{"type":"custom","name":"crm__sql","description":"Run SQL","format":{"type":"grammar","syntax":"lark","definition":"start: \"SELECT\" /.+/"}},` +
		`{"type":"custom","name":"crm__note","description":"Note","format":{"type":"text"}},` +
		`{"type":"function","name":"crm__lookup","description":"Look up","parameters":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]},"strict":false}]`
	if got := string(OpenAIResponses(tools).AppendJSON(nil)); got != wantR {
		t.Errorf("Responses:\ngot  %s\nwant %s", got, wantR)
	}
}

func TestOpenAIResponsesNamespaceDeferSearch(t *testing.T) {
	ns, err := OpenAIResponsesNamespace("crm", "Customer records", freeformTools(t), OpenAIOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts := OpenAIResponsesTools{ns, OpenAIToolSearch("")}
	if err := ts.Defer("lookup", "missing"); err == nil || !strings.Contains(err.Error(), `"missing"`) {
		t.Fatalf("Defer of an unknown name: %v", err)
	}
	if ts[0].Tools[2].DeferLoading {
		t.Fatal("a failed Defer marked a tool")
	}
	if err := ts.Defer("lookup", "sql"); err != nil {
		t.Fatal(err)
	}
	want := `[{"type":"namespace","name":"crm","description":"Customer records","tools":[` +
		`{"type":"custom","name":"sql","description":"Run SQL","format":{"type":"grammar","syntax":"lark","definition":"start: \"SELECT\" /.+/"},"defer_loading":true},` +
		`{"type":"custom","name":"note","description":"Note","format":{"type":"text"}},` +
		`{"type":"function","name":"lookup","description":"Look up","parameters":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]},"defer_loading":true,"strict":false}]},` +
		`{"type":"tool_search","execution":"client","description":"Search the deferred tools by name and description and load the ones that match.","parameters":` + ToolSearchSchema + `}]`
	if got := string(ts.AppendJSON(nil)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for _, c := range []struct{ name, desc, want string }{
		{"a__b", "d", `must not contain "__"`},
		{"crm", "", "description must not be empty"},
		{"sales", "d", `name must start with "sales__"`},
		{"bad name", "d", "bad name"},
	} {
		if _, err := OpenAIResponsesNamespace(c.name, c.desc, freeformTools(t), OpenAIOptions{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q %q: err %v, want %q", c.name, c.desc, err, c.want)
		}
	}
}

func TestOpenAIToolChoiceHelpers(t *testing.T) {
	tools := freeformTools(t)
	if got := string(OpenAIToolChoice(tools[2])); got != `{"type":"function","function":{"name":"crm__lookup"}}` {
		t.Errorf("chat function: %s", got)
	}
	if got := string(OpenAIToolChoice(tools[0])); got != `{"type":"custom","custom":{"name":"crm__sql"}}` {
		t.Errorf("chat custom: %s", got)
	}
	if got := string(OpenAIResponsesToolChoice(tools[0])); got != `{"type":"custom","name":"crm__sql"}` {
		t.Errorf("responses custom: %s", got)
	}
	got, err := OpenAIAllowedTools("required", tools[1:])
	if err != nil || string(got) != `{"type":"allowed_tools","allowed_tools":{"mode":"required","tools":[{"type":"custom","custom":{"name":"crm__note"}},{"type":"function","function":{"name":"crm__lookup"}}]}}` {
		t.Errorf("chat allowed: %s %v", got, err)
	}
	got, err = OpenAIResponsesAllowedTools("auto", tools[2:])
	if err != nil || string(got) != `{"type":"allowed_tools","mode":"auto","tools":[{"type":"function","name":"crm__lookup"}]}` {
		t.Errorf("responses allowed: %s %v", got, err)
	}
	if _, err := OpenAIAllowedTools("any", tools); err == nil || !strings.Contains(err.Error(), `got "any"`) {
		t.Errorf("bad mode: %v", err)
	}
	if _, err := OpenAIResponsesAllowedTools("auto", nil); err == nil {
		t.Error("no tools: no error")
	}
}
