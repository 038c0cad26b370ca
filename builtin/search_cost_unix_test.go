//go:build unix

package builtin_test

import (
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus/builtin"
)

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	require.NoError(t, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// A costly pattern (about 2000 RE2 instructions: tens of µs a byte) over
// 1 MiB, as one line and as 4000-byte lines: the call ends at its
// deadline, and so does the search behind it, instead of keeping a core
// busy for the minute the whole match would take.
func TestGrepStopsAtItsDeadline(t *testing.T) {
	f := newFixture(t, builtin.Options{Timeout: 100 * time.Millisecond})
	f.file("long.txt", strings.Repeat("ab", 1<<19))
	f.file("lines.txt", strings.Repeat(strings.Repeat("ab", 2000)+"\n", 1<<8))
	for _, p := range []string{"long.txt", "lines.txt"} {
		t.Run(p, func(t *testing.T) {
			before := runtime.NumGoroutine()
			start := time.Now()
			r := f.call("grep", map[string]any{"pattern": "[ab]{1000}[ab]{990}x", "path": p})
			assert.Less(t, time.Since(start), 2*time.Second)
			require.True(t, r.IsError)
			assert.Equal(t, `tool "grep" timed out after 100ms`, r.Output)
			cpu := cpuTime(t)
			// Not assert.Eventually: it runs the condition on a goroutine.
			for end := time.Now().Add(3 * time.Second); runtime.NumGoroutine() > before && time.Now().Before(end); {
				time.Sleep(5 * time.Millisecond)
			}
			assert.LessOrEqual(t, runtime.NumGoroutine(), before, "the search goes on after its call ended")
			t.Logf("CPU used after the call ended: %v", cpuTime(t)-cpu)
		})
	}
}
