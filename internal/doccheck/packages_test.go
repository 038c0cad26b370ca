package doccheck

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const modulePath = "github.com/toolnexus/toolnexus"

// moduleDeps returns the modules (other than this one and its nested
// modules) whose packages the non-test build of pkg uses, listed in the
// module at directory root.
func moduleDeps(root, pkg string) (map[string]bool, error) {
	cmd := exec.Command(goTool(), "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", pkg)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps %s: %v\n%s", pkg, err, stderr.Bytes())
	}
	mods := map[string]bool{}
	for _, m := range strings.Fields(string(out)) {
		if m != modulePath && !strings.HasPrefix(m, modulePath+"/") {
			mods[m] = true
		}
	}
	return mods, nil
}

// directRequirements returns the modules go.mod requires without "// indirect".
func directRequirements(t *testing.T, root string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	direct := map[string]bool{}
	inBlock := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "require (":
			inBlock = true
			continue
		case inBlock && line == ")":
			inBlock = false
			continue
		case strings.HasPrefix(line, "require "):
			line = strings.TrimPrefix(line, "require ")
		case !inBlock:
			continue
		}
		if f := strings.Fields(line); len(f) >= 2 && !strings.Contains(line, "// indirect") {
			direct[f[0]] = true
		}
	}
	return direct
}

// nestedModule returns the directory of the nested module holding package
// pkg of this repository, or "" when pkg is in the root module.
func nestedModule(root, pkg string) string {
	rel, ok := strings.CutPrefix(pkg, modulePath+"/")
	for ok && rel != "." {
		if _, err := os.Stat(filepath.Join(root, rel, "go.mod")); err == nil {
			return filepath.Join(root, rel)
		}
		rel = filepath.Dir(rel)
	}
	return ""
}

// matches reports whether a module named in the table (a path or its tail,
// "invopop/jsonschema") is module path m.
func matches(name, m string) bool {
	return m == name || strings.HasSuffix(m, "/"+name)
}

// TestPackagesTable checks docs/packages.md's table against the build: the
// root package's row lists the modules it adds to a build, every other row
// those its package adds beyond the root package. Every module go.mod
// requires directly must be listed where it is added; every module listed
// must really be added there ("(+ ...)" lists indirect ones). A row of a
// package in a nested module is listed in that module, against its go.mod.
func TestPackagesTable(t *testing.T) {
	root := repoRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "docs", "packages.md"))
	require.NoError(t, err)
	direct := directRequirements(t, root)
	var rootDeps map[string]bool
	seen := map[string]bool{} // every module added by a row so far
	rows := 0
	var notDownloaded []string // nested modules whose dependencies are not in the module cache
	for i, line := range strings.Split(string(data), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		rows++
		where := "docs/packages.md:" + strconv.Itoa(i+1)
		listed := strings.TrimSpace(cells[3])
		var names []string
		for _, f := range strings.FieldsFunc(listed, func(r rune) bool { return strings.ContainsRune(" ,()+", r) }) {
			if strings.Contains(f, "/") {
				names = append(names, f)
			}
		}
		for _, imp := range strings.Split(cells[1], ",") {
			imp = strings.Trim(strings.TrimSpace(imp), "`")
			pkg := strings.Replace(imp, "...", modulePath, 1)
			if strings.HasPrefix(imp, "cmd/") {
				pkg = modulePath + "/" + imp
			}
			dir, direct := root, direct
			nested := nestedModule(root, pkg)
			if nested != "" {
				dir, direct = nested, directRequirements(t, nested)
			}
			deps, err := moduleDeps(dir, pkg)
			if err != nil && nested != "" && os.Getenv("CI") != "true" {
				notDownloaded = append(notDownloaded, nested)
				continue
			}
			require.NoError(t, err)
			added := deps
			if pkg != modulePath {
				require.False(t, rootDeps == nil, "%s: the root package's row must come first", where)
				added = map[string]bool{}
				for m := range deps {
					if !rootDeps[m] {
						added[m] = true
					}
				}
			} else {
				rootDeps = deps
			}
			if listed == "all of the above" {
				for m := range added {
					assert.True(t, seen[m], "%s: %s adds %s, which no row above lists", where, pkg, m)
				}
				continue
			}
			for m := range added {
				seen[m] = true
				if !direct[m] {
					continue
				}
				assert.True(t, slices.ContainsFunc(names, func(n string) bool { return matches(n, m) }), "%s: %s adds %s (a direct requirement in go.mod), not listed", where, pkg, m)
			}
			for _, n := range names {
				found := false
				for m := range added {
					found = found || matches(n, m)
				}
				assert.True(t, found, "%s: %s is listed for %s, which does not add it", where, n, pkg)
			}
			assert.False(t, listed == "nothing more" && len(added) > 0, "%s: %s says nothing more but adds %v", where, pkg, added)
		}
	}
	assert.GreaterOrEqual(t, rows, 8, "found %d table rows in docs/packages.md; the parse is broken", rows)
	if len(notDownloaded) > 0 {
		t.Skipf("rows of nested modules not checked: their dependencies are not downloaded (the test lists them offline); run go mod download in %s (CI does)", strings.Join(notDownloaded, ", "))
	}
}
