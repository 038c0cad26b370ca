package codemode_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/codemode"
)

// A model gets one tool, run_code, and answers "which of orders 1 to 20
// are over 25?" with one program instead of twenty calls.
func ExampleTool() {
	type lookup struct {
		ID int `json:"id" validate:"min=1"`
	}
	type order struct {
		ID    int     `json:"id"`
		Total float64 `json:"total"`
	}
	reg := toolnexus.NewRegistry()
	_ = toolnexus.RegisterOutput(reg, "get_order", "Look up an order.", func(_ context.Context, a lookup) (order, error) {
		return order{ID: a.ID, Total: float64(a.ID) * 1.5}, nil
	})

	runCode, err := codemode.Tool(reg, nil)
	if err != nil {
		panic(err)
	}
	served := toolnexus.NewRegistry() // what the model is offered
	_ = served.Add(runCode)

	program := `
const big = [];
for (let id = 1; id <= 20; id++) {
  const o = await tools.get_order({ id });
  if (o.total > 25) big.push(o.id);
}
try { await tools.get_order({ id: 0 }); } catch (e) { console.log(e.message); }
return big;`
	args, _ := json.Marshal(map[string]string{"code": program})
	res := served.Execute(context.Background(), codemode.Name, args)
	fmt.Println(res.Output)
	// Output:
	// invalid arguments for "get_order": "id" must be at least 1
	// [17,18,19,20]
}
