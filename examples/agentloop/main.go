// Command agentloop runs a complete tool-use loop four times, with the
// official OpenAI (Chat Completions and Responses), Anthropic and Gemini Go
// clients, each against a local
// scripted server that replays recorded provider replies: turn 1 asks for
// two parallel get_weather calls (one with an invalid unit), turn 2 answers
// after reading the results. The tool calls are run by
// github.com/toolnexus/toolnexus/exec. No API key, no network:
//
//	go run .
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/exec"
)

// provider ties a loop to its scripted server.
type provider struct {
	name  string
	path  string // request path the SDK posts to
	check func(body, prevReply []byte) error
	run   func(ctx context.Context, baseURL string, ex *exec.Executor, reg *toolnexus.Registry, log io.Writer) (string, error)
}

var providers = []provider{
	{"openai", "/chat/completions", checkOpenAI, runOpenAI},
	{"openai_responses", "/responses", checkResponses, runResponses},
	{"anthropic", "/v1/messages", checkAnthropic, runAnthropic},
	{"gemini", "/v1beta/models/" + geminiModel + ":generateContent", checkGemini, runGemini},
}

func main() {
	if err := run(context.Background(), os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "agentloop:", err)
		os.Exit(1)
	}
}

// run runs every provider's loop, printing the transcript to out and the
// executor's log (tool, call id, duration, error status) to logw.
func run(ctx context.Context, out, logw io.Writer) error {
	reg, err := newRegistry()
	if err != nil {
		return err
	}
	ex := exec.New(reg, &exec.Options{Logger: slog.New(slog.NewTextHandler(logw, nil))})
	for _, p := range providers {
		s, err := NewScript(p.name, p.path, p.check)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "== %s (scripted server %s)\nuser: %s\n", p.name, s.Server.URL, question)
		answer, err := p.run(ctx, s.Server.URL, ex, reg, out)
		s.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
		fmt.Fprintf(out, "assistant: %s\n", answer)
	}
	return nil
}
