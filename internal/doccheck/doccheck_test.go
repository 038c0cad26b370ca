package doccheck

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Snippet conventions (docs/development.md says the same for writers):
//
//   - A ```go block whose first code line starts with "package" is a whole
//     file; it is type-checked as its own package, strictly.
//   - Any other ```go block is the body of a function returning error,
//     type-checked in a package that declares ctx (context.Context) and reg
//     (*toolnexus.Registry); imports are added for the package names it uses
//     (knownImports). It is checked as strictly as a whole file: an unused
//     local variable is an error, as the Go compiler makes it.
//   - A block (of any language) right after a line <!-- excerpt: PATH FUNC -->
//     shows code or output from a test file, often of another module (an SDK
//     example): each of its non-blank lines must appear, in order, in the
//     body of function FUNC in file PATH, which that module's own tests
//     compile and run; a line may also match a body comment line without its
//     "// " (an Example's output), and a line of a block that is not Go may
//     be part of a body line (the output a test expects). A snippet line may
//     add a trailing //
//     comment; lines that are only a comment are not compared.
//
// Every ```go fence must start at column 0 and have exactly the info string
// "go", so that no Go block escapes the check.

// knownImports maps the package names fragments may use to import paths.
var knownImports = map[string]string{
	"toolnexus": "github.com/toolnexus/toolnexus",
	"render":    "github.com/toolnexus/toolnexus/render",
	"exec":      "github.com/toolnexus/toolnexus/exec",
	"mcp":       "github.com/toolnexus/toolnexus/mcp",
	"builtin":   "github.com/toolnexus/toolnexus/builtin",
	"toolkit":   "github.com/toolnexus/toolnexus/toolkit",
	"schema":    "github.com/toolnexus/toolnexus/schema",
	"skill":     "github.com/toolnexus/toolnexus/skill",
	"httptool":  "github.com/toolnexus/toolnexus/httptool",
	"openapi":   "github.com/toolnexus/toolnexus/openapi",
	"sdkmcp":    "github.com/modelcontextprotocol/go-sdk/mcp",
	"auth":      "github.com/modelcontextprotocol/go-sdk/auth",
	"context":   "context",
	"json":      "encoding/json",
	"errors":    "errors",
	"fmt":       "fmt",
	"http":      "net/http",
	"io":        "io",
	"log":       "log",
	"slog":      "log/slog",
	"os":        "os",
	"strings":   "strings",
	"time":      "time",
}

// snippet is one ```go block.
type snippet struct {
	file    string // slash path relative to the repository root
	line    int    // line of the first code line, 1-based
	code    string
	excerpt string // "PATH FUNC" from an <!-- excerpt: --> line, or ""
	isGo    bool   // a ```go block
}

// extract returns the ```go blocks of one Markdown file, and a problem for
// every fence the check would miss.
func extract(name string, data []byte) ([]snippet, []string) {
	var (
		out      []snippet
		problems []string
		lines    = strings.Split(string(data), "\n")
		prev     string // last non-blank line before the current one
	)
	for i := 0; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " \t\r")
		trimmed := strings.TrimSpace(l)
		if !strings.HasPrefix(trimmed, "```") {
			if trimmed != "" {
				prev = trimmed
			}
			continue
		}
		info := strings.TrimSpace(strings.TrimPrefix(trimmed, "```"))
		isGo := info == "go" || strings.HasPrefix(info, "go ") || strings.HasPrefix(info, "golang")
		if isGo && (l != "```go") {
			problems = append(problems, fmt.Sprintf("%s:%d: a Go block must open with exactly ```go at column 0", name, i+1))
		}
		// Skip to the closing fence.
		start := i + 1
		j := start
		for j < len(lines) && strings.TrimSpace(lines[j]) != "```" {
			j++
		}
		if j == len(lines) {
			problems = append(problems, fmt.Sprintf("%s:%d: unclosed code block", name, i+1))
			return out, problems
		}
		rest, isExcerpt := strings.CutPrefix(prev, "<!-- excerpt:")
		if l == "```go" || isExcerpt {
			s := snippet{file: name, line: start + 1, code: strings.Join(lines[start:j], "\n"), isGo: l == "```go"}
			if isExcerpt {
				s.excerpt = strings.TrimSpace(strings.TrimSuffix(rest, "-->"))
			}
			out = append(out, s)
		}
		i = j
		prev = ""
	}
	return out, problems
}

