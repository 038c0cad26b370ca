package render

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus"
)

func freeformTools(t *testing.T) []toolnexus.Tool {
	t.Helper()
	fn := func(context.Context, string) (string, error) { return "", nil }
	sql, err := toolnexus.NewFreeform("crm__sql", "Run SQL", toolnexus.Format{Type: "grammar", Syntax: "lark", Definition: `start: "SELECT" /.+/`}, fn)
	require.NoError(t, err)
	text, err := toolnexus.NewFreeform("crm__note", "Note", toolnexus.Format{}, fn)
	require.NoError(t, err)
	fnTool := toolnexus.Tool{Name: "crm__lookup", Description: "Look up", InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`)}
	return []toolnexus.Tool{sql, text, fnTool}
}

func TestOpenAICustomTools(t *testing.T) {
	tools := freeformTools(t)
	want := `[{"type":"custom","custom":{"name":"crm__sql","description":"Run SQL","format":{"type":"grammar","grammar":{"definition":"start: \"SELECT\" /.+/","syntax":"lark"}}}},` +
		`{"type":"custom","custom":{"name":"crm__note","description":"Note","format":{"type":"text"}}},` +
		`{"type":"function","function":{"name":"crm__lookup","description":"Look up","parameters":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}}}]`
	got := string(OpenAI(tools).AppendJSON(nil))
	assert.Equal(t, want, got, "Chat:\ngot  %s\nwant %s", got, want)
	strict, err := OpenAIStrict(tools)
	require.NoError(t, err)
	got = string(strict.AppendJSON(nil))
	assert.True(t, strings.HasPrefix(got, want[:strings.Index(want, `{"type":"function"`)]), "Chat strict keeps custom entries: %s", got)
	wantR := `[{"type":"custom","name":"crm__sql","description":"Run SQL","format":{"type":"grammar","syntax":"lark","definition":"start: \"SELECT\" /.+/"}},` +
		`{"type":"custom","name":"crm__note","description":"Note","format":{"type":"text"}},` +
		`{"type":"function","name":"crm__lookup","description":"Look up","parameters":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]},"strict":false}]`
	got = string(OpenAIResponses(tools).AppendJSON(nil))
	assert.Equal(t, wantR, got, "Responses:\ngot  %s\nwant %s", got, wantR)
}

func TestOpenAIResponsesNamespaceDeferSearch(t *testing.T) {
	ns, err := OpenAIResponsesNamespace("crm", "Customer records", freeformTools(t), OpenAIOptions{})
	require.NoError(t, err)
	ts := OpenAIResponsesTools{ns, OpenAIToolSearch("")}
	err = ts.Defer("lookup", "missing")
	require.Error(t, err, "Defer of an unknown name: %v", err)
	require.Contains(t, err.Error(), `"missing"`, "Defer of an unknown name: %v", err)
	require.False(t, ts[0].Tools[2].DeferLoading, "a failed Defer marked a tool")
	require.NoError(t, ts.Defer("lookup", "sql"))
	want := `[{"type":"namespace","name":"crm","description":"Customer records","tools":[` +
		`{"type":"custom","name":"sql","description":"Run SQL","format":{"type":"grammar","syntax":"lark","definition":"start: \"SELECT\" /.+/"},"defer_loading":true},` +
		`{"type":"custom","name":"note","description":"Note","format":{"type":"text"}},` +
		`{"type":"function","name":"lookup","description":"Look up","parameters":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]},"defer_loading":true,"strict":false}]},` +
		`{"type":"tool_search","execution":"client","description":"Search the deferred tools by name and description and load the ones that match.","parameters":` + ToolSearchSchema + `}]`
	got := string(ts.AppendJSON(nil))
	assert.Equal(t, want, got, "got  %s\nwant %s", got, want)
	for _, c := range []struct{ name, desc, want string }{
		{"a__b", "d", `must not contain "__"`},
		{"crm", "", "description must not be empty"},
		{"sales", "d", `name must start with "sales__"`},
		{"bad name", "d", "bad name"},
	} {
		_, err := OpenAIResponsesNamespace(c.name, c.desc, freeformTools(t), OpenAIOptions{})
		assert.ErrorContains(t, err, c.want, "%q %q: err %v, want %q", c.name, c.desc, err, c.want)
	}
}

func TestOpenAIToolChoiceHelpers(t *testing.T) {
	tools := freeformTools(t)
	got := string(OpenAIToolChoice(tools[2]))
	assert.Equal(t, `{"type":"function","function":{"name":"crm__lookup"}}`, got, "chat function: %s", got)
	got = string(OpenAIToolChoice(tools[0]))
	assert.Equal(t, `{"type":"custom","custom":{"name":"crm__sql"}}`, got, "chat custom: %s", got)
	got = string(OpenAIResponsesToolChoice(tools[0]))
	assert.Equal(t, `{"type":"custom","name":"crm__sql"}`, got, "responses custom: %s", got)
	allowed, err := OpenAIAllowedTools("required", tools[1:])
	assert.NoError(t, err, "chat allowed")
	assert.Equal(t, `{"type":"allowed_tools","allowed_tools":{"mode":"required","tools":[{"type":"custom","custom":{"name":"crm__note"}},{"type":"function","function":{"name":"crm__lookup"}}]}}`, string(allowed), "chat allowed")
	allowed, err = OpenAIResponsesAllowedTools("auto", tools[2:])
	assert.NoError(t, err, "responses allowed")
	assert.Equal(t, `{"type":"allowed_tools","mode":"auto","tools":[{"type":"function","name":"crm__lookup"}]}`, string(allowed), "responses allowed")
	_, err = OpenAIAllowedTools("any", tools)
	assert.ErrorContains(t, err, `got "any"`, "bad mode: %v", err)
	_, err = OpenAIResponsesAllowedTools("auto", nil)
	assert.Error(t, err, "no tools: no error")
}
