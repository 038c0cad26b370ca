package toolkit

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/builtin"
	"github.com/toolnexus/toolnexus/render"
	"github.com/toolnexus/toolnexus/skill"
)

var examples = filepath.Join("..", "examples", "skills")

func names(tools []toolnexus.Tool) string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return strings.Join(out, " ")
}

func build(t *testing.T, cfg Config) *Toolkit {
	t.Helper()
	if cfg.BuiltinOptions.Workspace == "" {
		cfg.BuiltinOptions.Workspace = t.TempDir()
	}
	tk, err := Build(context.Background(), &cfg)
	require.NoError(t, err, "Build")
	t.Cleanup(func() { tk.Close() })
	return tk
}

func TestBuildDefaultList(t *testing.T) {
	tk := build(t, Config{Skills: []string{examples}})
	var rendered []struct {
		Function struct{ Name string } `json:"function"`
	}
	require.NoError(t, json.Unmarshal(render.OpenAI(tk.Tools()).AppendJSON(nil), &rendered))
	var got []string
	for _, r := range rendered {
		got = append(got, r.Function.Name)
	}
	want := "apply_patch bash edit glob grep question read skill todowrite webfetch write"
	assert.Equal(t, want, strings.Join(got, " "), "rendered names = %s\nwant             %s", strings.Join(got, " "), want)
	for _, tool := range tk.Tools() {
		wantSrc := builtin.Source
		if tool.Name == "skill" {
			wantSrc = "skill"
		}
		assert.Equal(t, wantSrc, tool.Source, "%s: Source = %q, want %q", tool.Name, tool.Source, wantSrc)
	}
	res := tk.Execute(context.Background(), "skill", json.RawMessage(`{"name":"hello-world"}`))
	assert.False(t, res.IsError, "skill call: %+v", res)
	assert.True(t, strings.HasPrefix(res.Output, `<skill_content name="hello-world">`), "skill call: %+v", res)
}

func TestBuildZeroConfigIsBuiltins(t *testing.T) {
	tk := build(t, Config{})
	got, want := names(tk.Tools()), strings.Join(builtin.Names(), " ")
	assert.Equal(t, want, got, "tools = %s, want %s", got, want)
	assert.Equal(t, 0, tk.Skills().Len(), "skills = %v, prompt %q", tk.Skills().Names(), tk.SkillsPrompt())
	assert.Equal(t, "No skills are available.", tk.SkillsPrompt(), "skills = %v, prompt %q", tk.Skills().Names(), tk.SkillsPrompt())
}

func TestBuildBuiltinSwitches(t *testing.T) {
	tk := build(t, Config{Skills: []string{examples}, NoBuiltins: true})
	got := names(tk.Tools())
	assert.Equal(t, "skill", got, "NoBuiltins: %s", got)
	tk = build(t, Config{NoBuiltins: true})
	assert.Equal(t, 0, tk.Len(), "NoBuiltins, no skills: %s", names(tk.Tools()))
	tk = build(t, Config{Builtins: map[string]bool{"bash": false, "webfetch": false, "read": true}})
	got = names(tk.Tools())
	assert.Equal(t, "apply_patch edit glob grep question read todowrite write", got, "Builtins map: %s", got)
	off := map[string]bool{}
	for _, n := range builtin.Names() {
		off[n] = false
	}
	tk = build(t, Config{Builtins: off, BuiltinOptions: builtin.Options{Workspace: filepath.Join(t.TempDir(), "missing")}})
	assert.Equal(t, 0, tk.Len(), "all off: %s", names(tk.Tools()))
}

