//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// setProcAttr puts a server process in a process group of its own, so that
// closing it also stops the children it started (npx, uvx, shells).
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup sends SIGKILL to the process group led by pid; pid 0 means
// none was started. It is a no-op when the group is already gone.
func killGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}
