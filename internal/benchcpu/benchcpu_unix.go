//go:build unix

package benchcpu

import (
	"syscall"
	"testing"
)

// Now returns the process's user+system CPU time in nanoseconds, or 0 when
// it cannot be read.
func Now() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// Report adds the metric "cpu-ns/op" to b: the process CPU time per
// iteration since start (a value of [Now]); nothing when start is 0.
func Report(b *testing.B, start int64) {
	if n := b.N; n > 0 && start > 0 {
		b.ReportMetric(float64(Now()-start)/float64(n), "cpu-ns/op")
	}
}
