package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/builtin"
	"github.com/toolnexus/toolnexus/render"
	"github.com/toolnexus/toolnexus/skill"
	"github.com/toolnexus/toolnexus/toolkit"
)

// bin is the toolnexus binary built once for the tests.
var bin string

// repoRoot is the module root; commands run there so that
// --skills examples/skills works as in the README.
var repoRoot, _ = filepath.Abs(filepath.Join("..", ".."))

func TestMain(m *testing.M) {
	if os.Getenv(followEnv) == "1" {
		follow(os.Args[1])
		return
	}
	dir, err := os.MkdirTemp("", "toolnexus-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "toolnexus")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building toolnexus:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type outcome struct {
	stdout, stderr string
	code           int
}

// cli runs the binary in the repository root with stdin.
func cli(t *testing.T, stdin string, args ...string) outcome {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = repoRoot
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running %v: %v", args, err)
	}
	return outcome{out.String(), errb.String(), code}
}

func (o outcome) expect(t *testing.T, code int, stdout, stderr string) {
	t.Helper()
	if o.code != code || o.stdout != stdout || o.stderr != stderr {
		t.Errorf("got exit %d\nstdout: %q\nstderr: %q\nwant exit %d\nstdout: %q\nstderr: %q",
			o.code, o.stdout, o.stderr, code, stdout, stderr)
	}
}

