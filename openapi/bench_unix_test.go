//go:build unix

package openapi

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user plus system CPU time.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkImport1000 imports the generated 1,000-operation document
// (parse, convert, compile every schema for checking). Besides ns/op it
// reports cpu-ns/op, the process CPU time per import (GC included), which
// a loaded machine does not inflate.
func BenchmarkImport1000(b *testing.B) {
	doc := generated(1000)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	start := cpuTime(b)
	n := 0
	for b.Loop() {
		res, err := Import(doc, &Options{})
		if err != nil || len(res.Tools) != 1000 {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(cpuTime(b)-start)/float64(n), "cpu-ns/op")
}
