package codemode_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/codemode"
	"github.com/toolnexus/toolnexus/render"
)

// benchRegistry has one typed-output lookup tool.
func benchRegistry(b *testing.B) *toolnexus.Registry {
	reg := toolnexus.NewRegistry()
	err := toolnexus.RegisterOutput(reg, "get_order", "Look up an order by id.", func(_ context.Context, a orderArgs) (order, error) {
		return order{ID: a.ID, Total: 12.5}, nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return reg
}

func benchRun(b *testing.B, host *toolnexus.Registry, code string) {
	args, _ := json.Marshal(map[string]string{"code": code})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := host.Execute(ctx, codemode.Name, args); res.IsError {
			b.Fatal(res.Output)
		}
	}
}

// BenchmarkCodeMode measures, in one run: Execute of the lookup tool
// (the physical limit a call from a program cannot beat), the start-up
// of one run (an empty program), the same program loop as calls100 with
// the call replaced by the object it returns (loop100), and a program
// making 100 lookups; the per-call cost beyond Execute is
// (calls100 - loop100)/100 - Execute, read off the rows
// (docs/performance.md, "Code mode").
func BenchmarkCodeMode(b *testing.B) {
	reg := benchRegistry(b)
	tool, err := codemode.Tool(reg, &codemode.Options{MaxCalls: 1000})
	if err != nil {
		b.Fatal(err)
	}
	host := toolnexus.NewRegistry()
	if err := host.Add(tool); err != nil {
		b.Fatal(err)
	}
	b.Run("Execute", func(b *testing.B) {
		// As a program's calls are made: under a context that can end.
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		args := json.RawMessage(`{"id":"o-1"}`)
		b.ReportAllocs()
		for b.Loop() {
			if res := reg.Execute(ctx, "get_order", args); res.IsError {
				b.Fatal(res.Output)
			}
		}
	})
	b.Run("start", func(b *testing.B) { benchRun(b, host, "return 1;") })
	b.Run("loop100", func(b *testing.B) {
		benchRun(b, host, `let t = 0; for (let i = 0; i < 100; i++) t += ({ id: "o-" + i, total: 12.5 }).total; return t;`)
	})
	b.Run("calls100", func(b *testing.B) {
		benchRun(b, host, `let t = 0; for (let i = 0; i < 100; i++) t += (await tools.get_order({ id: "o-" + i })).total; return t;`)
	})
	b.Run("calls100-parallel", func(b *testing.B) {
		benchRun(b, host, `const ids = []; for (let i = 0; i < 100; i++) ids.push("o-" + i); return (await Promise.all(ids.map((id) => tools.get_order({ id })))).length;`)
	})
}

// TestLookup20Bytes reports what a model reads for a 20-lookup task:
// direct calls (the tool's definition, then 20 calls and their results)
// against code mode (run_code's definition, one program, one result).
// It asserts the ratio it measures, and logs the figures for
// docs/performance.md (go test -run Lookup20 -v).
func TestLookup20Bytes(t *testing.T) {
	reg := toolnexus.NewRegistry()
	if err := toolnexus.RegisterOutput(reg, "get_order", "Look up an order by id.", func(_ context.Context, a orderArgs) (order, error) {
		return order{ID: a.ID, Total: 12.5}, nil
	}); err != nil {
		t.Fatal(err)
	}
	defs, err := render.Anthropic(reg.Tools())
	if err != nil {
		t.Fatal(err)
	}
	d, _ := json.Marshal(defs)
	direct := len(d)
	ctx := context.Background()
	for i := 1; i <= 20; i++ {
		args := fmt.Sprintf(`{"id":"o-%d"}`, i)
		res := reg.Execute(ctx, "get_order", json.RawMessage(args))
		direct += len(`{"type":"tool_use","name":"get_order","input":}`) + len(args) + len(res.Output)
	}

	tool, err := codemode.Tool(reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	cdefs, _ := render.Anthropic([]toolnexus.Tool{tool})
	c, _ := json.Marshal(cdefs)
	code := `let sum = 0; for (let i = 1; i <= 20; i++) sum += (await tools.get_order({ id: "o-" + i })).total; return sum;`
	host := toolnexus.NewRegistry()
	if err := host.Add(tool); err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]string{"code": code})
	res := host.Execute(ctx, codemode.Name, args)
	if res.IsError || strings.TrimSpace(res.Output) != "250" {
		t.Fatalf("run: %q", res.Output)
	}
	viaCode := len(c) + len(`{"type":"tool_use","name":"run_code","input":}`) + len(args) + len(res.Output)
	t.Logf("20 lookups: direct %d bytes, code mode %d bytes (%.2fx)", direct, viaCode, float64(direct)/float64(viaCode))
	if viaCode >= direct {
		t.Errorf("code mode reads %d bytes, direct calls %d: code mode must read less", viaCode, direct)
	}
}
