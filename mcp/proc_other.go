//go:build !unix

package mcp

import (
	"os"
	"os/exec"
)

func setProcAttr(*exec.Cmd) {}

// killGroup kills the process pid (no process groups here).
func killGroup(pid int) {
	if pid > 0 {
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill()
		}
	}
}
