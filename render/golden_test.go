package render

import (
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
				require.NoError(t, err, "render")
				var ind bytes.Buffer
				require.NoError(t, json.Indent(&ind, out, "", "  "), "indent (output %s)", out)
				ind.WriteByte('\n')
				file := filepath.Join(goldenRoot, p.dir, c.Name+".json")
				want := golden.Check(t, file, ind.Bytes())
				var compact bytes.Buffer
				require.NoError(t, json.Compact(&compact, want), "golden file is not JSON")
				assert.Equal(t, string(compact.Bytes()), string(out), "compacted %s differs from the rendered bytes:\n%s\n%s", file, compact.Bytes(), out)
			})
		}
	}
}

// goldenFiles lists testdata/golden/<dir>/*.json and fails when there are
// none, so walking tests cannot pass vacuously.
func goldenFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(goldenRoot, dir, "*.json"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), len(rendertest.Cases()), "%s: %d golden files, want at least %d", dir, len(files), len(rendertest.Cases()))
	return files
}
