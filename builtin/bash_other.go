//go:build !unix

package builtin

import "os/exec"

// setProcessGroup is a no-op where process groups are not available:
// cancellation kills the shell process only (the os/exec default).
func setProcessGroup(cmd *exec.Cmd) {}

// killGroup does nothing where process groups are not available: processes
// the command started in the background may outlive the call.
func killGroup(cmd *exec.Cmd) bool { return false }
