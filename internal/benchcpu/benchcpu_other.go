//go:build !unix

package benchcpu

import "testing"

// Now returns 0: process CPU time is read on unix systems only.
func Now() int64 { return 0 }

// Report does nothing where [Now] cannot read the CPU time.
func Report(*testing.B, int64) {}
