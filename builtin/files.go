package builtin

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus"
)

const (
	// defaultReadLimit is the number of lines read returns when the call
	// gives no limit.
	defaultReadLimit = 2000
	// maxLineBytes cuts longer lines in read and grep output.
	maxLineBytes = 2000
	// sniffBytes is how much of a file is examined to tell text from binary.
	sniffBytes = 8 << 10
)

// isBinary reports whether a file that starts with b is not UTF-8 text: a
// NUL byte, or invalid UTF-8 other than a rune cut at the end of b.
func isBinary(b []byte) bool {
	if bytes.IndexByte(b, 0) >= 0 {
		return true
	}
	return !utf8.ValidString(trimPartialEnd(string(b)))
}

func binaryError(p string, size int64) error {
	return fmt.Errorf("%q is a binary file (%d bytes), not shown; these tools work on UTF-8 text files only", p, size)
}

// ---- read ------------------------------------------------------------------

type readArgs struct {
	Path   string `json:"path" jsonschema_description:"File to read: relative to the workspace root, or absolute inside the workspace."`
	Offset int    `json:"offset,omitempty" jsonschema_description:"First line to return, 1-based (default 1)." validate:"omitempty,min=1"`
	Limit  int    `json:"limit,omitempty" jsonschema_description:"Maximum number of lines to return (default 2000)." validate:"omitempty,min=1"`
}

const readDesc = `Read a UTF-8 text file in the workspace and return its lines exactly as stored. ` +
	`Use offset (1-based line number) and limit (number of lines) to read a window of a long file; ` +
	`by default the first 2000 lines are returned. When more lines follow, the output ends with a note ` +
	`giving the offset to continue from. Lines longer than 2000 bytes are cut. ` +
	`Binary files are reported as binary, not shown. Paths outside the workspace are refused.`

func readTool(e *env) (toolnexus.Tool, error) {
	return newTool(e, "read", "Read file", readDesc,
		toolnexus.Annotations{ReadOnlyHint: true, DestructiveHint: new(false), IdempotentHint: true, OpenWorldHint: new(false)}, 0,
		func(ctx context.Context, a readArgs) toolnexus.Result { return textResult(e.read(ctx, a)) })
}

// openRel resolves the model's path p (see rel) and opens the workspace,
// in that order, so a bad path is reported before a workspace that cannot
// be opened. The caller closes root.
func (e *env) openRel(p string) (root *os.Root, rel string, err error) {
	if rel, err = e.rel(p); err != nil {
		return nil, "", err
	}
	if root, err = e.open(); err != nil {
		return nil, "", err
	}
	return root, rel, nil
}

func (e *env) read(ctx context.Context, a readArgs) (string, error) {
	root, rel, err := e.openRel(a.Path)
	if err != nil {
		return "", err
	}
	defer root.Close()
	f, fi, err := openRegular(root, rel, a.Path)
	if err != nil {
		if errors.Is(err, errIsDir) {
			return "", fmt.Errorf("%q is a directory; use glob to list its files", a.Path)
		}
		return "", err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 2*sniffBytes)
	head, _ := br.Peek(sniffBytes)
	if isBinary(head) {
		return "", binaryError(a.Path, fi.Size())
	}
	if fi.Size() == 0 {
		return "(empty file)", nil
	}
	offset := max(a.Offset, 1)
	limit := a.Limit
	if limit <= 0 {
		limit = defaultReadLimit
	}
	budget := e.opts.MaxOutputBytes - 200 // room for the closing note
	lineCap := min(maxLineBytes, budget)
	var out strings.Builder
	n := 0     // lines seen
	shown := 0 // lines written
	more := false
	for {
		// A huge offset makes this loop skip many lines: let a timeout or
		// cancellation stop it.
		if n%4096 == 0 {
			if cerr := ctx.Err(); cerr != nil {
				return "", fmt.Errorf("read stopped: %v", cerr)
			}
		}
		line, err := readLine(ctx, br, lineCap)
		if len(line) > 0 {
			n++
			if n >= offset {
				if shown == limit {
					more = true
					break
				}
				if out.Len()+len(line) > budget && shown > 0 {
					more = true
					n-- // this line is not shown
					break
				}
				out.WriteString(line)
				shown++
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return "", fmt.Errorf("read stopped: %v", cerr)
			}
			return "", fsErr(a.Path, err)
		}
	}
	if shown == 0 {
		return "", fmt.Errorf("offset %d is past the end of %q, which has %d lines", offset, a.Path, n)
	}
	if more {
		s := out.String()
		if !strings.HasSuffix(s, "\n") {
			out.WriteByte('\n')
		}
		last := offset + shown - 1
		fmt.Fprintf(&out, "[showing lines %d-%d; more lines follow: continue with offset=%d]", offset, last, last+1)
	}
	return out.String(), nil
}

