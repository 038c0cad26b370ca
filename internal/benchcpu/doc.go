// Package benchcpu gives benchmarks a "cpu-ns/op" metric: the process's CPU
// time per iteration, which a shared, loaded machine disturbs far less than
// wall time. Each benchmark with a limit reports it for both, so the ratio
// can be read from one run (docs/performance.md).
package benchcpu
