package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus/internal/golden"
	"github.com/toolnexus/toolnexus/toolkit"
)

// TestVersion: --version and version print the module version the binary
// was built with, as `go version -m` reads it.
func TestVersion(t *testing.T) {
	out, err := exec.Command("go", "version", "-m", bin).Output()
	require.NoError(t, err)
	want := "(devel)"
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) >= 3 && f[0] == "mod" && f[1] == "github.com/toolnexus/toolnexus" {
			want = f[2]
		}
	}
	cli(t, "", "--version").expect(t, 0, "toolnexus "+want+"\n", "")
	cli(t, "", "version").expect(t, 0, "toolnexus "+want+"\n", "")
}

// TestHelpEveryCommand: every command, help included, has --help, and
// `toolnexus help CMD` prints the same.
func TestHelpEveryCommand(t *testing.T) {
	for _, c := range commands {
		o := cli(t, "", c.name, "--help")
		assert.Equal(t, 0, o.code, c.name)
		assert.True(t, strings.HasPrefix(o.stdout, "Usage: toolnexus "+c.name+" "), o.stdout)
		assert.Equal(t, o, cli(t, "", "help", c.name), c.name)
		assert.Contains(t, cli(t, "").stderr, "\n  "+c.name+" ", "the command list names %s", c.name)
	}
	assert.Contains(t, cli(t, "", "help", "--help").stdout, "Usage: toolnexus help [COMMAND]\n")
}

// TestDidYouMean: every name the CLI looks up suggests the closest one.
func TestDidYouMean(t *testing.T) {
	o := cli(t, "", "tols")
	assert.True(t, strings.HasPrefix(o.stderr, "toolnexus: unknown command \"tols\" (did you mean \"tools\"?)\n"), o.stderr)
	assert.Equal(t, 2, o.code)
	o = cli(t, "", "help", "skils")
	assert.True(t, strings.HasPrefix(o.stderr, "toolnexus: unknown command \"skils\" (did you mean \"skills\"?)\n"), o.stderr)
	cli(t, "", "tools", "--skils", "x").expect(t, 2, "",
		"toolnexus tools: flag provided but not defined: --skils (did you mean --skills?)\nRun 'toolnexus tools --help' for usage.\n")
	cli(t, "", "tools", "-skils=x").expect(t, 2, "",
		"toolnexus tools: flag provided but not defined: -skils (did you mean --skills?)\nRun 'toolnexus tools --help' for usage.\n")
	cli(t, "", "serve", "--max-sessions=many").expect(t, 2, "",
		"toolnexus serve: invalid value \"many\" for flag --max-sessions: parse error\nRun 'toolnexus serve --help' for usage.\n")
	cli(t, "", "serve", "--http").expect(t, 2, "", "toolnexus serve: flag needs an argument: --http\nRun 'toolnexus serve --help' for usage.\n")
	cli(t, "", "tools", "--format", "gemni").expect(t, 2, "",
		"toolnexus tools: unknown format \"gemni\" (did you mean \"gemini\"?); formats: anthropic, gemini, mcp, openai-chat (or openai), openai-responses (or responses)\n")
	builtins := "apply_patch, bash, edit, glob, grep, question, read, todowrite, webfetch, write"
	cli(t, "", "call", "bsh").expect(t, 1, "", `unknown tool "bsh"; available tools: `+builtins+"\n"+`toolnexus: did you mean "bash"?`+"\n")
	cli(t, "", "call", "skill", `{"name":"helo-world"}`, "--skills", "examples/skills").expect(t, 1, "",
		`unknown skill "helo-world"; available skills: hello-world`+"\n"+`toolnexus: did you mean "hello-world"?`+"\n")
}

// buildErr is the error toolkit.Build gives for cfg, as the CLI prints it,
// run in the repository root as the CLI is.
func buildErr(t *testing.T, cfg toolkit.Config) string {
	t.Helper()
	t.Chdir(repoRoot)
	_, err := toolkit.Build(context.Background(), &cfg)
	require.Error(t, err)
	return err.Error() + "\n"
}

