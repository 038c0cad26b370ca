package render

import (
	"github.com/toolnexus/toolnexus/internal/golden"

	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render/rendertest"
)

const goldenRoot = "../testdata/golden"

// TestRendertest runs the shared case list on every renderer.
func TestRendertest(t *testing.T) {
	for _, p := range providers {
		t.Run(p.dir, func(t *testing.T) { rendertest.Run(t, p.render, p.extract) })
	}
}

// TestGolden compares each renderer's output for each case with
// testdata/golden/<provider>/<case>.json. The files hold the output
// indented for reading; the test checks both that indenting the output
// gives the file and that compacting the file gives the output, so the
// rendered bytes are pinned exactly.
func TestGolden(t *testing.T) {
	for _, p := range providers {
		for _, c := range rendertest.Cases() {
			t.Run(p.dir+"/"+c.Name, func(t *testing.T) {
				out, err := p.render([]toolnexus.Tool{c.Tool})
				if err != nil {
					t.Fatalf("render: %v", err)
				}
				var ind bytes.Buffer
				if err := json.Indent(&ind, out, "", "  "); err != nil {
					t.Fatalf("indent: %v (output %s)", err, out)
				}
				ind.WriteByte('\n')
				file := filepath.Join(goldenRoot, p.dir, c.Name+".json")
				want := golden.Check(t, file, ind.Bytes())
				var compact bytes.Buffer
				if err := json.Compact(&compact, want); err != nil {
					t.Fatalf("golden file is not JSON: %v", err)
				}
				if !bytes.Equal(compact.Bytes(), out) {
					t.Errorf("compacted %s differs from the rendered bytes:\n%s\n%s", file, compact.Bytes(), out)
				}
			})
		}
	}
}

// goldenFiles lists testdata/golden/<dir>/*.json and fails when there are
// none, so walking tests cannot pass vacuously.
func goldenFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(goldenRoot, dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < len(rendertest.Cases()) {
		t.Fatalf("%s: %d golden files, want at least %d", dir, len(files), len(rendertest.Cases()))
	}
	return files
}
