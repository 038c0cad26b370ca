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

func TestSlimHTML(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`<!doctype html><html><head><title>T &amp; U</title><style>p{}</style></head>` +
			`<body><!-- note --><p class="x" style="color:red" onclick="f()">a &lt;b&gt; <a href="/x?a=1&amp;b=2" data-y="z">l</a></p>` +
			`<script>alert("<p>no</p>")</script><svg><svg><text>in</text></svg><text>in</text></svg><img src="i.png" alt="A"/>` +
			`<script/>leak()</script><p>end</p></body></html>`,
			`<html><head><title>T &amp; U</title></head><body><p class="x">a &lt;b&gt; <a href="/x?a=1&amp;b=2">l</a></p>` +
				`<img src="i.png" alt="A"/><p>end</p></body></html>`},
		{`<svg/><p>after</p>`, `<p>after</p>`},
		{`<li><input type="checkbox" checked id="c">done</li><pre><code class="language-go">x := 1</code></pre>`,
			`<li><input type="checkbox" checked="">done</li><pre><code class="language-go">x := 1</code></pre>`},
		{`<<!>A<noscript><p>n</p></noscript><iframe src="x">i</iframe>`, `&lt;A`},
		{`<ol start="3"><li>x</li></ol><table><tr><td colspan="2">c</td></tr></table>`, `<ol start="3"><li>x</li></ol><table><tr><td colspan="2">c</td></tr></table>`},
	} {
		got, cut, err := slimHTML(context.Background(), []byte(c.in), maxConvertBytes)
		if err != nil || cut || got != c.want {
			t.Errorf("slimHTML(%q)\n = %q, %v, %v\nwant %q", c.in, got, cut, err, c.want)
		}
	}
	// The cut falls within limit, at a rune boundary inside a long text.
	got, cut, err := slimHTML(context.Background(), []byte("<p>"+strings.Repeat("é", 100)+"</p>"), 10)
	if err != nil || !cut || got != "<p>ééé" {
		t.Errorf("cut: %q, %v, %v", got, cut, err)
	}
}

// FuzzSlimHTML: slimHTML never panics, never writes more than its limit,
// and its output is already slim (a second pass changes nothing).
func FuzzSlimHTML(f *testing.F) {
	for _, s := range []string{`<p a="1" href="x">t</p>`, `<script/>x</script>y`, `<svg><svg/></svg>z`, `<!--c-->&amp;<b>`, `<style>p{}</style><textarea><b></textarea>`} {
		f.Add([]byte(s), uint16(64))
	}
	f.Fuzz(func(t *testing.T, page []byte, limit uint16) {
		slim, cut, err := slimHTML(context.Background(), page, int(limit))
		if err != nil {
			return
		}
		if len(slim) > int(limit) {
			t.Fatalf("%d bytes, limit %d", len(slim), limit)
		}
		if cut {
			return
		}
		again, _, err := slimHTML(context.Background(), []byte(slim), int(limit))
		if err != nil || again != slim {
			t.Fatalf("second pass of %q: %q, %v", slim, again, err)
		}
	})
}
