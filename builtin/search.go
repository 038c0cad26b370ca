package builtin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/textcap"
)

const (
	// defaultSearchLimit is the limit of grep and glob when a call gives none.
	defaultSearchLimit = 100
	// maxMatchLineBytes cuts matched lines in grep output.
	maxMatchLineBytes = 500
	// matchWork is the work grep does between context checks, in bytes
	// matched times pattern size: matching costs up to a few tens of ns
	// per unit, so a search stops within about 0.05 s of its call's end.
	matchWork = 1 << 20
)

// skipDirs are directories grep and glob never descend into (unless the
// search starts inside one).
var skipDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, "node_modules": true}

// walk calls fn for every non-directory entry under dir (slash-separated,
// relative to the root; dir itself when it is a file), in lexical order,
// skipping skipDirs and entries it cannot read. fn returns errStop to end
// the walk.
func walk(ctx context.Context, fsys fs.FS, dir string, fn func(p string, d fs.DirEntry) error) error {
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if err != nil {
			if p == dir {
				return err
			}
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p != dir && skipDirs[d.Name()] {
				return fs.SkipDir
			}
			return nil
		}
		return fn(p, d)
	})
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

var errStop = errors.New("stop")

// searchRoot opens the workspace and resolves the path argument p of grep
// and glob in it. It returns the open root (the caller closes it), the
// slash path for root.FS() and whether it names a single file. On error
// nothing is left open.
func (e *env) searchRoot(p string) (root *os.Root, dir string, single bool, err error) {
	if root, err = e.open(); err != nil {
		return nil, "", false, err
	}
	rel, err := e.rel(p)
	if err != nil {
		root.Close()
		return nil, "", false, err
	}
	fi, err := root.Stat(rel)
	if err != nil {
		root.Close()
		return nil, "", false, fsErr(p, err)
	}
	return root, display(rel), !fi.IsDir(), nil
}

// ---- grep ------------------------------------------------------------------

type grepArgs struct {
	Pattern string `json:"pattern" jsonschema_description:"Regular expression (RE2 syntax) to search for, matched against each line."`
	Path    string `json:"path,omitempty" jsonschema_description:"Directory (or file) to search, relative to the workspace root (default: the workspace root)."`
	Include string `json:"include,omitempty" jsonschema_description:"Only search files matching this glob, e.g. *.go or src/**/*.{ts,tsx}; a pattern without / is matched against file names."`
	Limit   int    `json:"limit,omitempty" jsonschema_description:"Maximum number of matching lines to return (default 100)." validate:"omitempty,min=1"`
}

const grepDesc = `Search the contents of text files in the workspace with a regular expression (RE2 syntax). ` +
	`Returns one line per match as file:line:text, with file relative to the workspace root, in path order, ` +
	`at most limit matches (default 100), stopping early when the output would pass its size cap. ` +
	`A file name with a control character, invalid UTF-8, a colon or a leading double quote is written as a ` +
	`Go-quoted string ("a\nb.txt"). Binary files and .git, .hg, .svn and node_modules directories are ` +
	`skipped. Use include to restrict the files searched.`

func grepTool(e *env) (toolnexus.Tool, error) {
	return newTool(e, "grep", "Search file contents", grepDesc,
		toolnexus.Annotations{ReadOnlyHint: true, DestructiveHint: new(false), IdempotentHint: true, OpenWorldHint: new(false)}, 0,
		func(ctx context.Context, a grepArgs) toolnexus.Result { return textResult(e.grep(ctx, a)) })
}

// includeMatcher returns a function reporting whether a file (slash path
// relative to the search directory) passes the include glob.
func includeMatcher(include string) (func(rel string) bool, error) {
	if include == "" {
		return func(string) bool { return true }, nil
	}
	re, err := compileGlob(include)
	if err != nil {
		return nil, fmt.Errorf("include %s is not a valid glob pattern: it %v", shortQuote(include), err)
	}
	if !strings.Contains(include, "/") {
		return func(rel string) bool { return re.MatchString(path.Base(rel)) }, nil
	}
	return re.MatchString, nil
}

// patternBytesPerInst is the bytes of pattern allowed per instruction of
// Options.MaxPatternSize: 8, room for classes such as [[:alpha:]] and
// \x{1F600} that compile to one instruction.
const patternBytesPerInst = 8