// readLine returns the next line including its "\n" (the last line may lack
// it). A line longer than lineCap bytes is cut and marked; the rest of it
// is skipped, checking ctx between the buffer's chunks (its error then).
func readLine(ctx context.Context, br *bufio.Reader, lineCap int) (string, error) {
	var b []byte
	cut := 0
	for {
		chunk, err := br.ReadSlice('\n')
		nl := len(chunk) > 0 && chunk[len(chunk)-1] == '\n'
		if nl {
			chunk = chunk[:len(chunk)-1]
		}
		take := min(max(lineCap-len(b), 0), len(chunk))
		b = append(b, chunk[:take]...)
		cut += len(chunk) - take
		if err == bufio.ErrBufferFull {
			if err := ctx.Err(); err != nil {
				return "", err
			}
			continue
		}
		if cut > 0 {
			kept := trimPartialEnd(string(b))
			cut += len(b) - len(kept)
			b = fmt.Appendf([]byte(kept), "... [line cut: %d more bytes]", cut)
		}
		if nl {
			b = append(b, '\n')
		}
		return string(b), err
	}
}

// ---- write -----------------------------------------------------------------

type writeArgs struct {
	Path    string `json:"path" jsonschema_description:"File to create or overwrite: relative to the workspace root, or absolute inside the workspace."`
	Content string `json:"content" jsonschema_description:"The complete new content of the file."`
}

const writeDesc = `Create a file in the workspace, or overwrite it, with the given content; missing parent ` +
	`directories are created. The output says how many bytes were written. To change part of an existing ` +
	`file prefer edit. Paths outside the workspace, and files with more than one hard link, are refused.`

func writeTool(e *env) (toolnexus.Tool, error) {
	return newTool(e, "write", "Write file", writeDesc,
		toolnexus.Annotations{DestructiveHint: new(true), IdempotentHint: true, OpenWorldHint: new(false)}, 0,
		func(ctx context.Context, a writeArgs) toolnexus.Result { return textResult(e.write(ctx, a)) })
}

func (e *env) write(ctx context.Context, a writeArgs) (string, error) {
	rel, err := e.rel(a.Path)
	if err != nil {
		return "", err
	}
	if len(a.Content) > MaxFileBytes {
		return "", errTooLarge(a.Path, int64(len(a.Content)))
	}
	if rel == "." {
		return "", fmt.Errorf("path %q is the workspace root, not a file", a.Path)
	}
	if hasTrailingSlash(a.Path) {
		return "", fmt.Errorf("path %q ends with a slash, which names a directory; give a file path", a.Path)
	}
	root, err := e.open()
	if err != nil {
		return "", err
	}
	defer root.Close()
	if err := stopped(ctx, "write", a.Path); err != nil {
		return "", err
	}
	if dir := filepath.Dir(rel); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return "", fsErr(a.Path, err)
		}
	}
	if err := replaceContent(root, rel, a.Path, []byte(a.Content), os.O_CREATE, 0o644); err != nil {
		return "", err
	}
	return fmt.Sprintf("wrote %d bytes to %s", len(a.Content), display(rel)), nil
}