// An unknown key in Config.Builtins would leave the tool it meant on
// (Builtins{"Bash": false} kept the unsandboxed bash): it is an error that
// names the key and lists the built-ins, with a did-you-mean for case.
func TestBuildUnknownBuiltinName(t *testing.T) {
	ws := t.TempDir()
	all := strings.Join(builtin.Names(), ", ")
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Builtins: map[string]bool{"Bash": false}},
			`toolkit: Config.Builtins: unknown built-in tool "Bash" (did you mean "bash"?); built-in tools: ` + all},
		{Config{Builtins: map[string]bool{"webfetc": false}},
			`toolkit: Config.Builtins: unknown built-in tool "webfetc" (did you mean "webfetch"?); built-in tools: ` + all},
		{Config{Builtins: map[string]bool{"no_such_tool": false, "read": true}},
			`toolkit: Config.Builtins: unknown built-in tool "no_such_tool"; built-in tools: ` + all},
		{Config{Builtins: map[string]bool{"zz": true, "WebFetch": false, "bash": false}, NoBuiltins: true},
			`toolkit: Config.Builtins: unknown built-in tool "WebFetch" (did you mean "webfetch"?); unknown built-in tool "zz"; built-in tools: ` + all},
	} {
		tc.cfg.BuiltinOptions.Workspace = ws
		tk, err := Build(context.Background(), &tc.cfg)
		if err == nil {
			tk.Close()
			assert.Fail(t, "Build returned no error", "Builtins %v: no error; tools %s", tc.cfg.Builtins, names(tk.Tools()))
			continue
		}
		assert.EqualError(t, err, tc.want, "Builtins %v:\n got %s\nwant %s", tc.cfg.Builtins, err, tc.want)
		assert.ErrorIs(t, err, toolnexus.ErrUnknownTool, "Builtins %v: %v does not wrap ErrUnknownTool", tc.cfg.Builtins, err)
	}
}

type cmdArgs struct {
	Command string `json:"command"`
}

func TestBuildNativeReplacesBuiltin(t *testing.T) {
	sandboxed, err := toolnexus.NewTool("bash", "Run a command in the sandbox.", func(_ context.Context, a cmdArgs) (string, error) {
		return "sandboxed: " + a.Command, nil
	})
	require.NoError(t, err)
	extra, _ := toolnexus.NewTool("mine", "My tool.", func(context.Context, cmdArgs) (string, error) { return "", nil })
	tk := build(t, Config{Tools: []toolnexus.Tool{sandboxed, extra}, Skills: []string{examples}})
	got, ok := tk.Get("bash")
	require.True(t, ok, "bash = %+v", got)
	require.Equal(t, "native", got.Source, "bash = %+v", got)
	require.Equal(t, "Run a command in the sandbox.", got.Description, "bash = %+v", got)
	res := tk.Execute(context.Background(), "bash", json.RawMessage(`{"command":"ls"}`))
	assert.Equal(t, "sandboxed: ls", res.Output, "bash output = %q", res.Output)
	n := names(tk.Tools())
	assert.Equal(t, "apply_patch bash edit glob grep mine question read skill todowrite webfetch write", n, "tools = %s", n)
	assert.NotContains(t, tk.SkillsPrompt(), "bash", "skills prompt:\n%s", tk.SkillsPrompt())
	assert.Contains(t, tk.SkillsPrompt(), "- **hello-world**: Greets someone", "skills prompt:\n%s", tk.SkillsPrompt())
}

func TestBuildConflicts(t *testing.T) {
	named := func(name string) toolnexus.Tool {
		tool, err := toolnexus.NewTool(name, "x", func(context.Context, cmdArgs) (string, error) { return "", nil })
		require.NoError(t, err)
		return tool
	}
	ctx := context.Background()
	_, err := Build(ctx, &Config{Tools: []toolnexus.Tool{named("skill")}, Skills: []string{examples}, NoBuiltins: true})
	if assert.ErrorIs(t, err, toolnexus.ErrDuplicateTool, "native vs skill: %v", err) {
		assert.Contains(t, err.Error(), `"skill" is both in Config.Tools and the name of a skill tool`, "native vs skill: %v", err)
	}
	// without skills the name is free
	tk := build(t, Config{Tools: []toolnexus.Tool{named("skill")}, NoBuiltins: true})
	got, _ := tk.Get("skill")
	assert.Equal(t, "native", got.Source, "skill without skills = %+v", got)
	_, err = Build(ctx, &Config{Tools: []toolnexus.Tool{named("a"), named("a")}, NoBuiltins: true})
	if assert.ErrorIs(t, err, toolnexus.ErrDuplicateTool, "two natives: %v", err) {
		assert.Contains(t, err.Error(), `"a" is given twice by Config.Tools`, "two natives: %v", err)
	}
	_, err = Build(ctx, &Config{Tools: []toolnexus.Tool{{Name: "bad name", Handler: toolnexus.HandlerFunc(nil)}}, NoBuiltins: true})
	assert.ErrorIs(t, err, toolnexus.ErrInvalidName, "invalid name: %v", err)
}

