package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

// replyRunner runs the tool calls of a saved reply, a JSON body or an SSE
// stream, with one provider's exec methods and returns its answer.
type replyRunner func(ctx context.Context, ex *exec.Executor, raw []byte) (any, error)

// runner makes the replyRunner of one provider: raw is read as a stream
// when isStream, else as JSON (whose method reports bytes that are not).
func runner[T any](whole func(*exec.Executor, context.Context, []byte) (T, error), stream func(*exec.Executor, context.Context, io.Reader) (T, error)) replyRunner {
	return func(ctx context.Context, ex *exec.Executor, raw []byte) (any, error) {
		if isStream(raw) {
			return stream(ex, ctx, bytes.NewReader(raw))
		}
		return whole(ex, ctx, raw)
	}
}

// isStream reports whether raw, after leading white space, starts with a
// line of server-sent events: a field (data:, event:, id:, retry:) or a
// comment (:).
func isStream(raw []byte) bool {
	t := bytes.TrimLeft(raw, " \t\r\n")
	for _, p := range []string{"data:", "event:", "id:", "retry:", ":"} {
		if bytes.HasPrefix(t, []byte(p)) {
			return true
		}
	}
	return false
}

// methodFormat matches the exec methods an error tells to read a reply
// with ("read it with AnthropicJSON or ParseAnthropic"); methodFormats
// gives the --format of their prefix.
var (
	methodFormat  = regexp.MustCompile(`read it with (\w+?)(?:JSON|Stream) or \w+`)
	methodFormats = map[string]string{"OpenAIChat": "openai-chat", "Responses": "openai-responses", "Anthropic": "anthropic", "Gemini": "gemini"}
)

// formatHint is err's message with exec's advice to read the reply with
// other methods turned into the --format that does: "use --format anthropic".
func formatHint(err error) error {
	msg := err.Error()
	if m := methodFormat.FindStringSubmatch(msg); m != nil && methodFormats[m[1]] != "" {
		return errors.New(strings.Replace(msg, m[0], "use --format "+methodFormats[m[1]], 1))
	}
	return err
}

// replyRunners maps the canonical --format values of reply to runners.
var replyRunners = map[string]replyRunner{
	"openai-chat":      runner((*exec.Executor).OpenAIChatJSON, (*exec.Executor).OpenAIChatStream),
	"openai-responses": runner((*exec.Executor).ResponsesJSON, (*exec.Executor).ResponsesStream),
	"anthropic":        runner((*exec.Executor).AnthropicJSON, (*exec.Executor).AnthropicStream),
	"gemini":           runner((*exec.Executor).GeminiJSON, (*exec.Executor).GeminiStream),
}

// replyFormats are the formats of reply in the order detectFormat tries
// them: a reply without calls that several read is taken as the first's.
var replyFormats = []string{"openai-chat", "openai-responses", "anthropic", "gemini"}

// detectFormat returns the format whose exec methods read raw: the first
// that reads it without error and finds calls, else (a stream cut off) the
// one that ran the most calls, else the first that reads it without error,
// else "". Raw that is neither a stream nor valid JSON is the first
// format's, whose method reports the syntax error. The calls are answered
// by a Before hook, so no tool runs.
func detectFormat(ctx context.Context, raw []byte) string {
	if !isStream(raw) && !json.Valid(raw) {
		return replyFormats[0]
	}
	best, most, clean := "", 0, ""
	for _, f := range replyFormats {
		calls := 0
		ex := exec.New(toolnexus.NewRegistry(), &exec.Options{Concurrency: 1, Before: func(context.Context, *exec.Call) *toolnexus.Result {
			calls++
			return &toolnexus.Result{}
		}})
		_, err := replyRunners[f](ctx, ex, raw)
		switch {
		case err == nil && calls > 0:
			return f
		case err == nil && clean == "":
			clean = f
		case calls > most:
			best, most = f, calls
		}
	}
	if best == "" {
		return clean
	}
	return best
}

type replyOpts struct {
	kit    kitFlags
	format string
	indent bool
}

