package toolkit

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

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
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	t.Cleanup(func() { tk.Close() })
	return tk
}

func TestBuildDefaultList(t *testing.T) {
	tk := build(t, Config{Skills: []string{examples}})
	var rendered []struct {
		Function struct{ Name string } `json:"function"`
	}
	if err := json.Unmarshal(render.OpenAI(tk.Tools()).AppendJSON(nil), &rendered); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rendered {
		got = append(got, r.Function.Name)
	}
	want := "apply_patch bash edit glob grep question read skill todowrite webfetch write"
	if strings.Join(got, " ") != want {
		t.Errorf("rendered names = %s\nwant             %s", strings.Join(got, " "), want)
	}
	for _, tool := range tk.Tools() {
		wantSrc := builtin.Source
		if tool.Name == "skill" {
			wantSrc = "skill"
		}
		if tool.Source != wantSrc {
			t.Errorf("%s: Source = %q, want %q", tool.Name, tool.Source, wantSrc)
		}
	}
	res := tk.Execute(context.Background(), "skill", json.RawMessage(`{"name":"hello-world"}`))
	if res.IsError || !strings.HasPrefix(res.Output, `<skill_content name="hello-world">`) {
		t.Errorf("skill call: %+v", res)
	}
}

func TestBuildZeroConfigIsBuiltins(t *testing.T) {
	tk := build(t, Config{})
	if got, want := names(tk.Tools()), strings.Join(builtin.Names(), " "); got != want {
		t.Errorf("tools = %s, want %s", got, want)
	}
	if tk.Skills().Len() != 0 || tk.SkillsPrompt() != "No skills are available." {
		t.Errorf("skills = %v, prompt %q", tk.Skills().Names(), tk.SkillsPrompt())
	}
}

func TestBuildBuiltinSwitches(t *testing.T) {
	tk := build(t, Config{Skills: []string{examples}, NoBuiltins: true})
	if got := names(tk.Tools()); got != "skill" {
		t.Errorf("NoBuiltins: %s", got)
	}
	tk = build(t, Config{NoBuiltins: true})
	if tk.Len() != 0 {
		t.Errorf("NoBuiltins, no skills: %s", names(tk.Tools()))
	}
	tk = build(t, Config{Builtins: map[string]bool{"bash": false, "webfetch": false, "read": true}})
	if got := names(tk.Tools()); got != "apply_patch edit glob grep question read todowrite write" {
		t.Errorf("Builtins map: %s", got)
	}
	off := map[string]bool{}
	for _, n := range builtin.Names() {
		off[n] = false
	}
	tk = build(t, Config{Builtins: off, BuiltinOptions: builtin.Options{Workspace: filepath.Join(t.TempDir(), "missing")}})
	if tk.Len() != 0 {
		t.Errorf("all off: %s", names(tk.Tools()))
	}
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
			t.Errorf("Builtins %v: no error; tools %s", tc.cfg.Builtins, names(tk.Tools()))
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("Builtins %v:\n got %s\nwant %s", tc.cfg.Builtins, err, tc.want)
		}
		if !errors.Is(err, toolnexus.ErrUnknownTool) {
			t.Errorf("Builtins %v: %v does not wrap ErrUnknownTool", tc.cfg.Builtins, err)
		}
	}
}

type cmdArgs struct {
	Command string `json:"command"`
}

func TestBuildNativeReplacesBuiltin(t *testing.T) {
	sandboxed, err := toolnexus.NewTool("bash", "Run a command in the sandbox.", func(_ context.Context, a cmdArgs) (string, error) {
		return "sandboxed: " + a.Command, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	extra, _ := toolnexus.NewTool("mine", "My tool.", func(context.Context, cmdArgs) (string, error) { return "", nil })
	tk := build(t, Config{Tools: []toolnexus.Tool{sandboxed, extra}, Skills: []string{examples}})
	got, ok := tk.Get("bash")
	if !ok || got.Source != "native" || got.Description != "Run a command in the sandbox." {
		t.Fatalf("bash = %+v", got)
	}
	res := tk.Execute(context.Background(), "bash", json.RawMessage(`{"command":"ls"}`))
	if res.Output != "sandboxed: ls" {
		t.Errorf("bash output = %q", res.Output)
	}
	if n := names(tk.Tools()); n != "apply_patch bash edit glob grep mine question read skill todowrite webfetch write" {
		t.Errorf("tools = %s", n)
	}
	if strings.Contains(tk.SkillsPrompt(), "bash") || !strings.Contains(tk.SkillsPrompt(), "- **hello-world**: Greets someone") {
		t.Errorf("skills prompt:\n%s", tk.SkillsPrompt())
	}
}

func TestBuildConflicts(t *testing.T) {
	named := func(name string) toolnexus.Tool {
		tool, err := toolnexus.NewTool(name, "x", func(context.Context, cmdArgs) (string, error) { return "", nil })
		if err != nil {
			t.Fatal(err)
		}
		return tool
	}
	ctx := context.Background()
	_, err := Build(ctx, &Config{Tools: []toolnexus.Tool{named("skill")}, Skills: []string{examples}, NoBuiltins: true})
	if !errors.Is(err, toolnexus.ErrDuplicateTool) || !strings.Contains(err.Error(), `"skill" is both in Config.Tools and the name of a skill tool`) {
		t.Errorf("native vs skill: %v", err)
	}
	// without skills the name is free
	tk := build(t, Config{Tools: []toolnexus.Tool{named("skill")}, NoBuiltins: true})
	if got, _ := tk.Get("skill"); got.Source != "native" {
		t.Errorf("skill without skills = %+v", got)
	}
	_, err = Build(ctx, &Config{Tools: []toolnexus.Tool{named("a"), named("a")}, NoBuiltins: true})
	if !errors.Is(err, toolnexus.ErrDuplicateTool) || !strings.Contains(err.Error(), `"a" is given twice by Config.Tools`) {
		t.Errorf("two natives: %v", err)
	}
	_, err = Build(ctx, &Config{Tools: []toolnexus.Tool{{Name: "bad name", Handler: toolnexus.HandlerFunc(nil)}}, NoBuiltins: true})
	if !errors.Is(err, toolnexus.ErrInvalidName) {
		t.Errorf("invalid name: %v", err)
	}
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
		if err := a.put(s.t, s.src); err != nil {
			t.Fatalf("put %s from %s: %v", s.t.Name, s.src, err)
		}
	}
	want := map[string]string{"x": "mcp", "y": "mcp", "z": "skill", "n": "native", "m": "native"}
	for name, src := range want {
		if got := a.byName[name].tool.Source; got != src {
			t.Errorf("%s: winner from %q, want %q", name, got, src)
		}
	}
	if strings.Join(a.order, " ") != "x y z n m" {
		t.Errorf("order = %v", a.order)
	}
	if err := a.put(tool("m", "mcp"), fromMCP); !errors.Is(err, toolnexus.ErrDuplicateTool) ||
		err.Error() != `toolkit: duplicate tool: "m" is both in Config.Tools and the name of a MCP tool` {
		t.Errorf("native vs MCP: %v", err)
	}
}

func TestBuildMissingSkillsFolder(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	_, err := Build(context.Background(), &Config{Skills: []string{examples, missing}})
	var re *skill.RootError
	if !errors.As(err, &re) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v", err)
	}
	if want := `skill: skills folder "` + missing + `": does not exist`; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
}