// inProcess renders what the binary should print, with the library.
func inProcess(t *testing.T, cfg toolkit.Config, format string) string {
	t.Helper()
	tk, err := toolkit.Build(context.Background(), &cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	tools := tk.Tools()
	var b []byte
	switch format {
	case "openai-chat":
		b = render.OpenAI(tools).AppendJSON(nil)
	case "openai-responses":
		b = render.OpenAIResponses(tools).AppendJSON(nil)
	case "anthropic":
		v, err := render.Anthropic(tools)
		if err != nil {
			t.Fatal(err)
		}
		b = v.AppendJSON(nil)
	case "gemini":
		v, err := render.Gemini(tools)
		if err != nil {
			t.Fatal(err)
		}
		b = v.AppendJSON(nil)
	case "mcp":
		b = render.MCP(tools).AppendJSON(nil)
	default:
		t.Fatalf("no format %q", format)
	}
	return string(b) + "\n"
}

func toolNames(t *testing.T, out string) string {
	t.Helper()
	var defs []struct {
		Function struct{ Name string } `json:"function"`
	}
	if err := json.Unmarshal([]byte(out), &defs); err != nil {
		t.Fatalf("output is not the OpenAI tools array: %v\n%s", err, out)
	}
	var names []string
	for _, d := range defs {
		names = append(names, d.Function.Name)
	}
	return strings.Join(names, " ")
}

func TestToolsReadmeCommand(t *testing.T) {
	o := cli(t, "", "tools", "--skills", "examples/skills")
	if o.code != 0 || o.stderr != "" {
		t.Fatalf("exit %d, stderr %q", o.code, o.stderr)
	}
	if got, want := toolNames(t, o.stdout), "apply_patch bash edit glob grep question read skill todowrite webfetch write"; got != want {
		t.Errorf("names = %s\nwant    %s", got, want)
	}
	want := inProcess(t, toolkit.Config{Skills: []string{filepath.Join(repoRoot, "examples", "skills")},
		BuiltinOptions: builtin.Options{Workspace: repoRoot}}, "openai-chat")
	if o.stdout != want {
		t.Errorf("binary output differs from render.OpenAI of toolkit.Build")
	}
}

func TestToolsFormats(t *testing.T) {
	ws := t.TempDir()
	cfg := toolkit.Config{Skills: []string{filepath.Join(repoRoot, "examples", "skills")}, BuiltinOptions: builtin.Options{Workspace: ws}}
	// The canonical names, then the aliases kept from before: openai is
	// openai-chat, responses is openai-responses.
	for _, f := range []string{"openai-chat", "openai-responses", "anthropic", "gemini", "mcp", "openai", "responses"} {
		t.Run(f, func(t *testing.T) {
			canonical := map[string]string{"openai": "openai-chat", "responses": "openai-responses"}[f]
			if canonical == "" {
				canonical = f
			}
			o := cli(t, "", "tools", "--skills", "examples/skills", "--workspace", ws, "--format", f)
			o.expect(t, 0, inProcess(t, cfg, canonical), "")
			if !json.Valid([]byte(o.stdout)) {
				t.Errorf("not JSON: %s", o.stdout)
			}
			ind := cli(t, "", "tools", "--format="+f, "--indent", "--skills=examples/skills", "--workspace", ws)
			var want bytes.Buffer
			if err := json.Indent(&want, []byte(strings.TrimSuffix(o.stdout, "\n")), "", "  "); err != nil {
				t.Fatal(err)
			}
			ind.expect(t, 0, want.String()+"\n", "")
		})
	}
}

func TestToolsStrict(t *testing.T) {
	o := cli(t, "", "tools", "--no-builtins", "--skills", "examples/skills", "--strict")
	want := `[{"type":"function","function":{"name":"skill",`
	if o.code != 0 || !strings.HasPrefix(o.stdout, want) || !strings.Contains(o.stdout, `"strict":true`) {
		t.Errorf("strict: exit %d\n%s%s", o.code, o.stdout, o.stderr)
	}
	cli(t, "", "tools", "--strict", "--format", "gemini").expect(t, 2, "",
		"toolnexus tools: --strict applies to the openai-chat, openai-responses and anthropic formats, not \"gemini\"\n")
	for _, f := range []string{"openai", "responses", "openai-chat", "openai-responses", "anthropic"} {
		o := cli(t, "", "tools", "--no-builtins", "--skills", "examples/skills", "--strict", "--format", f)
		if o.code != 0 || !strings.Contains(o.stdout, `"strict":true`) {
			t.Errorf("--strict --format %s: exit %d\n%s%s", f, o.code, o.stdout, o.stderr)
		}
	}
}

func TestToolsSwitches(t *testing.T) {
	o := cli(t, "", "tools", "--no-builtins", "--skills", "examples/skills")
	if got := toolNames(t, o.stdout); got != "skill" || o.code != 0 {
		t.Errorf("--no-builtins: %q exit %d %s", got, o.code, o.stderr)
	}
	o = cli(t, "", "tools", "--disable", "bash,webfetch", "--disable=read", "--skills", "examples/skills")
	if got := toolNames(t, o.stdout); got != "apply_patch edit glob grep question skill todowrite write" || o.code != 0 {
		t.Errorf("--disable: %q exit %d %s", got, o.code, o.stderr)
	}
	o = cli(t, "", "tools", "--no-builtins", "--disable", "skill", "--skills", "examples/skills")
	o.expect(t, 0, "[]\n", noToolsHint)
	// A name that matches no tool is a usage error, as an unknown key of
	// toolkit.Config.Builtins is a Build error: "Bash" must not leave bash on.
	all := "apply_patch, bash, edit, glob, grep, question, read, skill, todowrite, webfetch, write"
	cli(t, "", "tools", "--no-builtins", "--disable", "skill,typo", "--skills", "examples/skills").expect(t, 2, "",
		"toolnexus tools: --disable \"typo\": no tool has that name; tools: "+all+"\n")
	cli(t, "", "tools", "--disable", "Bash,webfetch,zz", "--skills", "examples/skills").expect(t, 2, "",
		"toolnexus tools: --disable \"Bash\": no tool has that name (did you mean \"bash\"?); --disable \"zz\": no tool has that name; tools: "+all+"\n")
}

func TestToolsBadInput(t *testing.T) {
	cli(t, "", "tools", "--skills", "no/such/dir").expect(t, 1, "", buildErr(t, toolkit.Config{Skills: []string{"no/such/dir"}}))
	cli(t, "", "tools", "--skills", "go.mod").expect(t, 1, "", buildErr(t, toolkit.Config{Skills: []string{"go.mod"}}))
	cli(t, "", "tools", "--format", "xml").expect(t, 2, "",
		"toolnexus tools: unknown format \"xml\"; formats: anthropic, gemini, mcp, openai-chat (or openai), openai-responses (or responses)\n")
	cli(t, "", "tools", "--bogus").expect(t, 2, "",
		"toolnexus tools: flag provided but not defined: --bogus\nRun 'toolnexus tools --help' for usage.\n")
	cli(t, "", "tools", "extra").expect(t, 2, "",
		"toolnexus tools: unexpected argument \"extra\"\nRun 'toolnexus tools --help' for usage.\n")
	ws := filepath.Join(repoRoot, "no/such/ws")
	cli(t, "", "tools", "--workspace", ws).expect(t, 1, "", buildErr(t, toolkit.Config{BuiltinOptions: builtin.Options{Workspace: ws}}))
}

func skillGolden(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "skill", "testdata", "golden", "hello-world.txt"))
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(repoRoot, "examples", "skills")
	s := strings.ReplaceAll(string(b), "file://$ROOT", "file://"+filepath.ToSlash(root))
	return strings.ReplaceAll(s, "$ROOT", root) + "\n"
}

func TestCallSkill(t *testing.T) {
	want := skillGolden(t)
	cli(t, "", "call", "skill", `{"name":"hello-world"}`, "--skills", "examples/skills").expect(t, 0, want, "")
	// flags first, arguments from stdin
	cli(t, `{"name": "hello-world"}`, "call", "--skills", "examples/skills", "--no-builtins", "skill", "-").expect(t, 0, want, "")
	// -- ends the flags
	cli(t, "", "call", "--skills=examples/skills", "--", "skill", `{"name":"hello-world"}`).expect(t, 0, want, "")
}

