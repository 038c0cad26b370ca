package builtin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolnexus/toolnexus"
)

type applyPatchArgs struct {
	PatchText string `json:"patchText" jsonschema_description:"The whole patch, from *** Begin Patch to *** End Patch."`
}

const applyPatchDesc = `Apply a patch that adds, updates, moves or deletes text files in the workspace. Format:
*** Begin Patch
*** Add File: path/new.txt
+every line of the new file, prefixed with +
*** Update File: path/old.txt
*** Move to: path/renamed.txt (optional)
@@ a line near the change (optional, to locate it)
 unchanged context line (prefix: space)
-line to remove
+line to add
*** Delete File: path/gone.txt
*** End Patch
Give about 3 lines of context around each change. The patch is applied completely or not at all: if any hunk does not match, no file is changed. ` +
	`Paths that go through a symbolic link, files with more than one hard link (for in-place updates) and two sections naming the same file are refused.`

func applyPatchTool(e *env) (toolnexus.Tool, error) {
	return newTool(e, "apply_patch", "Apply patch", applyPatchDesc,
		toolnexus.Annotations{DestructiveHint: new(true), OpenWorldHint: new(false)}, 0,
		func(ctx context.Context, a applyPatchArgs) toolnexus.Result {
			return textResult(e.applyPatch(ctx, a.PatchText))
		})
}

// maxPatchBytes bounds the file content one apply_patch call holds, in
// bytes: the new content of every file it writes plus the old content of
// every file it changes or deletes (kept to undo a failed patch).
const maxPatchBytes = 64 << 20

// ---- parsing ---------------------------------------------------------------

type opKind byte

const (
	opAdd    opKind = 'A'
	opUpdate opKind = 'M'
	opDelete opKind = 'D'
)

// patchOp is one file section of a patch.
type patchOp struct {
	kind   opKind
	path   string   // as written in the patch
	moveTo string   // Update only: "*** Move to:" path, or ""
	lines  []string // Add only: the new file's lines
	chunks []chunk  // Update only
	line   int      // line number of the section header, for messages
}

// chunk is one "@@" hunk of an Update section.
type chunk struct {
	anchor string   // text after "@@ ", a line to find before the hunk
	old    []string // context and removed lines, in order
	new    []string // context and added lines, in order
	src    []int    // for each new line: its index in old (context), or -1 (added)
	eof    bool     // "*** End of File": the hunk ends at the end of the file
	line   int      // line number where the hunk starts
}

const (
	beginPatch = "*** Begin Patch"
	endPatch   = "*** End Patch"
	addFile    = "*** Add File: "
	deleteFile = "*** Delete File: "
	updateFile = "*** Update File: "
	moveTo     = "*** Move to: "
	endOfFile  = "*** End of File"
)