// compilePattern compiles grep's pattern and returns its size: the
// instructions of its RE2 program (about one per literal character, class
// or operator; x{n} counts x n times), which the cost of matching a byte
// grows with. Errors: the pattern is longer than patternBytesPerInst
// bytes per instruction of Options.MaxPatternSize (checked before
// parsing, so a refused pattern costs nothing), it is not valid RE2, or
// its size is over Options.MaxPatternSize.
func (e *env) compilePattern(pattern string) (*regexp.Regexp, int, error) {
	if limit := patternBytesPerInst * e.opts.MaxPatternSize; len(pattern) > limit {
		return nil, 0, fmt.Errorf("pattern is too long: %d bytes, more than the limit of %d; use a shorter pattern", len(pattern), limit)
	}
	s, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, 0, fmt.Errorf("pattern is not a valid regular expression: %v", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	prog, err := syntax.Compile(s.Simplify())
	if err == nil && len(prog.Inst) > e.opts.MaxPatternSize {
		err = fmt.Errorf("it compiles to %d instructions", len(prog.Inst))
	}
	if err != nil {
		return nil, 0, fmt.Errorf("pattern is too large: %v, more than the limit of %d; use fewer or smaller repetitions (x{n} counts x n times)", err, e.opts.MaxPatternSize)
	}
	re, err := regexp.Compile(pattern)
	return re, len(prog.Inst), err
}

// lineReader hands a line to Regexp.MatchReader rune by rune, checking
// ctx every `every` runes and ending the line (io.EOF) once ctx has ended,
// so one long line is matched in bounded pieces and the match stops soon
// after its call ends; the caller discards a match cut short that way.
type lineReader struct {
	ctx      context.Context
	b        []byte
	every, n int
}

func (r *lineReader) ReadRune() (rune, int, error) {
	if r.n++; r.n%r.every == 0 && r.ctx.Err() != nil {
		r.b = nil
	}
	if len(r.b) == 0 {
		return 0, 0, io.EOF
	}
	c, size := utf8.DecodeRune(r.b)
	r.b = r.b[size:]
	return c, size, nil
}

func (e *env) grep(ctx context.Context, a grepArgs) (string, error) {
	re, size, err := e.compilePattern(a.Pattern)
	if err != nil {
		return "", err
	}
	// every is the bytes matched between context checks.
	every := max(matchWork/size, 1)
	include, err := includeMatcher(a.Include)
	if err != nil {
		return "", err
	}
	limit := a.Limit
	if limit <= 0 {
		limit = defaultSearchLimit
	}
	root, dir, single, err := e.searchRoot(a.Path)
	if err != nil {
		return "", err
	}
	defer root.Close()
	budget := e.opts.MaxOutputBytes - searchNoteRoom
	lineCap := min(maxMatchLineBytes, budget/2)
	var out strings.Builder
	matches := 0
	more := false
	search := func(p string) error {
		// Only regular files (following links inside the workspace). The
		// open never blocks and the type is checked on the opened file, so
		// a FIFO or device (even one swapped in after the walk saw a
		// regular file) is skipped.
		f, _, err := openRegular(root, filepath.FromSlash(p), p)
		if err != nil {
			return nil // not a regular file, unreadable, or a link out of the workspace
		}
		defer f.Close()
		name := quoteName(p, true)
		data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
		if err != nil || len(data) > MaxFileBytes || isBinary(data[:min(len(data), sniffBytes)]) {
			return nil
		}
		work := 0
		for n := 1; len(data) > 0; n++ {
			line := data
			if i := bytes.IndexByte(data, '\n'); i >= 0 {
				line, data = data[:i], data[i+1:]
			} else {
				data = nil
			}
			line = bytes.TrimSuffix(line, []byte("\r"))
			if work += len(line) + 1; work > every {
				if err := ctx.Err(); err != nil {
					return err
				}
				work = 0
			}
			var ok bool
			if len(line) <= every {
				ok = re.Match(line)
			} else if ok = re.MatchReader(&lineReader{ctx: ctx, b: line, every: every}); ctx.Err() != nil {
				return ctx.Err()
			}
			if !ok {
				continue
			}
			if matches == limit {
				more = true
				return errStop
			}
			text := string(line)
			if len(text) > lineCap {
				text = text[:textcap.RuneStart(text, lineCap)] + "..."
			}
			entry := fmt.Sprintf("%s:%d:%s\n", name, n, text)
			if out.Len()+len(entry) > budget {
				// Stop before the output cap, so every match shown is
				// whole and the note below stays true.
				more = true
				return errStop
			}
			out.WriteString(entry)
			matches++
		}
		return nil
	}
	err = walk(ctx, newWalkFS(root), dir, func(p string, d fs.DirEntry) error {
		if !single && !include(underDir(dir, p)) {
			return nil // include filters the files of a directory, not a file named by path
		}
		return search(p)
	})
	return searchResult(a.Path, err, &out, matches, more,
		"the first match is longer than the output cap; narrow the pattern", "no matches",
		"[showing the first %d matches; there are more: narrow the pattern, path or include, or raise limit]")
}

// shortQuote quotes a pattern for a message, cut to its first 80 bytes.
func shortQuote(s string) string {
	if len(s) <= 80 {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:textcap.RuneStart(s, 80)]) + "..."
}

// searchResult finishes grep's or glob's output: the walk's err (about
// path p), n entries (one a line) in out, and more if the walk stopped at
// the limit or the output cap. With no entries it returns none, or the
// error tooLong when the first entry alone did not fit; when more is set
// it appends moreNote, a format for n.
func searchResult(p string, err error, out *strings.Builder, n int, more bool, tooLong, none, moreNote string) (string, error) {
	if err != nil {
		return "", searchErr(p, err)
	}
	if n == 0 {
		if more {
			return "", errors.New(tooLong)
		}
		return none, nil
	}
	if more {
		fmt.Fprintf(out, moreNote, n)
	}
	return strings.TrimSuffix(out.String(), "\n"), nil
}

