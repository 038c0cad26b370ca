package builtin_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus/builtin"
)

func searchFixture(t *testing.T, opts builtin.Options) *fixture {
	f := newFixture(t, opts)
	f.file("main.go", "package main\n\nfunc main() {\n\tprintln(\"hello\")\n}\n")
	f.file("pkg/util.go", "package pkg\n\n// Hello says hello.\nfunc Hello() string { return \"hello\" }\n")
	f.file("pkg/util_test.go", "package pkg\n")
	f.file("web/app.ts", "const hello = 1;\r\n")
	f.file("web/app.tsx", "export const Hello = () => null;\n")
	f.file("notes.txt", "Hello world\n")
	f.file("image.bin", "hello\x00\x01\x02")
	f.file(".git/config", "hello = git\n")
	f.file("node_modules/x/index.js", "hello\n")
	return f
}

func TestGrep(t *testing.T) {
	f := searchFixture(t, builtin.Options{})
	wantEqual(t, "grep", f.ok("grep", map[string]any{"pattern": "hello"}),
		"main.go:4:\tprintln(\"hello\")\n"+
			"pkg/util.go:3:// Hello says hello.\n"+
			"pkg/util.go:4:func Hello() string { return \"hello\" }\n"+
			"web/app.ts:1:const hello = 1;")
	wantEqual(t, "case-insensitive", f.ok("grep", map[string]any{"pattern": "(?i)^hello", "path": "."}), "notes.txt:1:Hello world")
	wantEqual(t, "include by name", f.ok("grep", map[string]any{"pattern": "Hello", "include": "*.go"}),
		"pkg/util.go:3:// Hello says hello.\npkg/util.go:4:func Hello() string { return \"hello\" }")
	wantEqual(t, "include braces", f.ok("grep", map[string]any{"pattern": "(?i)hello", "include": "web/*.{ts,tsx}"}),
		"web/app.ts:1:const hello = 1;\nweb/app.tsx:1:export const Hello = () => null;")
	wantEqual(t, "path dir", f.ok("grep", map[string]any{"pattern": "package", "path": "pkg"}),
		"pkg/util.go:1:package pkg\npkg/util_test.go:1:package pkg")
	wantEqual(t, "include relative to path", f.ok("grep", map[string]any{"pattern": "package", "path": "pkg", "include": "util_*.go"}),
		"pkg/util_test.go:1:package pkg")
	wantEqual(t, "path file", f.ok("grep", map[string]any{"pattern": "main", "path": "main.go"}),
		"main.go:1:package main\nmain.go:3:func main() {")
	wantEqual(t, "absolute path", f.ok("grep", map[string]any{"pattern": "main", "path": filepath.Join(f.ws, "main.go"), "limit": 1}),
		"main.go:1:package main\n[showing the first 1 matches; there are more: narrow the pattern, path or include, or raise limit]")
	wantEqual(t, "no match", f.ok("grep", map[string]any{"pattern": "zebra"}), "no matches")
	// Searching inside a skipped directory on purpose works.
	wantEqual(t, "explicit .git", f.ok("grep", map[string]any{"pattern": "hello", "path": ".git"}), ".git/config:1:hello = git")
}

func TestGrepLimitAndLongLines(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	var b strings.Builder
	for i := 1; i <= 150; i++ {
		fmt.Fprintf(&b, "match %d\n", i)
	}
	f.file("many.txt", b.String())
	out := f.ok("grep", map[string]any{"pattern": "match"})
	lines := strings.Split(out, "\n")
	if len(lines) != 101 || lines[99] != "many.txt:100:match 100" ||
		lines[100] != "[showing the first 100 matches; there are more: narrow the pattern, path or include, or raise limit]" {
		t.Errorf("default limit: %d lines, last %q", len(lines), lines[len(lines)-1])
	}
	f.file("long.txt", "needle"+strings.Repeat("x", 1000)+"\n")
	wantEqual(t, "long line", f.ok("grep", map[string]any{"pattern": "needle"}), "long.txt:1:needle"+strings.Repeat("x", 494)+"...")
	// A line longer than the work between context checks (about 1 KiB for
	// a pattern of 1000 instructions) is matched in pieces, as a whole.
	f.file("long.txt", "needle\n"+strings.Repeat("é", 5000)+"y\n")
	wantEqual(t, "pieces", f.ok("grep", map[string]any{"pattern": "^é{1000}.*y$"}), "long.txt:2:"+strings.Repeat("é", 250)+"...")
	wantEqual(t, "pieces, no match", f.ok("grep", map[string]any{"pattern": "^é{1000}.*z$"}), "no matches")
}