// parsePatch parses the *** Begin Patch grammar. Errors name the line.
func parsePatch(text string) ([]patchOp, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	first, last := 0, len(lines)-1
	for first <= last && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	for last >= first && strings.TrimSpace(lines[last]) == "" {
		last--
	}
	if first > last || strings.TrimSpace(lines[first]) != beginPatch {
		return nil, fmt.Errorf("the patch must start with the line %q", beginPatch)
	}
	if strings.TrimSpace(lines[last]) != endPatch {
		return nil, fmt.Errorf("the patch must end with the line %q", endPatch)
	}
	var ops []patchOp
	i := first + 1
	for i < last {
		ln := lines[i]
		no := i + 1
		switch {
		case strings.HasPrefix(ln, addFile):
			op := patchOp{kind: opAdd, path: strings.TrimSpace(ln[len(addFile):]), line: no}
			i++
			for i < last && !strings.HasPrefix(lines[i], "*** ") {
				if !strings.HasPrefix(lines[i], "+") {
					return nil, fmt.Errorf("line %d: every line of an added file must start with +", i+1)
				}
				op.lines = append(op.lines, lines[i][1:])
				i++
			}
			ops = append(ops, op)
		case strings.HasPrefix(ln, deleteFile):
			ops = append(ops, patchOp{kind: opDelete, path: strings.TrimSpace(ln[len(deleteFile):]), line: no})
			i++
		case strings.HasPrefix(ln, updateFile):
			op := patchOp{kind: opUpdate, path: strings.TrimSpace(ln[len(updateFile):]), line: no}
			i++
			if i < last && strings.HasPrefix(lines[i], moveTo) {
				op.moveTo = strings.TrimSpace(lines[i][len(moveTo):])
				if op.moveTo == "" {
					return nil, fmt.Errorf("line %d: %q needs a path", i+1, strings.TrimSpace(moveTo))
				}
				i++
			}
			var cur *chunk
			for i < last {
				l := lines[i]
				if l == endOfFile {
					if cur == nil {
						return nil, fmt.Errorf("line %d: %q must follow a hunk", i+1, endOfFile)
					}
					cur.eof = true
					i++
					continue
				}
				if strings.HasPrefix(l, "*** ") {
					break
				}
				if l == "@@" || strings.HasPrefix(l, "@@ ") {
					op.chunks = append(op.chunks, chunk{anchor: strings.TrimSpace(strings.TrimPrefix(l, "@@")), line: i + 1})
					cur = &op.chunks[len(op.chunks)-1]
					i++
					continue
				}
				if cur == nil || cur.eof {
					op.chunks = append(op.chunks, chunk{line: i + 1})
					cur = &op.chunks[len(op.chunks)-1]
				}
				switch {
				case l == "" || l[0] == ' ':
					// A blank line is an empty context line.
					text := strings.TrimPrefix(l, " ")
					cur.src = append(cur.src, len(cur.old))
					cur.old = append(cur.old, text)
					cur.new = append(cur.new, text)
				case l[0] == '-':
					cur.old = append(cur.old, l[1:])
				case l[0] == '+':
					cur.src = append(cur.src, -1)
					cur.new = append(cur.new, l[1:])
				default:
					return nil, fmt.Errorf("line %d: a hunk line must start with a space, - or +, got %q", i+1, l)
				}
				i++
			}
			for _, c := range op.chunks {
				if len(c.old) == 0 && len(c.new) == 0 {
					return nil, fmt.Errorf("line %d: empty hunk", c.line)
				}
			}
			if len(op.chunks) == 0 && op.moveTo == "" {
				return nil, fmt.Errorf("line %d: %q has no changes", no, strings.TrimSpace(ln))
			}
			ops = append(ops, op)
		case strings.TrimSpace(ln) == "":
			i++
		default:
			return nil, fmt.Errorf("line %d: expected %q, %q or %q, got %q", no,
				strings.TrimSpace(addFile), strings.TrimSpace(updateFile), strings.TrimSpace(deleteFile), ln)
		}
	}
	if len(ops) == 0 {
		return nil, errors.New("the patch changes no files")
	}
	for _, op := range ops {
		if op.path == "" {
			return nil, fmt.Errorf("line %d: the file path is missing", op.line)
		}
	}
	return ops, nil
}

// ---- applying --------------------------------------------------------------

// plannedWrite is one change to make once every section has been checked.
type plannedWrite struct {
	kind    opKind
	rel     string // file to write or delete
	from    string // Update with Move: the file to remove after writing rel
	path    string // rel as the model wrote it, for messages
	data    []byte
	mode    fs.FileMode
	display string
}

