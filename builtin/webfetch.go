package builtin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/netguard"
)

const (
	defaultFetchTimeout = 30  // seconds
	maxFetchTimeout     = 120 // seconds
)

type webfetchArgs struct {
	URL     string `json:"url" jsonschema_description:"The http:// or https:// URL to fetch."`
	Format  string `json:"format,omitempty" jsonschema_description:"How to return an HTML page: markdown (default), text, or the raw html. Other content is returned as it is." validate:"omitempty,oneof=text markdown html"`
	Timeout int    `json:"timeout,omitempty" jsonschema_description:"Timeout in seconds (default 30, at most 120)." validate:"omitempty,min=1,max=120"`
}

const webfetchDesc = `Fetch a URL with HTTP GET and return its content. HTML pages are converted to Markdown ` +
	`(default) or plain text, or returned as raw html; other text content (JSON, XML, plain text) is returned ` +
	`as it is, binary content is reported, not shown. Only http and https URLs; addresses on the local or ` +
	`private network are refused. A status other than 2xx is an error. Large responses are cut.`

// webfetchTool makes one HTTP client per Tools call: no proxy (a proxy
// would hide the address being reached), the address check on every dial,
// at most MaxFetchRedirects redirects, http and https only.
func webfetchTool(e *env) (toolnexus.Tool, error) {
	client := e.fetchClient()
	return newTool(e, "webfetch", "Fetch web page", webfetchDesc,
		toolnexus.Annotations{ReadOnlyHint: true, DestructiveHint: new(false), OpenWorldHint: new(true)}, -1,
		func(ctx context.Context, a webfetchArgs) toolnexus.Result { return textResult(e.fetch(ctx, client, a)) })
}

// fetchClient makes webfetch's HTTP client (see webfetchTool).
func (e *env) fetchClient() *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if !e.opts.AllowPrivateNetwork {
		dialer.Control = checkDialAddr
	}
	return &http.Client{
		Transport: &http.Transport{
			Proxy:                  nil,
			DialContext:            dialer.DialContext,
			ForceAttemptHTTP2:      true,
			TLSHandshakeTimeout:    10 * time.Second,
			MaxResponseHeaderBytes: 1 << 20,
			MaxIdleConns:           10,
			IdleConnTimeout:        30 * time.Second,
		},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= MaxFetchRedirects {
				return fmt.Errorf("stopped after %d redirects", MaxFetchRedirects)
			}
			if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
				return fmt.Errorf("redirect to a %s URL refused: only http and https are allowed", req.URL.Scheme)
			}
			return nil
		},
	}
}

// The private-network guard lives in internal/netguard, shared with
// package httptool; these names keep webfetch's code and tests as they were.
type blockedAddrError = netguard.BlockedError

// addrKind names the class of a refused address, or "" for a public one.
func addrKind(ip netip.Addr) string { return netguard.Kind(ip) }

// interfaceAddrs lists this host's interface addresses (a variable so
// tests can add one).
var interfaceAddrs = net.InterfaceAddrs

// checkDialAddr is the net.Dialer Control hook: it runs after DNS
// resolution for every connection, including those of redirects.
func checkDialAddr(network, address string, c syscall.RawConn) error {
	g := netguard.Guard{InterfaceAddrs: interfaceAddrs}
	return g.Control(network, address, c)
}

