package toolnexus_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/schema"
)

type forecastIn struct {
	City string `json:"city"`
}

type forecastOut struct {
	City  string  `json:"city"`
	TempC float64 `json:"temp_c"`
	Sky   string  `json:"sky" validate:"oneof=clear cloudy rain"`
}

func TestOutputTool(t *testing.T) {
	reg := toolnexus.NewRegistry()
	require.NoError(t, toolnexus.RegisterOutput(reg, "forecast", "Forecast for a city.",
		func(ctx context.Context, in forecastIn) (forecastOut, error) {
			switch in.City {
			case "Oslo":
				return forecastOut{City: in.City, TempC: -3, Sky: "snow"}, nil // breaks the enum
			case "Nowhere":
				return forecastOut{}, errors.New("no such city")
			}
			return forecastOut{City: in.City, TempC: 21.5, Sky: "clear"}, nil
		}))
	tool, ok := reg.Get("forecast")
	require.True(t, ok)
	require.Equal(t, `{"type":"object","properties":{"city":{"type":"string"},"temp_c":{"type":"number"},`+
		`"sky":{"type":"string","enum":["clear","cloudy","rain"]}},"required":["city","temp_c","sky"],"additionalProperties":false}`,
		string(tool.OutputSchema))

	res := reg.Execute(context.Background(), "forecast", []byte(`{"city":"Paris"}`))
	require.False(t, res.IsError, res.Output)
	require.Equal(t, `{"city":"Paris","temp_c":21.5,"sky":"clear"}`, res.Output)
	require.Equal(t, res.Output, string(res.Structured))

	res = reg.Execute(context.Background(), "forecast", []byte(`{"city":"Oslo"}`))
	require.True(t, res.IsError)
	require.Nil(t, res.Structured)
	require.Equal(t, `tool "forecast" failed: internal error: its result does not match its output schema`, res.Output)
	require.ErrorIs(t, res.Err, toolnexus.ErrInvalidOutput)
	var verr *schema.ValidationError
	require.ErrorAs(t, res.Err, &verr)
	require.Equal(t, "sky", verr.Problems[0].Path)
	require.Equal(t, "enum", verr.Problems[0].Keyword)

	res = reg.Execute(context.Background(), "forecast", []byte(`{"city":"Nowhere"}`))
	require.True(t, res.IsError)
	require.Equal(t, "no such city", res.Output)

	// Arguments are checked as for NewTool.
	res = reg.Execute(context.Background(), "forecast", []byte(`{"town":"Paris"}`))
	require.True(t, res.IsError)
	require.ErrorIs(t, res.Err, toolnexus.ErrInvalidArguments)
}

func TestOutputToolNilPointer(t *testing.T) {
	tool, err := toolnexus.NewOutputTool("p", "", func(ctx context.Context, _ struct{}) (*forecastOut, error) {
		return nil, nil
	})
	require.NoError(t, err)
	res := tool.Handler.Call(context.Background(), []byte(`{}`))
	require.True(t, res.IsError)
	require.ErrorIs(t, res.Err, toolnexus.ErrInvalidOutput)
}

func TestOutputToolErrors(t *testing.T) {
	_, err := toolnexus.NewOutputTool("s", "", func(ctx context.Context, _ struct{}) (string, error) { return "", nil })
	require.ErrorIs(t, err, toolnexus.ErrInvalidSchema)
	require.ErrorContains(t, err, `tool "s": invalid output schema`)
	_, err = toolnexus.NewOutputTool("bad name", "", func(ctx context.Context, _ struct{}) (string, error) { return "", nil })
	require.ErrorIs(t, err, toolnexus.ErrInvalidName)
	_, err = toolnexus.NewOutputTool[struct{}, forecastOut]("n", "", nil)
	require.ErrorContains(t, err, "function is nil")
}
