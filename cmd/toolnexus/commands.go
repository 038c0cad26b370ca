package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/builtin"
	"github.com/toolnexus/toolnexus/internal/suggest"
	"github.com/toolnexus/toolnexus/mcp"
	renderpkg "github.com/toolnexus/toolnexus/render"
	"github.com/toolnexus/toolnexus/skill"
	"github.com/toolnexus/toolnexus/toolkit"
)

// kitFlags are the flags of every command that builds a toolkit.
type kitFlags struct {
	skills     listFlag
	noBuiltins bool
	disable    listFlag
	workspace  string
	mcp        string
	openapi    listFlag
	openapiURL string
}

func (k *kitFlags) register(fs *flag.FlagSet) {
	k.disable.split = true
	fs.Var(&k.skills, "skills", "search `DIR` for SKILL.md files (repeatable)")
	fs.BoolVar(&k.noBuiltins, "no-builtins", false, "leave out every built-in tool")
	fs.Var(&k.disable, "disable", "leave out the tools `NAME,...` (repeatable; a name that matches no tool is an error)")
	fs.StringVar(&k.workspace, "workspace", "", "confine the built-in file tools to `DIR` (default: the current directory)")
	fs.Var(&k.openapi, "openapi", "add one HTTP tool per operation of the OpenAPI 3.x document `FILE_OR_URL` (repeatable)")
	fs.StringVar(&k.openapiURL, "openapi-base-url", "", "send the OpenAPI tools' requests to `URL` instead of the documents' servers (its host may be local)")
	fs.StringVar(&k.mcp, "mcp", "", "add the tools of the MCP servers in config `FILE` (\"mcpServers\", \"servers\" or \"mcp\"), named server_tool")
}

// build assembles the toolkit the flags describe. --disable names of
// built-in tools go to toolkit.Config.Builtins; other names are removed
// from the built toolkit. A name that matches no tool is a usageError
// (exit 2) naming it, with a did-you-mean, and listing the tools.
func (k *kitFlags) build(e *env) (*toolkit.Toolkit, error) {
	cfg := toolkit.Config{
		Skills:         k.skills.vals,
		NoBuiltins:     k.noBuiltins,
		BuiltinOptions: builtin.Options{Workspace: k.workspace},
		MCPFile:        k.mcp,
		OpenAPI:        k.openapi.vals,
		OpenAPIBaseURL: k.openapiURL,
		MCPOptions:     &mcp.LoadOptions{OAuth: localOAuth(e).Handler},
	}
	builtins := builtin.Names()
	var others []string // --disable names that are not built-ins
	for _, n := range k.disable.vals {
		if !slices.Contains(builtins, n) {
			others = append(others, n)
			continue
		}
		if cfg.Builtins == nil {
			cfg.Builtins = map[string]bool{}
		}
		cfg.Builtins[n] = false
	}
	tk, err := toolkit.Build(e.ctx, &cfg)
	if err != nil {
		return nil, err
	}
	for _, st := range tk.MCPStatus() {
		if st.State == mcp.StateFailed {
			fmt.Fprintf(e.stderr, "toolnexus: warning: MCP server %q failed: %s\n", st.Name, st.Reason)
		}
		for _, sk := range st.Skipped {
			fmt.Fprintf(e.stderr, "toolnexus: warning: MCP server %q: skipped tool %s\n", st.Name, sk)
		}
		for _, n := range st.Notes {
			fmt.Fprintf(e.stderr, "toolnexus: warning: MCP server %q: tool %s\n", st.Name, n)
		}
	}
	for _, r := range tk.OpenAPI() {
		for _, sk := range r.Skipped {
			fmt.Fprintf(e.stderr, "toolnexus: openapi %s: skipped %s\n", r.Document, sk)
		}
	}
	known := append(tk.Names(), builtins...)
	var unknown []string
	for _, n := range others {
		if !slices.Contains(known, n) && !slices.Contains(unknown, n) {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		tk.Close()
		return nil, unknownDisable(e.cmd, unknown, known)
	}
	tk.Remove(others...)
	return tk, nil
}

// usageError is a mistake on the command line found after parsing; fail
// reports it with exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// unknownDisable is the usageError of command cmd for --disable names that
// match no tool: each name with a did-you-mean, then every tool name.
func unknownDisable(cmd string, unknown, known []string) error {
	slices.Sort(known)
	known = slices.Compact(known)
	var b strings.Builder
	b.WriteString("toolnexus " + cmd + ": ")
	for i, n := range unknown {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "--disable %q: no tool has that name%s", n, suggestion(n, known))
	}
	b.WriteString("; tools: " + strings.Join(known, ", "))
	return &usageError{b.String()}
}

