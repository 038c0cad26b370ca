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
