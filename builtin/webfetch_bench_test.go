package builtin

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// benchPage builds an HTML page of about size bytes: a head with a style
// and a script, then articles of headings, paragraphs with links and
// emphasis, lists and a table, the mix of a documentation page.
func benchPage(size int) string {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>Docs</title><style>body{margin:0}</style><script>var x = 1;</script></head><body>\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `<article><h2 id="s%d">Section %d</h2><p>Some <b>bold</b> and <i>italic</i> text with <a href="/page/%d">a link</a> and <code>code()</code>.</p>`, i, i, i)
		fmt.Fprintf(&b, `<ul><li>one %d</li><li>two <a href="#x">x</a></li></ul><table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>%d</td></tr></table></article>`+"\n", i, i)
	}
	b.WriteString("</body></html>")
	return b.String()
}

// BenchmarkConvertHTML reports the memory of converting one page: B/op,
// and B/op as a multiple of DefaultMaxFetchBytes (x-maxfetch).
func BenchmarkConvertHTML(b *testing.B) {
	for _, size := range []int{1 << 20, DefaultMaxFetchBytes} {
		for _, format := range []string{"markdown", "text"} {
			page := []byte(benchPage(size))
			b.Run(fmt.Sprintf("%s/%dKiB", format, size>>10), func(b *testing.B) {
				b.ReportAllocs()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				for b.Loop() {
					out, err := convertHTML(context.Background(), page, format, "https://example.com/")
					if err != nil || out == "" {
						b.Fatal(err)
					}
				}
				runtime.ReadMemStats(&after)
				perOp := float64(after.TotalAlloc-before.TotalAlloc) / float64(b.N)
				b.ReportMetric(perOp/DefaultMaxFetchBytes, "x-maxfetch")
			})
		}
	}
}