func (e *env) fetch(ctx context.Context, client *http.Client, a webfetchArgs) (string, error) {
	u, err := url.Parse(a.URL)
	if err != nil {
		return "", fmt.Errorf("url %q is not a valid URL", a.URL)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("url %q: only http:// and https:// URLs can be fetched", a.URL)
	}
	if u.Host == "" {
		return "", fmt.Errorf("url %q has no host", a.URL)
	}
	format := a.Format
	if format == "" {
		format = "markdown"
	}
	timeout := time.Duration(defaultFetchTimeout) * time.Second
	if a.Timeout > 0 {
		timeout = time.Duration(min(a.Timeout, maxFetchTimeout)) * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", fmt.Errorf("url %q: %v", a.URL, err)
	}
	req.Header.Set("User-Agent", e.opts.UserAgent)
	switch format {
	case "markdown":
		req.Header.Set("Accept", "text/markdown;q=1.0, text/html;q=0.9, text/plain;q=0.8, */*;q=0.1")
	case "text":
		req.Header.Set("Accept", "text/plain;q=1.0, text/html;q=0.9, */*;q=0.1")
	default:
		req.Header.Set("Accept", "text/html;q=1.0, */*;q=0.1")
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fetchErr(ctx, a.URL, timeout, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return "", fmt.Errorf("HTTP %s", strings.TrimSpace(fmt.Sprintf("%d %s", resp.StatusCode, http.StatusText(resp.StatusCode))))
	}
	body, err := readBody(resp.Body, resp.ContentLength, e.opts.MaxFetchBytes+1)
	if err != nil {
		return "", fetchErr(ctx, a.URL, timeout, err)
	}
	cut := int64(len(body)) > e.opts.MaxFetchBytes
	if cut {
		body = body[:e.opts.MaxFetchBytes]
	}
	ctype := resp.Header.Get("Content-Type")
	if ctype == "" {
		ctype = http.DetectContentType(body)
	}
	mt, _, err := mime.ParseMediaType(ctype)
	if err != nil {
		mt = "application/octet-stream"
	}
	binary := func() error {
		return fmt.Errorf("the response is binary content (%s, %d bytes), not shown", mt, len(body))
	}
	// The label is not trusted: a body that starts like an image, archive,
	// PDF... is binary whatever its Content-Type says.
	if !isTextual(mt) || hasBinarySignature(body) {
		return "", binary()
	}
	// Convert to UTF-8 first (UTF-16 text is full of NUL bytes), then
	// refuse what still is not text.
	text := toUTF8(body, ctype)
	if isBinary(text[:min(len(text), sniffBytes)]) {
		return "", binary()
	}
	var out string
	if (mt == "text/html" || mt == "application/xhtml+xml") && format != "html" {
		if out, err = convertHTML(ctx, text, format, resp.Request.URL.String()); err != nil {
			return "", err
		}
	} else {
		out = string(text)
	}
	if out == "" {
		out = "(empty response)"
	}
	if cut {
		out += fmt.Sprintf("\n\n[response cut at %d bytes]", e.opts.MaxFetchBytes)
	}
	return out, nil
}

// readBody reads at most limit bytes of a response body. With a known
// length (cl >= 0, which net/http enforces) it reads into one buffer of
// that size instead of growing one; a body cut short is an error either
// way.
func readBody(r io.Reader, cl, limit int64) ([]byte, error) {
	r = io.LimitReader(r, limit)
	if cl < 0 {
		return io.ReadAll(r)
	}
	buf := make([]byte, min(cl, limit))
	n, err := io.ReadFull(r, buf)
	return buf[:n], err
}

// toUTF8 decodes a body to UTF-8 by its charset (the Content-Type's, a BOM,
// a <meta> in the first 1024 bytes, or a guess), as charset.NewReader
// does, without copying a body that is valid UTF-8 and labelled or
// detected as such. A body that cannot be decoded is returned as it is.
func toUTF8(body []byte, ctype string) []byte {
	enc, name, _ := charset.DetermineEncoding(body, ctype)
	if name == "utf-8" && utf8.Valid(body) {
		return body
	}
	if text, err := enc.NewDecoder().Bytes(body); err == nil {
		return text
	}
	return body
}

// fetchErr turns a client error into a model-facing message.
func fetchErr(ctx context.Context, rawURL string, timeout time.Duration, err error) error {
	var blocked *blockedAddrError
	switch {
	case errors.As(err, &blocked):
		return fmt.Errorf("refused to fetch %q: %v; requests to the local or private network are not allowed", rawURL, blocked)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("fetching %q timed out after %s", rawURL, timeout)
	case ctx.Err() != nil:
		return fmt.Errorf("fetching %q was cancelled", rawURL)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return fmt.Errorf("fetching %q failed: host %q not found", rawURL, dnsErr.Name)
	}
	return fmt.Errorf("fetching %q failed: %v", rawURL, err)
}

// isTextual reports whether a media type is text worth showing.
func isTextual(mt string) bool {
	switch {
	case strings.HasPrefix(mt, "text/"):
		return true
	case strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"):
		return true
	}
	switch mt {
	case "application/json", "application/xml", "application/javascript", "application/ecmascript",
		"application/x-javascript", "application/xhtml+xml", "application/x-yaml", "application/yaml",
		"application/toml", "application/x-sh", "application/sql", "application/graphql", "application/ld+json":
		return true
	}
	return false
}

// skipText are elements whose content is not page text.
var skipText = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true, atom.Head: true,
	atom.Svg: true, atom.Iframe: true, atom.Object: true, atom.Canvas: true, atom.Math: true,
}

