package einotool_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/schema"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/frameworks/einotool"
	"github.com/toolnexus/toolnexus/render"
)

type forecastArgs struct {
	City string `json:"city" jsonschema:"description=City name"`
	Days int    `json:"days,omitempty" jsonschema:"minimum=1,maximum=14"`
}

func forecast(_ context.Context, a forecastArgs) (string, error) {
	if a.City == "Atlantis" {
		return "", errors.New("no weather under the sea")
	}
	return a.City + ": sunny", nil
}

// An eino tool (utils.InferTool, which checks nothing) in a registry is
// checked by the registry against the schema eino gives the model.
func TestFromTool(t *testing.T) {
	ctx := context.Background()
	et, err := utils.InferTool("forecast", "Forecast for a city.", forecast)
	if err != nil {
		t.Fatal(err)
	}
	tn, unchecked, err := einotool.FromTool(ctx, et)
	if err != nil {
		t.Fatal(err)
	}
	if unchecked != "" {
		t.Errorf("unchecked = %q, want the whole schema checked", unchecked)
	}
	reg := toolnexus.NewRegistry()
	if err := reg.Add(tn); err != nil {
		t.Fatal(err)
	}
	info, _ := et.Info(ctx)
	js, _ := info.ToJSONSchema()
	einoSchema, _ := json.Marshal(js)
	if string(tn.InputSchema) != string(einoSchema) || tn.Source != "eino" || tn.Description != "Forecast for a city." {
		t.Errorf("tool = %+v, want eino's schema %s", tn, einoSchema)
	}

	for _, c := range []struct {
		args, output string
		isError      bool
	}{
		{`{"city":"Oslo","days":3}`, "Oslo: sunny", false},
		{`{"days":30,"town":"Oslo"}`, `invalid arguments for "forecast": "days" must be at most 14; unknown property "town"; allowed: city, days; "city" is required`, true},
		{`{"city":"Atlantis"}`, "[LocalFunc] failed to invoke tool, toolName=forecast, err=no weather under the sea", true},
	} {
		res := reg.Execute(ctx, "forecast", json.RawMessage(c.args))
		if res.Output != c.output || res.IsError != c.isError {
			t.Errorf("Execute(%s) = %q (error %v), want %q (error %v)", c.args, res.Output, res.IsError, c.output, c.isError)
		}
	}

	rendered, err := json.Marshal(render.OpenAI(reg.Tools()))
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"type":"function","function":{"name":"forecast","description":"Forecast for a city.","parameters":` + string(einoSchema) + `}}]`
	sameJSON(t, "render.OpenAI", rendered, []byte(want))
}

type streamOnly struct{}

func (streamOnly) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "s"}, nil
}
func (streamOnly) StreamableRun(context.Context, string, ...tool.Option) (*schema.StreamReader[string], error) {
	return nil, nil
}

func TestFromToolRefusesStreamable(t *testing.T) {
	_, _, err := einotool.FromTool(context.Background(), streamOnly{})
	if err == nil || err.Error() != "einotool: einotool_test.streamOnly is not a tool.InvokableTool" {
		t.Errorf("error = %v", err)
	}
}
