package builtin_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/builtin"
)

func patch(lines ...string) map[string]any {
	return map[string]any{"patchText": strings.Join(lines, "\n") + "\n"}
}

func TestApplyPatch(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	f.file("src/main.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n")
	f.file("old.txt", "bye\n")
	f.file("move/me.txt", "a\nb\nc\n")
	out := f.ok("apply_patch", patch(
		"*** Begin Patch",
		"*** Add File: docs/new.md",
		"+# New",
		"+",
		"+text",
		"*** Update File: src/main.go",
		"@@ func main() {",
		"-\tfmt.Println(\"hi\")",
		"+\tfmt.Println(\"hello\")",
		"+\tfmt.Println(\"world\")",
		" }",
		"*** Delete File: old.txt",
		"*** Update File: move/me.txt",
		"*** Move to: moved/me.txt",
		" a",
		"-b",
		"+B",
		"*** End Patch",
	))
	wantEqual(t, "output", out, "Success. Updated the following files:\nA docs/new.md\nM src/main.go\nD old.txt\nM moved/me.txt")
	wantEqual(t, "added", f.content("docs/new.md"), "# New\n\ntext\n")
	wantEqual(t, "updated", f.content("src/main.go"), "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello\")\n\tfmt.Println(\"world\")\n}\n")
	wantEqual(t, "moved", f.content("moved/me.txt"), "a\nB\nc\n")
	if f.exists("old.txt") || f.exists("move/me.txt") {
		t.Error("deleted or moved-away file still exists")
	}
}

func TestApplyPatchHunks(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	f.file("a.txt", "1\n2\n3\n4\n5\n6\n7\n8\n9\nx\n")
	// Two hunks, trailing-whitespace tolerance, and an End of File hunk.
	f.ok("apply_patch", patch(
		"*** Begin Patch",
		"*** Update File: a.txt",
		"@@",
		" 1   ",
		"-2",
		"+two",
		"@@",
		" 8",
		"-9",
		"-x",
		"+nine",
		"*** End of File",
		"*** End Patch",
	))
	wantEqual(t, "hunks", f.content("a.txt"), "1\ntwo\n3\n4\n5\n6\n7\n8\nnine\n")

	// CRLF files keep CRLF; a file without a final newline keeps that.
	f.file("crlf.txt", "a\r\nb\r\nc")
	f.ok("apply_patch", patch("*** Begin Patch", "*** Update File: crlf.txt", " a", "-b", "+B", "*** End Patch"))
	wantEqual(t, "crlf", f.content("crlf.txt"), "a\r\nB\r\nc")

	// A pure addition without context goes at the end; after an anchor, right after it.
	f.file("list.txt", "head\nbody\n")
	f.ok("apply_patch", patch("*** Begin Patch", "*** Update File: list.txt", "+tail", "*** End Patch"))
	wantEqual(t, "append", f.content("list.txt"), "head\nbody\ntail\n")
	f.ok("apply_patch", patch("*** Begin Patch", "*** Update File: list.txt", "@@ head", "+inserted", "*** End Patch"))
	wantEqual(t, "insert after anchor", f.content("list.txt"), "head\ninserted\nbody\ntail\n")

	// An absolute path inside the workspace, and a patch given with CRLF.
	f.file("w.txt", "x\n")
	f.ok("apply_patch", map[string]any{"patchText": "*** Begin Patch\r\n*** Update File: " + filepath.Join(f.ws, "w.txt") + "\r\n-x\r\n+y\r\n*** End Patch\r\n"})
	wantEqual(t, "absolute", f.content("w.txt"), "y\n")
}

// A hunk that does not match leaves every file untouched, including the
// ones earlier in the patch.
func TestApplyPatchAllOrNothing(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	f.file("a.txt", "alpha\n")
	f.file("b.txt", "beta\n")
	f.file("c.txt", "gamma\n")
	out := f.fail("apply_patch", patch(
		"*** Begin Patch",
		"*** Add File: new/file.txt",
		"+new",
		"*** Update File: a.txt",
		"-alpha",
		"+ALPHA",
		"*** Delete File: c.txt",
		"*** Update File: b.txt",
		"-not there",
		"+x",
		"*** End Patch",
	))
	wantEqual(t, "error", out, "hunk 1 of \"b.txt\" (line 9 of the patch) does not apply: these lines were not found in the file:\nnot there\n"+
		"no file was changed; read the file and make the context and - lines match it exactly")
	wantEqual(t, "a", f.content("a.txt"), "alpha\n")
	wantEqual(t, "b", f.content("b.txt"), "beta\n")
	wantEqual(t, "c", f.content("c.txt"), "gamma\n")
	if f.exists("new") {
		t.Error("the added file's directory was created")
	}
}