// blockText are elements that start and end a line.
var blockText = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Section: true, atom.Article: true, atom.Header: true, atom.Footer: true,
	atom.Nav: true, atom.Aside: true, atom.Main: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true,
	atom.H5: true, atom.H6: true, atom.Ul: true, atom.Ol: true, atom.Li: true, atom.Dl: true, atom.Dt: true,
	atom.Dd: true, atom.Table: true, atom.Tr: true, atom.Pre: true, atom.Blockquote: true, atom.Hr: true,
	atom.Form: true, atom.Figure: true, atom.Figcaption: true, atom.Title: true, atom.Body: true,
}

// htmlText extracts the readable text of an HTML page: no scripts, styles
// or markup, one line per block element, whitespace collapsed, at most one
// blank line in a row. The error is the parser's (golang.org/x/net/html
// refuses, for one, more than 512 nested elements); the raw page is never
// returned in its place.
func htmlText(src string) (string, error) {
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		block := false
		switch n.Type {
		case html.ElementNode:
			if skipText[n.DataAtom] {
				return
			}
			if n.DataAtom == atom.Br {
				b.WriteByte('\n')
				return
			}
			block = blockText[n.DataAtom]
		case html.TextNode:
			f := strings.Fields(n.Data)
			if len(f) == 0 {
				if n.Data != "" {
					b.WriteByte(' ')
				}
				return
			}
			if first := n.Data[0]; first == ' ' || first == '\n' || first == '\t' || first == '\r' {
				b.WriteByte(' ')
			}
			b.WriteString(strings.Join(f, " "))
			if last := n.Data[len(n.Data)-1]; last == ' ' || last == '\n' || last == '\t' || last == '\r' {
				b.WriteByte(' ')
			}
			return
		}
		if block {
			b.WriteByte('\n')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if block {
			b.WriteByte('\n')
		}
	}
	walk(doc)
	var out []string
	blank := true
	for line := range strings.SplitSeq(b.String(), "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			if !blank {
				out = append(out, "")
			}
			blank = true
			continue
		}
		out = append(out, line)
		blank = false
	}
	return strings.TrimSpace(strings.Join(out, "\n")), nil
}

// hasBinarySignature reports whether body starts like a known binary
// format (an image, audio, video, font, archive, PDF, wasm...) by
// http.DetectContentType's signatures. Its "application/octet-stream"
// (no signature, but some binary bytes) does not count: UTF-16 text looks
// like that before conversion.
func hasBinarySignature(body []byte) bool {
	mt, _, err := mime.ParseMediaType(http.DetectContentType(body))
	if err != nil {
		return false
	}
	return !isTextual(mt) && mt != "application/octet-stream"
}
