package builtin_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/toolnexus/toolnexus/builtin"
)

const page = `<!doctype html><html><head><title>T</title><style>body{color:red}</style>
<script>var secret = "do not show";</script></head>
<body><h1>Hello</h1><p>Some <b>bold</b> text and a <a href="/next">link</a>.</p>
<ul><li>one</li><li>two</li></ul></body></html>`

func fetchServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	})
	mux.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"a": 1}`)
	})
	mux.HandleFunc("/latin1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
		w.Write([]byte("caf\xe9"))
	})
	mux.HandleFunc("/png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00"))
	})
	mux.HandleFunc("/sniff", func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil // no header: the body is sniffed
		w.Write([]byte("\x00\x01\x02binary"))
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "nothing here", http.StatusNotFound)
	})
	mux.HandleFunc("/teapot", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(599)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, strings.Repeat("a", 5000))
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(time.Minute): // far beyond the bound below
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	mux.HandleFunc("/to-json", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/json", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/to-file", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
	})
	mux.HandleFunc("/deep", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body>"+strings.Repeat("<div>", 600)+"<script>steal()</script>deep"+strings.Repeat("</div>", 600)+"</body></html>")
	})
	mux.HandleFunc("/png-as-html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	})
	mux.HandleFunc("/nul-as-html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("\x00\x01\x02\x03PNG"))
	})
	mux.HandleFunc("/utf16", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-16le")
		for _, c := range "héllo wörld" {
			w.Write([]byte{byte(c), byte(c >> 8)})
		}
	})
	mux.HandleFunc("/ua", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, r.Header.Get("User-Agent"))
	})
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func TestWebfetch(t *testing.T) {
	s := fetchServer(t)
	f := newFixture(t, builtin.Options{AllowPrivateNetwork: true})
	md := f.ok("webfetch", map[string]any{"url": s.URL + "/page"})
	wantEqual(t, "markdown", md, "# Hello\n\nSome **bold** text and a [link]("+s.URL+"/next).\n\n- one\n- two")
	txt := f.ok("webfetch", map[string]any{"url": s.URL + "/page", "format": "text"})
	wantEqual(t, "text", txt, "Hello\n\nSome bold text and a link.\n\none\n\ntwo")
	wantEqual(t, "html", f.ok("webfetch", map[string]any{"url": s.URL + "/page", "format": "html"}), page)
	wantEqual(t, "json", f.ok("webfetch", map[string]any{"url": s.URL + "/json", "format": "text"}), `{"a": 1}`)
	wantEqual(t, "charset", f.ok("webfetch", map[string]any{"url": s.URL + "/latin1"}), "café")
	wantEqual(t, "redirect", f.ok("webfetch", map[string]any{"url": s.URL + "/to-json"}), `{"a": 1}`)
	wantEqual(t, "user agent", f.ok("webfetch", map[string]any{"url": s.URL + "/ua"}), "toolnexus-webfetch/1")
	// UTF-16 is converted before the binary check (it is full of NULs).
	wantEqual(t, "utf-16le", f.ok("webfetch", map[string]any{"url": s.URL + "/utf16"}), "héllo wörld")
}

// The content label is not trusted, and a page the HTML parser refuses is
// an error, never the raw page (scripts included) in place of its text.
func TestWebfetchUntrustedContent(t *testing.T) {
	s := fetchServer(t)
	f := newFixture(t, builtin.Options{AllowPrivateNetwork: true})
	out := f.fail("webfetch", map[string]any{"url": s.URL + "/deep", "format": "text"})
	wantEqual(t, "deep", out, "could not extract the text of the page: html: open stack of elements exceeds 512 nodes; try format markdown or html")
	wantEqual(t, "png labelled html", f.fail("webfetch", map[string]any{"url": s.URL + "/png-as-html"}), "the response is binary content (text/html, 16 bytes), not shown")
	wantEqual(t, "nul labelled html", f.fail("webfetch", map[string]any{"url": s.URL + "/nul-as-html", "format": "html"}), "the response is binary content (text/html, 7 bytes), not shown")
}

func TestWebfetchErrors(t *testing.T) {
	s := fetchServer(t)
	f := newFixture(t, builtin.Options{AllowPrivateNetwork: true, MaxFetchBytes: 1000})
	wantEqual(t, "404", f.fail("webfetch", map[string]any{"url": s.URL + "/missing"}), "HTTP 404 Not Found")
	wantEqual(t, "599", f.fail("webfetch", map[string]any{"url": s.URL + "/teapot"}), "HTTP 599")
	wantEqual(t, "png", f.fail("webfetch", map[string]any{"url": s.URL + "/png"}), "the response is binary content (image/png, 10 bytes), not shown")
	wantEqual(t, "sniffed", f.fail("webfetch", map[string]any{"url": s.URL + "/sniff"}), "the response is binary content (application/octet-stream, 9 bytes), not shown")
	wantEqual(t, "big", f.ok("webfetch", map[string]any{"url": s.URL + "/big"}), strings.Repeat("a", 1000)+"\n\n[response cut at 1000 bytes]")
	wantContains(t, f.fail("webfetch", map[string]any{"url": s.URL + "/loop"}), "stopped after 5 redirects")
	wantContains(t, f.fail("webfetch", map[string]any{"url": s.URL + "/to-file"}), "redirect to a file URL refused: only http and https are allowed")
	wantEqual(t, "scheme", f.fail("webfetch", map[string]any{"url": "file:///etc/passwd"}), `url "file:///etc/passwd": only http:// and https:// URLs can be fetched`)
	wantEqual(t, "no host", f.fail("webfetch", map[string]any{"url": "http://"}), `url "http://" has no host`)
	wantEqual(t, "bad url", f.fail("webfetch", map[string]any{"url": "http://a b/%zz"}), `url "http://a b/%zz" is not a valid URL`)
	wantContains(t, f.fail("webfetch", map[string]any{"url": s.URL, "format": "pdf"}), `"format" must be one of [text markdown html]`)
	wantContains(t, f.fail("webfetch", map[string]any{"url": s.URL, "timeout": 121}), `"timeout" must be at most 120`)
	start := time.Now()
	wantEqual(t, "timeout", f.fail("webfetch", map[string]any{"url": s.URL + "/slow", "timeout": 1}), fmt.Sprintf("fetching %q timed out after 1s", s.URL+"/slow"))
	if d := time.Since(start); d > 30*time.Second { // 1 s, generous for a loaded machine
		t.Errorf("timeout took %v", d)
	}
}

