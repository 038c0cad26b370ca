package toolkit

import (
	"context"
	"testing"

	"github.com/toolnexus/toolnexus/builtin"
)

func BenchmarkBuild(b *testing.B) {
	ws := b.TempDir()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		tk, err := Build(ctx, &Config{Skills: []string{examples}, BuiltinOptions: builtin.Options{Workspace: ws}})
		if err != nil {
			b.Fatal(err)
		}
		tk.Close()
	}
}
