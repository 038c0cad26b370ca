package toolnexus_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolnexus/toolnexus"
)

// f32Args has validate bounds on a float32: the rule is about the Go
// value, which a decimal within the bound can round onto or past.
type f32Args struct {
	F float32 `json:"f" validate:"lt=1"`
}

// TestFloat32BoundOnGoValue: 0.99999999999 is below 1 as a decimal but
// decodes to float32 1; the handler, promised F < 1 by its validate rule,
// must not run with 1.
func TestFloat32BoundOnGoValue(t *testing.T) {
	reg := toolnexus.NewRegistry()
	ran := false
	if err := toolnexus.Register(reg, "f", "", func(_ context.Context, a f32Args) (string, error) {
		ran = true
		if a.F >= 1 {
			t.Errorf("handler ran with F = %v, validate says lt=1", a.F)
		}
		return "ok", nil
	}); err != nil {
		t.Fatal(err)
	}
	r := reg.Execute(context.Background(), "f", json.RawMessage(`{"f":0.99999999999}`))
	if !r.IsError || ran || r.Output != `invalid arguments for "f": "f" must be less than 1` {
		t.Errorf("ran %v, result %v %q", ran, r.IsError, r.Output)
	}
	if r := reg.Execute(context.Background(), "f", json.RawMessage(`{"f":0.5}`)); r.IsError {
		t.Errorf("0.5: %s", r.Output)
	}
}