func TestPrecedence(t *testing.T) {
	tool := func(name, src string) toolnexus.Tool { return toolnexus.Tool{Name: name, Source: src} }
	a := &assembly{byName: map[string]placed{}}
	steps := []struct {
		t   toolnexus.Tool
		src source
	}{
		{tool("x", "builtin"), fromBuiltin}, {tool("x", "skill"), fromSkill}, {tool("x", "mcp"), fromMCP},
		{tool("y", "mcp"), fromMCP}, {tool("y", "skill"), fromSkill}, {tool("y", "builtin"), fromBuiltin},
		{tool("z", "skill"), fromSkill}, {tool("z", "builtin"), fromBuiltin},
		{tool("n", "builtin"), fromBuiltin}, {tool("n", "native"), fromNative},
		{tool("m", "native"), fromNative}, {tool("m", "builtin"), fromBuiltin},
	}
	for _, s := range steps {
		require.NoError(t, a.put(s.t, s.src), "put %s from %s", s.t.Name, s.src)
	}
	want := map[string]string{"x": "mcp", "y": "mcp", "z": "skill", "n": "native", "m": "native"}
	for name, src := range want {
		got := a.byName[name].tool.Source
		assert.Equal(t, src, got, "%s: winner from %q, want %q", name, got, src)
	}
	assert.Equal(t, "x y z n m", strings.Join(a.order, " "), "order = %v", a.order)
	err := a.put(tool("m", "mcp"), fromMCP)
	if assert.ErrorIs(t, err, toolnexus.ErrDuplicateTool, "native vs MCP: %v", err) {
		assert.EqualError(t, err, `toolkit: duplicate tool: "m" is both in Config.Tools and the name of a MCP tool`, "native vs MCP: %v", err)
	}
}

func TestBuildMissingSkillsFolder(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	_, err := Build(context.Background(), &Config{Skills: []string{examples, missing}})
	var re *skill.RootError
	require.ErrorAs(t, err, &re, "err = %v", err)
	require.ErrorIs(t, err, fs.ErrNotExist, "err = %v", err)
	want := `skill: skills folder "` + missing + `": does not exist`
	assert.EqualError(t, err, want, "err = %q, want %q", err, want)
}

func TestBuildMissingWorkspace(t *testing.T) {
	_, err := Build(context.Background(), &Config{BuiltinOptions: builtin.Options{Workspace: filepath.Join(t.TempDir(), "gone")}})
	if assert.Error(t, err, "err = %v", err) {
		assert.True(t, strings.HasPrefix(err.Error(), "builtin: workspace"), "err = %v", err)
	}
}

func TestBuildCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Build(ctx, &Config{})
	assert.ErrorIs(t, err, context.Canceled, "err = %v", err)
}

func TestBuildSkillDataAndSkipped(t *testing.T) {
	tk := build(t, Config{
		NoBuiltins: true,
		Skills:     []string{examples},
		SkillData:  []skill.Skill{{Name: "hello-world", Description: "data wins"}, {Name: "notes", Resources: []string{"a.md"}}},
		SkillFiles: 1,
	})
	got := tk.Skills().Names()
	assert.Equal(t, "hello-world notes", strings.Join(got, " "), "skills = %v", got)
	sk, _ := tk.Skills().Get("hello-world")
	assert.Equal(t, "data wins", sk.Description, "hello-world = %+v", sk)
	skipped := tk.Skills().Skipped()
	if assert.Len(t, skipped, 1, "skipped = %+v", skipped) {
		assert.Equal(t, skill.DuplicateName, skipped[0].Reason, "skipped = %+v", skipped)
	}
	want := "- **hello-world**: data wins"
	p := tk.SkillsPrompt()
	assert.True(t, strings.HasSuffix(p, "## Available Skills\n"+want), "prompt:\n%s", p)
}

func TestBuildRegistryOptions(t *testing.T) {
	tk := build(t, Config{Skills: []string{examples}, NoBuiltins: true, Registry: toolnexus.Options{MaxArgumentBytes: 16}})
	res := tk.Execute(context.Background(), "skill", json.RawMessage(`{"name":"hello-world"}`))
	assert.True(t, res.IsError, "limit not applied: %+v", res)
	assert.Contains(t, res.Output, "more than the limit of 16 bytes", "limit not applied: %+v", res)
}

