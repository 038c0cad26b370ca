package builtin

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus"
)

type bashArgs struct {
	Command     string `json:"command" jsonschema_description:"The shell command to run."`
	Workdir     string `json:"workdir,omitempty" jsonschema_description:"Directory to run in, relative to the workspace root (default: the workspace root)."`
	Timeout     int    `json:"timeout,omitempty" jsonschema_description:"Timeout in milliseconds (default 60000, at most 600000)." validate:"omitempty,min=1,max=600000"`
	Description string `json:"description,omitempty" jsonschema_description:"A few words saying what the command does, for the user."`
}

const bashDesc = `Run one shell command and return its combined stdout and stderr. It runs in the workspace ` +
	`root (or workdir) with the user's permissions; it is NOT sandboxed, so avoid destructive commands. ` +
	`When the call ends (the command finishes, times out after timeout ms, default 60000, or is cancelled), ` +
	`every process still in the command's process group is killed, so background jobs do not outlive it; ` +
	`a process that leaves the group (setsid, daemons) is not tracked and can survive. ` +
	`A non-zero exit status is an error that gives the exit code. Long output keeps its beginning and end. ` +
	`Prefer read, grep, glob, edit and write for files.`

// bashTool runs commands with Shell -c. Its Tool.Timeout is -1: the tool
// enforces its own timeout (the call's, or Options.BashTimeout) and kills
// the process group, which a registry-wide timeout could not do.
func bashTool(e *env) (toolnexus.Tool, error) {
	return newTool(e, "bash", "Run shell command", bashDesc,
		toolnexus.Annotations{DestructiveHint: new(true), OpenWorldHint: new(true)}, -1,
		func(ctx context.Context, a bashArgs) toolnexus.Result { return textResult(e.bash(ctx, a)) })
}

func (e *env) shell() string {
	if e.opts.Shell != "" {
		return e.opts.Shell
	}
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "/bin/sh"
}

func (e *env) bash(ctx context.Context, a bashArgs) (string, error) {
	if a.Command == "" {
		return "", errors.New("command must not be empty")
	}
	dir := e.root
	if a.Workdir != "" {
		rel, err := e.rel(a.Workdir)
		if err != nil {
			return "", err
		}
		root, err := e.open()
		if err != nil {
			return "", err
		}
		fi, err := root.Stat(rel)
		root.Close()
		if err != nil {
			return "", fsErr(a.Workdir, err)
		}
		if !fi.IsDir() {
			return "", fmt.Errorf("workdir %q is not a directory", a.Workdir)
		}
		dir = filepath.Join(e.root, rel)
	}
	timeout := e.opts.BashTimeout
	if a.Timeout > 0 {
		timeout = min(time.Duration(a.Timeout)*time.Millisecond, MaxBashTimeout)
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	out := newHeadTail(e.opts.MaxOutputBytes - 200)
	cmd := exec.CommandContext(runCtx, e.shell(), "-c", a.Command)
	cmd.Dir = dir
	cmd.Stdout = out
	cmd.Stderr = out
	cmd.WaitDelay = 2 * time.Second
	setProcessGroup(cmd)
	err := cmd.Run()
	// The shell has exited (or was killed): kill whatever it left in its
	// process group, so background jobs do not outlive the call.
	killed := killGroup(cmd)
	text := out.String()
	note := ""
	if killed {
		note = "\n[processes the command left running in the background were killed]"
	}

	switch {
	case ctx.Err() != nil:
		return text, fmt.Errorf("command cancelled: %v; its process group was killed", ctx.Err())
	case runCtx.Err() != nil:
		return text, fmt.Errorf("command timed out after %d ms; its process group was killed", timeout.Milliseconds())
	case errors.Is(err, exec.ErrWaitDelay):
		// The shell exited 0, but processes it left in the background held
		// the output open for the whole wait delay; they were killed above
		// (unless they left the process group).
		return orNoOutput(text) + "\n[the output was still held open 2 s after the shell exited; processes the command left in its process group were killed]", nil
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if code := ee.ExitCode(); code >= 0 {
				return text + note, fmt.Errorf("command failed with exit code %d", code)
			}
			return text, fmt.Errorf("command was terminated (%s)", ee.String())
		}
		return text, fmt.Errorf("command could not be started: %v", plainErr(err))
	}
	return orNoOutput(text) + note, nil
}

func orNoOutput(s string) string {
	if s == "" {
		return "(no output)"
	}
	return s
}

// headTail is an io.Writer that keeps the first and the last limit/2 bytes
// written to it and counts the rest.
type headTail struct {
	mu    sync.Mutex
	half  int
	head  []byte
	tail  []byte
	total int64
}

func newHeadTail(limit int) *headTail {
	return &headTail{half: max(limit/2, 64)}
}

func (w *headTail) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.total += int64(len(p))
	n := len(p)
	if room := w.half - len(w.head); room > 0 {
		k := min(room, len(p))
		w.head = append(w.head, p[:k]...)
		p = p[k:]
	}
	if len(p) > 0 {
		w.tail = append(w.tail, p...)
		if len(w.tail) > 2*w.half {
			w.tail = append([]byte(nil), w.tail[len(w.tail)-w.half:]...)
		}
	}
	return n, nil
}

// String returns everything written when it fits, else the head, a line
// saying how many bytes were cut, and the tail.
func (w *headTail) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	tail := w.tail
	if len(tail) > w.half {
		tail = tail[len(tail)-w.half:]
	}
	if int64(len(w.head)+len(tail)) == w.total {
		return string(w.head) + string(tail)
	}
	h := trimPartialEnd(string(w.head))
	t := string(tail)
	i := 0
	for i < len(t) && i < 3 && !isRuneStartByte(t[i]) {
		i++
	}
	t = t[i:]
	cut := w.total - int64(len(h)) - int64(len(t))
	return fmt.Sprintf("%s\n\n[... %d bytes of output truncated ...]\n\n%s", h, cut, t)
}

func isRuneStartByte(b byte) bool { return b&0xC0 != 0x80 }

// trimPartialEnd drops an incomplete UTF-8 sequence at the end of s.
func trimPartialEnd(s string) string {
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax; i-- {
		if isRuneStartByte(s[i]) {
			if !utf8.FullRuneInString(s[i:]) {
				return s[:i]
			}
			break
		}
	}
	return s
}
