// Command toolnexus renders, runs and inspects the tools of a toolkit from
// the command line: the built-in tools, agent skills and (with MCP) server
// tools, assembled by package toolkit. It needs no API key and no network.
//
// Usage:
//
//	toolnexus tools  [--skills DIR]... [--mcp FILE] [--format openai-chat|openai-responses|anthropic|gemini|mcp] [--no-builtins] [--disable NAME,...] [--workspace DIR] [--indent] [--strict]
//	toolnexus call   NAME [ARGS_JSON | -] [--skills DIR]... [--mcp FILE] [--openapi FILE_OR_URL]... [--openapi-base-url URL] [--no-builtins] [--disable NAME,...] [--workspace DIR] [--json] [--save DIR] [--yes]
//	toolnexus skills [--skills DIR]... [--json] [--prompt] [--strict]
//	toolnexus serve  [--skills DIR]... [--mcp FILE] [--no-builtins] [--disable NAME,...] [--code-mode] [--http ADDR [--token-file FILE | --no-auth] [--max-session-calls N] [--allow-origin ORIGIN]... [--allow-host HOST]... [--stateless] [limits]]
//	toolnexus reply  [FILE | -] [--format openai-chat|openai-responses|anthropic|gemini] [--indent] [--skills DIR]... [--mcp FILE] [--openapi FILE_OR_URL]... [--openapi-base-url URL] [--no-builtins] [--disable NAME,...] [--workspace DIR]
//	toolnexus help   [COMMAND]
//	toolnexus version
//
// Formats follow the provider names of packages render and exec:
// openai-chat (OpenAI Chat Completions; render.OpenAI, exec's OpenAIChat),
// openai-responses (OpenAI Responses; render.OpenAIResponses, exec's
// Responses), anthropic, gemini and mcp. The names of earlier releases,
// openai and responses, are kept as aliases of the first two.
//
// Every command takes --help; --version prints the module version. Exit
// status: 0 on success; 1 when a call returns an error result, the toolkit
// cannot be built (a missing skills folder, say), an MCP server failed
// (tools) or a reply cannot be read (reply); 2 for a usage error; 3 for a
// pending request (call). docs/cli.md lists them.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/toolnexus/toolnexus/internal/suggest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1 // an error result, a toolkit or reply that could not be read, a failed MCP server
	exitUsage = 2 // bad flags, unknown command, missing argument
)

// env is what a command runs with; tests swap the streams.
type env struct {
	cmd    string // the command's name, for its errors
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// command is one subcommand. New commands (serve, for MCP) are added to
// commands below.
type command struct {
	name    string
	args    string // synopsis after the name
	summary string // one line, for the command list
	detail  string // paragraphs for --help
	flags   func(fs *flag.FlagSet) any
	run     func(e *env, opts any, args []string) int
	// maxArgs is how many positional arguments the command takes; the
	// dispatcher refuses more, adding argsHint (e.g. " (give folders with
	// --skills)") to the message.
	maxArgs  int
	argsHint string
}

// commands is filled in init to let help refer to it.
var commands []*command

func init() {
	commands = []*command{toolsCommand, callCommand, skillsCommand, serveCommand, replyCommand, helpCommand, versionCommand}
}

// lookup returns the command name, or prints that there is none (with a
// did-you-mean and the command list) and returns nil.
func lookup(w io.Writer, name string) *command {
	names := make([]string, len(commands))
	for i, c := range commands {
		if c.name == name {
			return c
		}
		names[i] = c.name
	}
	fmt.Fprintf(w, "toolnexus: unknown command %q%s\n\n", name, suggestion(name, names))
	mainUsage(w)
	return nil
}

var helpCommand = &command{
	name:    "help",
	maxArgs: 1,
	args:    "[COMMAND]",
	summary: "show the command list, or a command's usage and flags",
	detail:  "Without COMMAND, lists the commands; with one, prints what 'toolnexus COMMAND --help' prints.",
	run: func(e *env, _ any, args []string) int {
		if len(args) == 0 {
			mainUsage(e.stdout)
			return exitOK
		}
		c := lookup(e.stderr, args[0])
		if c == nil {
			return exitUsage
		}
		fs, _ := c.flagSet()
		c.usage(e.stdout, fs)
		return exitOK
	},
}

var versionCommand = &command{
	name:    "version",
	summary: "print the version of toolnexus (also --version)",
	detail:  "Prints \"toolnexus VERSION\": the module version the binary was built from, or (devel).",
	run: func(e *env, _ any, _ []string) int {
		fmt.Fprintf(e.stdout, "toolnexus %s\n", version())
		return exitOK
	},
}

// version is the module version the binary was built from, "(devel)" for
// a build inside a clone; serve sends it as the MCP serverInfo.version.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		mainUsage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		args = []string{"help"}
	case "-version", "--version":
		args = []string{"version"}
	}
	c := lookup(stderr, args[0])
	if c == nil {
		return exitUsage
	}
	fs, opts := c.flagSet()
	pos, err := parseInterspersed(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		c.usage(stdout, fs)
		return exitOK
	}
	if err != nil {
		msg, hint := asTyped(err.Error(), args[1:]), ""
		if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
			var names []string
			fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
			if s := suggest.Closest(name, names); s != "" {
				hint = " (did you mean --" + s + "?)"
			}
		}
		fmt.Fprintf(stderr, "toolnexus %s: %s%s\nRun 'toolnexus %s --help' for usage.\n", c.name, msg, hint, c.name)
		return exitUsage
	}
	if len(pos) > c.maxArgs {
		fmt.Fprintf(stderr, "toolnexus %s: unexpected argument %q%s\nRun 'toolnexus %s --help' for usage.\n", c.name, pos[c.maxArgs], c.argsHint, c.name)
		return exitUsage
	}
	e.cmd = c.name
	return c.run(e, opts, pos)
}

