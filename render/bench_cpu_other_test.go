//go:build !unix

package render

import "testing"

func cpuTime() int64 { return 0 }

func reportCPU(*testing.B, int64) {}
