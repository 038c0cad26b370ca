package builtin_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/builtin"
)

// escapes sets up a directory outside the workspace holding secret.txt,
// and two symbolic links inside the workspace leading to it: "outdir" (to
// the directory) and "secret-link" (to the file). It returns the outside
// directory.
func (f *fixture) escapes() string {
	f.t.Helper()
	out := f.t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "secret.txt"), []byte("TOP SECRET\n"), 0o644); err != nil {
		f.t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(f.ws, "outdir")); err != nil {
		f.t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(out, "secret.txt"), filepath.Join(f.ws, "secret-link")); err != nil {
		f.t.Fatal(err)
	}
	return out
}

// escapePaths are path arguments that must all be refused; out is the
// outside directory.
func escapePaths(out string) map[string]string {
	return map[string]string{
		"dotdot":        "../" + filepath.Base(out) + "/secret.txt",
		"nested dotdot": "a/../../secret.txt",
		"absolute":      filepath.Join(out, "secret.txt"),
		"root file":     "/etc/passwd",
		"symlink file":  "secret-link",
		"symlink dir":   "outdir/secret.txt",
	}
}

func wantRefused(t *testing.T, name, out string) {
	t.Helper()
	if !strings.Contains(out, "outside the workspace") {
		t.Errorf("%s: error %q does not say the path is outside the workspace", name, out)
	}
	if strings.Contains(out, "TOP SECRET") {
		t.Errorf("%s: the secret leaked: %q", name, out)
	}
}

func TestReadHappy(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	f.file("a/b.txt", "one\ntwo\nthree\n")
	wantEqual(t, "read", f.ok("read", map[string]any{"path": "a/b.txt"}), "one\ntwo\nthree\n")
	// An absolute path inside the workspace works.
	wantEqual(t, "read abs", f.ok("read", map[string]any{"path": filepath.Join(f.ws, "a", "b.txt")}), "one\ntwo\nthree\n")
	// A window of lines, with a note when more follow.
	wantEqual(t, "window", f.ok("read", map[string]any{"path": "a/b.txt", "offset": 2, "limit": 1}),
		"two\n[showing lines 2-2; more lines follow: continue with offset=3]")
	wantEqual(t, "tail", f.ok("read", map[string]any{"path": "a/b.txt", "offset": 3}), "three\n")
	// No final newline.
	f.file("c.txt", "x\ny")
	wantEqual(t, "no final newline", f.ok("read", map[string]any{"path": "c.txt", "limit": 1}),
		"x\n[showing lines 1-1; more lines follow: continue with offset=2]")
	f.file("empty.txt", "")
	wantEqual(t, "empty", f.ok("read", map[string]any{"path": "empty.txt"}), "(empty file)")
}

func TestReadErrors(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	f.file("a.txt", "one\ntwo\n")
	wantEqual(t, "missing", f.fail("read", map[string]any{"path": "nope.txt"}), `"nope.txt" does not exist`)
	wantEqual(t, "past end", f.fail("read", map[string]any{"path": "a.txt", "offset": 5}),
		`offset 5 is past the end of "a.txt", which has 2 lines`)
	f.file("d/x", "")
	wantEqual(t, "dir", f.fail("read", map[string]any{"path": "d"}), `"d" is a directory; use glob to list its files`)
	f.file("bin", "abc\x00def")
	wantEqual(t, "binary", f.fail("read", map[string]any{"path": "bin"}),
		`"bin" is a binary file (7 bytes), not shown; these tools work on UTF-8 text files only`)
	wantContains(t, f.fail("read", map[string]any{"path": "a.txt", "offset": -1}), `"offset" must be at least 1`)
	wantContains(t, f.fail("read", map[string]any{}), `"path" is required`)
}

func TestReadLongLinesAndCap(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	f.file("long.txt", strings.Repeat("é", 1500)+"\nnext\n") // 3000 bytes on line 1
	wantEqual(t, "long line", f.ok("read", map[string]any{"path": "long.txt"}),
		strings.Repeat("é", 1000)+"... [line cut: 1000 more bytes]\nnext\n")

	f = newFixture(t, builtin.Options{MaxOutputBytes: 1000})
	f.file("long.txt", strings.Repeat("é", 1500)+"\nnext\n")
	out := f.ok("read", map[string]any{"path": "long.txt", "limit": 1})
	wantEqual(t, "long line, small cap", out, strings.Repeat("é", 400)+"... [line cut: 2200 more bytes]\n"+
		"[showing lines 1-1; more lines follow: continue with offset=2]")
	var b strings.Builder
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&b, "line %03d\n", i)
	}
	f.file("many.txt", b.String())
	out = f.ok("read", map[string]any{"path": "many.txt"})
	if len(out) > 1000 {
		t.Errorf("output is %d bytes, cap 1000", len(out))
	}
	wantContains(t, out, "line 001\n", "more lines follow: continue with offset=")
	// Invalid UTF-8 after the sniffed head is replaced, not passed on.
	f.file("late.txt", strings.Repeat("a", 9000)+"\n\xff\xfe\n")
	out = f.ok("read", map[string]any{"path": "late.txt", "offset": 2})
	wantEqual(t, "late invalid utf-8", out, "\uFFFD\n")
}

func TestReadEscapes(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	out := f.escapes()
	for name, p := range escapePaths(out) {
		wantRefused(t, name, f.fail("read", map[string]any{"path": p}))
	}
}

