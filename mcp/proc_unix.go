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

// killGroup sends SIGKILL to the process group of cmd, if it was started.
// It is a no-op when the group is already gone.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
