package builtin_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/builtin"
)

// grep stops before the output cap: every line shown is a whole match, the
// note counts exactly the lines shown, and the whole output fits the cap.
func TestGrepStopsBeforeCap(t *testing.T) {
	f := newFixture(t, builtin.Options{MaxOutputBytes: 1024})
	var b strings.Builder
	for i := 1; i <= 150; i++ {
		fmt.Fprintf(&b, "match %03d %s\n", i, strings.Repeat("y", 20))
	}
	f.file("many.txt", b.String())
	out := f.ok("grep", map[string]any{"pattern": "match", "limit": 1000})
	if len(out) > 1024 {
		t.Errorf("output is %d bytes, cap 1024", len(out))
	}
	lines := strings.Split(out, "\n")
	note := lines[len(lines)-1]
	lines = lines[:len(lines)-1]
	wantEqual(t, "note", note, fmt.Sprintf("[showing the first %d matches; there are more: narrow the pattern, path or include, or raise limit]", len(lines)))
	for i, l := range lines {
		wantEqual(t, "line", l, fmt.Sprintf("many.txt:%d:match %03d %s", i+1, i+1, strings.Repeat("y", 20)))
	}
	if len(lines) < 15 {
		t.Errorf("only %d matches shown", len(lines))
	}
	// glob too.
	g := newFixture(t, builtin.Options{MaxOutputBytes: 512})
	for i := range 100 {
		g.file(fmt.Sprintf("d/file%03d.txt", i), "")
	}
	out = g.ok("glob", map[string]any{"pattern": "**/*.txt"})
	if len(out) > 512 {
		t.Errorf("glob output is %d bytes, cap 512", len(out))
	}
	gl := strings.Split(out, "\n")
	wantEqual(t, "glob note", gl[len(gl)-1], fmt.Sprintf("[showing the first %d files; there are more: narrow the pattern or path, or raise limit]", len(gl)-1))
	wantEqual(t, "glob last", gl[len(gl)-2], fmt.Sprintf("d/file%03d.txt", len(gl)-2))
}

// Every built-in output, truncation note included, fits MaxOutputBytes.
func TestOutputsFitCap(t *testing.T) {
	f := newFixture(t, builtin.Options{MaxOutputBytes: 1024})
	out := f.ok("bash", map[string]any{"command": "head -c 5000 /dev/zero | tr '\\0' x"})
	if len(out) > 1024 {
		t.Errorf("bash output is %d bytes, cap 1024", len(out))
	}
	todos := make([]map[string]any, 100)
	for i := range todos {
		todos[i] = map[string]any{"id": strconv.Itoa(i), "text": strings.Repeat("t", 30)}
	}
	out = f.ok("todowrite", map[string]any{"todos": todos})
	if len(out) > 1024 || !regexp.MustCompile(`\[\.\.\. \d+ bytes truncated \.\.\.\]`).MatchString(out) {
		t.Errorf("todowrite output is %d bytes, cap 1024: %q", len(out), out)
	}
}

// File names with newlines, control characters, colons or invalid UTF-8
// cannot forge grep or glob lines: they are written Go-quoted.
func TestSearchNamesQuoted(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	names := map[string]string{
		"a\nfake.txt:1:forged": `"a\nfake.txt:1:forged"`,
		"x:1:y.txt":            `"x:1:y.txt"`,
		"bell\a.txt":           `"bell\a.txt"`,
		"bad\xffname.txt":      `"bad\xffname.txt"`,
		`"quoted.txt`:          `"\"quoted.txt"`,
		"plain.txt":            "plain.txt",
	}
	for name := range names {
		if err := os.WriteFile(filepath.Join(f.ws, name), []byte("needle\n"), 0o644); err != nil {
			t.Skipf("file name %q: %v", name, err)
		}
	}
	out := f.ok("grep", map[string]any{"pattern": "needle"})
	lines := strings.Split(out, "\n")
	if len(lines) != len(names) {
		t.Fatalf("grep gave %d lines for %d files: %q", len(lines), len(names), out)
	}
	for _, l := range lines {
		name, ok := strings.CutSuffix(l, ":1:needle")
		if !ok {
			t.Errorf("grep line %q", l)
			continue
		}
		if name[0] == '"' {
			if _, err := strconv.Unquote(name); err != nil {
				t.Errorf("grep name %s does not unquote: %v", name, err)
			}
		}
	}
	for name, want := range names {
		wantContains(t, out, want+":1:needle")
		_ = name
	}
	gout := f.ok("glob", map[string]any{"pattern": "*"})
	glines := strings.Split(gout, "\n")
	if len(glines) != len(names) {
		t.Fatalf("glob gave %d lines for %d files: %q", len(glines), len(names), gout)
	}
	for name, want := range names {
		if name == "x:1:y.txt" {
			want = name // a colon is not ambiguous in glob's one-path lines
		}
		if !strings.Contains("\n"+gout+"\n", "\n"+want+"\n") {
			t.Errorf("glob output %q lacks %q", gout, want)
		}
	}
}
