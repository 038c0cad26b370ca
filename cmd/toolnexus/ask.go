package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/toolnexus/toolnexus"
)

// exitPending is the exit status of `toolnexus call` when the tool waits
// for a person and standard input is not a terminal: the pending request
// is printed as JSON on standard output.
const exitPending = 3

// isTerminalReader reports whether r is a terminal (not merely a character
// device: /dev/null is one too).
func isTerminalReader(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && isTTY(f)
}

// askPerson shows p on w and reads the person's answer from in, one line
// per question: an option's number or text picks it (for a multiple-choice
// question, several separated by commas), anything else is a free answer.
// For an approval, "y" or "yes" approves and anything else denies. An
// empty line at end of input is an error.
func askPerson(in *bufio.Reader, w io.Writer, p *toolnexus.PendingRequest) (toolnexus.Answer, error) {
	readLine := func() (string, error) {
		line, err := in.ReadString('\n')
		if err != nil && (line == "" || !errors.Is(err, io.EOF)) {
			return "", fmt.Errorf("reading the answer: %w", err)
		}
		return strings.TrimSpace(line), nil
	}
	switch p.Kind {
	case toolnexus.PendingKindApproval:
		fmt.Fprintf(w, "%s [y/N] ", p.Prompt)
		line, err := readLine()
		if err != nil {
			return toolnexus.Answer{}, err
		}
		ok := strings.EqualFold(line, "y") || strings.EqualFold(line, "yes")
		return toolnexus.Answer{ID: p.ID, OK: ok}, nil
	case toolnexus.PendingKindQuestion:
		var d struct {
			Questions []struct {
				Question string   `json:"question"`
				Options  []string `json:"options"`
				Multiple bool     `json:"multiple"`
			} `json:"questions"`
		}
		if err := json.Unmarshal(p.Data, &d); err != nil {
			return toolnexus.Answer{}, fmt.Errorf("the question request does not decode: %w", err)
		}
		answers := make([][]string, len(d.Questions))
		for i, q := range d.Questions {
			fmt.Fprintln(w, q.Question)
			for j, o := range q.Options {
				fmt.Fprintf(w, "  %d) %s\n", j+1, o)
			}
			fmt.Fprint(w, "> ")
			line, err := readLine()
			if err != nil {
				return toolnexus.Answer{}, err
			}
			picks := []string{line}
			if q.Multiple {
				picks = strings.Split(line, ",")
			}
			answers[i] = []string{}
			for _, pick := range picks {
				pick = strings.TrimSpace(pick)
				if n, err := strconv.Atoi(pick); err == nil && n >= 1 && n <= len(q.Options) {
					pick = q.Options[n-1]
				}
				if pick != "" {
					answers[i] = append(answers[i], pick)
				}
			}
		}
		data, _ := json.Marshal(map[string]any{"answers": answers})
		return toolnexus.Answer{ID: p.ID, OK: true, Data: data}, nil
	}
	return toolnexus.Answer{}, fmt.Errorf("cannot answer a request of kind %q on a terminal", p.Kind)
}