// ---- edit ------------------------------------------------------------------

type editArgs struct {
	Path       string `json:"path" jsonschema_description:"File to change: relative to the workspace root, or absolute inside the workspace."`
	OldString  string `json:"oldString" jsonschema_description:"The exact text to replace, including whitespace and indentation."`
	NewString  string `json:"newString" jsonschema_description:"The text to put in its place."`
	ReplaceAll bool   `json:"replaceAll,omitempty" jsonschema_description:"Replace every occurrence (default false: oldString must occur exactly once)."`
}

const editDesc = `Replace an exact string in a text file in the workspace. oldString must match the file ` +
	`exactly, including whitespace and indentation, and must occur exactly once unless replaceAll is true; ` +
	`otherwise the call fails and the file is left unchanged. Read the file first. ` +
	`Paths outside the workspace, and files with more than one hard link, are refused.`

func editTool(e *env) (toolnexus.Tool, error) {
	return newTool(e, "edit", "Edit file", editDesc,
		toolnexus.Annotations{DestructiveHint: new(true), OpenWorldHint: new(false)}, 0,
		func(ctx context.Context, a editArgs) toolnexus.Result { return textResult(e.edit(ctx, a)) })
}

func (e *env) edit(ctx context.Context, a editArgs) (string, error) {
	if a.OldString == "" {
		return "", errors.New("oldString must not be empty; use write to create a file")
	}
	if a.OldString == a.NewString {
		return "", errors.New("oldString and newString are identical; nothing to change")
	}
	root, rel, err := e.openRel(a.Path)
	if err != nil {
		return "", err
	}
	defer root.Close()
	data, mode, err := readText(root, rel, a.Path)
	if err != nil {
		return "", err
	}
	content := string(data)
	n := strings.Count(content, a.OldString)
	switch {
	case n == 0:
		return "", fmt.Errorf("oldString was not found in %q; it must match exactly, including whitespace and indentation (read the file first)", a.Path)
	case n > 1 && !a.ReplaceAll:
		return "", fmt.Errorf("oldString occurs %d times in %q; include more surrounding text to make it unique, or set replaceAll to replace every occurrence", n, a.Path)
	}
	// The size of the result is known before it is built: refuse it
	// without allocating it. n occurrences are replaced (n is 1 unless
	// replaceAll, see above); n is at most MaxFileBytes and the strings are
	// arguments, so the product fits an int64.
	if size := int64(len(content)) + int64(n)*(int64(len(a.NewString))-int64(len(a.OldString))); size > MaxFileBytes {
		return "", errTooLarge(a.Path, size)
	}
	if err := stopped(ctx, "edit", a.Path); err != nil {
		return "", err
	}
	if a.ReplaceAll {
		content = strings.ReplaceAll(content, a.OldString, a.NewString)
	} else {
		content = strings.Replace(content, a.OldString, a.NewString, 1)
	}
	if err := replaceContent(root, rel, a.Path, []byte(content), 0, mode); err != nil {
		return "", err
	}
	word := "occurrences"
	if n == 1 {
		word = "occurrence"
	}
	return fmt.Sprintf("replaced %d %s in %s", n, word, display(rel)), nil
}

// errTooLarge is the error for a change whose result, size bytes, would
// pass MaxFileBytes. It is raised before the result is built.
func errTooLarge(p string, size int64) error {
	return fmt.Errorf("refused: %q would be %d bytes, more than the limit of %d bytes; no file was changed", p, size, MaxFileBytes)
}

// stopped returns the error for a call whose context ended before it
// changed path p, or nil.
func stopped(ctx context.Context, tool, p string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s stopped: %v; %q was not changed", tool, err, p)
	}
	return nil
}

// readText reads a whole text file of at most MaxFileBytes through root and
// returns it with its permission bits. p is the path as the model wrote it,
// for messages.
func readText(root *os.Root, rel, p string) ([]byte, fs.FileMode, error) {
	data, mode, _, err := readTextInfo(root, rel, p)
	return data, mode, err
}