var replyCommand = &command{
	name:    "reply",
	maxArgs: 1,
	args:    "[FILE | -] [--format openai-chat|openai-responses|anthropic|gemini] [--indent] [--skills DIR]... [--mcp FILE] [--openapi FILE_OR_URL]... [--openapi-base-url URL] [--no-builtins] [--disable NAME,...] [--workspace DIR]",
	summary: "run the tool calls of a saved model reply and print the tool-result messages (JSON)",
	detail: "Reads a model reply from FILE, or from standard input when FILE is -\n" +
		"or not given: the JSON body of a response or the server-sent events of a\n" +
		"streamed one (a stream starts with a data:, event:, id:, retry: or :\n" +
		"line). It runs the reply's tool calls against the toolkit with package\n" +
		"exec, exactly as an agent loop would, and prints the messages to send\n" +
		"back: the tool messages (openai-chat), the function_call_output items\n" +
		"(openai-responses), the user message of tool_result blocks (anthropic) or\n" +
		"the user content of functionResponse parts (gemini). Without --format the\n" +
		"provider is found from the reply's shape. A reply that cannot be read, or\n" +
		"a stream that was cut off, is an error (exit status 1); the answers to the\n" +
		"calls that ran are printed all the same, and nothing when none ran.",
	flags: func(fs *flag.FlagSet) any {
		o := &replyOpts{}
		o.kit.register(fs)
		fs.StringVar(&o.format, "format", "", "the reply's provider `FORMAT`: openai-chat (or openai), openai-responses (or responses), anthropic, gemini (default: found from the reply)")
		fs.BoolVar(&o.indent, "indent", false, "pretty-print the JSON")
		return o
	},
	run: func(e *env, opts any, args []string) int {
		o := opts.(*replyOpts)
		format := canonicalFormat(o.format)
		if _, ok := replyRunners[format]; !ok && o.format != "" {
			names := slices.DeleteFunc(formatNames(), func(n string) bool { return n == "mcp" })
			fmt.Fprintf(e.stderr, "toolnexus reply: unknown format %q%s; formats: %s\n", o.format, suggestion(o.format, replyFormats), strings.Join(names, ", "))
			return exitUsage
		}
		var raw []byte
		var err error
		if len(args) == 0 && isTerminalReader(e.stdin) {
			fmt.Fprintf(e.stderr, "toolnexus reply: give the reply's FILE, or pipe it to standard input\nRun 'toolnexus reply --help' for usage.\n")
			return exitUsage
		}
		if len(args) == 0 || args[0] == "-" {
			raw, err = io.ReadAll(e.stdin)
		} else {
			raw, err = os.ReadFile(args[0])
		}
		if err != nil {
			return fail(e, e.own(err))
		}
		if format == "" {
			if format = detectFormat(e.ctx, raw); format == "" {
				return fail(e, fmt.Errorf("toolnexus reply: cannot tell which provider's reply this is; give --format"))
			}
		}
		tk, err := o.kit.build(e)
		if err != nil {
			return fail(e, err)
		}
		defer tk.Close()
		var answered atomic.Int32 // calls that ran
		answer, runErr := replyRunners[format](e.ctx, exec.New(tk.Registry, &exec.Options{After: func(context.Context, exec.Call, *exec.Result) {
			answered.Add(1)
		}}), raw)
		if runErr != nil && answered.Load() == 0 {
			return fail(e, formatHint(runErr))
		}
		out, err := json.Marshal(answer)
		if err != nil {
			return fail(e, e.own(err))
		}
		if err := writeJSON(e.stdout, out, o.indent); err != nil {
			return fail(e, e.own(err))
		}
		if runErr != nil {
			return fail(e, formatHint(runErr))
		}
		if bytes.Equal(out, []byte("[]")) || bytes.HasSuffix(out, []byte(":[]}")) {
			fmt.Fprintf(e.stderr, "toolnexus reply: the reply has no tool calls\n")
		}
		return exitOK
	},
}