// flagInError matches the flag a flag package error names, always with
// one dash: "flag provided but not defined: -skils", "for flag -http".
var flagInError = regexp.MustCompile(`(: | for (?:flag )?)-([^\s:=]+)`)

// asTyped is the flag package error msg with its flag written as in args
// ("--skils", not "-skils").
func asTyped(msg string, args []string) string {
	m := flagInError.FindStringSubmatchIndex(msg)
	if m == nil {
		return msg
	}
	name := msg[m[4]:m[5]]
	for _, a := range args {
		if a == "--" {
			break
		}
		f, _, _ := strings.Cut(a, "=")
		if strings.HasPrefix(f, "-") && strings.TrimLeft(f, "-") == name {
			return msg[:m[4]-1] + f + msg[m[5]:]
		}
	}
	return msg
}

func (c *command) flagSet() (*flag.FlagSet, any) {
	fs := flag.NewFlagSet("toolnexus "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors and help are printed by run
	fs.Usage = func() {}
	var opts any
	if c.flags != nil {
		opts = c.flags(fs)
	}
	return fs, opts
}

func (c *command) usage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: toolnexus %s %s\n\n%s\n", c.name, c.args, c.detail)
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			fmt.Fprintf(w, "\nFlags:\n")
			first = false
		}
		arg, help := flag.UnquoteUsage(f)
		if arg != "" {
			arg = " " + arg
		}
		if f.DefValue != "" && f.DefValue != "false" {
			help += fmt.Sprintf(" (default %q)", f.DefValue)
		}
		fmt.Fprintf(w, "  --%s%s\n        %s\n", f.Name, arg, help)
	})
	fmt.Fprintf(w, "  --help\n        show this help\n")
}

func mainUsage(w io.Writer) {
	fmt.Fprintf(w, "toolnexus renders, runs and inspects the tools of a toolkit: built-in tools,\nagent skills and your own. No API key and no network needed.\n\nUsage:\n  toolnexus COMMAND [ARGS] [FLAGS]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-7s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'toolnexus COMMAND --help' for a command's flags.\n")
}

// parseInterspersed parses fs from args, allowing flags after positional
// arguments (toolnexus call NAME '{}' --skills dir). Everything after "--"
// is positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// listFlag is a repeatable flag; with split set, values are also split at
// commas (--disable a,b --disable c).
type listFlag struct {
	vals  []string
	split bool
}

func (l *listFlag) String() string { return strings.Join(l.vals, ",") }

func (l *listFlag) Set(v string) error {
	if !l.split {
		l.vals = append(l.vals, v)
		return nil
	}
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			l.vals = append(l.vals, p)
		}
	}
	return nil
}

// suggestion is suggest.Closest as a message suffix: ` (did you mean "x"?)`, or "".
func suggestion(name string, known []string) string {
	if s := suggest.Closest(name, known); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}
