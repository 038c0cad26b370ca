package toolnexus_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolnexus/toolnexus"
)

type exWeather struct {
	City string `json:"city" validate:"required"`
	Unit string `json:"unit,omitempty" validate:"omitempty,oneof=celsius fahrenheit"`
	Days int    `json:"days,omitempty" validate:"omitempty,max=14"`
}

func (exWeather) InputExamples() []exWeather {
	return []exWeather{{City: "Paris"}, {City: "Oslo", Unit: "fahrenheit", Days: 3}}
}

type exPointerRecv struct {
	Q string `json:"q"`
}

func (*exPointerRecv) InputExamples() []*exPointerRecv { return []*exPointerRecv{{Q: "a"}} }

type exNone struct {
	Q string `json:"q"`
}

func (exNone) InputExamples() []exNone { return nil }

type exWrongSig struct {
	Q string `json:"q"`
}

func (exWrongSig) InputExamples() []string { return []string{"q"} }

type exMissing struct {
	City string `json:"city" validate:"required"`
}

func (exMissing) InputExamples() []exMissing { return []exMissing{{City: "x"}, {}} }

type exBadRule struct {
	Unit string `json:"unit" validate:"oneof=celsius fahrenheit"`
}

func (exBadRule) InputExamples() []exBadRule { return []exBadRule{{Unit: "kelvin"}} }

type exCross struct {
	Min int `json:"min"`
	Max int `json:"max" validate:"gtefield=Min"`
}

func (exCross) InputExamples() []exCross { return []exCross{{Min: 1, Max: 2}, {Min: 5, Max: 1}} }

type exPanics struct {
	Q string `json:"q"`
}

func (exPanics) InputExamples() []exPanics { panic("no examples today") }

func exFn[A any](context.Context, A) (string, error) { return "ok", nil }

func TestInputExamplesMethod(t *testing.T) {
	tool, err := toolnexus.NewTool("get_weather", "Weather", exFn[exWeather])
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(tool.InputExamples)
	if string(got) != `[{"city":"Paris"},{"city":"Oslo","unit":"fahrenheit","days":3}]` {
		t.Errorf("value method: %s", got)
	}
	// A pointer arguments type uses the same method.
	if tool, err = toolnexus.NewTool("get_weather", "Weather", exFn[*exWeather]); err != nil || len(tool.InputExamples) != 2 {
		t.Errorf("*exWeather: %d examples, %v", len(tool.InputExamples), err)
	}
	tool, err = toolnexus.NewTool("q", "", exFn[exPointerRecv])
	if err != nil || len(tool.InputExamples) != 1 || string(tool.InputExamples[0]) != `{"q":"a"}` {
		t.Errorf("pointer receiver, []*T: %q, %v", tool.InputExamples, err)
	}
	if tool, err = toolnexus.NewTool("q", "", exFn[exNone]); err != nil || tool.InputExamples != nil {
		t.Errorf("no examples: %q, %v", tool.InputExamples, err)
	}
	// Typed-output tools and registration take them too.
	out, err := toolnexus.NewOutputTool("o", "", func(context.Context, exWeather) (struct{ N int }, error) { return struct{ N int }{1}, nil })
	if err != nil || len(out.InputExamples) != 2 {
		t.Errorf("NewOutputTool: %d examples, %v", len(out.InputExamples), err)
	}
	reg := toolnexus.NewRegistry()
	if err := toolnexus.Register(reg, "get_weather", "Weather", exFn[exWeather]); err != nil {
		t.Fatal(err)
	}
	if got, _ := reg.Get("get_weather"); len(got.InputExamples) != 2 {
		t.Errorf("registered tool: %q", got.InputExamples)
	}
	// Each example runs as a call would.
	for _, ex := range tool.InputExamples {
		if r := reg.Execute(context.Background(), "get_weather", ex); r.IsError {
			t.Errorf("example %s refused by the tool: %s", ex, r.Output)
		}
	}
}

func TestInputExamplesErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		new  func() error
		want string
	}{
		{"wrong signature", func() error { _, err := toolnexus.NewTool("w", "", exFn[exWrongSig]); return err },
			`toolnexus: tool "w": method toolnexus_test.exWrongSig.InputExamples: must be func() []toolnexus_test.exWrongSig, is func() []string`},
		{"schema", func() error { _, err := toolnexus.NewTool("m", "", exFn[exMissing]); return err },
			`toolnexus: tool "m": input example 1 ({"city":""}) is refused: invalid arguments for "m": "city" must have at least 1 character`},
		{"enum", func() error { _, err := toolnexus.NewTool("e", "", exFn[exBadRule]); return err },
			`toolnexus: tool "e": input example 0 ({"unit":"kelvin"}) is refused: invalid arguments for "e": "unit" must be one of [celsius fahrenheit]`},
		{"validator rule", func() error { _, err := toolnexus.NewTool("c", "", exFn[exCross]); return err },
			`toolnexus: tool "c": input example 1 ({"min":5,"max":1}) is refused: invalid arguments for "c": "max" must be at least "min"`},
		{"panic", func() error { _, err := toolnexus.NewTool("p", "", exFn[exPanics]); return err },
			`toolnexus: tool "p": method toolnexus_test.exPanics.InputExamples: panicked: no examples today`},
	} {
		err := c.new()
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v\nwant %s", c.name, err, c.want)
		}
	}
}

// TripArgs are the arguments of the plan_trip example tool.
type TripArgs struct {
	City string `json:"city" validate:"required"`
	Days int    `json:"days,omitempty" validate:"omitempty,min=1,max=14"`
}

// InputExamples gives the model example arguments (Anthropic
// "input_examples"); NewTool checks each as it would check a call.
func (TripArgs) InputExamples() []TripArgs {
	return []TripArgs{{City: "Paris"}, {City: "Oslo", Days: 3}}
}

func ExampleNewTool_inputExamples() {
	tool, err := toolnexus.NewTool("plan_trip", "Plan a trip", func(_ context.Context, a TripArgs) (string, error) {
		return "planned " + a.City, nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, ex := range tool.InputExamples {
		fmt.Println(string(ex))
	}
	// Output:
	// {"city":"Paris"}
	// {"city":"Oslo","days":3}
}