// applyPatch checks every section of the patch against the current files,
// then writes. Nothing is written unless every section applies; if a write
// fails part way, the files already changed are restored.
//
// Symbolic links: no path of a patch may go through one (the file itself
// or any directory on the way), so every path names its real location in
// the workspace and two sections cannot reach the same file under
// different names; existing files are also compared with os.SameFile.
func (e *env) applyPatch(ctx context.Context, text string) (string, error) {
	ops, err := parsePatch(text)
	if err != nil {
		return "", fmt.Errorf("invalid patch: %w", err)
	}
	root, err := e.open()
	if err != nil {
		return "", err
	}
	defer root.Close()

	seen := map[string]int{} // rel path -> header line
	claim := func(p string, line int) (string, error) {
		rel, err := e.rel(p)
		if err != nil {
			return "", err
		}
		if rel == "." {
			return "", fmt.Errorf("path %q is the workspace root, not a file", p)
		}
		if hasTrailingSlash(p) {
			return "", fmt.Errorf("path %q ends with a slash, which names a directory; give a file path", p)
		}
		if err := noLinks(root, rel, p); err != nil {
			return "", err
		}
		if prev, dup := seen[rel]; dup {
			return "", fmt.Errorf("%q is changed twice in the patch (lines %d and %d); combine the changes", p, prev, line)
		}
		seen[rel] = line
		return rel, nil
	}
	type existing struct {
		fi   fs.FileInfo
		path string
		line int
	}
	var olds []existing         // compared pairwise where fileKey is not available
	byKey := map[any]existing{} // by device and inode
	sameAs := func(fi fs.FileInfo, p string, line int) error {
		same := func(o existing) error {
			return fmt.Errorf("%q (line %d) and %q (line %d) are the same file; change it once", o.path, o.line, p, line)
		}
		if key, ok := fileKey(fi); ok {
			if o, dup := byKey[key]; dup {
				return same(o)
			}
			byKey[key] = existing{fi, p, line}
			return nil
		}
		for _, o := range olds {
			if os.SameFile(o.fi, fi) {
				return same(o)
			}
		}
		olds = append(olds, existing{fi, p, line})
		return nil
	}

	var plan []plannedWrite
	// held counts the bytes the plan and its undo data hold: new content,
	// and the old content of every file changed or deleted.
	var held int64
	hold := func(n int64) error {
		if held += n; held > maxPatchBytes {
			return fmt.Errorf("refused: the patch would hold more than %d bytes of old and new file content (the limit of one call); no file was changed; split it into smaller patches", maxPatchBytes)
		}
		return nil
	}
	for _, op := range ops {
		if err := ctx.Err(); err != nil {
			return "", fmt.Errorf("apply_patch stopped: %v; no file was changed", err)
		}
		rel, err := claim(op.path, op.line)
		if err != nil {
			return "", err
		}
		switch op.kind {
		case opAdd:
			if err := checkNew(root, rel, op.path); err != nil {
				return "", err
			}
			size := int64(len(op.lines)) // one newline a line
			for _, l := range op.lines {
				size += int64(len(l))
			}
			if size > MaxFileBytes {
				return "", errTooLarge(op.path, size)
			}
			if err := hold(size); err != nil {
				return "", err
			}
			data := strings.Join(op.lines, "\n") + "\n"
			plan = append(plan, plannedWrite{kind: opAdd, rel: rel, path: op.path, data: []byte(data), mode: 0o644, display: display(rel)})
		case opDelete:
			f, fi, err := openRegular(root, rel, op.path)
			if err != nil {
				return "", err
			}
			f.Close()
			if err := sameAs(fi, op.path, op.line); err != nil {
				return "", err
			}
			// Its content is kept until the patch is done, to undo.
			if fi.Size() > MaxFileBytes {
				return "", fmt.Errorf("%q is too large to delete with apply_patch (%d bytes; the limit is %d)", op.path, fi.Size(), MaxFileBytes)
			}
			if err := hold(fi.Size()); err != nil {
				return "", err
			}
			plan = append(plan, plannedWrite{kind: opDelete, rel: rel, path: op.path, display: display(rel)})
		case opUpdate:
			data, mode, fi, err := readTextInfo(root, rel, op.path)
			if err != nil {
				return "", err
			}
			if err := sameAs(fi, op.path, op.line); err != nil {
				return "", err
			}
			if op.moveTo == "" && linkCount(fi) > 1 {
				return "", fmt.Errorf("refusing to change %q: it %w (%d), and another link may be outside the workspace; write a new file instead", op.path, errHardLink, linkCount(fi))
			}
			if err := hold(int64(len(data))); err != nil {
				return "", err
			}
			out, err := applyChunks(ctx, string(data), op)
			if err != nil {
				return "", err
			}
			if err := hold(int64(len(out))); err != nil {
				return "", err
			}
			w := plannedWrite{kind: opUpdate, rel: rel, path: op.path, data: []byte(out), mode: mode, display: display(rel)}
			if op.moveTo != "" {
				dst, err := claim(op.moveTo, op.line)
				if err != nil {
					return "", err
				}
				if err := checkNew(root, dst, op.moveTo); err != nil {
					return "", err
				}
				w.from, w.rel, w.path, w.display = rel, dst, op.moveTo, display(dst)
			}
			plan = append(plan, w)
		}
	}
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("apply_patch stopped: %v; no file was changed", err)
	}
	if err := commit(root, plan); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("Success. Updated the following files:")
	for _, w := range plan {
		fmt.Fprintf(&b, "\n%c %s", w.kind, w.display)
	}
	return b.String(), nil
}

