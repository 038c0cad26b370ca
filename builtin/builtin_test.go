package builtin_test

import (
	"github.com/toolnexus/toolnexus/internal/golden"

	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/builtin"
	"github.com/toolnexus/toolnexus/render"
)

// fixture is a workspace with the built-in tools registered.
type fixture struct {
	t   testing.TB
	ws  string
	reg *toolnexus.Registry
}

func newFixture(t testing.TB, opts builtin.Options) *fixture {
	t.Helper()
	if opts.Workspace == "" {
		opts.Workspace = t.TempDir()
	}
	tools, err := builtin.Tools(&opts)
	if err != nil {
		t.Fatalf("Tools: %v", err)
	}
	// The registry's cap is the built-ins' own: a larger one set here must
	// be set there too to reach the model.
	reg := toolnexus.NewRegistryWith(&toolnexus.Options{MaxOutputBytes: opts.MaxOutputBytes})
	if err := reg.Add(tools...); err != nil {
		t.Fatalf("Add: %v", err)
	}
	return &fixture{t: t, ws: opts.Workspace, reg: reg}
}

// call executes a tool with arguments given as a Go value (marshalled) or
// a JSON string.
func (f *fixture) call(name string, args any) toolnexus.Result {
	f.t.Helper()
	return f.callCtx(context.Background(), name, args)
}

func (f *fixture) callCtx(ctx context.Context, name string, args any) toolnexus.Result {
	f.t.Helper()
	var raw []byte
	switch a := args.(type) {
	case string:
		raw = []byte(a)
	default:
		var err error
		raw, err = json.Marshal(a)
		if err != nil {
			f.t.Fatal(err)
		}
	}
	return f.reg.Execute(ctx, name, raw)
}

// ok calls a tool and requires success.
func (f *fixture) ok(name string, args any) string {
	f.t.Helper()
	r := f.call(name, args)
	if r.IsError {
		f.t.Fatalf("%s(%v): unexpected error result: %s", name, args, r.Output)
	}
	return r.Output
}

// fail calls a tool, requires an error result, and returns its Output.
func (f *fixture) fail(name string, args any) string {
	f.t.Helper()
	r := f.call(name, args)
	if !r.IsError {
		f.t.Fatalf("%s(%v): want an error result, got %q", name, args, r.Output)
	}
	return r.Output
}

// file writes a file under the workspace (creating parents).
func (f *fixture) file(rel, content string) string {
	f.t.Helper()
	p := filepath.Join(f.ws, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
	return p
}

func (f *fixture) content(rel string) string {
	f.t.Helper()
	b, err := os.ReadFile(filepath.Join(f.ws, filepath.FromSlash(rel)))
	if err != nil {
		f.t.Fatal(err)
	}
	return string(b)
}

func (f *fixture) exists(rel string) bool {
	_, err := os.Lstat(filepath.Join(f.ws, filepath.FromSlash(rel)))
	return err == nil
}

func wantContains(t testing.TB, got string, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(got, s) {
			t.Errorf("output %q does not contain %q", got, s)
		}
	}
}

func wantEqual(t testing.TB, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %q, want %q", what, got, want)
	}
}

func TestNamesAndTools(t *testing.T) {
	want := []string{"apply_patch", "bash", "edit", "glob", "grep", "question", "read", "todowrite", "webfetch", "write"}
	if got := builtin.Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	names := builtin.Names()
	names[0] = "changed"
	if builtin.Names()[0] != "apply_patch" {
		t.Fatal("Names returns a shared slice")
	}
	tools, err := builtin.Tools(&builtin.Options{Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tl := range tools {
		got = append(got, tl.Name)
		if tl.Source != "builtin" {
			t.Errorf("%s: Source = %q, want builtin", tl.Name, tl.Source)
		}
		if tl.Annotations == nil || tl.Title == "" || tl.Annotations.Title != tl.Title {
			t.Errorf("%s: Title %q, Annotations %+v", tl.Name, tl.Title, tl.Annotations)
		}
		if len(tl.Description) == 0 || len([]rune(tl.Description)) > toolnexus.MaxDescriptionLength {
			t.Errorf("%s: description length %d", tl.Name, len(tl.Description))
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Tools names = %v, want %v", got, want)
	}
}

func TestToolsWorkspaceErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := builtin.Tools(&builtin.Options{Workspace: filepath.Join(dir, "missing")}); err == nil {
		t.Error("missing workspace: no error")
	}
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := builtin.Tools(&builtin.Options{Workspace: file})
	if err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("file as workspace: err = %v", err)
	}
}

func TestDefaultWorkspaceIsCurrentDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	tools, err := builtin.Tools(&builtin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	reg := toolnexus.NewRegistry()
	if err := reg.Add(tools...); err != nil {
		t.Fatal(err)
	}
	r := reg.Execute(context.Background(), "write", json.RawMessage(`{"path":"here.txt","content":"x"}`))
	if r.IsError {
		t.Fatal(r.Output)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "here.txt")); err != nil || string(b) != "x" {
		t.Fatalf("file in current directory: %q, %v", b, err)
	}
}

// TestGoldenSchemas pins the rendered schemas of all ten tools (OpenAI
// Chat Completions shape). Rewrite with: go test ./builtin -run TestGoldenSchemas -update
func TestGoldenSchemas(t *testing.T) {
	tools, err := builtin.Tools(&builtin.Options{Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(render.OpenAI(tools), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("..", "testdata", "golden", "builtin", "openai.json")
	if want := golden.Check(t, path, got); !json.Valid(want) {
		t.Fatalf("%s is not valid JSON", path)
	}
	// The input property names are a contract.
	props := map[string][]string{
		"bash":        {"command", "workdir", "timeout", "description"},
		"read":        {"path", "offset", "limit"},
		"write":       {"path", "content"},
		"edit":        {"path", "oldString", "newString", "replaceAll"},
		"grep":        {"pattern", "path", "include", "limit"},
		"glob":        {"pattern", "path", "limit"},
		"webfetch":    {"url", "format", "timeout"},
		"question":    {"questions"},
		"apply_patch": {"patchText"},
		"todowrite":   {"todos"},
	}
	required := map[string][]string{
		"bash": {"command"}, "read": {"path"}, "write": {"path", "content"},
		"edit": {"path", "oldString", "newString"}, "grep": {"pattern"}, "glob": {"pattern"},
		"webfetch": {"url"}, "question": {"questions"}, "apply_patch": {"patchText"}, "todowrite": {"todos"},
	}
	for _, tl := range tools {
		var s struct {
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(tl.InputSchema, &s); err != nil {
			t.Fatal(err)
		}
		var keys []string
		for k := range s.Properties {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		want := slices.Clone(props[tl.Name])
		slices.Sort(want)
		if !slices.Equal(keys, want) {
			t.Errorf("%s properties = %v, want %v", tl.Name, keys, want)
		}
		if !slices.Equal(s.Required, required[tl.Name]) {
			t.Errorf("%s required = %v, want %v", tl.Name, s.Required, required[tl.Name])
		}
	}
}

// Tools(nil) is Tools(&Options{}): the current directory as workspace.
func TestToolsNilOptions(t *testing.T) {
	tools, err := builtin.Tools(nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tl := range tools {
		got = append(got, tl.Name)
	}
	if want := builtin.Names(); !slices.Equal(got, want) {
		t.Errorf("Tools(nil) = %v, want %v", got, want)
	}
}
