package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
)

// ptyScreen collects what the binary writes to the pseudo-terminal.
type ptyScreen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *ptyScreen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *ptyScreen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// waitFor waits until the screen shows want (at most 20 s).
func (s *ptyScreen) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(s.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the terminal never showed %q; it shows %q", want, s.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// callOnTerminal starts the binary with standard input and standard error
// on a pseudo-terminal and standard output in a buffer; it returns the
// terminal's master side, what the terminal shows, and a function that
// waits for the exit and returns the exit status and standard output.
func callOnTerminal(t *testing.T, args ...string) (*os.File, *ptyScreen, func() (int, string)) {
	t.Helper()
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skipf("pseudo-terminals need a Unix system; this is %s", runtime.GOOS)
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal on this machine: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	cmd := exec.Command(bin, args...)
	cmd.Dir = repoRoot
	var stdout bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, &stdout, tty
	if err := cmd.Start(); err != nil {
		tty.Close()
		t.Fatal(err)
	}
	tty.Close() // the child holds its own copy
	screen := &ptyScreen{}
	copied := make(chan struct{})
	go func() {
		io.Copy(screen, ptmx) // ends with EIO when the child closes the terminal
		close(copied)
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })
	return ptmx, screen, func() (int, string) {
		t.Helper()
		select {
		case err := <-exited:
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			select {
			case <-copied:
			case <-time.After(20 * time.Second): // only waits when the copy has not ended yet
			}
			return code, stdout.String()
		case <-time.After(20 * time.Second):
			t.Fatalf("toolnexus %v did not exit; the terminal shows %q", args, screen.String())
			return 0, ""
		}
	}
}

// TestCallQuestionOnTerminal drives `toolnexus call question` through a
// pseudo-terminal: the prompt with numbered options appears on the
// terminal, a typed option number and a typed free answer come back as
// the tool's output.
func TestCallQuestionOnTerminal(t *testing.T) {
	ptmx, screen, wait := callOnTerminal(t, "call", "question",
		`{"questions":[{"question":"Which color?","options":["red","blue"]},{"question":"Why?"}]}`)
	screen.waitFor(t, "Which color?\r\n  1) red\r\n  2) blue\r\n> ")
	if _, err := ptmx.Write([]byte("2\n")); err != nil {
		t.Fatal(err)
	}
	screen.waitFor(t, "Why?\r\n> ")
	if _, err := ptmx.Write([]byte("it is calm\n")); err != nil {
		t.Fatal(err)
	}
	code, out := wait()
	if code != exitOK || out != `{"answers":[["blue"],["it is calm"]]}`+"\n" {
		t.Errorf("exit %d, stdout %q; the terminal shows %q", code, out, screen.String())
	}
}

// TestCallQuestionOnTerminalYes: --yes approves approvals only; a question
// is still asked on the terminal, and the end of input there (Ctrl-D) is
// an error, not an answer.
func TestCallQuestionOnTerminalYes(t *testing.T) {
	ptmx, screen, wait := callOnTerminal(t, "call", "--yes", "question",
		`{"questions":[{"question":"Proceed?","options":["go","stop"]}]}`)
	screen.waitFor(t, "Proceed?\r\n  1) go\r\n  2) stop\r\n> ")
	if _, err := ptmx.Write([]byte{4}); err != nil { // Ctrl-D: end of input
		t.Fatal(err)
	}
	code, out := wait()
	if code != exitFail || out != "" || !strings.Contains(screen.String(), "reading the answer: EOF") {
		t.Errorf("exit %d, stdout %q; the terminal shows %q", code, out, screen.String())
	}
}

// TestReplyOnTerminal: reply without a FILE does not wait for a reply typed
// on a terminal; it says how to give one.
func TestReplyOnTerminal(t *testing.T) {
	_, screen, wait := callOnTerminal(t, "reply")
	code, stdout := wait()
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, stdout)
	assert.Contains(t, screen.String(), "toolnexus reply: give the reply's FILE, or pipe it to standard input")
}