// isWholeFile reports whether the snippet's first code line is a package clause.
func isWholeFile(code string) bool {
	for _, l := range strings.Split(code, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "//") {
			continue
		}
		return strings.HasPrefix(t, "package ")
	}
	return false
}

// lineDirective maps what follows it to the snippet's place in the Markdown file.
func lineDirective(s snippet) string {
	return "//line " + s.file + ":" + strconv.Itoa(s.line) + "\n"
}

// fragmentSource wraps a fragment in a package with imports for the package
// names it uses.
func fragmentSource(s snippet) (string, []string) {
	body := "func _() error {\n" + lineDirective(s) + s.code + "\nreturn nil\n}\n"
	used := map[string]bool{"context": true, "toolnexus": true}
	fset := token.NewFileSet()
	if f, err := parser.ParseFile(fset, "", "package p\n"+body, parser.SkipObjectResolution); err == nil {
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok {
					if _, known := knownImports[id.Name]; known {
						used[id.Name] = true
					}
				}
			}
			return true
		})
	}
	var names []string
	for n := range used {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("package snippet\n\nimport (\n")
	var paths []string
	for _, n := range names {
		fmt.Fprintf(&b, "\t%s %q\n", n, knownImports[n])
		paths = append(paths, knownImports[n])
	}
	b.WriteString(")\n\nvar ctx = context.Background()\nvar reg = toolnexus.NewRegistry()\n\n")
	b.WriteString(body)
	return b.String(), paths
}

// absPath matches a quoted absolute path of two or more elements.
var absPath = regexp.MustCompile(`"(/[\w.-]+/[\w./-]+)"`)

// absentPaths reports each quoted absolute path in a Go snippet that does
// not exist on this machine: a placeholder such as "/path/to/project"
// fails when the snippet is pasted and run.
func absentPaths(s snippet) []string {
	var out []string
	for i, l := range strings.Split(s.code, "\n") {
		for _, m := range absPath.FindAllStringSubmatch(l, -1) {
			if _, err := os.Stat(m[1]); err != nil {
				out = append(out, fmt.Sprintf("%s:%d: %q does not exist; use a path in the repository (examples/skills, go.mod, .)", s.file, s.line+i, m[1]))
			}
		}
	}
	return out
}

// checker type-checks snippets with the export data the go command builds.
type checker struct {
	root    string
	exports map[string]string // import path -> export data file
}

// loadExports runs go list -export once for every package the snippets import.
func (c *checker) loadExports(paths []string) error {
	args := append([]string{"list", "-e", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}\t{{with .Error}}{{.Err}}{{end}}"}, paths...)
	cmd := exec.Command(goTool(), args...)
	cmd.Dir = c.root
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list -export: %v\n%s", err, stderr.Bytes())
	}
	c.exports = map[string]string{}
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.SplitN(l, "\t", 3)
		if len(f) == 3 && f[1] != "" {
			c.exports[f[0]] = f[1]
		}
	}
	return nil
}

func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

// check type-checks one generated file.
func (c *checker) check(src string) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "snippet.go", src, parser.ParseComments)
	if err != nil {
		var list []string
		var el interface{ Unwrap() []error }
		if errors.As(err, &el) {
			for _, e := range el.Unwrap() {
				list = append(list, e.Error())
			}
		} else {
			list = append(list, err.Error())
		}
		return list
	}
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := c.exports[path]
		if !ok {
			return nil, fmt.Errorf("package %q is not available to snippets (add it to knownImports or use an excerpt)", path)
		}
		return os.Open(file)
	})
	var problems []string
	conf := types.Config{
		Importer: imp,
		Error: func(err error) {
			var te types.Error
			if errors.As(err, &te) {
				problems = append(problems, fmt.Sprintf("%s: %s", fset.Position(te.Pos), te.Msg))
				return
			}
			problems = append(problems, err.Error())
		},
	}
	conf.Check(f.Name.Name, fset, []*ast.File{f}, nil)
	return problems
}

