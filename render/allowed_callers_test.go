package render_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render"
)

func callerTools(t *testing.T) []toolnexus.Tool {
	t.Helper()
	f := func(context.Context, json.RawMessage) (string, error) { return "", nil }
	return []toolnexus.Tool{
		{Name: "lookup", Description: "d", Handler: toolnexus.HandlerFunc(f)},
		{Name: "other", Description: "", Handler: toolnexus.HandlerFunc(f)},
	}
}

func TestAnthropicAllowedCallers(t *testing.T) {
	tools := callerTools(t)
	out, err := render.AnthropicWith(tools, render.AnthropicOptions{CacheLast: true,
		AllowedCallers: map[string][]string{"lookup": {"code_execution_20250825"}, "other": {"direct", "code_execution_20260120"}}})
	require.NoError(t, err)
	assert.Equal(t, `[{"name":"lookup","description":"d","input_schema":{"type":"object"},"allowed_callers":["code_execution_20250825"]},`+
		`{"name":"other","description":"","input_schema":{"type":"object"},"allowed_callers":["direct","code_execution_20260120"],"cache_control":{"type":"ephemeral"}}]`,
		string(out.AppendJSON(nil)))

	for _, c := range []struct {
		callers map[string][]string
		want    string
	}{
		{map[string][]string{"nope": {"direct"}}, `render.AnthropicWith: AllowedCallers: no tool named "nope"`},
		{map[string][]string{"lookup": {}}, `render.AnthropicWith: AllowedCallers: tool "lookup": the list is empty`},
		{map[string][]string{"lookup": {"programmatic"}}, `render.AnthropicWith: AllowedCallers: tool "lookup": caller "programmatic" is neither "direct" nor a code execution tool version (code_execution_YYYYMMDD)`},
	} {
		_, err := render.AnthropicWith(tools, render.AnthropicOptions{AllowedCallers: c.callers})
		require.Error(t, err)
		assert.Contains(t, err.Error(), c.want)
	}
}

func TestResponsesAllowCallers(t *testing.T) {
	tools := callerTools(t)
	out := render.OpenAIResponses(tools)
	require.NoError(t, out.AllowCallers(map[string][]string{"lookup": {"direct", "programmatic"}}))
	assert.Equal(t, `[{"type":"function","name":"lookup","description":"d","parameters":{"type":"object","properties":{}},"allowed_callers":["direct","programmatic"],"strict":false},`+
		`{"type":"function","name":"other","description":"","parameters":{"type":"object","properties":{}},"strict":false}]`,
		string(out.AppendJSON(nil)))

	nsTools := callerTools(t)
	nsTools[0].Name, nsTools[1].Name = "crm__lookup", "crm__other"
	ns, err := render.OpenAIResponsesNamespace("crm", "CRM tools", nsTools, render.OpenAIOptions{})
	require.NoError(t, err)
	list := render.OpenAIResponsesTools{ns}
	require.NoError(t, list.AllowCallers(map[string][]string{"other": {"programmatic"}}))
	assert.Contains(t, string(list.AppendJSON(nil)), `"name":"other","description":"","parameters":{"type":"object","properties":{}},"allowed_callers":["programmatic"]`)

	fresh := render.OpenAIResponses(tools)
	assert.EqualError(t, fresh.AllowCallers(map[string][]string{"lookup": {"programmatic"}, "nope": {"direct"}}), `render: AllowCallers: no function tool named "nope"`)
	assert.EqualError(t, fresh.AllowCallers(map[string][]string{"lookup": {"code_execution_20250825"}}), `render: AllowCallers: tool "lookup": caller "code_execution_20250825" is neither "direct" nor "programmatic"`)
	assert.EqualError(t, fresh.AllowCallers(map[string][]string{"lookup": nil}), `render: AllowCallers: tool "lookup": the list is empty (leave the tool out for the default, direct calls only)`)
	assert.NotContains(t, string(fresh.AppendJSON(nil)), "allowed_callers", "nothing is set after an error")
}