func TestClose(t *testing.T) {
	tk := build(t, Config{NoBuiltins: true})
	var order []int
	boom := errors.New("boom")
	tk.onClose(func() error { order = append(order, 1); return nil })
	tk.onClose(func() error { order = append(order, 2); return boom })
	err := tk.Close()
	assert.ErrorIs(t, err, boom, "Close = %v", err)
	err = tk.Close()
	if assert.ErrorIs(t, err, boom, "second Close = %v, order %v", err, order) {
		if assert.Len(t, order, 2, "second Close = %v, order %v", err, order) {
			assert.Equal(t, 2, order[0], "second Close = %v, order %v", err, order)
		}
	}
}

// Build(ctx, nil) is the zero Config: the built-ins, in the current
// directory.
func TestBuildNilConfig(t *testing.T) {
	tk, err := Build(context.Background(), nil)
	require.NoError(t, err)
	defer tk.Close()
	got, want := names(tk.Tools()), strings.Join(builtin.Names(), " ")
	assert.Equal(t, want, got, "tools = %s, want %s", got, want)
}

// A tool that changes (an MCP server relisted it differently) or trades
// places with the built-in it shadows is never missing from the registry:
// an Execute running meanwhile never gets ErrUnknownTool.
func TestSyncSwapsToolsAtomically(t *testing.T) {
	mk := func(name, source, out string) toolnexus.Tool {
		return toolnexus.Tool{Name: name, Description: out, Source: source,
			Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return out, nil })}
	}
	lowPatch := mk("apply_patch", builtin.Source, "built-in")
	tk := &Toolkit{Registry: toolnexus.NewRegistry(), native: map[string]bool{},
		lower: map[string]toolnexus.Tool{"apply_patch": lowPatch}, mcpTools: map[string]toolnexus.Tool{}}
	require.NoError(t, tk.Add(lowPatch))
	versions := [][]toolnexus.Tool{
		{mk("srv_echo", "mcp", "a")},
		{mk("srv_echo", "mcp", "b"), mk("apply_patch", "mcp", "mcp patch")},
	}
	tk.syncTools(versions[0])

	ctx := context.Background()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var calls atomic.Int64
	var missing atomic.Value // the first "name: output" of an unknown-tool result
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				for _, name := range []string{"srv_echo", "apply_patch"} {
					res := tk.Execute(ctx, name, nil)
					if errors.Is(res.Err, toolnexus.ErrUnknownTool) {
						missing.CompareAndSwap(nil, name+": "+res.Output)
					}
					calls.Add(1)
				}
			}
		})
	}
	swaps := 0
	for ; swaps < 2000 || calls.Load() < 2000; swaps++ {
		tk.syncTools(versions[swaps%2])
	}
	close(stop)
	wg.Wait()
	m := missing.Load()
	assert.False(t, m != nil, "during %d swaps, %d calls: a call found its tool missing: %s", swaps, calls.Load(), m)
	got := tk.Names()
	assert.Equal(t, []string{"apply_patch", "srv_echo"}, got, "tools after the swaps = %v, want [apply_patch srv_echo]", got)
}

// An MCP tool whose name the caller took after Build is left out; the
// server's other tools still come in, in the same Replace.
func TestSyncLeavesOutNameTakenByCaller(t *testing.T) {
	answer := func(name, source string) toolnexus.Tool {
		return toolnexus.Tool{Name: name, Source: source,
			Handler: toolnexus.HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return source, nil })}
	}
	tk := &Toolkit{Registry: toolnexus.NewRegistry(), native: map[string]bool{}, lower: map[string]toolnexus.Tool{},
		mcpTools: map[string]toolnexus.Tool{}}
	tk.syncTools([]toolnexus.Tool{answer("srv_old", "mcp")})
	require.NoError(t, tk.Add(answer("srv_x", "caller")))
	tk.syncTools([]toolnexus.Tool{answer("srv_x", "mcp"), answer("srv_y", "mcp")})
	got := tk.Names()
	assert.Equal(t, []string{"srv_x", "srv_y"}, got, "tools = %v, want [srv_x srv_y]", got)
	res := tk.Execute(context.Background(), "srv_x", nil)
	assert.Equal(t, "caller", res.Output, "srv_x = %+v, want the caller's tool", res)
	_, ok := tk.mcpTools["srv_x"]
	if assert.False(t, ok, "MCP tools tracked = %v, want only srv_y", tk.mcpTools) {
		assert.Len(t, tk.mcpTools, 1, "MCP tools tracked = %v, want only srv_y", tk.mcpTools)
	}
}
