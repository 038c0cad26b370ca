package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The official JSON-Schema-Test-Suite (draft 2020-12) lives beside the
// checkout in ../shared/json-schema-test-suite; it is not copied here.
//
// Skipped, and counted in the log:
//   - refRemote.json, defs.json and vocabulary.json need documents from
//     elsewhere (remote references, the metaschema);
//   - any test group whose schema holds a "$ref" or "$dynamicRef" whose
//     value starts with "https://json-schema.org/" (the metaschema URL);
//   - any test group that Compile refuses for a reference to another
//     document while its schema mentions http://localhost:1234 (the
//     suite's remotes/ folder, which the engine has no loader for).
//
// optional/format/<name>.json runs with AssertFormat for every asserted
// format; each of those must pass.

var suiteSkipFiles = map[string]bool{"refRemote.json": true, "defs.json": true, "vocabulary.json": true}

var suiteBestEffort = map[string]bool{}

type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

// suiteDir finds ../shared/json-schema-test-suite/draft2020-12 beside the
// module root (the first parent holding go.mod).
func suiteDir(t *testing.T) string {
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, dir, parent, "no go.mod above the package directory")
		dir = parent
	}
	d := filepath.Join(dir, "..", "shared", "json-schema-test-suite", "draft2020-12")
	if _, err := os.Stat(d); err != nil {
		require.NotEqual(t, "true", os.Getenv("CI"), "JSON-Schema-Test-Suite not found at %s (CI=true: it must be there)", d)
		t.Skipf("JSON-Schema-Test-Suite not found at %s; skipping (clone it there to run)", d)
	}
	return d
}

func refsMetaschema(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && (k == "$ref" || k == "$dynamicRef") && strings.HasPrefix(s, "https://json-schema.org/") {
				return true
			}
			if refsMetaschema(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if refsMetaschema(e) {
				return true
			}
		}
	}
	return false
}

type suiteScore struct {
	file                   string
	pass, fail, skip       int
	bestEffort, skipReason string
}

func runSuiteFile(t *testing.T, path, name string, opts *Options, required bool) suiteScore {
	sc := suiteScore{file: name}
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var groups []suiteGroup
	require.NoError(t, json.Unmarshal(raw, &groups), "%s", name)
	for _, g := range groups {
		var sv any
		_ = json.Unmarshal(g.Schema, &sv)
		if refsMetaschema(sv) {
			sc.skip += len(g.Tests)
			continue
		}
		v, err := Compile(g.Schema, opts)
		if err != nil && strings.Contains(err.Error(), "only references within the document") && bytes.Contains(g.Schema, []byte("localhost:1234")) {
			sc.skip += len(g.Tests) // needs a document from the suite's remotes/
			continue
		}
		if err != nil {
			sc.fail += len(g.Tests)
			assert.False(t, required, "%s / %s: Compile: %v", name, g.Description, err)
			continue
		}
		for _, tc := range g.Tests {
			err := v.Validate(tc.Data)
			if (err == nil) == tc.Valid {
				sc.pass++
				continue
			}
			sc.fail++
			assert.False(t, required, "%s / %s / %s: valid=%v, got %v", name, g.Description, tc.Description, tc.Valid, err)
		}
	}
	return sc
}

func TestSuite(t *testing.T) {
	dir := suiteDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	require.NoError(t, err)
	var scores []suiteScore
	for _, f := range files {
		name := filepath.Base(f)
		if suiteSkipFiles[name] {
			scores = append(scores, suiteScore{file: name, skipReason: "skipped: needs remote documents"})
			continue
		}
		sc := runSuiteFile(t, f, name, nil, !suiteBestEffort[name])
		if suiteBestEffort[name] {
			sc.bestEffort = " (not required)"
		}
		scores = append(scores, sc)
	}
	for _, name := range assertedFormats() {
		f := filepath.Join(dir, "optional", "format", name+".json")
		if _, err := os.Stat(f); !assert.NoError(t, err, "asserted format %s has no suite file", name) {
			continue
		}
		scores = append(scores, runSuiteFile(t, f, "optional/format/"+name+".json", &Options{AssertFormat: true}, true))
	}
	var b strings.Builder
	b.WriteString("| file | passed | failed | skipped |\n|---|---|---|---|\n")
	var tp, tf, ts int
	for _, s := range scores {
		if s.skipReason != "" {
			fmt.Fprintf(&b, "| %s | – | – | %s |\n", s.file, s.skipReason)
			continue
		}
		fmt.Fprintf(&b, "| %s%s | %d | %d | %d |\n", s.file, s.bestEffort, s.pass, s.fail, s.skip)
		tp, tf, ts = tp+s.pass, tf+s.fail, ts+s.skip
	}
	fmt.Fprintf(&b, "| total | %d | %d | %d |\n", tp, tf, ts)
	t.Log("JSON-Schema-Test-Suite draft 2020-12 score:\n" + b.String())
}

func assertedFormats() []string {
	var names []string
	for k := range formats {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
