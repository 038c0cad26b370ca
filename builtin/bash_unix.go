//go:build unix

package builtin

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts cmd in a new process group and makes cancellation
// (timeout or ctx) kill the whole group, so children the shell started do
// not outlive the call.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		// A negative pid signals the process group whose id is pid.
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// killGroup kills what is left of the process group of a command whose
// shell has exited, and reports whether any process was still in it. The
// group id is the shell's pid; while any member lives the kernel does not
// reuse it, so the signal reaches only processes the command started (and
// that stayed in its group).
func killGroup(cmd *exec.Cmd) bool {
	if cmd.Process == nil {
		return false
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) == nil
}