// own marks an error of the command itself (not of a library, whose
// errors name their package): "toolnexus COMMAND: " + err.
func (e *env) own(err error) error { return fmt.Errorf("toolnexus %s: %w", e.cmd, err) }

// fail prints err to stderr as it is and returns exitFail (exitUsage for a
// usageError).
func fail(e *env, err error) int {
	fmt.Fprintln(e.stderr, err)
	var ue *usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitFail
}

// ---- tools ----

type toolsOpts struct {
	kit        kitFlags
	format     string
	indent     bool
	strict     bool
	renameKeys bool
}

var toolsCommand = &command{
	name:    "tools",
	args:    "[--skills DIR]... [--mcp FILE] [--openapi FILE_OR_URL]... [--openapi-base-url URL] [--format openai-chat|openai-responses|anthropic|gemini|mcp] [--no-builtins] [--disable NAME,...] [--workspace DIR] [--indent] [--strict] [--rename-keys]",
	summary: "print the toolkit's tools as a provider's tool definitions (JSON)",
	detail: "Builds the toolkit (built-in tools, the skill tool when --skills finds skills)\n" +
		"and prints its tools, sorted by name, in the shape the chosen provider's API\n" +
		"takes in its tools field. Nothing is sent anywhere.",
	flags: func(fs *flag.FlagSet) any {
		o := &toolsOpts{}
		o.kit.register(fs)
		fs.StringVar(&o.format, "format", "openai-chat", "provider `FORMAT`: "+strings.Join(formatNames(), ", "))
		fs.BoolVar(&o.indent, "indent", false, "pretty-print the JSON")
		fs.BoolVar(&o.strict, "strict", false, "strict mode (openai-chat, openai-responses and anthropic formats; tools whose schema cannot be strict are sent without it)")
		fs.BoolVar(&o.renameKeys, "rename-keys", false, "rename the property keys the provider refuses, such as filter[status] or $top (anthropic and gemini formats; toolnexus reply and package exec map a call's arguments back)")
		return o
	},
	run: func(e *env, opts any, args []string) int {
		o := opts.(*toolsOpts)
		format := canonicalFormat(o.format)
		render, ok := formats[format]
		if !ok {
			fmt.Fprintf(e.stderr, "toolnexus tools: unknown format %q%s; formats: %s\n", o.format, suggestion(o.format, slices.Collect(maps.Keys(formats))), strings.Join(formatNames(), ", "))
			return exitUsage
		}
		if o.strict && !strictFormats[format] {
			fmt.Fprintf(e.stderr, "toolnexus tools: --strict applies to the openai-chat, openai-responses and anthropic formats, not %q\n", o.format)
			return exitUsage
		}
		if o.renameKeys && !renameFormats[format] {
			fmt.Fprintf(e.stderr, "toolnexus tools: --rename-keys applies to the anthropic and gemini formats, not %q\n", o.format)
			return exitUsage
		}
		tk, err := o.kit.build(e)
		if err != nil {
			return fail(e, err)
		}
		defer tk.Close()
		out, err := render(tk.Tools(), renderOpts{strict: o.strict, renameKeys: o.renameKeys})
		if errors.Is(err, renderpkg.ErrPropertyKey) {
			fmt.Fprintf(e.stderr, "toolnexus tools: %v\ntoolnexus tools: pass --rename-keys to send such keys renamed\n", err)
			return exitFail
		}
		if err != nil {
			return fail(e, err)
		}
		if err := writeJSON(e.stdout, out, o.indent); err != nil {
			return fail(e, e.own(err))
		}
		for _, st := range tk.MCPStatus() {
			if st.State == mcp.StateFailed {
				return exitFail // warned about by build
			}
		}
		if tk.Len() == 0 {
			fmt.Fprintf(e.stderr, "toolnexus tools: no tools; add some with --skills DIR, --mcp FILE or --openapi FILE_OR_URL, or drop --no-builtins\n")
		}
		return exitOK
	},
}

// ---- call ----

type callOpts struct {
	kit    kitFlags
	asJSON bool
	save   string
	yes    bool
}

