// Package candidates measures the JSON decoders considered for typed
// tools' arguments side by side, in one run (bench_test.go); it is a
// separate module so that the candidates stay out of toolnexus's go.mod.
package candidates