func TestBuildMissingWorkspace(t *testing.T) {
	_, err := Build(context.Background(), &Config{BuiltinOptions: builtin.Options{Workspace: filepath.Join(t.TempDir(), "gone")}})
	if err == nil || !strings.HasPrefix(err.Error(), "builtin: workspace") {
		t.Errorf("err = %v", err)
	}
}

func TestBuildCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Build(ctx, &Config{}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
}

func TestBuildSkillDataAndSkipped(t *testing.T) {
	tk := build(t, Config{
		NoBuiltins: true,
		Skills:     []string{examples},
		SkillData:  []skill.Skill{{Name: "hello-world", Description: "data wins"}, {Name: "notes", Resources: []string{"a.md"}}},
		SkillFiles: 1,
	})
	if got := tk.Skills().Names(); strings.Join(got, " ") != "hello-world notes" {
		t.Errorf("skills = %v", got)
	}
	sk, _ := tk.Skills().Get("hello-world")
	if sk.Description != "data wins" {
		t.Errorf("hello-world = %+v", sk)
	}
	skipped := tk.Skills().Skipped()
	if len(skipped) != 1 || skipped[0].Reason != skill.DuplicateName {
		t.Errorf("skipped = %+v", skipped)
	}
	want := "- **hello-world**: data wins"
	if p := tk.SkillsPrompt(); !strings.HasSuffix(p, "## Available Skills\n"+want) {
		t.Errorf("prompt:\n%s", p)
	}
}

func TestBuildRegistryOptions(t *testing.T) {
	tk := build(t, Config{Skills: []string{examples}, NoBuiltins: true, Registry: toolnexus.Options{MaxArgumentBytes: 16}})
	res := tk.Execute(context.Background(), "skill", json.RawMessage(`{"name":"hello-world"}`))
	if !res.IsError || !strings.Contains(res.Output, "more than the limit of 16 bytes") {
		t.Errorf("limit not applied: %+v", res)
	}
}

func TestClose(t *testing.T) {
	tk := build(t, Config{NoBuiltins: true})
	var order []int
	boom := errors.New("boom")
	tk.onClose(func() error { order = append(order, 1); return nil })
	tk.onClose(func() error { order = append(order, 2); return boom })
	if err := tk.Close(); !errors.Is(err, boom) {
		t.Errorf("Close = %v", err)
	}
	if err := tk.Close(); !errors.Is(err, boom) || len(order) != 2 || order[0] != 2 {
		t.Errorf("second Close = %v, order %v", err, order)
	}
}

// Build(ctx, nil) is the zero Config: the built-ins, in the current
// directory.
func TestBuildNilConfig(t *testing.T) {
	tk, err := Build(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	if got, want := names(tk.Tools()), strings.Join(builtin.Names(), " "); got != want {
		t.Errorf("tools = %s, want %s", got, want)
	}
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
	if err := tk.Add(lowPatch); err != nil {
		t.Fatal(err)
	}
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
	if m := missing.Load(); m != nil {
		t.Errorf("during %d swaps, %d calls: a call found its tool missing: %s", swaps, calls.Load(), m)
	}
	if got := tk.Names(); !slices.Equal(got, []string{"apply_patch", "srv_echo"}) {
		t.Errorf("tools after the swaps = %v, want [apply_patch srv_echo]", got)
	}
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
	if err := tk.Add(answer("srv_x", "caller")); err != nil {
		t.Fatal(err)
	}
	tk.syncTools([]toolnexus.Tool{answer("srv_x", "mcp"), answer("srv_y", "mcp")})
	if got := tk.Names(); !slices.Equal(got, []string{"srv_x", "srv_y"}) {
		t.Errorf("tools = %v, want [srv_x srv_y]", got)
	}
	if res := tk.Execute(context.Background(), "srv_x", nil); res.Output != "caller" {
		t.Errorf("srv_x = %+v, want the caller's tool", res)
	}
	if _, ok := tk.mcpTools["srv_x"]; ok || len(tk.mcpTools) != 1 {
		t.Errorf("MCP tools tracked = %v, want only srv_y", tk.mcpTools)
	}
}