var callCommand = &command{
	name:     "call",
	maxArgs:  2,
	argsHint: " (quote the JSON arguments as one word)",
	args:     "NAME [ARGS_JSON | -] [--skills DIR]... [--mcp FILE] [--openapi FILE_OR_URL]... [--openapi-base-url URL] [--no-builtins] [--disable NAME,...] [--workspace DIR] [--json] [--save DIR] [--yes]",
	summary:  "execute one tool and print its output",
	detail: "Builds the toolkit and executes the tool NAME with the JSON object ARGS_JSON\n" +
		"(default {}; - reads it from standard input), exactly as a model's tool call\n" +
		"would run. The output goes to standard output. When the result is an error\n" +
		"(unknown tool, invalid arguments, a failed call) its message goes to\n" +
		"standard error and the exit status is 1. A result with content parts\n" +
		"prints each text part as it is and each image, audio or file as one line\n" +
		"such as [image: image/png, 12345 bytes]; --save DIR also writes those\n" +
		"bytes to files in DIR. When standard error is a terminal, the tool's\n" +
		"progress and log lines are shown there while it runs.\n\n" +
		"A tool that waits for a person (a question, an approval) asks on the\n" +
		"terminal: standard error shows the prompt and its numbered options, and\n" +
		"standard input gives one answer a line; --yes approves every approval.\n" +
		"When standard input is not a terminal (or gave the arguments), the\n" +
		"pending request is printed as JSON ({\"id\",\"kind\",\"prompt\",\"data\"}) on\n" +
		"standard output and the exit status is 3.",
	flags: func(fs *flag.FlagSet) any {
		o := &callOpts{}
		o.kit.register(fs)
		fs.BoolVar(&o.asJSON, "json", false, `print the whole result as JSON ({"output":...,"content":[...],"structured":...,"is_error":...,"metadata":...}; part data in base64) on standard output`)
		fs.StringVar(&o.save, "save", "", "write the bytes of image, audio and file parts to files in `DIR`")
		fs.BoolVar(&o.yes, "yes", false, "approve every call that needs approval")
		return o
	},
	run: func(e *env, opts any, args []string) int {
		o := opts.(*callOpts)
		if len(args) == 0 {
			fmt.Fprintf(e.stderr, "toolnexus call: missing the tool NAME\nRun 'toolnexus call --help' for usage.\n")
			return exitUsage
		}
		var raw []byte
		if len(args) == 2 {
			raw = []byte(args[1])
			if args[1] == "-" {
				b, err := io.ReadAll(e.stdin)
				if err != nil {
					return fail(e, e.own(fmt.Errorf("reading arguments from standard input: %w", err)))
				}
				raw = b
			}
		}
		tk, err := o.kit.build(e)
		if err != nil {
			return fail(e, err)
		}
		defer tk.Close()
		ctx := e.ctx
		done := func() {}
		if isTerminal(e.stderr) {
			var fn func(toolnexus.Event)
			fn, done = progressPrinter(e.stderr, args[0])
			ctx = toolnexus.WithEvents(ctx, fn)
		}
		res := tk.Execute(ctx, args[0], raw)
		var in *bufio.Reader
		for round := 0; round < 8; round++ {
			p, ok := toolnexus.PendingFrom(res)
			if !ok {
				break
			}
			var a toolnexus.Answer
			switch {
			case o.yes && p.Kind == toolnexus.PendingKindApproval:
				a = toolnexus.Answer{ID: p.ID, OK: true}
			case (len(args) < 2 || args[1] != "-") && isTerminalReader(e.stdin):
				if in == nil {
					in = bufio.NewReader(e.stdin)
				}
				if a, err = askPerson(in, e.stderr, p); err != nil {
					done()
					return fail(e, e.own(err))
				}
			default:
				done()
				b, _ := json.Marshal(p)
				fmt.Fprintf(e.stdout, "%s\n", b)
				return exitPending
			}
			ctx = toolnexus.WithAnswer(ctx, a)
			res = tk.Execute(ctx, args[0], raw)
		}
		done()
		if o.asJSON {
			b, err := json.Marshal(res)
			if err != nil {
				return fail(e, e.own(err))
			}
			fmt.Fprintf(e.stdout, "%s\n", b)
		} else if err := printResult(e.stdout, e.stderr, args[0], res, o.save); err != nil {
			return fail(e, e.own(err))
		}
		if s := callSuggestion(tk, args[0], raw, res); s != "" {
			fmt.Fprintf(e.stderr, "toolnexus: did you mean %q?\n", s)
		}
		if res.IsError {
			return exitFail
		}
		return exitOK
	},
}

// callSuggestion is the tool (or, for the skill tool, the skill) a call
// that named none probably meant, or "".
func callSuggestion(tk *toolkit.Toolkit, name string, raw []byte, res toolnexus.Result) string {
	switch {
	case errors.Is(res.Err, toolnexus.ErrUnknownTool):
		return suggest.Closest(name, tk.Names())
	case errors.Is(res.Err, skill.ErrUnknownSkill):
		var a struct{ Name string }
		if json.Unmarshal(raw, &a) == nil {
			return suggest.Closest(a.Name, tk.Skills().Names())
		}
	}
	return ""
}