// errSymlink is the cause of the refusal of a patch path that goes through
// a symbolic link.
var errSymlink = errors.New("apply_patch does not follow symbolic links")

// noLinks checks that no existing component of rel (directories on the
// way and the file itself) is a symbolic link.
func noLinks(root *os.Root, rel, p string) error {
	parts := strings.Split(rel, string(filepath.Separator))
	for i := range parts {
		prefix := filepath.Join(parts[:i+1]...)
		fi, err := root.Lstat(prefix)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fsErr(p, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			if _, err := root.Stat(prefix); err != nil {
				if ferr := fsErr(p, err); errors.Is(ferr, errLinkOut) {
					return ferr
				}
			}
			return fmt.Errorf("%q: %q is a symbolic link and %w; name the file by its real path", p, display(prefix), errSymlink)
		}
	}
	return nil
}

// checkNew checks that rel does not exist yet and that creating it would
// stay in the workspace (no symbolic link on the way leads out of it).
func checkNew(root *os.Root, rel, p string) error {
	_, err := root.Lstat(rel)
	if err == nil {
		return fmt.Errorf("%q already exists; use Update File to change it", p)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return fsErr(p, err)
	}
	for dir := filepath.Dir(rel); dir != "."; dir = filepath.Dir(dir) {
		fi, err := root.Stat(dir)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("cannot create %q: %q is not a directory", p, display(dir))
			}
			return nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fsErr(p, err)
		}
	}
	return nil
}