// Without AllowPrivateNetwork, loopback is refused at dial time, whether
// named by IP or by a host name that resolves to it.
func TestWebfetchPrivateNetworkRefused(t *testing.T) {
	s := fetchServer(t)
	f := newFixture(t, builtin.Options{})
	_, port, _ := strings.Cut(strings.TrimPrefix(s.URL, "http://"), ":")
	for _, u := range []string{s.URL + "/page", "http://localhost:" + port + "/page", "http://[::1]:" + port + "/"} {
		out := f.fail("webfetch", map[string]any{"url": u})
		wantContains(t, out, "refused to fetch", "is a loopback address", "requests to the local or private network are not allowed")
		if strings.Contains(out, "Hello") {
			t.Errorf("%s: page content leaked: %q", u, out)
		}
	}
	for _, u := range []string{"http://10.0.0.1:9/", "http://169.254.169.254/latest/meta-data/", "http://192.168.1.1:9/", "http://100.64.0.1:9/", "http://0.0.0.0:9/"} {
		wantContains(t, f.fail("webfetch", map[string]any{"url": u, "timeout": 2}), "refused to fetch")
	}
}

// A 5 MiB page (the default MaxFetchBytes) converts to Markdown within a
// small multiple of its size, the whole call included: the converter
// builds a tree of at most 256 KiB of slimmed HTML (the call allocated
// about 70 times the page, 350 MB, before).
func TestWebfetchConversionMemory(t *testing.T) {
	var pg strings.Builder
	pg.WriteString("<html><head><script>var x;</script></head><body>")
	for i := 0; pg.Len() < builtin.DefaultMaxFetchBytes-200; i++ {
		fmt.Fprintf(&pg, `<p class="c" data-x="%d">Paragraph %d with <a href="/p/%d">a link</a>.</p>`+"\n", i, i, i)
	}
	pg.WriteString("</body></html>")
	body := pg.String()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/length" {
			w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		}
		fmt.Fprint(w, body)
	}))
	defer s.Close()
	f := newFixture(t, builtin.Options{AllowPrivateNetwork: true, MaxOutputBytes: 1 << 20})
	for _, c := range []struct{ path, format string }{{"/", "markdown"}, {"/length", "markdown"}, {"/", "text"}} {
		var out string
		alloc := allocated(func() { out = f.ok("webfetch", map[string]any{"url": s.URL + c.path, "format": c.format}) })
		t.Logf("%s %s: %d bytes allocated, %.1f x MaxFetchBytes", c.path, c.format, alloc, float64(alloc)/builtin.DefaultMaxFetchBytes)
		if limit := uint64(10 * builtin.DefaultMaxFetchBytes); alloc > limit {
			t.Errorf("%s %s: the call allocated %d bytes, want at most %d (10 x MaxFetchBytes)", c.path, c.format, alloc, limit)
		}
		wantContains(t, out, "Paragraph 0 with ", "Paragraph 1000 with ",
			"[page cut: only its first 256 KiB of HTML (without scripts, styles, SVG and comments) were converted; use format html for the raw page]")
		if strings.Contains(out, "var x") {
			t.Errorf("%s %s: the script is in the output", c.path, c.format)
		}
	}
}
