package codemode_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/codemode"
)

type orderArgs struct {
	ID string `json:"id" validate:"startswith=o-"`
}

type order struct {
	ID    string  `json:"id"`
	Total float64 `json:"total"`
}

type cityArgs struct {
	City string `json:"city"`
}

// fixture is a registry of a typed-output tool, a text tool, a failing
// tool and one that needs approval; runs counts each handler's runs.
type fixture struct {
	reg  *toolnexus.Registry
	runs sync.Map // name -> *atomic.Int64
}

func (f *fixture) count(name string) int64 {
	v, _ := f.runs.LoadOrStore(name, new(atomic.Int64))
	return v.(*atomic.Int64).Load()
}

func (f *fixture) ran(name string) {
	v, _ := f.runs.LoadOrStore(name, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{reg: toolnexus.NewRegistry()}
	require.NoError(t, toolnexus.RegisterOutput(f.reg, "get_order", "Look up an order.", func(_ context.Context, a orderArgs) (order, error) {
		f.ran("get_order")
		var n int
		fmt.Sscanf(a.ID, "o-%d", &n)
		return order{ID: a.ID, Total: float64(n) * 1.5}, nil
	}))
	require.NoError(t, toolnexus.Register(f.reg, "get_weather", "Weather for a city.", func(_ context.Context, a cityArgs) (string, error) {
		f.ran("get_weather")
		return "sunny in " + a.City, nil
	}))
	require.NoError(t, toolnexus.Register(f.reg, "fail", "Always fails.", func(context.Context, struct{}) (string, error) {
		f.ran("fail")
		return "", errors.New("the database is down")
	}))
	del, err := toolnexus.NewTool("delete_order", "Delete an order.", func(_ context.Context, a orderArgs) (string, error) {
		f.ran("delete_order")
		return "deleted " + a.ID, nil
	})
	require.NoError(t, err)
	del.NeedsApproval = true
	require.NoError(t, f.reg.Add(del))
	return f
}

// runCode makes run_code over f's registry with opts and runs code
// through a registry of its own, as a host would.
func runCode(t *testing.T, ctx context.Context, reg *toolnexus.Registry, opts *codemode.Options, code string) toolnexus.Result {
	t.Helper()
	tool, err := codemode.Tool(reg, opts)
	require.NoError(t, err)
	host := toolnexus.NewRegistry()
	require.NoError(t, host.Add(tool))
	args, _ := json.Marshal(map[string]string{"code": code})
	return host.Execute(ctx, codemode.Name, args)
}

func TestRunLoopAndResults(t *testing.T) {
	f := newFixture(t)
	res := runCode(t, context.Background(), f.reg, nil, `
let sum = 0;
for (let i = 1; i <= 20; i++) {
  const o = await tools.get_order({ id: "o-" + i });
  sum += o.total;
}
console.log("total", sum);
const w = await tools.get_weather({ city: "Oslo" });
console.error(typeof w, w);
return { sum, n: 20 };
`)
	require.False(t, res.IsError, res.Output)
	assert.Equal(t, "total 315\nstring sunny in Oslo\n{\"sum\":315,\"n\":20}", res.Output)
	assert.EqualValues(t, 20, f.count("get_order"))
}

func TestRunErrorsAreTheToolsOwn(t *testing.T) {
	f := newFixture(t)
	direct := f.reg.Execute(context.Background(), "get_order", json.RawMessage(`{"id":"x-1"}`))
	require.True(t, direct.IsError)
	failed := f.reg.Execute(context.Background(), "fail", json.RawMessage(`{}`))
	require.True(t, failed.IsError)

	res := runCode(t, context.Background(), f.reg, nil, `
try { await tools.get_order({ id: "x-1" }); } catch (e) { console.log(e instanceof Error, e.message); }
try { await tools.fail(); } catch (e) { console.log(e.message); }
try { await tools.nope(); } catch (e) { console.log(e.name); }
`)
	require.False(t, res.IsError, res.Output)
	assert.Equal(t, "true "+direct.Output+"\n"+failed.Output+"\nTypeError", res.Output)
	assert.EqualValues(t, 0, f.count("get_order"))
}

func TestRunFailures(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct{ name, code, want string }{
		{"uncaught throw", "console.log('before');\nthrow new Error('boom');", "before\nuncaught Error: boom (at line 2:7"},
		{"uncaught rejection", "await tools.fail();", "uncaught Error: " + f.reg.Execute(context.Background(), "fail", nil).Output},
		{"syntax", "let = ;", "syntax error: SyntaxError: code: Line 1:7 Unexpected token ;"},
		{"never settles", "await new Promise(() => {});", "the program waits for a promise that nothing can settle"},
		{"deep recursion", "function f() { return f() + 1; } f();", "stopped: the call stack is too deep"},
		{"built-in over the limit", "new Array(1e9);", "uncaught RangeError: an array of 1000000000 elements is over the sandbox's limit of 1048576"},
		{"sparse array method", "const a = []; a.length = 1e9; a.fill(0);", "uncaught RangeError: an array of 1000000000 elements"},
		{"repeat", "'ab'.repeat(2 ** 30);", "uncaught RangeError: a string of"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := runCode(t, context.Background(), f.reg, nil, c.code)
			require.True(t, res.IsError, res.Output)
			assert.Contains(t, res.Output, c.want)
		})
	}
}