// underDir returns the walked slash path p relative to dir, the walk's
// start ("." for the workspace root), for matching include and glob
// patterns.
func underDir(dir, p string) string {
	if dir == "." {
		return p
	}
	return strings.TrimPrefix(p, dir+"/")
}

func searchErr(p string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("search stopped: %v", err)
	}
	return fsErr(p, err)
}

// searchNoteRoom is the part of the output cap grep and glob keep for
// their closing note.
const searchNoteRoom = 200

// quoteName returns a slash path as grep and glob print it: as it is, or
// as a Go-quoted string (strconv.Quote: "..." with \n, \x01 and the like
// escaped) when it could be misread: it contains a control character or
// invalid UTF-8, or starts with a double quote, or (colon true, for grep's
// file:line:text) contains a colon. Every output line then names exactly
// one file.
func quoteName(p string, colon bool) string {
	if !utf8.ValidString(p) || strings.HasPrefix(p, `"`) || (colon && strings.Contains(p, ":")) ||
		strings.IndexFunc(p, unicode.IsControl) >= 0 {
		return strconv.Quote(p)
	}
	return p
}

// ---- glob ------------------------------------------------------------------

type globArgs struct {
	Pattern string `json:"pattern" jsonschema_description:"Glob pattern matched against paths relative to path, e.g. **/*.go or src/*.{ts,tsx}; ** matches any number of directories."`
	Path    string `json:"path,omitempty" jsonschema_description:"Directory to search in, relative to the workspace root (default: the workspace root)."`
	Limit   int    `json:"limit,omitempty" jsonschema_description:"Maximum number of paths to return (default 100)." validate:"omitempty,min=1"`
}

const globDesc = `Find files in the workspace whose path matches a glob pattern (** matches any number of ` +
	`directories, {a,b} alternatives). Returns matching files relative to the workspace root, one per line, ` +
	`in path order, at most limit (default 100), stopping early when the output would pass its size cap. ` +
	`A path with a control character, invalid UTF-8 or a leading double quote is written as a Go-quoted ` +
	`string. The .git, .hg, .svn and node_modules directories are skipped.`

func globTool(e *env) (toolnexus.Tool, error) {
	return newTool(e, "glob", "Find files", globDesc,
		toolnexus.Annotations{ReadOnlyHint: true, DestructiveHint: new(false), IdempotentHint: true, OpenWorldHint: new(false)}, 0,
		func(ctx context.Context, a globArgs) toolnexus.Result { return textResult(e.glob(ctx, a)) })
}

func (e *env) glob(ctx context.Context, a globArgs) (string, error) {
	pattern := strings.TrimPrefix(a.Pattern, "./")
	if pattern == "" {
		return "", errors.New("pattern must not be empty; use ** to list every file")
	}
	re, err := compileGlob(pattern)
	if err != nil {
		return "", fmt.Errorf("pattern %s is not a valid glob pattern: it %v", shortQuote(a.Pattern), err)
	}
	limit := a.Limit
	if limit <= 0 {
		limit = defaultSearchLimit
	}
	root, dir, single, err := e.searchRoot(a.Path)
	if err != nil {
		return "", err
	}
	defer root.Close()
	if single {
		return "", fmt.Errorf("path %q is a file, not a directory", a.Path)
	}
	budget := e.opts.MaxOutputBytes - searchNoteRoom
	var out strings.Builder
	found := 0
	more := false
	err = walk(ctx, newWalkFS(root), dir, func(p string, d fs.DirEntry) error {
		rel := underDir(dir, p)
		if !re.MatchString(rel) {
			return nil
		}
		if found == limit {
			more = true
			return errStop
		}
		entry := quoteName(p, false) + "\n"
		if out.Len()+len(entry) > budget {
			more = true
			return errStop
		}
		found++
		out.WriteString(entry)
		return nil
	})
	return searchResult(a.Path, err, &out, found, more,
		"the first matching path is longer than the output cap", "no files match",
		"[showing the first %d files; there are more: narrow the pattern or path, or raise limit]")
}

// walkFS is the fs.FS grep and glob walk: root.FS(), except that
// directories are listed through an open with O_NONBLOCK and O_DIRECTORY
// (where they exist), so an entry swapped for a FIFO after its parent was
// listed makes the listing fail at once instead of blocking the walk.
type walkFS struct {
	fs.StatFS
	root *os.Root
}

func newWalkFS(root *os.Root) walkFS {
	return walkFS{StatFS: root.FS().(fs.StatFS), root: root}
}

// ReadDir lists a directory sorted by name, as fs.ReadDirFS requires.
func (w walkFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	f, err := w.root.OpenFile(filepath.FromSlash(name), os.O_RDONLY|openNonblock|openDirectory, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}
