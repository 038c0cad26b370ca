package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus"
)

func TestAskPerson(t *testing.T) {
	q := &toolnexus.PendingRequest{ID: "q1", Kind: toolnexus.PendingKindQuestion,
		Data: json.RawMessage(`{"questions":[{"question":"Color?","options":["red","blue"]},` +
			`{"question":"Letters?","options":["x","y","z"],"multiple":true},{"question":"Name?"}]}`)}
	var w strings.Builder
	a, err := askPerson(bufio.NewReader(strings.NewReader("2\n1, z\nAda\n")), &w, q)
	if err != nil || a.ID != "q1" || !a.OK || string(a.Data) != `{"answers":[["blue"],["x","z"],["Ada"]]}` {
		t.Errorf("answer %+v %s, err %v", a, a.Data, err)
	}
	if want := "Color?\n  1) red\n  2) blue\n> Letters?\n  1) x\n  2) y\n  3) z\n> Name?\n> "; w.String() != want {
		t.Errorf("prompt %q, want %q", w.String(), want)
	}
	ap := &toolnexus.PendingRequest{ID: "a1", Kind: toolnexus.PendingKindApproval, Prompt: "Allow?"}
	for in, ok := range map[string]bool{"y\n": true, "YES": true, "n\n": false, "\n": false} {
		w.Reset()
		a, err := askPerson(bufio.NewReader(strings.NewReader(in)), &w, ap)
		if err != nil || a.OK != ok || a.ID != "a1" || w.String() != "Allow? [y/N] " {
			t.Errorf("%q: %+v, %v, prompt %q", in, a, err, w.String())
		}
	}
	if _, err := askPerson(bufio.NewReader(strings.NewReader("")), &w, ap); err == nil {
		t.Error("no input: no error")
	}
}

// TestCallPendingNonInteractive: with stdin not a terminal, a question is
// printed as JSON and the exit status is 3.
func TestCallPendingNonInteractive(t *testing.T) {
	o := cli(t, "", "call", "question", `{"questions":[{"question":"Color?","options":["red","blue"]}]}`)
	if o.code != exitPending || !strings.HasPrefix(o.stdout, `{"id":"question_`) || !strings.Contains(o.stdout, `"kind":"question"`) || o.stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", o.code, o.stdout, o.stderr)
	}
	var p toolnexus.PendingRequest
	if err := json.Unmarshal([]byte(o.stdout), &p); err != nil || p.Prompt == "" {
		t.Errorf("stdout does not decode as a pending request: %v %+v", err, p)
	}
}

// TestCallPendingDevNull: /dev/null is a character device but not a
// terminal: a question is printed as JSON with exit status 3, not asked.
func TestCallPendingDevNull(t *testing.T) {
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		t.Skip("no", os.DevNull)
	}
	defer devNull.Close()
	cmd := exec.Command(bin, "call", "question", `{"questions":[{"question":"Color?","options":["red","blue"]}]}`)
	cmd.Dir, cmd.Stdin = repoRoot, devNull
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != exitPending || !strings.HasPrefix(out.String(), `{"id":"question_`) || errb.String() != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}