// checkExcerpt compares an excerpt with the function it names.
func checkExcerpt(root string, s snippet) []string {
	where := fmt.Sprintf("%s:%d", s.file, s.line)
	path, fn, ok := strings.Cut(s.excerpt, " ")
	if !ok {
		return []string{where + `: excerpt marker must be "<!-- excerpt: PATH FUNC -->"`}
	}
	fn = strings.TrimSpace(fn)
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
	if err != nil {
		return []string{fmt.Sprintf("%s: excerpt source: %v", where, err)}
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return []string{fmt.Sprintf("%s: excerpt source: %v", where, err)}
	}
	var body []string
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == fn && fd.Body != nil {
			text := string(src[fset.Position(fd.Body.Lbrace).Offset+1 : fset.Position(fd.Body.Rbrace).Offset])
			for _, l := range strings.Split(text, "\n") {
				if t := strings.TrimSpace(l); t != "" {
					body = append(body, t)
				}
			}
		}
	}
	if body == nil {
		return []string{fmt.Sprintf("%s: excerpt source %s has no function %s", where, path, fn)}
	}
	k := 0
	for i, l := range strings.Split(s.code, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "//") {
			continue
		}
		found := false
		for k < len(body) {
			b := body[k]
			k++
			out, isComment := strings.CutPrefix(b, "// ")
			if t == b || (strings.HasPrefix(t, b) && strings.HasPrefix(strings.TrimSpace(t[len(b):]), "//")) || (isComment && t == out) || (!s.isGo && strings.Contains(b, t)) {
				found = true
				break
			}
		}
		if !found {
			return []string{fmt.Sprintf("%s:%d: line %q is not in %s %s (in this order)", s.file, s.line+i, t, path, fn)}
		}
	}
	return nil
}

// checkAll checks every snippet of the given Markdown files (name -> content)
// and returns one problem per broken snippet line, as "file:line:col: msg".
func checkAll(root string, files map[string][]byte) ([]string, int) {
	var problems []string
	var snippets []snippet
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		s, p := extract(n, files[n])
		snippets = append(snippets, s...)
		problems = append(problems, p...)
	}
	var units []string
	need := map[string]bool{}
	for _, s := range snippets {
		if s.isGo && s.excerpt == "" {
			problems = append(problems, absentPaths(s)...)
		}
		switch {
		case s.excerpt != "":
			problems = append(problems, checkExcerpt(root, s)...)
		case isWholeFile(s.code):
			src := lineDirective(s) + s.code + "\n"
			units = append(units, src)
			if f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly); err == nil {
				for _, im := range f.Imports {
					p, _ := strconv.Unquote(im.Path.Value)
					need[p] = true
				}
			}
		default:
			src, paths := fragmentSource(s)
			units = append(units, src)
			for _, p := range paths {
				need[p] = true
			}
		}
	}
	if len(units) > 0 {
		c := &checker{root: root}
		var paths []string
		for p := range need {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		if err := c.loadExports(paths); err != nil {
			return append(problems, err.Error()), len(snippets)
		}
		for _, u := range units {
			problems = append(problems, c.check(u)...)
		}
	}
	return problems, len(snippets)
}

// repoRoot is the directory of the module's go.mod, two levels up.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err, "%s is not the toolnexus module root", root)
	require.True(t, bytes.HasPrefix(mod, []byte("module github.com/toolnexus/toolnexus\n")), "%s is not the toolnexus module root", root)
	return root
}

// TestDocSnippets type-checks every Go block in README.md and docs/*.md.
func TestDocSnippets(t *testing.T) {
	root := repoRoot(t)
	files := map[string][]byte{}
	mds, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	mds = append(mds, filepath.Join(root, "README.md"))
	for _, p := range mds {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = data
	}
	problems, n := checkAll(root, files)
	assert.Empty(t, problems, strings.Join(problems, "\n"))
	assert.GreaterOrEqual(t, n, 10, "found %d Go snippets in %d files; the extraction is broken", n, len(files))
	t.Logf("%d Go snippets in %d Markdown files", n, len(files))
}