// commit carries out the plan; on the first failure it undoes what it did.
// An undo is registered only for a step that changed something, and only
// with content that was read successfully: rollback puts back exactly the
// bytes and permission bits that were there (the patch paths contain no
// symbolic links, see noLinks). New files are created with O_EXCL, so a
// file that appeared since the check is never overwritten (or removed by
// rollback).
func commit(root *os.Root, plan []plannedWrite) error {
	var undos []func()
	fail := func(format string, w plannedWrite, err error) error {
		for i := len(undos) - 1; i >= 0; i-- {
			undos[i]()
		}
		return fmt.Errorf(format+": %v; no file was changed", w.display, plainErr(err))
	}
	create := func(w plannedWrite) error {
		created, err := mkdirs(root, filepath.Dir(w.rel))
		if len(created) > 0 {
			undos = append(undos, func() { removeDirs(root, created) })
		}
		if err != nil {
			return err
		}
		f, err := root.OpenFile(w.rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL|openNonblock, w.mode)
		if err != nil {
			return err
		}
		rel := w.rel
		undos = append(undos, func() { _ = root.Remove(rel) })
		_, err = f.Write(w.data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	restore := func(rel string, old []byte, mode fs.FileMode) func() {
		return func() {
			f, err := root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|openNonblock, mode)
			if err != nil {
				return
			}
			_, _ = f.Write(old)
			_ = f.Close()
			_ = root.Chmod(rel, mode)
		}
	}
	for _, w := range plan {
		switch w.kind {
		case opAdd:
			if err := create(w); err != nil {
				return fail("could not create %s", w, err)
			}
		case opDelete:
			old, mode, err := readBack(root, w.rel, w.path)
			if err == nil {
				err = root.Remove(w.rel)
			}
			if err != nil {
				return fail("could not delete %s", w, err)
			}
			undos = append(undos, restore(w.rel, old, mode))
		case opUpdate:
			if w.from == "" {
				old, mode, err := readBack(root, w.rel, w.path)
				if err != nil {
					return fail("could not write %s", w, err)
				}
				undos = append(undos, restore(w.rel, old, mode))
				if err := replaceContent(root, w.rel, w.path, w.data, 0, 0); err != nil {
					return fail("could not write %s", w, err)
				}
				continue
			}
			old, mode, err := readBack(root, w.from, w.from)
			if err == nil {
				err = create(w)
			}
			if err == nil {
				err = root.Remove(w.from)
			}
			if err != nil {
				return fail("could not move to %s", w, err)
			}
			undos = append(undos, restore(w.from, old, mode))
		}
	}
	return nil
}

// readBack reads a file's current bytes and permission bits for an undo.
// The plan checked its size; a file that grew past MaxFileBytes since is
// an error.
func readBack(root *os.Root, rel, p string) ([]byte, fs.FileMode, error) {
	f, fi, err := openRegular(root, rel, p)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, 0, err
	}
	if len(data) > MaxFileBytes {
		return nil, 0, errors.New("it grew past the size limit since it was checked")
	}
	return data, fi.Mode().Perm(), nil
}

// mkdirs creates dir and its missing parents and returns the directories it
// created, deepest first.
func mkdirs(root *os.Root, dir string) ([]string, error) {
	var missing []string
	for d := dir; d != "."; d = filepath.Dir(d) {
		if _, err := root.Stat(d); err == nil {
			break
		}
		missing = append(missing, d)
	}
	if len(missing) == 0 {
		return nil, nil
	}
	return missing, root.MkdirAll(dir, 0o755)
}

func removeDirs(root *os.Root, dirs []string) {
	for _, d := range dirs {
		_ = root.Remove(d)
	}
}