const noToolsHint = "toolnexus tools: no tools; add some with --skills DIR, --mcp FILE or --openapi FILE_OR_URL, or drop --no-builtins\n"

// TestHints: a command that would print nothing says why on stderr.
func TestHints(t *testing.T) {
	hint := "toolnexus skills: no folder to search; give one with --skills DIR (for example --skills examples/skills)\n"
	cli(t, "", "skills").expect(t, 0, "Skills (0):\n  none\nSkipped (0):\n  none\n", hint)
	cli(t, "", "skills", "--prompt").expect(t, 0, "No skills are available.\n", hint)
	cli(t, "", "tools", "--no-builtins").expect(t, 0, "[]\n", noToolsHint)
}

// TestToolsExitWhenMCPServerFailed: a server that cannot start is a
// warning and exit status 1; the tools that loaded are still printed.
func TestToolsExitWhenMCPServerFailed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"mcpServers": {"gone": {"command": ["/nonexistent/toolnexus-test"]}}}`), 0o644))
	o := cli(t, "", "tools", "--no-builtins", "--mcp", path)
	assert.Equal(t, 1, o.code)
	assert.Equal(t, "[]\n", o.stdout)
	assert.True(t, strings.HasPrefix(o.stderr, `toolnexus: warning: MCP server "gone" failed: `), o.stderr)
}

// TestLibraryErrorsAsTheyAre: the CLI prints a library's error unchanged
// (it names its own package); its own errors start "toolnexus COMMAND: ".
func TestLibraryErrorsAsTheyAre(t *testing.T) {
	cli(t, "", "reply", "no/such/reply.json").expect(t, 1, "", "toolnexus reply: open no/such/reply.json: no such file or directory\n")
	o := cli(t, "", "call", "bash", `{"command":"true"}`, "--disable", "Bash")
	assert.Equal(t, 2, o.code)
	assert.True(t, strings.HasPrefix(o.stderr, `toolnexus call: --disable "Bash": no tool has that name (did you mean "bash"?); tools: `), o.stderr)
	path := filepath.Join(t.TempDir(), "mcp.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"mcpServers": {"y": 5}}`), 0o644))
	_, err := toolkit.Build(context.Background(), &toolkit.Config{MCPFile: path})
	require.Error(t, err)
	cli(t, "", "tools", "--mcp", path).expect(t, 1, "", err.Error()+"\n")
	cli(t, "", "tools", "--skills", "no/such/dir").expect(t, 1, "", buildErr(t, toolkit.Config{Skills: []string{"no/such/dir"}}))
}

// TestReply runs each provider's saved reply, whole and streamed, from a
// file and from stdin, with and without --format, against golden files.
func TestReply(t *testing.T) {
	dir := filepath.Join("cmd", "toolnexus", "testdata", "reply")
	for _, p := range []string{"openai-chat", "openai-responses", "anthropic", "gemini"} {
		for _, ext := range []string{".json", ".sse"} {
			file := filepath.Join(dir, p+ext)
			o := cli(t, "", "reply", file, "--workspace", dir, "--indent")
			require.Equal(t, 0, o.code, "%s: %s", file, o.stderr)
			assert.Empty(t, o.stderr)
			golden.Check(t, filepath.Join("testdata", "reply", p+".golden"), []byte(o.stdout))
			in, err := os.ReadFile(filepath.Join(repoRoot, file))
			require.NoError(t, err)
			assert.Equal(t, o, cli(t, string(in), "reply", "--format", p, "--workspace", dir, "--indent", "-"), file)
		}
	}
}

