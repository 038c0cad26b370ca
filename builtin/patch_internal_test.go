package builtin

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A cancelled context stops the matcher and applyPatch before any write.
func TestApplyPatchHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := newMatcher(ctx, newTextLines(strings.Repeat("a\n", 3*ctxEvery)))
	if _, err := m.seek([]string{"a", "b"}, 0, false); err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("seek with a cancelled context: err = %v", err)
	}
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := newEnv(Options{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.applyPatch(ctx, "*** Begin Patch\n*** Update File: a.txt\n-alpha\n+x\n*** End Patch\n")
	if err == nil || !strings.Contains(err.Error(), "apply_patch stopped: context canceled; no file was changed") {
		t.Errorf("applyPatch with a cancelled context: err = %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "alpha\n" {
		t.Errorf("a.txt = %q", b)
	}
}

// matcher.seek prefers an exact match anywhere over a looser one earlier.
func TestSeekModes(t *testing.T) {
	m := newMatcher(context.Background(), newTextLines("x  \n  x\nx\ny"))
	for _, c := range []struct {
		pat   []string
		start int
		eof   bool
		want  int
	}{
		{[]string{"x"}, 0, false, 2},
		{[]string{"x  "}, 0, false, 0},
		{[]string{"x"}, 3, false, -1},
		{[]string{"  x"}, 0, false, 1},
		{[]string{"x", "y"}, 0, true, 2},
		{[]string{"z"}, 0, false, -1},
		{[]string{"x", "x", "x", "y", "y"}, 0, false, -1},
	} {
		got, err := m.seek(c.pat, c.start, c.eof)
		if err != nil || got != c.want {
			t.Errorf("seek(%q, %d, %v) = %d, %v; want %d", c.pat, c.start, c.eof, got, err, c.want)
		}
	}
	// Trailing-whitespace mode before surrounding-whitespace mode.
	m = newMatcher(context.Background(), newTextLines(" q\nq \t"))
	if got, _ := m.seek([]string{"q"}, 0, false); got != 1 {
		t.Errorf("seek(q) = %d, want 1 (trailing whitespace ignored first)", got)
	}
}

// When a step of commit fails, rollback restores exactly what was there:
// it never removes a file it did not create, and it never registers an
// undo with content it could not read.
func TestCommitRollback(t *testing.T) {
	ws := t.TempDir()
	write := func(name, data string, mode os.FileMode) {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(data), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Join(ws, name), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "alpha\n", 0o644)
	write("b.txt", "beta\n", 0o600)
	write("c.txt", "there already\n", 0o644)
	root, err := os.OpenRoot(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	plan := []plannedWrite{
		{kind: opUpdate, rel: "a.txt", path: "a.txt", data: []byte("ALPHA\n"), display: "a.txt"},
		{kind: opDelete, rel: "b.txt", path: "b.txt", display: "b.txt"},
		{kind: opAdd, rel: filepath.Join("new", "n.txt"), path: "new/n.txt", data: []byte("n\n"), mode: 0o644, display: "new/n.txt"},
		{kind: opAdd, rel: "c.txt", path: "c.txt", data: []byte("mine\n"), mode: 0o644, display: "c.txt"},
	}
	err = commit(root, plan)
	if err == nil || !strings.HasPrefix(err.Error(), "could not create c.txt: ") || !strings.HasSuffix(err.Error(), "; no file was changed") {
		t.Fatalf("commit err = %v", err)
	}
	for name, want := range map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n", "c.txt": "there already\n"} {
		if b, err := os.ReadFile(filepath.Join(ws, name)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", name, b, err, want)
		}
	}
	if fi, err := os.Stat(filepath.Join(ws, "b.txt")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("b.txt mode after rollback: %v, %v; want 0600", fi.Mode(), err)
	}
	if _, err := os.Lstat(filepath.Join(ws, "new")); err == nil {
		t.Error("directory new was left behind")
	}

	// An update whose file vanished before commit: no undo writes an empty
	// file in its place.
	plan = []plannedWrite{
		{kind: opAdd, rel: "d.txt", path: "d.txt", data: []byte("d\n"), mode: 0o644, display: "d.txt"},
		{kind: opUpdate, rel: "gone.txt", path: "gone.txt", data: []byte("x\n"), display: "gone.txt"},
	}
	if err := commit(root, plan); err == nil {
		t.Fatal("commit of a missing file succeeded")
	}
	for _, name := range []string{"d.txt", "gone.txt"} {
		if _, err := os.Lstat(filepath.Join(ws, name)); err == nil {
			t.Errorf("%s exists after rollback", name)
		}
	}
}

// openRegular and openForWrite never block on a FIFO, even when nothing
// checked the path before (a file swapped for a FIFO after a Stat).
func TestOpenNeverBlocksOnFIFO(t *testing.T) {
	ws := t.TempDir()
	if err := mkfifo(filepath.Join(ws, "pipe")); err != nil {
		t.Skip("mkfifo:", err)
	}
	root, err := os.OpenRoot(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	done := make(chan [2]error, 1)
	listed := make(chan error, 1)
	go func() {
		_, _, rerr := openRegular(root, "pipe", "pipe")
		_, _, werr := openForWrite(root, "pipe", "pipe", 0, 0)
		done <- [2]error{rerr, werr}
		// grep and glob list directories the same way.
		_, lerr := newWalkFS(root).ReadDir("pipe")
		listed <- lerr
	}()
	select {
	case errs := <-done:
		for i, err := range errs {
			if err == nil || err.Error() != `"pipe" is not a regular file` {
				t.Errorf("open %d: err = %v", i, err)
			}
		}
	case <-time.After(30 * time.Second): // a FIFO blocks forever; generous for a loaded machine
		t.Fatal("opening a FIFO blocked")
	}
	select {
	case err := <-listed:
		if err == nil {
			t.Error("listing a FIFO as a directory succeeded")
		}
	case <-time.After(30 * time.Second): // a FIFO blocks forever; generous for a loaded machine
		t.Fatal("listing a FIFO as a directory blocked")
	}
}

// read with a huge offset checks the context while it skips lines.
func TestReadHonoursContext(t *testing.T) {
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "big.txt"), []byte(strings.Repeat("x\n", 3*ctxEvery)), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := newEnv(Options{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = e.read(ctx, readArgs{Path: "big.txt", Offset: 1 << 30})
	if err == nil || err.Error() != "read stopped: context canceled" {
		t.Errorf("read with a cancelled context: %v", err)
	}
	out, err := e.read(context.Background(), readArgs{Path: "big.txt", Offset: 3 * ctxEvery})
	if err != nil || out != "x\n" {
		t.Errorf("read last line: %q, %v", out, err)
	}
}

func TestTextLines(t *testing.T) {
	for _, c := range []struct {
		content     string
		lines, ends []string
	}{
		{"", nil, nil},
		{"a", []string{"a"}, []string{""}},
		{"a\n", []string{"a"}, []string{"\n"}},
		{"a\r\nb\nc", []string{"a", "b", "c"}, []string{"\r\n", "\n", ""}},
		{"\n\r\n\r", []string{"", "", "\r"}, []string{"\n", "\r\n", ""}},
		{"x\ry\n", []string{"x\ry"}, []string{"\n"}},
	} {
		tl := newTextLines(c.content)
		var lines, ends []string
		for i := range tl.n() {
			lines, ends = append(lines, tl.line(i)), append(ends, tl.end(i))
		}
		if !slices.Equal(lines, c.lines) || !slices.Equal(ends, c.ends) {
			t.Errorf("newTextLines(%q): lines %q ends %q, want %q %q", c.content, lines, ends, c.lines, c.ends)
		}
	}
}