func TestRunNoHostAccess(t *testing.T) {
	f := newFixture(t)
	res := runCode(t, context.Background(), f.reg, nil,
		`return [typeof require, typeof process, typeof fetch, typeof setTimeout, typeof setInterval, typeof ArrayBuffer, typeof Uint8Array, typeof tools.run_code, Object.keys(tools).sort()];`)
	require.False(t, res.IsError, res.Output)
	assert.Equal(t, `["undefined","undefined","undefined","undefined","undefined","undefined","undefined","undefined",["delete_order","fail","get_order","get_weather"]]`, res.Output)
}

func TestRunTimeout(t *testing.T) {
	f := newFixture(t)
	start := time.Now()
	res := runCode(t, context.Background(), f.reg, &codemode.Options{Timeout: 300 * time.Millisecond}, "console.log('looping'); for (;;) {}")
	require.True(t, res.IsError)
	assert.Equal(t, "looping\ntimed out after 300ms", res.Output)
	assert.Less(t, time.Since(start), 5*time.Second)

	// A built-in that loops natively does not see the interrupt; the run
	// still answers at its timeout.
	start = time.Now()
	res = runCode(t, context.Background(), f.reg, &codemode.Options{Timeout: 300 * time.Millisecond}, "const a = []; a.length = 5e7; [...a];")
	require.True(t, res.IsError)
	assert.Equal(t, "timed out after 300ms", res.Output)
	assert.Less(t, time.Since(start), 5*time.Second)
}

func TestRunMemoryLimit(t *testing.T) {
	f := newFixture(t)
	res := runCode(t, context.Background(), f.reg, &codemode.Options{MaxMemory: 32 << 20, Timeout: 20 * time.Second},
		"const keep = []; for (;;) keep.push('x'.repeat(1000) + keep.length);")
	require.True(t, res.IsError)
	assert.Equal(t, "stopped: the program used more than 32 MiB of memory", res.Output)
}

