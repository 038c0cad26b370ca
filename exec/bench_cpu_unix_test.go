//go:build unix

package exec_test

import (
	"syscall"
	"testing"
)

// cpuTime returns the process's user+system CPU time in ns.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// reportCPU adds "cpu-ns/op", the process CPU time per iteration since
// start: on a shared, loaded machine it is steadier than wall time.
func reportCPU(b *testing.B, start int64) {
	if n := b.N; n > 0 && start > 0 {
		b.ReportMetric(float64(cpuTime()-start)/float64(n), "cpu-ns/op")
	}
}