// TestReplyBadInput: an unreadable reply, a cut-off stream and a reply
// without calls.
func TestReplyBadInput(t *testing.T) {
	notJSON := `exec: OpenAI reply: not valid JSON at offset 1: invalid character 'o' in literal null; the reply is "not json\n"` + "\n"
	cli(t, "not json\n", "reply").expect(t, 1, "", notJSON)
	cli(t, "not json\n", "reply", "--format", "openai-chat").expect(t, 1, "", notJSON)
	cli(t, `{"choices":[`, "reply").expect(t, 1, "", "exec: OpenAI assistant message: unexpected end of JSON input\n")
	cli(t, "{}", "reply", "--format", "xml").expect(t, 2, "",
		"toolnexus reply: unknown format \"xml\"; formats: anthropic, gemini, openai-chat (or openai), openai-responses (or responses)\n")
	cli(t, `{"role":"assistant","content":"Hi."}`, "reply").expect(t, 0, "[]\n", "toolnexus reply: the reply has no tool calls\n")
	sse, err := os.ReadFile(filepath.Join("testdata", "reply", "anthropic.sse"))
	require.NoError(t, err)
	cut := string(sse[:bytes.Index(sse, []byte(`"toolu_02"`))]) // in the second call
	o := cli(t, cut, "reply")
	assert.Equal(t, 1, o.code)
	assert.Contains(t, o.stdout, `"tool_use_id":"toolu_01"`)
	assert.True(t, strings.HasPrefix(o.stderr, "exec: stream incomplete"), o.stderr)
}

// TestReplyNothingAnswered: a reply that fails before any call ran prints
// nothing on standard output, only the error; exec's advice to use other
// methods names the --format instead.
func TestReplyNothingAnswered(t *testing.T) {
	dir := filepath.Join("cmd", "toolnexus", "testdata", "reply")
	cli(t, "", "reply", "--format", "anthropic", filepath.Join(dir, "openai-chat.json")).expect(t, 1, "",
		`exec: Anthropic reply: it looks like an OpenAI Chat Completions reply (it has "tool_calls"); use --format openai-chat`+"\n")
	cli(t, "", "reply", "--format", "gemini", filepath.Join(dir, "anthropic.json")).expect(t, 1, "",
		`exec: Gemini reply: it looks like an Anthropic Messages reply (it has a "tool_use" content block); use --format anthropic`+"\n")
	cli(t, "", "reply", "--format", "anthropic", filepath.Join(dir, "openai-chat.sse")).expect(t, 1, "",
		`exec: stream incomplete: Anthropic stream: it looks like an OpenAI Chat Completions stream (it has "object":"chat.completion.chunk"); use --format openai-chat`+"\n")
	body, err := os.ReadFile(filepath.Join("testdata", "reply", "openai-chat.json"))
	require.NoError(t, err)
	cli(t, string(body[:len(body)/2]), "reply", "--format", "openai-chat").expect(t, 1, "", "exec: OpenAI assistant message: unexpected end of JSON input\n")
}

// TestUsageLineNamesEveryFlag: each command's usage line names every flag
// its flag list has (serve's limits stand together as [limits]), and
// reply's help says plainly where the reply comes from.
func TestUsageLineNamesEveryFlag(t *testing.T) {
	limits := []string{"session-timeout", "max-sessions", "max-streams", "max-session-calls", "max-body",
		"max-connections", "read-timeout", "read-header-timeout", "idle-timeout"}
	for _, c := range commands {
		fs, _ := c.flagSet()
		fs.VisitAll(func(f *flag.Flag) {
			if c.name == "serve" && slices.Contains(limits, f.Name) {
				assert.Contains(t, c.args, "[limits]")
				return
			}
			assert.Regexp(t, `(\[|\| )--`+regexp.QuoteMeta(f.Name)+`[ \]|]`, c.args, "the usage line of %s names --%s", c.name, f.Name)
		})
	}
	help := cli(t, "", "reply", "--help").stdout
	assert.Contains(t, help, "Reads a model reply from FILE, or from standard input when FILE is -\nor not given")
}