// TestDocCheckReportsPlace feeds broken snippets and wants each reported at
// its Markdown file and line.
func TestDocCheckReportsPlace(t *testing.T) {
	root := repoRoot(t)
	md := strings.Join([]string{
		"# Title",                // 1
		"",                       // 2
		"```go",                  // 3
		"n := 1",                 // 4
		"reg.Nope(ctx, n)",       // 5: no such method
		"```",                    // 6
		"",                       // 7
		"```go",                  // 8
		"package main",           // 9
		"",                       // 10
		"func main() { x := 1 }", // 11: strict: unused
		"```",                    // 12
		"<!-- excerpt: exec/example_test.go ExampleExecutor_Run -->",
		"```go",                // 14
		"not in the example()", // 15
		"```",                  // 16
		"  ```go",              // 17: indented
		"```",                  // 18
		"```go",                // 19
		"res := reg.Execute(ctx, \"x\", json.RawMessage(`{}`)) // fine",
		"_ = res.IsError",
		"```",
		"<!-- excerpt: example_test.go ExampleRegister -->",
		"```json",
		`{"type":"nope"}`, // 25: not the example's output
		"```",
		"```go",       // 27
		"unused := 2", // 28: a fragment is as strict as a file
		"```",
		"```go", // 30
		`_, err := builtin.Tools(&builtin.Options{Workspace: "/path/to/project"})`, // 31: a placeholder
		"return err",
		"```",
	}, "\n")
	problems, n := checkAll(root, map[string][]byte{"broken.md": []byte(md)})
	assert.Equal(t, 7, n, "found %d snippets, want 7 (the indented block is not one)", n)
	want := []string{"broken.md:5: reg.Nope undefined", "broken.md:11: declared and not used: x",
		`broken.md:15: line "not in the example()" is not in exec/example_test.go ExampleExecutor_Run`,
		"broken.md:17: a Go block must open with exactly ```go at column 0",
		`broken.md:25: line "{\"type\":\"nope\"}" is not in example_test.go ExampleRegister`,
		"broken.md:28: declared and not used: unused",
		`broken.md:31: "/path/to/project" does not exist`}
	for _, w := range want {
		assert.True(t, slices.ContainsFunc(problems, func(p string) bool { return strings.HasPrefix(p, w) }), "no problem starting with %q in:\n%s", w, strings.Join(problems, "\n"))
	}
	assert.Len(t, problems, len(want), "got %d problems, want %d:\n%s", len(problems), len(want), strings.Join(problems, "\n"))
}

// TestDocExampleNames wants every Example function or Test named in
// README.md and docs/*.md (in backquotes) to exist in a _test.go file of the
// repository, nested modules included, so that a rename cannot leave the
// docs pointing at nothing.
func TestDocExampleNames(t *testing.T) {
	root := repoRoot(t)
	defined := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != root || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv == nil {
				defined[fd.Name.Name] = true
			}
		}
		return nil
	})
	require.NoError(t, err)
	mds, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	mds = append(mds, filepath.Join(root, "README.md"))
	checked := 0
	for _, p := range mds {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		rel, _ := filepath.Rel(root, p)
		for i, line := range strings.Split(string(data), "\n") {
			for _, name := range testNames(line) {
				checked++
				assert.True(t, defined[name], "%s:%d: %s is named but no _test.go file defines it", filepath.ToSlash(rel), i+1, name)
			}
		}
	}
	t.Logf("%d names checked", checked)
	assert.GreaterOrEqual(t, checked, 20, "checked %d names; the scan is broken", checked)
}

// testNames returns the identifiers in backquotes on line that name an
// Example, Test, Benchmark or Fuzz function (`TestGeminiSDK*` patterns are
// skipped).
func testNames(line string) []string {
	var out []string
	parts := strings.Split(line, "`")
	for i := 1; i < len(parts); i += 2 {
		w := parts[i]
		for _, prefix := range []string{"Example", "Test", "Benchmark", "Fuzz"} {
			if strings.HasPrefix(w, prefix) && len(w) > len(prefix) && isIdent(w) {
				out = append(out, w)
			}
		}
	}
	return out
}

func isIdent(s string) bool {
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
