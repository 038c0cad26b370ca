package builtin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/toolnexus/toolnexus"
)

// Defaults used when the corresponding [Options] field is zero.
const (
	// MinOutputBytes is the smallest output cap accepted: 512 bytes, room
	// for the notes that say what was cut.
	MinOutputBytes = 512
	// DefaultBashTimeout is the bash timeout when a call gives none: 60 s.
	DefaultBashTimeout = 60 * time.Second
	// MaxBashTimeout is the longest timeout a bash call may ask for: 10 min.
	MaxBashTimeout = 10 * time.Minute
	// DefaultMaxFetchBytes caps the response body webfetch reads: 5 MiB.
	DefaultMaxFetchBytes = 5 << 20
	// MaxFetchRedirects is the number of redirects webfetch follows.
	MaxFetchRedirects = 5
	// MaxFileBytes is the largest file edit and apply_patch rewrite and grep
	// searches, and the largest content write, edit and apply_patch
	// produce: 10 MiB. Larger files give an error result (edit,
	// apply_patch) or are skipped (grep). A larger result is refused with
	// an error result that gives its size, computed before the result is
	// built, and no file is changed.
	MaxFileBytes = 10 << 20
	// DefaultTimeout is the Tool.Timeout of every built-in but bash and
	// webfetch (which take a timeout argument): 30 s.
	DefaultTimeout = 30 * time.Second
	// DefaultMaxPatternSize caps the size of grep's pattern: 2000 RE2
	// instructions.
	DefaultMaxPatternSize = 2000
)

// Source is the Tool.Source of every built-in tool.
const Source = "builtin"

// Options configure the built-in tools. The zero value is ready to use:
// the workspace is the current directory when [Tools] is called.
type Options struct {
	// Workspace is the directory that confines read, write, edit, grep, glob
	// and apply_patch (through os.Root: "..", absolute paths outside it and
	// symbolic links leading out of it are refused; hard links cannot be
	// seen, see the package doc) and is the default working directory of
	// bash. "" means the current directory, resolved
	// once when Tools is called. A relative path is made absolute then too.
	Workspace string

	// AllowPrivateNetwork lets webfetch reach loopback, private (RFC 1918,
	// RFC 4193), shared (RFC 6598), link-local, multicast, broadcast and
	// unspecified addresses, NAT64 (RFC 6052, RFC 8215), 6to4 (RFC 3056),
	// IPv4-compatible and site-local IPv6 addresses, and the addresses of
	// the host's own interfaces. The check runs on every connection, after
	// DNS resolution and on redirects, so DNS rebinding cannot get around
	// it. Off by default; turn it on to fetch from servers on this machine or
	// network (tests do, for their httptest server).
	AllowPrivateNetwork bool

	// MaxOutputBytes caps what each call shows the model, in bytes, by
	// [toolnexus.Result.Capped]; zero means
	// toolnexus.DefaultMaxOutputBytes (32 KiB, the registry's default cap
	// too; a registry's smaller Options.MaxOutputBytes still cuts
	// further), and values below MinOutputBytes are raised to
	// it. A longer output keeps its head and tail and says how many bytes
	// were cut.
	MaxOutputBytes int

	// BashTimeout is the bash timeout when a call gives none; zero means
	// DefaultBashTimeout (60 s). Values above MaxBashTimeout are lowered to it.
	BashTimeout time.Duration

	// Timeout is the Tool.Timeout of every built-in but bash and webfetch;
	// zero means DefaultTimeout (30 s), and a negative value leaves it
	// zero, so the registry's Options.Timeout applies.
	Timeout time.Duration

	// MaxPatternSize caps the size of grep's pattern, in instructions of
	// its RE2 program (about one per literal character, class or
	// operator; x{n} counts x n times), which the cost of matching each
	// byte grows with; zero means DefaultMaxPatternSize (2000). A larger
	// pattern gives an error result, and so, before it is parsed, does a
	// pattern longer than 8 bytes per instruction (16,000 bytes by
	// default).
	MaxPatternSize int

	// Shell is the shell bash runs commands with, as Shell -c COMMAND. ""
	// means "bash" if it is on PATH when the command runs, else /bin/sh.
	Shell string

	// MaxFetchBytes caps the response body webfetch reads, in bytes; zero
	// means DefaultMaxFetchBytes (5 MiB). A longer body is cut and the
	// output says so.
	MaxFetchBytes int64

	// UserAgent is the User-Agent header of webfetch requests; "" means
	// "toolnexus-webfetch/1".
	UserAgent string
}