func TestGrepErrors(t *testing.T) {
	f := searchFixture(t, builtin.Options{})
	wantEqual(t, "bad regexp", f.fail("grep", map[string]any{"pattern": "a("}),
		"pattern is not a valid regular expression: missing closing ): `a(`")
	wantEqual(t, "bad include", f.fail("grep", map[string]any{"pattern": "a", "include": "[a"}), `include "[a" is not a valid glob pattern: it has a [ without its ] (byte 1)`)
	wantEqual(t, "missing path", f.fail("grep", map[string]any{"pattern": "a", "path": "nope"}), `"nope" does not exist`)
	wantContains(t, f.fail("grep", map[string]any{"pattern": "a", "limit": 0.5}), `"limit"`)
	wantEqual(t, "pattern too large", f.fail("grep", map[string]any{"pattern": "x{1000}y{1000}"}),
		"pattern is too large: it compiles to 2002 instructions, more than the limit of 2000; use fewer or smaller repetitions (x{n} counts x n times)")
	small := searchFixture(t, builtin.Options{MaxPatternSize: 10})
	wantEqual(t, "MaxPatternSize", small.fail("grep", map[string]any{"pattern": "a{10}"}),
		"pattern is too large: it compiles to 12 instructions, more than the limit of 10; use fewer or smaller repetitions (x{n} counts x n times)")
	wantEqual(t, "at MaxPatternSize", small.ok("grep", map[string]any{"pattern": "Hello w{1}"}), "notes.txt:1:Hello world")
	wantEqual(t, "pattern too long", small.fail("grep", map[string]any{"pattern": strings.Repeat("a", 81)}),
		"pattern is too long: 81 bytes, more than the limit of 80; use a shorter pattern")
}

// Every built-in but bash and webfetch (which time themselves) has a
// Tool.Timeout: DefaultTimeout, Options.Timeout, or none (the registry's)
// for a negative Options.Timeout.
func TestToolTimeouts(t *testing.T) {
	for _, c := range []struct{ in, want time.Duration }{{0, builtin.DefaultTimeout}, {time.Second, time.Second}, {-1, 0}} {
		tools, err := builtin.Tools(&builtin.Options{Workspace: t.TempDir(), Timeout: c.in})
		require.NoError(t, err)
		for _, tool := range tools {
			want := c.want
			if tool.Name == "bash" || tool.Name == "webfetch" {
				want = -1
			}
			assert.Equal(t, want, tool.Timeout, "%s with Options.Timeout %v", tool.Name, c.in)
		}
	}
}

func TestGrepEscapes(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	out := f.escapes()
	f.file("inside.txt", "SECRET-free\n")
	for name, p := range escapePaths(out) {
		wantRefused(t, name, f.fail("grep", map[string]any{"pattern": "SECRET", "path": p}))
	}
	// Walking the workspace neither follows the directory link nor reads
	// the file link.
	wantEqual(t, "walk", f.ok("grep", map[string]any{"pattern": "SECRET"}), "inside.txt:1:SECRET-free")
}

func TestGlob(t *testing.T) {
	f := searchFixture(t, builtin.Options{})
	wantEqual(t, "**", f.ok("glob", map[string]any{"pattern": "**/*.go"}), "main.go\npkg/util.go\npkg/util_test.go")
	wantEqual(t, "top level", f.ok("glob", map[string]any{"pattern": "*.go"}), "main.go")
	wantEqual(t, "braces", f.ok("glob", map[string]any{"pattern": "web/*.{ts,tsx}"}), "web/app.ts\nweb/app.tsx")
	wantEqual(t, "path", f.ok("glob", map[string]any{"pattern": "*_test.go", "path": "pkg"}), "pkg/util_test.go")
	wantEqual(t, "./ prefix", f.ok("glob", map[string]any{"pattern": "./*.txt"}), "notes.txt")
	wantEqual(t, "limit", f.ok("glob", map[string]any{"pattern": "**", "limit": 2}),
		"image.bin\nmain.go\n[showing the first 2 files; there are more: narrow the pattern or path, or raise limit]")
	wantEqual(t, "none", f.ok("glob", map[string]any{"pattern": "**/*.rs"}), "no files match")
	if out := f.ok("glob", map[string]any{"pattern": "**/*.js"}); out != "no files match" {
		t.Errorf("node_modules not skipped: %q", out)
	}
}

func TestGlobErrors(t *testing.T) {
	f := searchFixture(t, builtin.Options{})
	wantEqual(t, "bad pattern", f.fail("glob", map[string]any{"pattern": "[a"}), `pattern "[a" is not a valid glob pattern: it has a [ without its ] (byte 1)`)
	wantEqual(t, "empty pattern", f.fail("glob", map[string]any{"pattern": "./"}), `pattern must not be empty; use ** to list every file`)
	wantEqual(t, "file path", f.fail("glob", map[string]any{"pattern": "*", "path": "main.go"}), `path "main.go" is a file, not a directory`)
	wantEqual(t, "missing path", f.fail("glob", map[string]any{"pattern": "*", "path": "nope"}), `"nope" does not exist`)
	wantContains(t, f.fail("glob", map[string]any{}), `"pattern" is required`)
}

func TestGlobEscapes(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	out := f.escapes()
	wantRefused(t, "dotdot", f.fail("glob", map[string]any{"pattern": "*", "path": ".."}))
	wantRefused(t, "absolute", f.fail("glob", map[string]any{"pattern": "*", "path": out}))
	wantRefused(t, "symlink dir", f.fail("glob", map[string]any{"pattern": "*", "path": "outdir"}))
	// The walk does not enter the directory link; links show as entries.
	wantEqual(t, "walk", f.ok("glob", map[string]any{"pattern": "**/secret*"}), "secret-link")
}