// readTextInfo is readText that also returns the file's fstat information.
func readTextInfo(root *os.Root, rel, p string) ([]byte, fs.FileMode, fs.FileInfo, error) {
	f, fi, err := openRegular(root, rel, p)
	if err != nil {
		return nil, 0, nil, err
	}
	defer f.Close()
	if fi.Size() > MaxFileBytes {
		return nil, 0, nil, fmt.Errorf("%q is too large (%d bytes; the limit is %d)", p, fi.Size(), MaxFileBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, 0, nil, fsErr(p, err)
	}
	if len(data) > MaxFileBytes {
		return nil, 0, nil, fmt.Errorf("%q is too large (the limit is %d bytes)", p, MaxFileBytes)
	}
	if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return nil, 0, nil, binaryError(p, int64(len(data)))
	}
	return data, fi.Mode().Perm(), fi, nil
}

// errIsDir is the cause of the error openRegular returns for a directory.
var errIsDir = errors.New("is a directory")

// hasTrailingSlash reports whether the model wrote p with a trailing path
// separator, which names a directory: "in.txt/" is not the file in.txt.
func hasTrailingSlash(p string) bool {
	return len(p) > 1 && os.IsPathSeparator(p[len(p)-1])
}

// openRegular opens rel through root for reading and returns it with its
// fstat information, or an error when it is not a regular file. It never
// blocks on a FIFO or a device: the open uses O_NONBLOCK (where it exists)
// and the type check runs on the opened file, so a file swapped for a FIFO
// after a Stat cannot hang the call. p is the path as the model wrote it.
func openRegular(root *os.Root, rel, p string) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(rel, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, nil, fsErr(p, err)
	}
	fi, err := checkRegular(f, p)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// checkRegular fstats an opened file and refuses anything but a regular
// file (and a regular file named with a trailing slash), then clears
// O_NONBLOCK.
func checkRegular(f *os.File, p string) (fs.FileInfo, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, fsErr(p, err)
	}
	if fi.IsDir() {
		return nil, &pathError{path: p, err: errIsDir}
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%q is not a regular file", p)
	}
	if hasTrailingSlash(p) {
		return nil, fmt.Errorf("%q: %q is a file, not a directory", p, strings.TrimRight(p, `/\`))
	}
	if err := clearNonblock(f); err != nil {
		return nil, fsErr(p, err)
	}
	return fi, nil
}

// errHardLink is the cause of the refusal to change a file with more than
// one hard link.
var errHardLink = errors.New("has more than one hard link")

// openForWrite opens rel through root for writing, without truncating it,
// with O_NONBLOCK (never waiting on a FIFO) plus extra flags (os.O_CREATE,
// os.O_EXCL), and checks the opened file: a regular file, with a single
// hard link. A file with more hard links is refused because another link
// may be outside the workspace, where os.Root cannot see it: writing
// through this one would change that file too. (The link count is read on
// unix only; see linkCount.) The caller truncates and writes.
func openForWrite(root *os.Root, rel, p string, extra int, perm fs.FileMode) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(rel, os.O_WRONLY|openNonblock|extra, perm)
	if isFIFOWithoutReader(err) {
		return nil, nil, fmt.Errorf("%q is not a regular file", p)
	}
	if err != nil {
		return nil, nil, fsErr(p, err)
	}
	fi, err := checkRegular(f, p)
	if err == nil && linkCount(fi) > 1 {
		err = fmt.Errorf("refusing to change %q: it %w (%d), and another link may be outside the workspace; write a new file instead", p, errHardLink, linkCount(fi))
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// replaceContent opens an existing or new regular file for writing (see
// openForWrite), truncates it and writes data.
func replaceContent(root *os.Root, rel, p string, data []byte, extra int, perm fs.FileMode) error {
	f, _, err := openForWrite(root, rel, p, extra, perm)
	if err != nil {
		return err
	}
	err = f.Truncate(0)
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fsErr(p, err)
	}
	return nil
}
