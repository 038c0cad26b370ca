package render_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/golden"
	"github.com/toolnexus/toolnexus/render"
	"github.com/toolnexus/toolnexus/render/rendertest"
)

type tsWeather struct {
	City string `json:"city" jsonschema:"description=City name"`
	Unit string `json:"unit,omitempty" jsonschema:"enum=c,enum=f"`
	Days int    `json:"days,omitempty" validate:"omitempty,min=1,max=7"`
}

type tsStop struct {
	Name  string   `json:"name"`
	Hours *float64 `json:"hours,omitempty"`
	Next  *tsStop  `json:"next,omitempty" jsonschema:"description=The stop after this one"`
}

type tsTrip struct {
	Stops  []tsStop          `json:"stops" validate:"min=1"`
	Tags   map[string]string `json:"tags,omitempty"`
	Budget *int              `json:"budget"`
}

type tsOrder struct {
	ID     string   `json:"id"`
	Total  float64  `json:"total"`
	Status string   `json:"status" jsonschema:"enum=open,enum=shipped"`
	Lines  []string `json:"lines"`
}

type tsLookup struct {
	ID string `json:"id" validate:"startswith=o-"`
}

// tsTools is the fixture the TypeScript tests declare: enums, bounds,
// nested and recursive types, maps, nullable pointers, a hyphenated
// name, results typed from output schemas (an object and a slice), a
// freeform tool and a raw tool with anyOf, a tuple and an open object.
func tsTools(t *testing.T) []toolnexus.Tool {
	t.Helper()
	weather, err := toolnexus.NewTool("get_weather", "Current weather.\nUse it before planning.", func(context.Context, tsWeather) (string, error) { return "", nil })
	require.NoError(t, err)
	trip, err := toolnexus.NewTool("plan-trip", "Plan a trip through stops.", func(context.Context, tsTrip) (string, error) { return "", nil })
	require.NoError(t, err)
	order, err := toolnexus.NewOutputTool("get_order", "Look up one order.", func(context.Context, tsLookup) (tsOrder, error) { return tsOrder{}, nil })
	require.NoError(t, err)
	list, err := toolnexus.NewOutputTool("list_orders", "", func(context.Context, struct{}) ([]tsOrder, error) { return nil, nil })
	require.NoError(t, err)
	patch, err := toolnexus.NewFreeform("apply_patch", "Apply a patch.", toolnexus.Format{Type: "text"}, func(context.Context, string) (string, error) { return "", nil })
	require.NoError(t, err)
	raw := toolnexus.Tool{Name: "raw_tool", Description: "A hand-written schema.", Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "", nil }),
		InputSchema: json.RawMessage(`{"type":"object","properties":{"when":{"anyOf":[{"type":"string","format":"date"},{"type":"integer","minimum":0}]},"pair":{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}],"items":false},"extra":{"type":"object"},"odd key":{"type":["string","null"],"description":"ends with */ on purpose"},"v":{"const":2}},"required":["when"]}`)}
	return []toolnexus.Tool{weather, trip, order, list, patch, raw}
}

// TestTypeScriptGolden pins the declarations of the fixture and of the
// shared renderer cases byte for byte.
func TestTypeScriptGolden(t *testing.T) {
	ts, err := render.TypeScript(tsTools(t))
	require.NoError(t, err)
	golden.Check(t, filepath.Join("..", "testdata", "golden", "typescript", "tools.d.ts"), []byte(ts))
	for _, c := range rendertest.Cases() {
		ts, err := render.TypeScript([]toolnexus.Tool{c.Tool})
		require.NoError(t, err, c.Name)
		golden.Check(t, filepath.Join("..", "testdata", "golden", "typescript", c.Name+".d.ts"), []byte(ts))
	}
}

func TestTypeScriptErrors(t *testing.T) {
	tools := tsTools(t)
	_, err := render.TypeScript(append(tools, tools[0]))
	require.ErrorIs(t, err, render.ErrTypeScript)
	assert.Contains(t, err.Error(), `tool "get_weather" is listed twice`)

	bad := toolnexus.Tool{Name: "bad", InputSchema: json.RawMessage(`[1]`)}
	_, err = render.TypeScript([]toolnexus.Tool{bad})
	require.ErrorIs(t, err, render.ErrTypeScript)
	assert.Contains(t, err.Error(), `tool "bad": input schema is not a JSON object`)

	out, err := render.TypeScript(nil)
	require.NoError(t, err)
	assert.Contains(t, out, "declare const tools: {\n};\n")
}

