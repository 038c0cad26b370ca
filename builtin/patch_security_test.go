package builtin_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus/builtin"
)

// A hunk that nearly matches at every position of a long file used to cost
// positions × hunk lines × 3 modes (18 s with a 2000-line hunk; this one
// has 10000 lines); matching is now linear (about a second under -race,
// 6 s seen on a loaded 2-core machine), and the call fails fast with the
// usual "not found" error. The bound is the point of the test, so it is
// generous.
func TestApplyPatchNoQuadraticSeek(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	// "b" is in the file (at the top), so every line of the hunk is too and
	// the search runs over the whole file in each of the three modes.
	f.file("f.txt", "b\n"+strings.Repeat("a\n", 200000))
	lines := []string{"*** Begin Patch", "*** Update File: f.txt"}
	for range 10000 {
		lines = append(lines, "-a")
	}
	lines = append(lines, "-b", "*** End Patch")
	start := time.Now()
	out := f.fail("apply_patch", patch(lines...))
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("apply_patch took %v", d)
	}
	wantContains(t, out, `hunk 1 of "f.txt" (line 3 of the patch) does not apply`)
	// The same hunk ending in a line that is there applies at the right
	// place.
	f.file("g.txt", strings.Repeat("a\n", 12000)+"b\n"+strings.Repeat("a\n", 10))
	lines[1] = "*** Update File: g.txt"
	lines[len(lines)-2] = "-b"
	lines = append(lines[:len(lines)-1], "+B", "*** End Patch")
	f.ok("apply_patch", patch(lines...))
	wantEqual(t, "g.txt", f.content("g.txt"), strings.Repeat("a\n", 2000)+"B\n"+strings.Repeat("a\n", 10))
}

// symlinkFixture has a.txt, alias -> a.txt, dir/ and dl -> dir.
func symlinkFixture(t *testing.T) *fixture {
	f := newFixture(t, builtin.Options{})
	f.file("a.txt", "one\ntwo\n")
	f.file("dir/keep.txt", "keep\n")
	if err := os.Symlink("a.txt", filepath.Join(f.ws, "alias")); err != nil {
		t.Skip("symlink:", err)
	}
	if err := os.Symlink("dir", filepath.Join(f.ws, "dl")); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) wantSymlinkFixture() {
	f.t.Helper()
	wantEqual(f.t, "a.txt", f.content("a.txt"), "one\ntwo\n")
	if target, err := os.Readlink(filepath.Join(f.ws, "alias")); err != nil || target != "a.txt" {
		f.t.Errorf("alias: readlink = %q, %v; want a.txt", target, err)
	}
	if target, err := os.Readlink(filepath.Join(f.ws, "dl")); err != nil || target != "dir" {
		f.t.Errorf("dl: readlink = %q, %v; want dir", target, err)
	}
	if f.exists("dir/new.txt") {
		f.t.Error("dir/new.txt was created")
	}
}

// Two paths that reach the same file through symbolic links are refused:
// the patch would otherwise lose an edit or destroy content while
// reporting success.
func TestApplyPatchSymlinkAliases(t *testing.T) {
	cases := map[string][]string{
		"update twice": {"*** Update File: a.txt", "-one", "+ONE", "*** Update File: alias", "-two", "+TWO"},
		"move onto added": {"*** Update File: a.txt", "*** Move to: dl/new.txt", "-one", "+ONE",
			"*** Add File: dir/new.txt", "+other"},
		"delete link then failing add": {"*** Delete File: alias", "*** Add File: a.txt", "+x"},
		"update through link":          {"*** Update File: alias", "-one", "+ONE"},
		"add through dir link":         {"*** Add File: dl/x.txt", "+x"},
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			f := symlinkFixture(t) // fresh, and reporting to this subtest
			lines := append(append([]string{"*** Begin Patch"}, body...), "*** End Patch")
			out := f.fail("apply_patch", patch(lines...))
			wantContains(t, out, "is a symbolic link and apply_patch does not follow symbolic links")
			f.wantSymlinkFixture()
		})
	}
}

// Hard links to the same file in two sections are refused too (os.SameFile).
func TestApplyPatchHardLinkAliases(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	f.file("a.txt", "one\n")
	if err := os.Link(filepath.Join(f.ws, "a.txt"), filepath.Join(f.ws, "b.txt")); err != nil {
		t.Skip("link:", err)
	}
	out := f.fail("apply_patch", patch("*** Begin Patch", "*** Delete File: a.txt", "*** Delete File: b.txt", "*** End Patch"))
	wantEqual(t, "error", out, `"a.txt" (line 2) and "b.txt" (line 3) are the same file; change it once`)
	if !f.exists("a.txt") || !f.exists("b.txt") {
		t.Error("a link was deleted")
	}
}

// Untouched lines keep their own line ending in a file with mixed endings.
func TestApplyPatchMixedLineEndings(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	f.file("m.txt", "a\r\nb\nc\r\nd\n")
	f.ok("apply_patch", patch("*** Begin Patch", "*** Update File: m.txt", " b", "-c", "+C", "*** End Patch"))
	// Three of four lines end in LF or CRLF equally often: LF wins a tie.
	wantEqual(t, "m.txt", f.content("m.txt"), "a\r\nb\nC\nd\n")
	f.file("w.txt", "a\r\nb\r\nc\nd")
	f.ok("apply_patch", patch("*** Begin Patch", "*** Update File: w.txt", " a", "+new", " b", "*** End Patch"))
	wantEqual(t, "w.txt", f.content("w.txt"), "a\r\nnew\r\nb\r\nc\nd")
	// A line added after a last line without a newline: that line gets the
	// usual ending, the file still has no final newline.
	f.ok("apply_patch", patch("*** Begin Patch", "*** Update File: w.txt", " d", "+e", "*** End of File", "*** End Patch"))
	wantEqual(t, "w.txt after eof", f.content("w.txt"), "a\r\nnew\r\nb\r\nc\nd\r\ne")
}