func TestRunApprovals(t *testing.T) {
	f := newFixture(t)
	code := `try { console.log(await tools.delete_order({ id: "o-1" })); } catch (e) { console.log(e.message); }
try { console.log(await tools.delete_order({ id: "o-2" })); } catch (e) { console.log(e.message); }`
	res := runCode(t, context.Background(), f.reg, nil, code)
	require.False(t, res.IsError, res.Output)
	msg := "tools.delete_order did not run: it needs approval, and no approver is set for this run"
	assert.Equal(t, msg+"\n"+msg, res.Output)
	assert.EqualValues(t, 0, f.count("delete_order"))

	var asked []string
	ctx := toolnexus.WithApprover(context.Background(), "call_1", func(_ context.Context, req toolnexus.ApprovalRequest) toolnexus.Approval {
		asked = append(asked, string(req.Arguments))
		if strings.Contains(string(req.Arguments), "o-2") {
			return toolnexus.Approval{Decision: toolnexus.Deny, Reason: "not that one"}
		}
		return toolnexus.Approval{Decision: toolnexus.Approve}
	})
	res = runCode(t, ctx, f.reg, nil, code)
	require.False(t, res.IsError, res.Output)
	assert.Equal(t, "deleted o-1\ntool \"delete_order\" was denied: not that one", res.Output)
	assert.Equal(t, []string{`{"id":"o-1"}`, `{"id":"o-2"}`}, asked)
	assert.EqualValues(t, 1, f.count("delete_order"))
}

func TestRunConcurrencyAndMaxCalls(t *testing.T) {
	reg := toolnexus.NewRegistry()
	var running, most atomic.Int64
	release := make(chan struct{})
	require.NoError(t, toolnexus.Register(reg, "slow", "", func(ctx context.Context, a cityArgs) (string, error) {
		n := running.Add(1)
		defer running.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		select {
		case <-release:
		case <-time.After(200 * time.Millisecond):
		}
		return a.City, nil
	}))
	go func() {
		for most.Load() < 3 {
			time.Sleep(time.Millisecond)
		}
		close(release)
	}()
	res := runCode(t, context.Background(), reg, &codemode.Options{Concurrency: 3, MaxCalls: 5}, `
const names = ["a", "b", "c", "d", "e", "f"];
const settled = await Promise.allSettled(names.map((city) => tools.slow({ city })));
return settled.map((s) => s.status === "fulfilled" ? s.value : s.reason.message);
`)
	require.False(t, res.IsError, res.Output)
	assert.Equal(t, `["a","b","c","d","e","tools.slow was not called: this run has made its 5 tool calls, the most one run may make"]`, res.Output)
	assert.EqualValues(t, 3, most.Load(), "three at once, never more")
}

