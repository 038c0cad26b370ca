package apicheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository root, two levels up from internal/apicheck.
var root = filepath.Join("..", "..")

// goFiles returns the non-test .go files of the repository, nested
// modules included; testdata, vendor and hidden folders are skipped. In a
// git checkout only the files git tracks count, so a user's own scratch
// module inside a clone is not checked as the project's.
func goFiles(t *testing.T) []string {
	t.Helper()
	tracked := map[string]bool{}
	if out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--", "*.go").Output(); err == nil {
		for _, f := range strings.Split(string(out), "\x00") {
			tracked[filepath.Join(root, f)] = true
		}
	}
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") && (len(tracked) == 0 || tracked[path]) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 50 {
		t.Fatalf("found only %d Go files under %s: wrong root?", len(files), root)
	}
	return files
}

// undocumented returns "file:line: what" for every exported identifier of
// f without a doc comment: functions, methods of exported types, types,
// constants and variables (a comment on their group counts), the fields of
// exported struct types and the methods of exported interfaces (a doc
// comment or a trailing line comment counts).
func undocumented(fset *token.FileSet, f *ast.File) []string {
	var out []string
	report := func(n ast.Node, format string, args ...any) {
		p := fset.Position(n.Pos())
		rel, _ := filepath.Rel(root, p.Filename)
		out = append(out, fmt.Sprintf("%s:%d: %s", filepath.ToSlash(rel), p.Line, fmt.Sprintf(format, args...)))
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || d.Doc != nil {
				continue
			}
			if d.Recv == nil {
				report(d, "func %s has no doc comment", d.Name.Name)
			} else if recv := recvName(d.Recv.List[0].Type); ast.IsExported(recv) {
				report(d, "method %s.%s has no doc comment", recv, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					if s.Doc == nil && d.Doc == nil {
						report(s, "type %s has no doc comment", s.Name.Name)
					}
					members(s.Name.Name, s.Type, report)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() && s.Doc == nil && s.Comment == nil && d.Doc == nil {
							report(n, "%s %s has no doc comment", d.Tok, n.Name)
						}
					}
				}
			}
		}
	}
	return out
}

// members reports the undocumented exported fields of a struct type and
// methods of an interface type.
func members(typeName string, typ ast.Expr, report func(ast.Node, string, ...any)) {
	var list *ast.FieldList
	kind := "field"
	switch t := typ.(type) {
	case *ast.StructType:
		list = t.Fields
	case *ast.InterfaceType:
		list, kind = t.Methods, "method"
	default:
		return
	}
	for _, fld := range list.List {
		if fld.Doc != nil || fld.Comment != nil {
			continue
		}
		names := fld.Names
		if len(names) == 0 { // embedded
			if kind == "method" {
				continue // an embedded interface is documented where it is declared
			}
			names = []*ast.Ident{ast.NewIdent(recvName(fld.Type))}
		}
		for _, n := range names {
			if n.IsExported() {
				report(fld, "%s %s.%s has no doc comment", kind, typeName, n.Name)
			}
		}
	}
}

// recvName is the name of a receiver or embedded type: T, *T, T[P], pkg.T.
func recvName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.SelectorExpr:
			return t.Sel.Name
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// TestExportedIdentifiersAreDocumented holds the rule "every exported
// identifier and every exported struct field has a doc comment".
func TestExportedIdentifiersAreDocumented(t *testing.T) {
	fset := token.NewFileSet()
	n := 0
	for _, path := range goFiles(t) {
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, msg := range undocumented(fset, f) {
			t.Error(msg)
			n++
		}
	}
	if n > 0 {
		t.Logf("%d exported names without a doc comment", n)
	}
}

// outside matches citations of the design notes kept beside the
// repository, which a reader of the code does not have.
var outside = regexp.MustCompile(`\b(WIRE|DESIGN|STYLE|DEVELOPERS)\.md\b|\.\./shared/(WIRE|DESIGN|STYLE)`)

// TestCommentsCiteNoFileOutsideTheRepository: doc comments cite the
// provider's API reference (a URL), never the notes outside the
// repository.
func TestCommentsCiteNoFileOutsideTheRepository(t *testing.T) {
	fset := token.NewFileSet()
	for _, path := range goFiles(t) {
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if m := outside.FindString(c.Text); m != "" {
					p := fset.Position(c.Pos())
					rel, _ := filepath.Rel(root, p.Filename)
					t.Errorf("%s:%d: comment cites %s, which is not in the repository; cite the provider's API reference", filepath.ToSlash(rel), p.Line, m)
				}
			}
		}
	}
}

// The checker itself: each kind of undocumented name is found, and
// documented ones are not.
func TestUndocumentedFindsEachKind(t *testing.T) {
	src := `package p

func F() {}

// G is documented.
func G() {}

func (T) M() {}
func (t *T) N() {}
func (u unexported) M() {}

type T struct {
	A int
	b int
	// C is documented.
	C int
	D int // D has a line comment.
	E, F2 string
	Embedded
	*Ptr
}

// I is documented.
type I interface {
	Call()
	// Done is documented.
	Done()
	unexported()
}

type (
	// Grouped is documented.
	Grouped int
	Bare    int
)

const K = 1

// Group comment.
const (
	K1 = 1
	K2 = 2
)

var V, w = 1, 2

type unexported struct{ X int }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(root, "p.go"), src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(undocumented(fset, f), "\n")
	want := strings.Join([]string{
		"p.go:3: func F has no doc comment",
		"p.go:8: method T.M has no doc comment",
		"p.go:9: method T.N has no doc comment",
		"p.go:12: type T has no doc comment",
		"p.go:13: field T.A has no doc comment",
		"p.go:18: field T.E has no doc comment",
		"p.go:18: field T.F2 has no doc comment",
		"p.go:19: field T.Embedded has no doc comment",
		"p.go:20: field T.Ptr has no doc comment",
		"p.go:25: method I.Call has no doc comment",
		"p.go:34: type Bare has no doc comment",
		"p.go:37: const K has no doc comment",
		"p.go:45: var V has no doc comment",
	}, "\n")
	if got != want {
		t.Errorf("undocumented:\n%s\nwant:\n%s", got, want)
	}
	if !outside.MatchString("// Source: WIRE.md §5") || outside.MatchString("// see https://ai.google.dev/api/caching#Schema") {
		t.Error("outside: WIRE.md not matched, or a URL matched")
	}
}

func TestMain(m *testing.M) {
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		fmt.Fprintln(os.Stderr, "apicheck: run from internal/apicheck:", err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}
