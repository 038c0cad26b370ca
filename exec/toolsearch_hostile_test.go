package exec_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/exec"
)

// TestToolSearchHostileQueryEcho: a query or a property name the model
// sends is quoted in the answer cut to the bound every quoted value has
// (64 bytes and "…"), not whole: a 1 MB query must not come back 1 MB.
func TestToolSearchHostileQueryEcho(t *testing.T) {
	e := exec.New(searchRegistry(t), searchOptions(1))
	long := strings.Repeat("zq", 500_000)
	for _, args := range []string{
		fmt.Sprintf(`{"query":"%s"}`, long),
		fmt.Sprintf(`{"%s":"x"}`, long),
	} {
		raw := []byte(`[{"type":"tool_use","id":"t","name":"tool_search","input":` + args + `}]`)
		out, err := e.AnthropicJSON(context.Background(), raw)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 600 || !strings.Contains(string(b), "zqzq…") {
			t.Errorf("%.30s…: answer of %d bytes, want under 600 with the quote cut: %.300s", args, len(b), b)
		}
	}
}