func TestWrite(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	wantEqual(t, "write", f.ok("write", map[string]any{"path": "x/y/z.txt", "content": "héllo\n"}), "wrote 7 bytes to x/y/z.txt")
	wantEqual(t, "content", f.content("x/y/z.txt"), "héllo\n")
	wantEqual(t, "overwrite", f.ok("write", map[string]any{"path": filepath.Join(f.ws, "x/y/z.txt"), "content": ""}), "wrote 0 bytes to x/y/z.txt")
	wantEqual(t, "content", f.content("x/y/z.txt"), "")
	wantEqual(t, "dir", f.fail("write", map[string]any{"path": "x", "content": "a"}), `"x" is a directory`)
	wantEqual(t, "root", f.fail("write", map[string]any{"path": ".", "content": "a"}), `path "." is the workspace root, not a file`)
	wantContains(t, f.fail("write", map[string]any{"path": "a"}), `"content" is required`)
	// A file in the way of a parent directory.
	f.file("file", "")
	wantContains(t, f.fail("write", map[string]any{"path": "file/child", "content": "a"}), `"file/child"`)
}

func TestWriteEscapes(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	out := f.escapes()
	for name, p := range escapePaths(out) {
		if name == "root file" {
			continue // never try to write /etc/passwd, even to see it refused
		}
		wantRefused(t, name, f.fail("write", map[string]any{"path": p, "content": "pwned"}))
	}
	wantRefused(t, "new file through symlink dir", f.fail("write", map[string]any{"path": "outdir/new/file.txt", "content": "pwned"}))
	b, err := os.ReadFile(filepath.Join(out, "secret.txt"))
	if err != nil || string(b) != "TOP SECRET\n" {
		t.Fatalf("outside file changed: %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(out, "new")); err == nil {
		t.Fatal("a directory was created outside the workspace")
	}
}

func TestEdit(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	f.file("a.go", "x := 1\ny := 1\nz := 2\n")
	if err := os.Chmod(filepath.Join(f.ws, "a.go"), 0o600); err != nil {
		t.Fatal(err)
	}
	wantEqual(t, "edit", f.ok("edit", map[string]any{"path": "a.go", "oldString": "z := 2", "newString": "z := 3"}), "replaced 1 occurrence in a.go")
	wantEqual(t, "content", f.content("a.go"), "x := 1\ny := 1\nz := 3\n")
	fi, _ := os.Stat(filepath.Join(f.ws, "a.go"))
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode changed to %v", fi.Mode().Perm())
	}

	// Errors leave the file unchanged.
	before := f.content("a.go")
	wantEqual(t, "not unique", f.fail("edit", map[string]any{"path": "a.go", "oldString": ":= 1", "newString": ":= 5"}),
		`oldString occurs 2 times in "a.go"; include more surrounding text to make it unique, or set replaceAll to replace every occurrence`)
	wantEqual(t, "not found", f.fail("edit", map[string]any{"path": "a.go", "oldString": "w := 1", "newString": "w := 5"}),
		`oldString was not found in "a.go"; it must match exactly, including whitespace and indentation (read the file first)`)
	wantEqual(t, "empty", f.fail("edit", map[string]any{"path": "a.go", "oldString": "", "newString": "q"}),
		"oldString must not be empty; use write to create a file")
	wantEqual(t, "same", f.fail("edit", map[string]any{"path": "a.go", "oldString": "x", "newString": "x"}),
		"oldString and newString are identical; nothing to change")
	wantEqual(t, "unchanged", f.content("a.go"), before)

	wantEqual(t, "replaceAll", f.ok("edit", map[string]any{"path": "a.go", "oldString": ":= 1", "newString": ":= 5", "replaceAll": true}), "replaced 2 occurrences in a.go")
	wantEqual(t, "content", f.content("a.go"), "x := 5\ny := 5\nz := 3\n")

	wantEqual(t, "missing", f.fail("edit", map[string]any{"path": "nope", "oldString": "a", "newString": "b"}), `"nope" does not exist`)
	f.file("bin", "a\x00b")
	wantContains(t, f.fail("edit", map[string]any{"path": "bin", "oldString": "a", "newString": "b"}), "binary file")
	wantEqual(t, "binary unchanged", f.content("bin"), "a\x00b")
	wantContains(t, f.fail("edit", map[string]any{"path": "a.go", "oldString": "a"}), `"newString" is required`)
}

func TestEditEscapes(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	out := f.escapes()
	for name, p := range escapePaths(out) {
		wantRefused(t, name, f.fail("edit", map[string]any{"path": p, "oldString": "TOP", "newString": "NO"}))
	}
	b, _ := os.ReadFile(filepath.Join(out, "secret.txt"))
	wantEqual(t, "outside file", string(b), "TOP SECRET\n")
}

// A symbolic link that stays inside the workspace is followed.
func TestSymlinkInsideWorkspace(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	f.file("real/a.txt", "inside\n")
	if err := os.Symlink("real", filepath.Join(f.ws, "alias")); err != nil {
		t.Fatal(err)
	}
	wantEqual(t, "read via link", f.ok("read", map[string]any{"path": "alias/a.txt"}), "inside\n")
	f.ok("edit", map[string]any{"path": "alias/a.txt", "oldString": "inside", "newString": "changed"})
	wantEqual(t, "content", f.content("real/a.txt"), "changed\n")
}

// A workspace given through a symbolic link accepts absolute paths under
// either name.
func TestWorkspaceThroughSymlink(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "ws")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, builtin.Options{Workspace: link})
	f.file("a.txt", "via link\n")
	wantEqual(t, "link path", f.ok("read", map[string]any{"path": filepath.Join(link, "a.txt")}), "via link\n")
	wantEqual(t, "real path", f.ok("read", map[string]any{"path": filepath.Join(mustRealPath(t, real), "a.txt")}), "via link\n")
	wantRefused(t, "sibling", f.fail("read", map[string]any{"path": filepath.Join(filepath.Dir(link), "other")}))
}

func mustRealPath(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