func TestToolDescribesTheAPI(t *testing.T) {
	f := newFixture(t)
	tool, err := codemode.Tool(f.reg, nil)
	require.NoError(t, err)
	assert.Equal(t, codemode.Name, tool.Name)
	assert.LessOrEqual(t, len([]rune(tool.Description)), toolnexus.MaxDescriptionLength)
	assert.Contains(t, tool.Description, "tools.<name>(args)")
	var schema struct {
		Properties map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	require.NoError(t, json.Unmarshal(tool.InputSchema, &schema))
	assert.Equal(t, []string{"code"}, schema.Required)
	all := tool.Description + schema.Properties["code"].Description
	assert.Contains(t, all, "declare const tools: {")
	assert.Contains(t, all, "get_order(args: {")

	small := toolnexus.NewRegistry()
	toolnexus.MustRegister(small, "get_weather", "Weather.", func(context.Context, cityArgs) (string, error) { return "", nil })
	tool, err = codemode.Tool(small, nil)
	require.NoError(t, err)
	assert.Contains(t, tool.Description, "get_weather(args: {", "a small API fits in the description")

	host := toolnexus.NewRegistry()
	require.NoError(t, host.Add(tool))
	res := host.Execute(context.Background(), codemode.Name, json.RawMessage(`{"code":1}`))
	require.True(t, res.IsError)
	assert.Contains(t, res.Output, "code")
	res = host.Execute(context.Background(), codemode.Name, json.RawMessage(`{}`))
	require.True(t, res.IsError)
	assert.Contains(t, res.Output, "code")
}

func TestRunPrintedOutputBounded(t *testing.T) {
	f := newFixture(t)
	res := runCode(t, context.Background(), f.reg, nil, `const s = "y".repeat(1000); for (let i = 0; i < 2000; i++) console.log(s);`)
	require.False(t, res.IsError)
	assert.Contains(t, res.Output, "more bytes printed were dropped")
	assert.LessOrEqual(t, len(res.Output), toolnexus.DefaultMaxOutputBytes+200)
}

func TestNewRegistryFollows(t *testing.T) {
	f := newFixture(t)
	served, stop, err := codemode.NewRegistry(f.reg, nil)
	require.NoError(t, err)
	defer stop()
	assert.Equal(t, []string{codemode.Name}, served.Names())
	run := func(code string) toolnexus.Result {
		args, _ := json.Marshal(map[string]string{"code": code})
		return served.Execute(context.Background(), codemode.Name, args)
	}
	assert.Equal(t, `["delete_order","fail","get_order","get_weather"]`, run("return Object.keys(tools).sort();").Output)

	toolnexus.MustRegister(f.reg, "added_later", "", func(context.Context, struct{}) (string, error) { return "here", nil })
	res := run("return await tools.added_later();")
	require.False(t, res.IsError, res.Output)
	assert.Equal(t, `"here"`, res.Output)
	tool, _ := served.Get(codemode.Name)
	assert.Contains(t, tool.Description+string(tool.InputSchema), "added_later(args?: {")

	f.reg.Remove("get_weather")
	assert.Equal(t, `["added_later","delete_order","fail","get_order"]`, run("return Object.keys(tools).sort();").Output)

	stop()
	toolnexus.MustRegister(f.reg, "after_stop", "", func(context.Context, struct{}) (string, error) { return "", nil })
	assert.Equal(t, `["added_later","delete_order","fail","get_order"]`, run("return Object.keys(tools).sort();").Output)
}

// TestToolHints: run_code says of itself only what holds for every tool
// it can call; a program over a destructive tool is not shown as safe.
func TestToolHints(t *testing.T) {
	f, tr := false, true
	mk := func(a *toolnexus.Annotations) toolnexus.Tool {
		tool, err := toolnexus.NewTool("t", "", func(context.Context, struct{}) (string, error) { return "", nil })
		require.NoError(t, err)
		tool.Annotations = a
		return tool
	}
	for _, c := range []struct {
		name string
		ann  []*toolnexus.Annotations
		want toolnexus.Annotations
	}{
		{"no hints: the defaults", []*toolnexus.Annotations{nil}, toolnexus.Annotations{Title: "Run code"}},
		{"all read-only and closed", []*toolnexus.Annotations{{ReadOnlyHint: true, OpenWorldHint: &f}, {ReadOnlyHint: true, OpenWorldHint: &f}},
			toolnexus.Annotations{Title: "Run code", ReadOnlyHint: true, DestructiveHint: &f, OpenWorldHint: &f}},
		{"one destructive", []*toolnexus.Annotations{{ReadOnlyHint: true, OpenWorldHint: &f}, {DestructiveHint: &tr, OpenWorldHint: &f}},
			toolnexus.Annotations{Title: "Run code", OpenWorldHint: &f}},
		{"additive and open", []*toolnexus.Annotations{{DestructiveHint: &f}, {ReadOnlyHint: true, OpenWorldHint: &tr}},
			toolnexus.Annotations{Title: "Run code", DestructiveHint: &f}},
	} {
		t.Run(c.name, func(t *testing.T) {
			reg := toolnexus.NewRegistry()
			for i, a := range c.ann {
				tool := mk(a)
				tool.Name = fmt.Sprintf("t%d", i)
				require.NoError(t, reg.Add(tool))
			}
			tool, err := codemode.Tool(reg, nil)
			require.NoError(t, err)
			assert.Equal(t, c.want, *tool.Annotations)
		})
	}
}