// applyChunks applies the hunks of an Update section to a file's content.
// Each line keeps its own ending (LF or CRLF); added lines get the
// file's usual ending (CRLF when most lines end with CRLF, else LF); the
// presence of a final newline is kept.
func applyChunks(ctx context.Context, content string, op patchOp) (string, error) {
	lines := newTextLines(content)
	nl := "\n"
	if crlf, lf := lines.countEnds(); crlf > lf {
		nl = "\r\n"
	}
	finalNL := content == "" || strings.HasSuffix(content, "\n")
	m := newMatcher(ctx, lines)
	type repl struct {
		at, n int
		new   []string
		ends  []string
	}
	var repls []repl
	cursor := 0
	for k, c := range op.chunks {
		if c.anchor != "" {
			idx, err := m.seek([]string{c.anchor}, cursor, false)
			if err != nil {
				return "", err
			}
			if idx < 0 {
				return "", fmt.Errorf("hunk %d of %q (line %d of the patch) does not apply: the line %q after @@ was not found; no file was changed",
					k+1, op.path, c.line, c.anchor)
			}
			cursor = idx + 1
		}
		if len(c.old) == 0 {
			at := lines.n()
			if c.anchor != "" {
				at = cursor
			}
			r := repl{at: at, new: c.new, ends: make([]string, len(c.new))}
			for j := range r.ends {
				r.ends[j] = nl
			}
			repls = append(repls, r)
			cursor = at
			continue
		}
		idx, err := m.seek(c.old, cursor, c.eof)
		if err != nil {
			return "", err
		}
		if idx < 0 {
			return "", fmt.Errorf("hunk %d of %q (line %d of the patch) does not apply: these lines were not found in the file:\n%s\nno file was changed; read the file and make the context and - lines match it exactly",
				k+1, op.path, c.line, strings.Join(c.old, "\n"))
		}
		// Context lines keep the file's own text and ending (the match may
		// have ignored whitespace differences).
		r := repl{at: idx, n: len(c.old), new: make([]string, len(c.new)), ends: make([]string, len(c.new))}
		for j, line := range c.new {
			end := nl
			if c.src[j] >= 0 {
				line, end = lines.line(idx+c.src[j]), lines.end(idx+c.src[j])
			}
			r.new[j], r.ends[j] = line, end
		}
		repls = append(repls, r)
		cursor = idx + len(c.old)
	}
	// Output lines: the file's lines outside the replaced runs, and the
	// replacements. emit walks them in order, with the ending each gets;
	// it runs once to size the result, which is refused over MaxFileBytes
	// before anything is built, then once to build it.
	total := lines.n()
	for _, r := range repls {
		total += len(r.new) - r.n
	}
	emit := func(w func(string)) {
		i := 0
		put := func(line, end string) {
			switch {
			case i == total-1 && !finalNL:
				end = ""
			case end == "":
				// The old last line without a newline is no longer last, or
				// the file ended with a newline.
				end = nl
			}
			w(line)
			w(end)
			i++
		}
		prev := 0
		for _, r := range repls {
			for j := prev; j < r.at; j++ {
				put(lines.line(j), lines.end(j))
			}
			for j := range r.new {
				put(r.new[j], r.ends[j])
			}
			prev = r.at + r.n
		}
		for j := prev; j < lines.n(); j++ {
			put(lines.line(j), lines.end(j))
		}
	}
	size := 0
	emit(func(s string) { size += len(s) })
	if size > MaxFileBytes {
		return "", errTooLarge(op.path, int64(size))
	}
	var b strings.Builder
	b.Grow(size)
	emit(func(s string) { b.WriteString(s) })
	return b.String(), nil
}

// textLines indexes the lines of a file's content without copying them:
// five bytes a line (a 10 MiB file of empty lines costs 50 MiB, not the
// 320 MiB two []string would), and no pointers for the GC to scan. A line
// is its text without the ending; the ending is "\n", "\r\n", or "" for
// a last line without a newline.
type textLines struct {
	content string
	start   []uint32 // where each line starts in content
	ends    []uint8  // the length of each line's ending: 0, 1 or 2
}

// newTextLines splits content (at most 4 GiB; files here are at most
// MaxFileBytes) into lines.
func newTextLines(content string) *textLines {
	n := strings.Count(content, "\n") + 1
	t := &textLines{content: content, start: make([]uint32, 0, n), ends: make([]uint8, 0, n)}
	for i := 0; i < len(content); {
		t.start = append(t.start, uint32(i))
		j := strings.IndexByte(content[i:], '\n')
		if j < 0 {
			t.ends = append(t.ends, 0)
			break
		}
		end := uint8(1)
		if j > 0 && content[i+j-1] == '\r' {
			end = 2
		}
		t.ends = append(t.ends, end)
		i += j + 1
	}
	return t
}

// n is the number of lines.
func (t *textLines) n() int { return len(t.start) }

// stop is where line i and its ending stop in content.
func (t *textLines) stop(i int) int {
	if i+1 < len(t.start) {
		return int(t.start[i+1])
	}
	return len(t.content)
}

// line returns line i without its ending.
func (t *textLines) line(i int) string {
	return t.content[t.start[i] : t.stop(i)-int(t.ends[i])]
}

// end returns the ending of line i.
func (t *textLines) end(i int) string {
	s := t.stop(i)
	return t.content[s-int(t.ends[i]) : s]
}

