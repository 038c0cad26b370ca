//go:build !unix

package builtin

import "errors"

func mkfifo(p string) error { return errors.New("no FIFOs on this platform") }