// writeJSON writes the JSON out and a newline to w, indented with two
// spaces when indent is set.
func writeJSON(w io.Writer, out []byte, indent bool) error {
	if indent {
		var b bytes.Buffer
		if err := json.Indent(&b, out, "", "  "); err != nil {
			return err
		}
		out = b.Bytes()
	}
	_, err := w.Write(append(out, '\n'))
	return err
}

func withNewline(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

// ---- skills ----

type skillsOpts struct {
	skills listFlag
	asJSON bool
	prompt bool
	strict bool
}

var skillsCommand = &command{
	name:     "skills",
	argsHint: " (give folders with --skills)",
	args:     "[--skills DIR]... [--json] [--prompt] [--strict]",
	summary:  "list the skills under folders, and the SKILL.md files skipped with their reasons",
	detail: "Searches each --skills folder for SKILL.md files, as the toolkit would, and\n" +
		"lists the skills that load and the files that were skipped, each with its\n" +
		"reason (missing name, malformed YAML, unreadable, duplicate name). Nothing is\n" +
		"built; use it to check a skills folder.",
	flags: func(fs *flag.FlagSet) any {
		o := &skillsOpts{}
		fs.Var(&o.skills, "skills", "search `DIR` for SKILL.md files (repeatable)")
		fs.BoolVar(&o.asJSON, "json", false, `print the inventory as JSON ({"skills":[...],"skipped":[...]})`)
		fs.BoolVar(&o.prompt, "prompt", false, "print the skills prompt a model would get in its system prompt instead")
		fs.BoolVar(&o.strict, "strict", false, "exit with status 1 when a SKILL.md file was skipped")
		return o
	},
	run: func(e *env, opts any, args []string) int {
		o := opts.(*skillsOpts)
		if len(o.skills.vals) == 0 {
			fmt.Fprintf(e.stderr, "toolnexus skills: no folder to search; give one with --skills DIR (for example --skills examples/skills)\n")
		}
		inv, err := skill.Discover(o.skills.vals...)
		if err != nil {
			return fail(e, err)
		}
		switch {
		case o.prompt:
			set, err := skill.New(inv.Skills, &skill.Options{})
			if err != nil {
				return fail(e, err)
			}
			io.WriteString(e.stdout, withNewline(set.SkillsPrompt()))
		case o.asJSON:
			if inv.Skills == nil {
				inv.Skills = []skill.Skill{}
			}
			if inv.Skipped == nil {
				inv.Skipped = []skill.Skipped{}
			}
			b, err := json.MarshalIndent(inv, "", "  ")
			if err != nil {
				return fail(e, e.own(err))
			}
			fmt.Fprintf(e.stdout, "%s\n", b)
		default:
			printInventory(e.stdout, inv)
		}
		if o.strict && len(inv.Skipped) > 0 {
			return exitFail
		}
		return exitOK
	},
}

func printInventory(w io.Writer, inv skill.Inventory) {
	fmt.Fprintf(w, "Skills (%d):\n", len(inv.Skills))
	if len(inv.Skills) == 0 {
		fmt.Fprintf(w, "  none\n")
	}
	for _, s := range inv.Skills {
		fmt.Fprintf(w, "  %s  %s\n", s.Name, shortPath(s.Path))
		desc := strings.Join(strings.Fields(s.Description), " ")
		if desc == "" {
			desc = "(no description: not listed in the skills prompt)"
		}
		fmt.Fprintf(w, "      %s\n", desc)
	}
	fmt.Fprintf(w, "Skipped (%d):\n", len(inv.Skipped))
	if len(inv.Skipped) == 0 {
		fmt.Fprintf(w, "  none\n")
	}
	for _, s := range inv.Skipped {
		fmt.Fprintf(w, "  %s: %s", shortPath(s.Path), s.Reason)
		if s.Detail != "" {
			fmt.Fprintf(w, ": %s", s.Detail)
		}
		fmt.Fprintln(w)
	}
}

// shortPath shows a path relative to the working directory when it is
// inside it.
func shortPath(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	rel, err := filepath.Rel(wd, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	return rel
}

// ---- formats ----

// formatNames lists the canonical formats, sorted, each followed by its
// alias: "openai-chat (or openai)".
func formatNames() []string {
	names := make([]string, 0, len(formats))
	for n := range formats {
		names = append(names, n)
	}
	slices.Sort(names)
	for alias, c := range formatAliases {
		i := slices.Index(names, c)
		names[i] += " (or " + alias + ")"
	}
	return names
}