// names is sorted; keep it in step with Tools.
var names = []string{"apply_patch", "bash", "edit", "glob", "grep", "question", "read", "todowrite", "webfetch", "write"}

// Names lists the ten built-in tool names, sorted:
// apply_patch, bash, edit, glob, grep, question, read, todowrite, webfetch, write.
func Names() []string { return slices.Clone(names) }

// env is the shared, immutable state of one Tools call.
type env struct {
	root string // absolute, cleaned workspace path
	real string // root with symbolic links resolved
	opts Options
}

// Tools returns the ten built-in tools, sorted by name, each with Source
// "builtin", a reflected input schema and MCP annotations. The tools of one
// call share the workspace and options; the todowrite list is per call.
//
// opts nil means the zero Options (the current directory, no private
// network, default limits).
//
// Errors: the workspace does not exist or is not a directory, or the
// current directory cannot be determined.
func Tools(opts *Options) ([]toolnexus.Tool, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	e, err := newEnv(o)
	if err != nil {
		return nil, err
	}
	builders := []func(*env) (toolnexus.Tool, error){
		applyPatchTool, bashTool, editTool, globTool, grepTool,
		questionTool, readTool, todoTool, webfetchTool, writeTool,
	}
	tools := make([]toolnexus.Tool, 0, len(builders))
	for _, b := range builders {
		t, err := b(e)
		if err != nil {
			return nil, err
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// newEnv resolves the workspace and fills in the defaults of opts.
func newEnv(opts Options) (*env, error) {
	ws := opts.Workspace
	if ws == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("builtin: workspace: %w", err)
		}
		ws = wd
	}
	ws, err := filepath.Abs(ws)
	if err != nil {
		return nil, fmt.Errorf("builtin: workspace %q: %w", opts.Workspace, err)
	}
	fi, err := os.Stat(ws)
	if err != nil {
		return nil, fmt.Errorf("builtin: workspace %q: %w", ws, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("builtin: workspace %q is not a directory", ws)
	}
	real, err := filepath.EvalSymlinks(ws)
	if err != nil {
		real = ws
	}
	if opts.MaxOutputBytes <= 0 {
		opts.MaxOutputBytes = toolnexus.DefaultMaxOutputBytes
	}
	opts.MaxOutputBytes = max(opts.MaxOutputBytes, MinOutputBytes)
	if opts.BashTimeout <= 0 {
		opts.BashTimeout = DefaultBashTimeout
	}
	opts.BashTimeout = min(opts.BashTimeout, MaxBashTimeout)
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxPatternSize <= 0 {
		opts.MaxPatternSize = DefaultMaxPatternSize
	}
	if opts.MaxFetchBytes <= 0 {
		opts.MaxFetchBytes = DefaultMaxFetchBytes
	}
	if opts.UserAgent == "" {
		opts.UserAgent = "toolnexus-webfetch/1"
	}
	opts.Workspace = ws
	return &env{root: ws, real: real, opts: opts}, nil
}

// newTool builds one built-in: a typed tool whose result is capped at
// Options.MaxOutputBytes by [toolnexus.Result.Capped] (valid UTF-8, head
// and tail kept, content and structured results included). A zero timeout means Options.Timeout.
func newTool[A any](e *env, name, title, desc string, ann toolnexus.Annotations, timeout time.Duration,
	fn func(context.Context, A) toolnexus.Result) (toolnexus.Tool, error) {
	limit := e.opts.MaxOutputBytes
	t, err := toolnexus.NewResultTool(name, desc, func(ctx context.Context, a A) toolnexus.Result {
		return fn(ctx, a).Capped(limit)
	})
	if err != nil {
		return toolnexus.Tool{}, fmt.Errorf("builtin: %w", err)
	}
	t.Source = Source
	t.Title = title
	ann.Title = title
	t.Annotations = &ann
	t.Timeout = timeout
	if timeout == 0 {
		t.Timeout = max(e.opts.Timeout, 0)
	}
	return t, nil
}

// textResult adapts a (string, error) outcome to a Result.
func textResult(out string, err error) toolnexus.Result {
	if err != nil {
		if out != "" {
			return toolnexus.Result{Output: out + "\n" + err.Error(), IsError: true, Err: err}
		}
		return toolnexus.ErrorResult(err)
	}
	return toolnexus.Result{Output: out}
}

// ---- workspace paths -------------------------------------------------------

// errOutside is the cause of every refused path.
var errOutside = errors.New("outside the workspace")

// rel turns a path given by the model (relative to the workspace, or
// absolute) into a path relative to the workspace root for os.Root. "" is
// the root itself. A path that leaves the workspace lexically is refused
// here; symbolic links are checked by os.Root.
func (e *env) rel(p string) (string, error) {
	if p == "" {
		return ".", nil
	}
	if strings.IndexByte(p, 0) >= 0 {
		return "", fmt.Errorf("path %q contains a NUL byte", p)
	}
	if filepath.IsAbs(p) {
		c := filepath.Clean(p)
		for _, base := range []string{e.root, e.real} {
			if r, err := filepath.Rel(base, c); err == nil && (r == "." || filepath.IsLocal(r)) {
				return r, nil
			}
		}
		return "", &pathError{path: p, err: errOutside}
	}
	c := filepath.Clean(p)
	if c != "." && !filepath.IsLocal(c) {
		return "", &pathError{path: p, err: errOutside}
	}
	return c, nil
}

// open opens the workspace as an os.Root. The caller closes it.
func (e *env) open() (*os.Root, error) {
	r, err := os.OpenRoot(e.root)
	if err != nil {
		return nil, fmt.Errorf("cannot open the workspace: %v", plainErr(err))
	}
	return r, nil
}

// pathError is a model-facing error about one path.
type pathError struct {
	path string
	err  error
}

func (e *pathError) Error() string {
	switch {
	case errors.Is(e.err, errOutside):
		return fmt.Sprintf("path %q is outside the workspace; use a path inside it (relative paths are relative to the workspace root)", e.path)
	case errors.Is(e.err, errLinkOut):
		return fmt.Sprintf("path %q is outside the workspace: a symbolic link on the way leads out of it", e.path)
	case errors.Is(e.err, fs.ErrNotExist):
		return fmt.Sprintf("%q does not exist", e.path)
	case errors.Is(e.err, fs.ErrPermission):
		return fmt.Sprintf("permission denied: %q", e.path)
	case errors.Is(e.err, syscall.ENOTDIR):
		return fmt.Sprintf("%q: a part of the path is not a directory", e.path)
	case errors.Is(e.err, syscall.EISDIR):
		return fmt.Sprintf("%q is a directory", e.path)
	case errors.Is(e.err, syscall.ELOOP):
		return fmt.Sprintf("%q: too many levels of symbolic links", e.path)
	}
	return fmt.Sprintf("%q: %v", e.path, plainErr(e.err))
}

func (e *pathError) Unwrap() error { return e.err }

// errLinkOut marks a path that os.Root refused because a symbolic link
// leads out of the workspace.
var errLinkOut = errors.New("a symbolic link leads outside the workspace")

// fsErr converts an error from an os.Root operation on path p (as the model
// wrote it) into a pathError with a model-facing message.
func fsErr(p string, err error) error {
	if err == nil {
		return nil
	}
	// os.Root's error for this case is not exported; it is the innermost
	// error of the chain, with this text.
	for e := err; e != nil; e = errors.Unwrap(e) {
		if e.Error() == "path escapes from parent" {
			return &pathError{path: p, err: errLinkOut}
		}
	}
	return &pathError{path: p, err: err}
}

// plainErr strips the Go wrappers of a path error (which name the absolute
// path and the syscall) down to the innermost cause.
func plainErr(err error) error {
	for {
		var pe *fs.PathError
		var le *os.LinkError
		switch {
		case errors.As(err, &pe) && pe.Err != nil:
			err = pe.Err
		case errors.As(err, &le) && le.Err != nil:
			err = le.Err
		default:
			return err
		}
	}
}

// display returns the workspace-relative path with forward slashes, as tools
// print it.
func display(rel string) string { return filepath.ToSlash(rel) }
