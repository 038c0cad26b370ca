package builtin_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolnexus/toolnexus/builtin"
)

// write, edit and apply_patch refuse a file with more than one hard link:
// the other link may be outside the workspace, and os.Root cannot see it.
func TestHardLinkRefused(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	outside := filepath.Join(t.TempDir(), "outside.txt")
	if err := os.WriteFile(outside, []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(outside, filepath.Join(f.ws, "hl.txt")); err != nil {
		t.Skip("hard link:", err)
	}
	want := `refusing to change "hl.txt": it has more than one hard link (2), and another link may be outside the workspace; write a new file instead`
	wantEqual(t, "write", f.fail("write", map[string]any{"path": "hl.txt", "content": "pwned\n"}), want)
	wantEqual(t, "edit", f.fail("edit", map[string]any{"path": "hl.txt", "oldString": "secret", "newString": "pwned"}), want)
	wantEqual(t, "apply_patch", f.fail("apply_patch", patch("*** Begin Patch", "*** Update File: hl.txt", "-secret", "+pwned", "*** End Patch")), want)
	b, _ := os.ReadFile(outside)
	wantEqual(t, "outside", string(b), "secret\n")
	// Reading is not refused (documented: os.Root cannot confine it).
	wantEqual(t, "read", f.ok("read", map[string]any{"path": "hl.txt"}), "secret\n")
	// Moving or deleting one link leaves the other file's content alone.
	f.ok("apply_patch", patch("*** Begin Patch", "*** Update File: hl.txt", "*** Move to: copy.txt", "-secret", "+mine", "*** End Patch"))
	wantEqual(t, "moved copy", f.content("copy.txt"), "mine\n")
	b, _ = os.ReadFile(outside)
	wantEqual(t, "outside after move", string(b), "secret\n")
	if err := os.Link(outside, filepath.Join(f.ws, "hl2.txt")); err != nil {
		t.Fatal(err)
	}
	f.ok("apply_patch", patch("*** Begin Patch", "*** Delete File: hl2.txt", "*** End Patch"))
	b, _ = os.ReadFile(outside)
	wantEqual(t, "outside after delete", string(b), "secret\n")
}

// A trailing slash names a directory: a regular file named so is refused.
func TestTrailingSlash(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	f.file("in.txt", "in\n")
	wantEqual(t, "read", f.fail("read", map[string]any{"path": "in.txt/"}), `"in.txt/": "in.txt" is a file, not a directory`)
	wantEqual(t, "edit", f.fail("edit", map[string]any{"path": "in.txt/", "oldString": "in", "newString": "x"}), `"in.txt/": "in.txt" is a file, not a directory`)
	wantEqual(t, "write", f.fail("write", map[string]any{"path": "in.txt/", "content": "x"}), `path "in.txt/" ends with a slash, which names a directory; give a file path`)
	wantEqual(t, "in.txt", f.content("in.txt"), "in\n")
}