func TestCallBuiltin(t *testing.T) {
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("first line\nsecond line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := cli(t, "", "call", "read", `{"path":"notes.txt"}`, "--workspace", ws)
	if o.code != 0 || !strings.Contains(o.stdout, "second line") || o.stderr != "" {
		t.Errorf("read: exit %d\nstdout %q\nstderr %q", o.code, o.stdout, o.stderr)
	}
	o = cli(t, "", "call", "read", `{"path":"../outside.txt"}`, "--workspace", ws)
	if o.code != 1 || o.stdout != "" || o.stderr == "" {
		t.Errorf("read outside the workspace: exit %d\nstdout %q\nstderr %q", o.code, o.stdout, o.stderr)
	}
}

func TestCallJSON(t *testing.T) {
	o := cli(t, "", "call", "--json", "--skills", "examples/skills", "skill", `{"name":"nope"}`)
	o.expect(t, 1, `{"output":"unknown skill \"nope\"; available skills: hello-world","is_error":true}`+"\n", "")
	o = cli(t, "", "call", "--json", "--skills", "examples/skills", "skill", `{"name":"hello-world"}`)
	var res struct {
		Output  string `json:"output"`
		IsError bool   `json:"is_error"`
	}
	if err := json.Unmarshal([]byte(o.stdout), &res); err != nil || o.code != 0 || res.IsError || res.Output+"\n" != skillGolden(t) {
		t.Errorf("--json: exit %d, %v\n%s", o.code, err, o.stdout)
	}
}

func TestCallBadInput(t *testing.T) {
	builtins := "apply_patch, bash, edit, glob, grep, question, read, todowrite, webfetch, write"
	cli(t, "", "call", "nope").expect(t, 1, "", `unknown tool "nope"; available tools: `+builtins+"\n")
	cli(t, "", "call", "nope", "--no-builtins").expect(t, 1, "", `unknown tool "nope"; available tools: none`+"\n")
	cli(t, "", "call", "skill", `{"name":`, "--skills", "examples/skills").expect(t, 1, "",
		`invalid arguments for "skill": arguments are not valid JSON: unexpected end of input (truncated?)`+"\n")
	cli(t, "", "call", "skill", `[1,2]`, "--skills", "examples/skills").expect(t, 1, "",
		`invalid arguments for "skill": arguments must be a JSON object, got an array`+"\n")
	cli(t, "", "call", "skill", `{"nam":"hello-world"}`, "--skills", "examples/skills").expect(t, 1, "",
		`invalid arguments for "skill": unknown property "nam"; allowed: name; "name" is required`+"\n")
	cli(t, "", "call", "skill", `{"name":"nope"}`, "--skills", "examples/skills").expect(t, 1, "",
		`unknown skill "nope"; available skills: hello-world`+"\n")
	cli(t, "", "call", "skill", "{}", "--skills", "missing-skills").expect(t, 1, "", buildErr(t, toolkit.Config{Skills: []string{"missing-skills"}}))
	cli(t, "", "call").expect(t, 2, "", "toolnexus call: missing the tool NAME\nRun 'toolnexus call --help' for usage.\n")
	cli(t, "", "call", "skill", "{", "}").expect(t, 2, "",
		"toolnexus call: unexpected argument \"}\" (quote the JSON arguments as one word)\nRun 'toolnexus call --help' for usage.\n")
}

func TestSkills(t *testing.T) {
	cli(t, "", "skills", "--skills", "examples/skills").expect(t, 0,
		"Skills (1):\n  hello-world  examples/skills/hello-world/SKILL.md\n"+
			"      Greets someone by name using the bundled hello.sh script. Use it when the user asks for a greeting or wants to check that skills work.\n"+
			"Skipped (0):\n  none\n", "")
	_, err := skill.Discover(filepath.Join(repoRoot, "nowhere"))
	cli(t, "", "skills", "--skills", filepath.Join(repoRoot, "nowhere")).expect(t, 1, "", err.Error()+"\n")
	cli(t, "", "skills", "examples/skills").expect(t, 2, "",
		"toolnexus skills: unexpected argument \"examples/skills\" (give folders with --skills)\nRun 'toolnexus skills --help' for usage.\n")
	o := cli(t, "", "skills", "--prompt", "--skills", "examples/skills")
	if o.code != 0 || !strings.HasSuffix(o.stdout, "\n\n## Available Skills\n- **hello-world**: Greets someone by name using the bundled hello.sh script. Use it when the user asks for a greeting or wants to check that skills work.\n") {
		t.Errorf("--prompt: exit %d\n%s", o.code, o.stdout)
	}
}

func TestSkillsWithProblems(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"good/SKILL.md":    "---\nname: good\ndescription: |\n  Does good things.\n  Twice.\n---\nBody\n",
		"plain/SKILL.md":   "---\nname: plain\n---\n",
		"noname/SKILL.md":  "---\ndescription: x\n---\n",
		"broken/SKILL.md":  "---\nname: [\n---\n",
		"again/SKILL.md":   "---\nname: good\n---\n",
		"nofront/SKILL.md": "# just markdown\n",
	}
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// "good" has a description, but "again" (same name) is found first.
	p := func(s string) string { return filepath.Join(root, s, "SKILL.md") }
	// Discovery order is byte order of folder names: again, broken, good, nofront, noname, plain.
	want := "Skills (2):\n" +
		"  good  " + p("again") + "\n      (no description: not listed in the skills prompt)\n" +
		"  plain  " + p("plain") + "\n      (no description: not listed in the skills prompt)\n" +
		"Skipped (4):\n" +
		"  " + p("broken") + ": malformed YAML: yaml: line 2: did not find expected node content\n" +
		"  " + p("good") + ": duplicate name: skill \"good\" is already defined by " + p("again") + "\n" +
		"  " + p("nofront") + ": missing name: no YAML frontmatter: the file must start with a line ---\n" +
		"  " + p("noname") + ": missing name: the frontmatter has no name\n"
	o := cli(t, "", "skills", "--skills", root)
	o.expect(t, 0, want, "")
	if c := cli(t, "", "skills", "--strict", "--skills", root); c.code != 1 || c.stdout != o.stdout {
		t.Errorf("--strict: exit %d", c.code)
	}
	j := cli(t, "", "skills", "--json", "--skills", root)
	var inv struct {
		Skills []struct {
			Name, Path string
		}
		Skipped []struct {
			Path, Reason, Detail string
		}
	}
	if err := json.Unmarshal([]byte(j.stdout), &inv); err != nil || j.code != 0 {
		t.Fatalf("--json: %v exit %d\n%s", err, j.code, j.stdout)
	}
	if len(inv.Skills) != 2 || len(inv.Skipped) != 4 || inv.Skipped[0].Reason != "malformed YAML" || inv.Skipped[1].Reason != "duplicate name" || inv.Skipped[3].Reason != "missing name" {
		t.Errorf("--json inventory = %+v", inv)
	}
}

