//go:build !unix

package builtin

import "os/exec"

// setProcessGroup is a no-op where process groups are not available:
// cancellation kills the shell process only (the os/exec default).
func setProcessGroup(cmd *exec.Cmd) {}
