package doccheck

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	linkRE    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	headingRE = regexp.MustCompile("^#{1,6} +(.*)$")
	// codeSpanRE matches inline code, whose brackets are not links.
	codeSpanRE = regexp.MustCompile("`[^`]*`")
)

// slug is GitHub's anchor for a heading: lower case, punctuation other than
// '-' and '_' dropped, spaces as '-'.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the heading anchors of a Markdown file.
func anchors(data string) map[string]bool {
	out := map[string]bool{}
	inFence := false
	for _, l := range strings.Split(data, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inFence = !inFence
			continue
		}
		if m := headingRE.FindStringSubmatch(l); m != nil && !inFence {
			out[slug(m[1])] = true
		}
	}
	return out
}

// TestDocLinks wants every relative link in README.md and docs/*.md to name
// a file of the repository, and every #anchor a heading of its page
// (links inside code are not links).
func TestDocLinks(t *testing.T) {
	root := repoRoot(t)
	mds, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	mds = append(mds, filepath.Join(root, "README.md"))
	links := 0
	for _, p := range mds {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		inFence := false
		for i, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				inFence = !inFence
				continue
			}
			if inFence {
				continue
			}
			for _, m := range linkRE.FindAllStringSubmatch(codeSpanRE.ReplaceAllString(line, "``"), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				links++
				file, frag, _ := strings.Cut(target, "#")
				dest := rel
				if file != "" {
					dest = path.Clean(path.Join(path.Dir(rel), file))
				}
				where := rel + ":" + strconv.Itoa(i+1)
				destData, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(dest)))
				if !assert.NoError(t, err, "%s: link %q: %s does not exist", where, target, dest) {
					continue
				}
				assert.False(t, frag != "" && strings.HasSuffix(dest, ".md") && !anchors(string(destData))[frag], "%s: link %q: %s has no heading with anchor #%s", where, target, dest, frag)
			}
		}
	}
	assert.GreaterOrEqual(t, links, 30, "found %d relative links; the scan is broken", links)
}
