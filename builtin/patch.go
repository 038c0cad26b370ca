package builtin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
Give about 3 lines of context around each change. The patch is applied completely or not at all: if any hunk does not match, no file is changed.`

func applyPatchTool(e *env) (toolnexus.Tool, error) {
	return newTool(e, "apply_patch", "Apply patch", applyPatchDesc,
		toolnexus.Annotations{DestructiveHint: new(true), OpenWorldHint: new(false)}, 0,
		func(ctx context.Context, a applyPatchArgs) toolnexus.Result {
			return textResult(e.applyPatch(a.PatchText))
		})
}

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
	data    []byte
	mode    fs.FileMode
	display string
}

// applyPatch checks every section of the patch against the current files,
// then writes. Nothing is written unless every section applies; if a write
// fails part way, the files already changed are restored.
func (e *env) applyPatch(text string) (string, error) {
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
		if prev, dup := seen[rel]; dup {
			return "", fmt.Errorf("%q is changed twice in the patch (lines %d and %d); combine the changes", p, prev, line)
		}
		seen[rel] = line
		return rel, nil
	}

	var plan []plannedWrite
	for _, op := range ops {
		rel, err := claim(op.path, op.line)
		if err != nil {
			return "", err
		}
		switch op.kind {
		case opAdd:
			if err := checkNew(root, rel, op.path); err != nil {
				return "", err
			}
			data := strings.Join(op.lines, "\n") + "\n"
			plan = append(plan, plannedWrite{kind: opAdd, rel: rel, data: []byte(data), mode: 0o644, display: display(rel)})
		case opDelete:
			fi, err := root.Stat(rel)
			if err != nil {
				return "", fsErr(op.path, err)
			}
			if !fi.Mode().IsRegular() {
				return "", fmt.Errorf("cannot delete %q: not a regular file", op.path)
			}
			plan = append(plan, plannedWrite{kind: opDelete, rel: rel, display: display(rel)})
		case opUpdate:
			data, mode, err := readText(root, rel, op.path)
			if err != nil {
				return "", err
			}
			out, err := applyChunks(string(data), op)
			if err != nil {
				return "", err
			}
			w := plannedWrite{kind: opUpdate, rel: rel, data: []byte(out), mode: mode, display: display(rel)}
			if op.moveTo != "" {
				dst, err := claim(op.moveTo, op.line)
				if err != nil {
					return "", err
				}
				if err := checkNew(root, dst, op.moveTo); err != nil {
					return "", err
				}
				w.from, w.rel, w.display = rel, dst, display(dst)
			}
			plan = append(plan, w)
		}
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
func commit(root *os.Root, plan []plannedWrite) error {
	type undo func()
	var undos []undo
	rollback := func() {
		for i := len(undos) - 1; i >= 0; i-- {
			undos[i]()
		}
	}
	for _, w := range plan {
		switch w.kind {
		case opAdd:
			created, err := mkdirs(root, filepath.Dir(w.rel))
			if err == nil {
				err = root.WriteFile(w.rel, w.data, w.mode)
			}
			rel := w.rel
			undos = append(undos, func() { _ = root.Remove(rel); removeDirs(root, created) })
			if err != nil {
				rollback()
				return fmt.Errorf("could not create %s: %v; no file was changed", w.display, plainErr(err))
			}
		case opDelete:
			old, err := root.ReadFile(w.rel)
			fi, serr := root.Stat(w.rel)
			if err == nil && serr == nil {
				err = root.Remove(w.rel)
			}
			if err == nil {
				rel, mode := w.rel, fi.Mode().Perm()
				undos = append(undos, func() { _ = root.WriteFile(rel, old, mode) })
			}
			if err != nil {
				rollback()
				return fmt.Errorf("could not delete %s: %v; no file was changed", w.display, plainErr(err))
			}
		case opUpdate:
			if w.from == "" {
				old, err := root.ReadFile(w.rel)
				if err == nil {
					err = root.WriteFile(w.rel, w.data, w.mode)
				}
				rel, mode := w.rel, w.mode
				undos = append(undos, func() { _ = root.WriteFile(rel, old, mode) })
				if err != nil {
					rollback()
					return fmt.Errorf("could not write %s: %v; no file was changed", w.display, plainErr(err))
				}
				continue
			}
			old, err := root.ReadFile(w.from)
			var created []string
			if err == nil {
				created, err = mkdirs(root, filepath.Dir(w.rel))
			}
			if err == nil {
				err = root.WriteFile(w.rel, w.data, w.mode)
			}
			if err == nil {
				err = root.Remove(w.from)
			}
			from, rel, mode := w.from, w.rel, w.mode
			undos = append(undos, func() {
				_ = root.WriteFile(from, old, mode)
				_ = root.Remove(rel)
				removeDirs(root, created)
			})
			if err != nil {
				rollback()
				return fmt.Errorf("could not move to %s: %v; no file was changed", w.display, plainErr(err))
			}
		}
	}
	return nil
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
// Line endings (LF or CRLF) and the presence of a final newline are kept.
func applyChunks(content string, op patchOp) (string, error) {
	crlf := strings.Contains(content, "\r\n")
	if crlf {
		content = strings.ReplaceAll(content, "\r\n", "\n")
	}
	finalNL := content == "" || strings.HasSuffix(content, "\n")
	lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	if content == "" {
		lines = nil
	}
	type repl struct {
		at, n int
		new   []string
	}
	var repls []repl
	cursor := 0
	for k, c := range op.chunks {
		if c.anchor != "" {
			idx := seek(lines, []string{c.anchor}, cursor, false)
			if idx < 0 {
				return "", fmt.Errorf("hunk %d of %q (line %d of the patch) does not apply: the line %q after @@ was not found; no file was changed",
					k+1, op.path, c.line, c.anchor)
			}
			cursor = idx + 1
		}
		if len(c.old) == 0 {
			at := len(lines)
			if c.anchor != "" {
				at = cursor
			}
			repls = append(repls, repl{at: at, new: c.new})
			cursor = at
			continue
		}
		idx := seek(lines, c.old, cursor, c.eof)
		if idx < 0 {
			return "", fmt.Errorf("hunk %d of %q (line %d of the patch) does not apply: these lines were not found in the file:\n%s\nno file was changed; read the file and make the context and - lines match it exactly",
				k+1, op.path, c.line, strings.Join(c.old, "\n"))
		}
		// Context lines keep the file's own text (the match may have
		// ignored whitespace differences).
		r := repl{at: idx, n: len(c.old), new: make([]string, len(c.new))}
		for j, line := range c.new {
			if c.src[j] >= 0 {
				line = lines[idx+c.src[j]]
			}
			r.new[j] = line
		}
		repls = append(repls, r)
		cursor = idx + len(c.old)
	}
	for i := len(repls) - 1; i >= 0; i-- {
		r := repls[i]
		lines = append(lines[:r.at], append(append([]string(nil), r.new...), lines[r.at+r.n:]...)...)
	}
	out := strings.Join(lines, "\n")
	if finalNL && len(lines) > 0 {
		out += "\n"
	}
	if crlf {
		out = strings.ReplaceAll(out, "\n", "\r\n")
	}
	return out, nil
}

// seek finds pattern in lines at or after start and returns its index, or
// -1. It tries an exact match first, then one ignoring trailing
// whitespace, then one ignoring surrounding whitespace. With eof it first
// tries the position that ends at the last line.
func seek(lines, pattern []string, start int, eof bool) int {
	if len(pattern) > len(lines) {
		return -1
	}
	norms := []func(string) string{
		func(s string) string { return s },
		func(s string) string { return strings.TrimRight(s, " \t") },
		strings.TrimSpace,
	}
	for _, norm := range norms {
		match := func(at int) bool {
			for j, p := range pattern {
				if norm(lines[at+j]) != norm(p) {
					return false
				}
			}
			return true
		}
		if eof {
			if at := len(lines) - len(pattern); at >= start && match(at) {
				return at
			}
		}
		for at := start; at+len(pattern) <= len(lines); at++ {
			if match(at) {
				return at
			}
		}
	}
	return -1
}
