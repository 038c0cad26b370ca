package render

import (
	"testing"

	"github.com/toolnexus/toolnexus/internal/benchcpu"
)

func cpuTime() int64                      { return benchcpu.Now() }
func reportCPU(b *testing.B, start int64) { benchcpu.Report(b, start) }