func TestHelp(t *testing.T) {
	for _, c := range []string{"tools", "call", "skills"} {
		for _, args := range [][]string{{c, "--help"}, {c, "-h"}, {"help", c}} {
			o := cli(t, "", args...)
			if o.code != 0 || o.stderr != "" || !strings.HasPrefix(o.stdout, "Usage: toolnexus "+c+" ") || !strings.Contains(o.stdout, "\nFlags:\n") {
				t.Errorf("%v: exit %d\n%s%s", args, o.code, o.stdout, o.stderr)
			}
		}
	}
	o := cli(t, "", "tools", "--help")
	for _, f := range []string{"--skills DIR", "--format FORMAT", "--no-builtins", "--disable NAME,...", "--indent", "--help"} {
		if !strings.Contains(o.stdout, "\n  "+f+"\n") {
			t.Errorf("tools --help lacks %q:\n%s", f, o.stdout)
		}
	}
	for _, args := range [][]string{{"--help"}, {"help"}, {"-h"}} {
		o := cli(t, "", args...)
		if o.code != 0 || !strings.Contains(o.stdout, "Commands:\n  tools ") {
			t.Errorf("%v: exit %d\n%s", args, o.code, o.stdout)
		}
	}
	o = cli(t, "")
	if o.code != 2 || o.stdout != "" || !strings.Contains(o.stderr, "Commands:") {
		t.Errorf("no args: exit %d\n%s", o.code, o.stderr)
	}
	o = cli(t, "", "frob")
	if o.code != 2 || !strings.HasPrefix(o.stderr, "toolnexus: unknown command \"frob\"\n") {
		t.Errorf("unknown command: exit %d\n%s", o.code, o.stderr)
	}
	o = cli(t, "", "help", "frob")
	if o.code != 2 || !strings.HasPrefix(o.stderr, "toolnexus: unknown command \"frob\"\n") {
		t.Errorf("help unknown: exit %d\n%s", o.code, o.stderr)
	}
}

func TestParseInterspersed(t *testing.T) {
	set, opts := callCommand.flagSet()
	pos, err := parseInterspersed(set, []string{"a", "--json", "b", "--skills", "x", "--", "--skills", "c"})
	if err != nil {
		t.Fatal(err)
	}
	o := opts.(*callOpts)
	if strings.Join(pos, " ") != "a b --skills c" || !o.asJSON || strings.Join(o.kit.skills.vals, ",") != "x" {
		t.Errorf("pos = %q, opts = %+v", pos, o)
	}
}