// tscPath finds tsc from TOOLNEXUS_TSC_DIR, the npm prefix where .ci/run
// installs typescript; without it the test is skipped, except under
// CI=true, where it fails.
func tscPath(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("TOOLNEXUS_TSC_DIR")
	if dir == "" {
		msg := "TOOLNEXUS_TSC_DIR is not set (npm install --prefix DIR typescript@7.0.2, then set it to DIR)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	tsc := filepath.Join(dir, "node_modules", ".bin", "tsc")
	if _, err := os.Stat(tsc); err != nil {
		t.Fatalf("TOOLNEXUS_TSC_DIR=%s: %v", dir, err)
	}
	return tsc
}

// compile runs tsc --strict --noEmit on the declarations and one program;
// it returns tsc's output and whether it compiled.
func compile(t *testing.T, tsc, decl, program string) (string, bool) {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tools.d.ts"), []byte(decl), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.ts"), []byte(program), 0o644))
	cmd := exec.Command(tsc, "--strict", "--noEmit", "--target", "es2022", "--lib", "es2022", "tools.d.ts", "main.ts")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
	return string(out), err == nil
}

// TestTypeScriptCompiles checks the declarations with the real compiler
// both ways: a program using every tool as declared compiles under
// --strict, and each program that misuses one fails with the error
// TypeScript gives for that mistake.
func TestTypeScriptCompiles(t *testing.T) {
	tsc := tscPath(t)
	decl, err := render.TypeScript(tsTools(t))
	require.NoError(t, err)

	good := `async function main(): Promise<void> {
  const w: string = await tools.get_weather({ city: "Paris", unit: "c" });
  await tools.get_weather({ city: "Oslo" });
  await tools["plan-trip"]({ stops: [{ name: "a", next: { name: "b", hours: 2 } }], budget: 1, tags: { k: "v" } });
  const o = await tools.get_order({ id: "o-1" });
  const total: number = o.total;
  const s: "open" | "shipped" = o.status;
  const first: string | undefined = o.lines[0];
  const all = await tools.list_orders();
  const ids: string[] = all.map((x) => x.id);
  await tools.apply_patch({ input: "diff" });
  await tools.raw_tool({ when: 3, pair: ["a", 1], "odd key": null, v: 2, anything: true });
  await tools.raw_tool({ when: "2026-01-01" });
  console.log(w, total, s, first, ids);
}
declare const console: { log(...a: unknown[]): void };
main();
`
	out, ok := compile(t, tsc, decl, good)
	require.True(t, ok, "the good program must compile:\n%s\n%s", out, decl)

	for _, c := range rendertest.Cases() {
		decl, err := render.TypeScript([]toolnexus.Tool{c.Tool})
		require.NoError(t, err)
		out, ok := compile(t, tsc, decl, "export {};\n")
		require.True(t, ok, "case %s must compile:\n%s\n%s", c.Name, out, decl)
	}
	for _, c := range []struct{ name, program, code string }{
		{"wrong type", `tools.get_weather({ city: 3 });`, "TS2322"},
		{"enum outside", `tools.get_weather({ city: "x", unit: "k" });`, "TS2322"},
		{"missing required", `tools.get_weather({ unit: "c" });`, "TS2741"},
		{"unknown property", `tools.get_weather({ city: "x", town: "y" });`, "TS2353"},
		{"unknown tool", `tools.get_wether({ city: "x" });`, "TS2551"},
		{"nested wrong", `tools["plan-trip"]({ stops: [{ name: 1 }], budget: 1 });`, "TS2322"},
		{"nested required omitted", `tools["plan-trip"]({ stops: [] });`, "TS2741"},
		{"result misused", `async function f() { const o = await tools.get_order({ id: "o-1" }); const n: number = o.status; return n; }`, "TS2322"},
		{"result not a string", `async function f() { const o = await tools.list_orders(); return o.toUpperCase(); }`, "TS2339"},
		{"text result misused", `async function f() { const w = await tools.get_weather({ city: "x" }); return w.total; }`, "TS2339"},
		{"tuple wrong", `tools.raw_tool({ when: 1, pair: [1, "a"] });`, "TS2322"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, ok := compile(t, tsc, decl, c.program+"\nexport {};\n")
			require.False(t, ok, "must not compile:\n%s", c.program)
			assert.True(t, strings.Contains(out, c.code), "want %s, tsc said:\n%s", c.code, out)
		})
	}
}
