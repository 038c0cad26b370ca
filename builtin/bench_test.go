package builtin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/builtin"
)

// benchFixture is a workspace of 100 Go-like files of 100 lines each.
func benchFixture(b *testing.B) *fixture {
	f := newFixture(b, builtin.Options{})
	for i := range 100 {
		var s strings.Builder
		for j := range 100 {
			fmt.Fprintf(&s, "func f%d_%d() int { return %d }\n", i, j, i*j)
		}
		f.file(fmt.Sprintf("pkg%d/file%d.go", i%10, i), s.String())
	}
	return f
}

func benchCall(b *testing.B, f *fixture, name, args string) {
	ctx := context.Background()
	raw := json.RawMessage(args)
	b.ReportAllocs()
	for b.Loop() {
		if r := f.reg.Execute(ctx, name, raw); r.IsError {
			b.Fatal(r.Output)
		}
	}
}

func BenchmarkRead(b *testing.B) {
	benchCall(b, benchFixture(b), "read", `{"path":"pkg3/file3.go","offset":10,"limit":20}`)
}

func BenchmarkGrepTree(b *testing.B) {
	benchCall(b, benchFixture(b), "grep", `{"pattern":"return 4[0-9]{2} ","include":"*.go"}`)
}

func BenchmarkGlobTree(b *testing.B) {
	benchCall(b, benchFixture(b), "glob", `{"pattern":"pkg[1-3]/**/*.go"}`)
}

func BenchmarkEdit(b *testing.B) {
	f := benchFixture(b)
	ctx := context.Background()
	flip := []json.RawMessage{
		json.RawMessage(`{"path":"pkg0/file0.go","oldString":"func f0_50()","newString":"func g0_50()"}`),
		json.RawMessage(`{"path":"pkg0/file0.go","oldString":"func g0_50()","newString":"func f0_50()"}`),
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if r := f.reg.Execute(ctx, "edit", flip[i%2]); r.IsError {
			b.Fatal(r.Output)
		}
		i++
	}
}

// BenchmarkApplyPatchNearMiss is the review's worst case for hunk matching:
// a 200000-line file of "a" and a hunk of 2000 "-a" lines then "-b", which
// nearly matches at every position (18-25 s per call before matching was
// made linear).
func BenchmarkApplyPatchNearMiss(b *testing.B) {
	f := newFixture(b, builtin.Options{})
	f.file("f.txt", strings.Repeat("a\n", 200000))
	var p strings.Builder
	p.WriteString("*** Begin Patch\n*** Update File: f.txt\n")
	for range 2000 {
		p.WriteString("-a\n")
	}
	p.WriteString("-b\n*** End Patch\n")
	raw, _ := json.Marshal(map[string]string{"patchText": p.String()})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if r := f.reg.Execute(ctx, "apply_patch", raw); !r.IsError {
			b.Fatal("the near miss applied")
		}
	}
}

// BenchmarkApplyPatchManyLines is the largest file apply_patch takes
// (MaxFileBytes) made of empty lines, the most lines per byte, with a
// one-line hunk at its end: B/op is the memory one call costs.
func BenchmarkApplyPatchManyLines(b *testing.B) {
	f := newFixture(b, builtin.Options{})
	f.file("f.txt", strings.Repeat("\n", builtin.MaxFileBytes-2)+"x\n")
	flip := []json.RawMessage{
		json.RawMessage(`{"patchText":"*** Begin Patch\n*** Update File: f.txt\n-x\n+y\n*** End Patch"}`),
		json.RawMessage(`{"patchText":"*** Begin Patch\n*** Update File: f.txt\n-y\n+x\n*** End Patch"}`),
	}
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if r := f.reg.Execute(ctx, "apply_patch", flip[i%2]); r.IsError {
			b.Fatal(r.Output)
		}
		i++
	}
}