// countEnds counts the CRLF and the LF line endings.
func (t *textLines) countEnds() (crlf, lf int) {
	for _, e := range t.ends {
		switch e {
		case 2:
			crlf++
		case 1:
			lf++
		}
	}
	return crlf, lf
}

// matcher finds runs of lines in a file. Each comparison mode (exact,
// ignoring trailing whitespace, ignoring surrounding whitespace) maps every
// line to a small integer, computed once per mode and file, and a search is
// Knuth-Morris-Pratt over those integers: O(len(file)+len(pattern)) per
// mode, whatever the content (no start position × pattern line blow-up).
// The context is checked every few thousand lines.
type matcher struct {
	ctx   context.Context
	lines *textLines
	ids   [3][]int32          // per mode: the id of each line, built lazily
	dict  [3]map[string]int32 // per mode: normalized text -> id
}

var norms = [3]func(string) string{
	func(s string) string { return s },
	func(s string) string { return strings.TrimRight(s, " \t") },
	strings.TrimSpace,
}

// ctxEvery is how many lines a loop handles between context checks.
const ctxEvery = 1 << 12

func newMatcher(ctx context.Context, lines *textLines) *matcher {
	return &matcher{ctx: ctx, lines: lines}
}

func (m *matcher) stopped() error {
	if err := m.ctx.Err(); err != nil {
		return fmt.Errorf("apply_patch stopped: %v; no file was changed", err)
	}
	return nil
}

func (m *matcher) mode(k int) ([]int32, map[string]int32, error) {
	if m.ids[k] != nil || m.lines.n() == 0 {
		return m.ids[k], m.dict[k], nil
	}
	dict := map[string]int32{}
	ids := make([]int32, m.lines.n())
	for i := range ids {
		if i%ctxEvery == 0 {
			if err := m.stopped(); err != nil {
				return nil, nil, err
			}
		}
		n := norms[k](m.lines.line(i))
		id, ok := dict[n]
		if !ok {
			id = int32(len(dict))
			dict[n] = id
		}
		ids[i] = id
	}
	m.ids[k], m.dict[k] = ids, dict
	return ids, dict, nil
}

// seek finds pattern in the lines at or after start and returns its index,
// or -1. It searches the whole file exactly first, then ignoring trailing
// whitespace, then ignoring surrounding whitespace. With eof each mode
// first tries the position that ends at the last line. The error is the
// context's.
func (m *matcher) seek(pattern []string, start int, eof bool) (int, error) {
	if len(pattern) > m.lines.n()-start || len(pattern) == 0 {
		return -1, nil
	}
	pat := make([]int32, len(pattern))
modes:
	for k := range norms {
		ids, dict, err := m.mode(k)
		if err != nil {
			return -1, err
		}
		for j, p := range pattern {
			id, ok := dict[norms[k](p)]
			if !ok {
				continue modes // a line no line of the file matches
			}
			pat[j] = id
		}
		if eof {
			if at := len(ids) - len(pat); at >= start && slices.Equal(ids[at:], pat) {
				return at, nil
			}
		}
		at, err := m.kmp(ids[start:], pat)
		if err != nil {
			return -1, err
		}
		if at >= 0 {
			return start + at, nil
		}
	}
	return -1, nil
}

// kmp returns the first index of pat in text, or -1.
func (m *matcher) kmp(text, pat []int32) (int, error) {
	fail := make([]int, len(pat))
	for i, k := 1, 0; i < len(pat); i++ {
		for k > 0 && pat[i] != pat[k] {
			k = fail[k-1]
		}
		if pat[i] == pat[k] {
			k++
		}
		fail[i] = k
	}
	for i, k := 0, 0; i < len(text); i++ {
		if i%ctxEvery == 0 {
			if err := m.stopped(); err != nil {
				return -1, err
			}
		}
		for k > 0 && text[i] != pat[k] {
			k = fail[k-1]
		}
		if text[i] == pat[k] {
			k++
		}
		if k == len(pat) {
			return i - len(pat) + 1, nil
		}
	}
	return -1, nil
}