func TestApplyPatchErrors(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	f.file("a.txt", "alpha\n")
	f.file("bin", "a\x00")
	cases := []struct {
		name  string
		patch map[string]any
		want  string
	}{
		{"no begin", patch("*** Update File: a.txt", "*** End Patch"), `invalid patch: the patch must start with the line "*** Begin Patch"`},
		{"no end", patch("*** Begin Patch", "*** Delete File: a.txt"), `invalid patch: the patch must end with the line "*** End Patch"`},
		{"empty", patch("*** Begin Patch", "*** End Patch"), "invalid patch: the patch changes no files"},
		{"bad header", patch("*** Begin Patch", "*** Rename File: a.txt", "*** End Patch"),
			`invalid patch: line 2: expected "*** Add File:", "*** Update File:" or "*** Delete File:", got "*** Rename File: a.txt"`},
		{"add without +", patch("*** Begin Patch", "*** Add File: n.txt", "text", "*** End Patch"),
			"invalid patch: line 3: every line of an added file must start with +"},
		{"bad hunk line", patch("*** Begin Patch", "*** Update File: a.txt", "alpha", "*** End Patch"),
			`invalid patch: line 3: a hunk line must start with a space, - or +, got "alpha"`},
		{"no changes", patch("*** Begin Patch", "*** Update File: a.txt", "*** End Patch"),
			`invalid patch: line 2: "*** Update File: a.txt" has no changes`},
		{"no path", patch("*** Begin Patch", "*** Delete File: ", "*** End Patch"), "invalid patch: line 2: the file path is missing"},
		{"add existing", patch("*** Begin Patch", "*** Add File: a.txt", "+x", "*** End Patch"),
			`"a.txt" already exists; use Update File to change it`},
		{"delete missing", patch("*** Begin Patch", "*** Delete File: nope.txt", "*** End Patch"), `"nope.txt" does not exist`},
		{"update missing", patch("*** Begin Patch", "*** Update File: nope.txt", "+x", "*** End Patch"), `"nope.txt" does not exist`},
		{"update binary", patch("*** Begin Patch", "*** Update File: bin", "+x", "*** End Patch"),
			`"bin" is a binary file (2 bytes), not shown; these tools work on UTF-8 text files only`},
		{"twice", patch("*** Begin Patch", "*** Update File: a.txt", "+x", "*** Delete File: a.txt", "*** End Patch"),
			`"a.txt" is changed twice in the patch (lines 2 and 4); combine the changes`},
		{"move onto existing", patch("*** Begin Patch", "*** Update File: a.txt", "*** Move to: bin", "*** End Patch"),
			`"bin" already exists; use Update File to change it`},
		{"anchor missing", patch("*** Begin Patch", "*** Update File: a.txt", "@@ func nope()", "-alpha", "+x", "*** End Patch"),
			`hunk 1 of "a.txt" (line 3 of the patch) does not apply: the line "func nope()" after @@ was not found; no file was changed`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantEqual(t, "error", f.fail("apply_patch", c.patch), c.want)
			wantEqual(t, "a.txt", f.content("a.txt"), "alpha\n")
		})
	}
	wantContains(t, f.fail("apply_patch", `{}`), `"patchText" is required`)
}

func TestApplyPatchEscapes(t *testing.T) {
	f := newFixture(t, builtin.Options{})
	out := f.escapes()
	f.file("in.txt", "in\n")
	for name, p := range escapePaths(out) {
		for _, body := range [][]string{
			{"*** Update File: " + p, "-TOP SECRET", "+pwned"},
			{"*** Delete File: " + p},
		} {
			lines := append([]string{"*** Begin Patch", "*** Update File: in.txt", "-in", "+changed"}, body...)
			wantRefused(t, name, f.fail("apply_patch", patch(append(lines, "*** End Patch")...)))
		}
	}
	for name, p := range map[string]string{
		"add dotdot":       "../evil.txt",
		"add absolute":     filepath.Join(out, "evil.txt"),
		"add through link": "outdir/evil.txt",
		"add deep link":    "outdir/deep/evil.txt",
	} {
		wantRefused(t, name, f.fail("apply_patch", patch("*** Begin Patch", "*** Add File: "+p, "+evil", "*** End Patch")))
	}
	wantRefused(t, "move out", f.fail("apply_patch", patch("*** Begin Patch", "*** Update File: in.txt", "*** Move to: outdir/moved.txt", "*** End Patch")))
	wantEqual(t, "in.txt", f.content("in.txt"), "in\n")
	b, _ := os.ReadFile(filepath.Join(out, "secret.txt"))
	wantEqual(t, "secret", string(b), "TOP SECRET\n")
	entries, _ := os.ReadDir(out)
	if len(entries) != 1 {
		t.Errorf("files appeared outside the workspace: %v", entries)
	}
}
