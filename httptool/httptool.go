// Package httptool declares tools that call an HTTP API: one tool from a
// method, a URL template and an input schema, run with net/http. Package
// openapi builds such tools from an OpenAPI document.
//
// # Arguments to request
//
// The arguments are checked against the input schema by the same engine as
// typed tools (toolnexus.CheckArguments) before any request is sent. Then,
// when [Spec].Params is nil: every {name} placeholder of the URL template is
// replaced by the argument name, URL-escaped as one path segment ("." and
// ".." too, so a value cannot climb to another path); the other
// arguments become query parameters for GET, HEAD and DELETE, and the body
// otherwise. When Params is set, each argument goes where its Param says
// (path, query or header) and the argument named [Spec].BodyArg is the body;
// arguments named nowhere are ignored (the schema refuses unknown ones).
// Arrays and objects are serialized by each Param's OpenAPI style and
// explode (by default query arrays repeat the key, form style exploded;
// path and header values are comma-separated, simple style); other
// non-string values are sent as their JSON text.
//
// # Response
//
// The body is read up to Options.MaxResponseBytes (then cut, with a note),
// decoded to UTF-8 from its declared charset, and returned as the Output.
// Result.Metadata holds "status" (int) and "content_type". A status other
// than 2xx is an error result "HTTP <status>: <body>", the body cut at
// 2,048 bytes.
//
// # Security
//
// Connections to loopback, private, link-local and this host's addresses
// are refused after DNS resolution (the same guard as the webfetch
// built-in), except for hosts in Options.AllowHosts. Redirects are followed
// at most Options.MaxRedirects times and only to the same scheme and host,
// so headers carrying secrets never leave the API's origin. Header and
// query values "${NAME}" are read from the environment at call time; they
// are never part of an Output, an error or the Metadata.
package httptool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/net/html/charset"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/netguard"
)

// Defaults for zero Spec and Options fields.
const (
	DefaultTimeout          = 30 * time.Second
	DefaultMaxResponseBytes = 1 << 20 // 1 MiB
	DefaultMaxRedirects     = 5
	maxErrorBody            = 2048 // bytes of a non-2xx body shown
)

// Body modes of [Spec].Body.
const (
	BodyJSON = "json" // the body argument as JSON, Content-Type application/json
	BodyForm = "form" // an object's members as application/x-www-form-urlencoded
	BodyRaw  = "raw"  // a string argument sent as it is, Content-Type text/plain unless ContentType says otherwise
)

// Result modes of [Spec].Result.
const (
	ResultText       = "text"        // the body text
	ResultJSON       = "json"        // the body, which must be JSON, compacted
	ResultStatusText = "status+text" // "HTTP <status>\n\n" then the body text
)

// Param places one argument in the request.
type Param struct {
	// Arg is the argument's property name in the input schema.
	Arg string
	// In is "path", "query" or "header".
	In string
	// Name is the name on the wire: the {placeholder}, query key or header
	// name. "" means Arg.
	Name string
	// Style and Explode serialize arrays and objects as OpenAPI's
	// parameter styles do (https://spec.openapis.org/oas/v3.1.0#style-values):
	// Style is one of the Style constants the location takes (path:
	// simple, label, matrix; query: form, spaceDelimited, pipeDelimited,
	// deepObject; header: simple), "" meaning the default (simple, or form
	// for query); Explode nil means true for form and false otherwise.
	// Another style is refused by [New].
	Style string
	// Explode is OpenAPI's explode: whether each item of an array, or
	// each property of an object, is its own key=value (see Style).
	Explode *bool
}

// Spec declares one HTTP tool.
type Spec struct {
	// Name and Description are the tool's (see toolnexus.Tool).
	Name, Description string
	// Method is the HTTP method; "" means GET.
	Method string
	// URL is an absolute http or https URL template with {name}
	// placeholders.
	URL string
	// InputSchema is the JSON Schema of the arguments (root type object);
	// nil means {"type":"object"}.
	InputSchema json.RawMessage
	// Params places arguments explicitly; nil means placeholders from the
	// URL and the remaining arguments as query (GET, HEAD, DELETE) or body.
	Params []Param
	// BodyArg names the argument sent as the body when Params is set; ""
	// means no body.
	BodyArg string
	// Body is the body mode: BodyJSON (""), BodyForm or BodyRaw.
	Body string
	// ContentType overrides the Content-Type of the body.
	ContentType string
	// Headers are sent with every request; "${NAME}" in a value is replaced
	// by the environment variable NAME at call time.
	Headers map[string]string
	// Query holds fixed query values, expanded like Headers.
	Query map[string]string
	// BasicAuth, when not "", is "user:password" (expanded like Headers)
	// sent as HTTP basic authentication.
	BasicAuth string
	// Timeout limits one call; zero means DefaultTimeout.
	Timeout time.Duration
	// Result is the result mode: ResultText (""), ResultJSON or
	// ResultStatusText.
	Result string
	// Annotations are the tool's hints; nil means none.
	Annotations *toolnexus.Annotations
}

// Options are shared by the tools of one host; the zero value is secure.
type Options struct {
	// AllowHosts lists host names or IP literals (as in the URL, without
	// port) that may be on the local or private network, e.g. the host's
	// own API. nil allows none.
	AllowHosts []string
	// AllowPrivateNetwork turns the private-network guard off entirely.
	AllowPrivateNetwork bool
	// MaxResponseBytes caps the body read; zero means
	// DefaultMaxResponseBytes.
	MaxResponseBytes int64
	// MaxRedirects caps redirects per call; zero means
	// DefaultMaxRedirects, negative means none are followed.
	MaxRedirects int
	// Getenv reads "${NAME}" values; nil means os.Getenv.
	Getenv func(string) string
}

// Client returns the HTTP client tools made with opts use: no proxy, the
// private-network guard on every dial (but for AllowHosts), bounded
// same-origin redirects.
func (o *Options) Client() *http.Client {
	guarded := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if !o.AllowPrivateNetwork {
		guarded.Control = (&netguard.Guard{}).Control
	}
	plain := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	allow := slices.Clone(o.AllowHosts)
	maxRedirects := o.MaxRedirects
	if maxRedirects == 0 {
		maxRedirects = DefaultMaxRedirects
	}
	return &http.Client{
		Transport: &http.Transport{
			Proxy: nil,
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				host, _, _ := net.SplitHostPort(addr)
				if slices.Contains(allow, host) {
					return plain.DialContext(ctx, network, addr)
				}
				return guarded.DialContext(ctx, network, addr)
			},
			ForceAttemptHTTP2:      true,
			TLSHandshakeTimeout:    10 * time.Second,
			MaxResponseHeaderBytes: 1 << 20,
			MaxIdleConns:           10,
			IdleConnTimeout:        30 * time.Second,
		},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxRedirects || maxRedirects < 0 {
				return fmt.Errorf("stopped after %d redirects", max(maxRedirects, 0))
			}
			if req.URL.Scheme != via[0].URL.Scheme || req.URL.Host != via[0].URL.Host {
				return fmt.Errorf("redirect to another origin (%s://%s) refused", req.URL.Scheme, req.URL.Host)
			}
			return nil
		},
	}
}

// New returns the tool spec declares, its handler wrapped by
// toolnexus.CheckArguments; unchecked is that function's note on schema
// keywords the engine leaves to the API ("" when it enforces all). The
// client is opts.Client(); opts nil means zero Options. Errors name the
// Spec field: a bad method, URL, body or result mode, a placeholder no
// argument fills.
func New(spec Spec, opts *Options) (tool toolnexus.Tool, unchecked string, err error) {
	if opts == nil {
		opts = &Options{}
	}
	return NewWithClient(spec, opts, opts.Client())
}

// NewWithClient is New with a client shared by several tools (see
// [Options.Client]).
func NewWithClient(spec Spec, opts *Options, client *http.Client) (tool toolnexus.Tool, unchecked string, err error) {
	h, err := newHandler(spec, opts, client)
	if err != nil {
		return toolnexus.Tool{}, "", fmt.Errorf("httptool %q: %w", spec.Name, err)
	}
	checked, unchecked := toolnexus.CheckArguments(spec.Name, spec.InputSchema, h)
	return toolnexus.Tool{
		Name: spec.Name, Description: spec.Description, InputSchema: spec.InputSchema,
		Annotations: spec.Annotations, Source: "http", Timeout: h.timeout, Handler: checked,
	}, unchecked, nil
}

type handler struct {
	spec     Spec
	method   string
	client   *http.Client
	timeout  time.Duration
	maxBody  int64
	getenv   func(string) string
	pathArgs map[string]Param // placeholder -> its parameter
}

func newHandler(spec Spec, opts *Options, client *http.Client) (*handler, error) {
	h := &handler{spec: spec, client: client, timeout: spec.Timeout, maxBody: opts.MaxResponseBytes, getenv: opts.Getenv}
	h.method = strings.ToUpper(spec.Method)
	if h.method == "" {
		h.method = http.MethodGet
	}
	if !validToken(h.method) {
		return nil, fmt.Errorf("Method %q is not an HTTP method", spec.Method)
	}
	if h.timeout <= 0 {
		h.timeout = DefaultTimeout
	}
	if h.maxBody <= 0 {
		h.maxBody = DefaultMaxResponseBytes
	}
	if h.getenv == nil {
		h.getenv = os.Getenv
	}
	switch spec.Body {
	case "", BodyJSON, BodyForm, BodyRaw:
	default:
		return nil, fmt.Errorf("Body %q: want json, form or raw", spec.Body)
	}
	switch spec.Result {
	case "", ResultText, ResultJSON, ResultStatusText:
	default:
		return nil, fmt.Errorf("Result %q: want text, json or status+text", spec.Result)
	}
	names, err := placeholders(spec.URL)
	if err != nil {
		return nil, err
	}
	probe := spec.URL
	for _, n := range names {
		probe = strings.ReplaceAll(probe, "{"+n+"}", "x")
	}
	u, err := url.Parse(probe)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("URL %q: want an absolute http or https URL", spec.URL)
	}
	h.pathArgs = make(map[string]Param, len(names))
	for _, n := range names {
		h.pathArgs[n] = Param{Arg: n, In: "path", Name: n}
	}
	if spec.Params != nil {
		placed := map[string]bool{}
		for _, p := range spec.Params {
			wire := orName(p.Name, p.Arg)
			switch p.In {
			case "path":
				if _, ok := h.pathArgs[wire]; !ok {
					return nil, fmt.Errorf("Params: path parameter %q has no {%s} in URL", p.Arg, wire)
				}
				h.pathArgs[wire] = p
				placed[wire] = true
			case "query", "header":
			default:
				return nil, fmt.Errorf("Params: %q: In %q, want path, query or header", p.Arg, p.In)
			}
			if err := p.checkStyle(); err != nil {
				return nil, err
			}
		}
		for _, n := range names {
			if !placed[n] {
				return nil, fmt.Errorf("URL placeholder {%s} has no path Param", n)
			}
		}
	}
	return h, nil
}

func orName(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// validToken reports whether s is an RFC 9110 token (a method name).
func validToken(s string) bool {
	for _, c := range []byte(s) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return s != ""
}

// placeholderEscaper percent-encodes what url.PathEscape leaves as is but
// a URL gives a meaning to outside a path segment: in a query a value with
// "&" or "=" would add or override parameters (role=admin), and ":" or "@"
// in an authority would change it.
var placeholderEscaper = strings.NewReplacer("$", "%24", "&", "%26", "+", "%2B", "=", "%3D", ":", "%3A", "@", "%40")

// escapePlaceholder escapes one argument for a {placeholder}: the value
// stays one path segment, one query value or one host label, wherever the
// template puts it.
func escapePlaceholder(s string) string {
	return placeholderEscaper.Replace(url.PathEscape(s))
}

// placeholders lists the {name} placeholders of a URL template.
func placeholders(tmpl string) ([]string, error) {
	var names []string
	for rest := tmpl; ; {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			if strings.IndexByte(rest, '}') >= 0 {
				return nil, fmt.Errorf("URL %q: unmatched }", tmpl)
			}
			return names, nil
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return nil, fmt.Errorf("URL %q: unclosed {", tmpl)
		}
		n := rest[i+1 : i+j]
		if n == "" || strings.ContainsAny(n, "{/") {
			return nil, fmt.Errorf("URL %q: bad placeholder {%s}", tmpl, n)
		}
		names = append(names, n)
		rest = rest[i+j+1:]
	}
}

// expand replaces ${NAME} by the environment variable NAME.
func (h *handler) expand(s string) string {
	if !strings.Contains(s, "${") {
		return s
	}
	return os.Expand(s, func(k string) string {
		if k == "$" {
			return "$"
		}
		return h.getenv(k)
	})
}

// Call implements toolnexus.Handler.
func (h *handler) Call(ctx context.Context, raw json.RawMessage) toolnexus.Result {
	var args map[string]json.RawMessage
	if err := json.Unmarshal(raw, &args); err != nil {
		return toolnexus.ErrorResult(fmt.Errorf("arguments: %v", err))
	}
	req, err := h.request(ctx, args)
	if err != nil {
		return toolnexus.ErrorResult(err)
	}
	ctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	resp, err := h.client.Do(req.WithContext(ctx))
	if err != nil {
		return toolnexus.ErrorResult(h.callErr(ctx, err))
	}
	defer resp.Body.Close()
	body, cut, err := readCapped(resp.Body, h.maxBody)
	if err != nil {
		return toolnexus.ErrorResult(h.callErr(ctx, err))
	}
	ctype := resp.Header.Get("Content-Type")
	text := toUTF8(body, ctype)
	meta := map[string]any{"status": resp.StatusCode, "content_type": ctype}
	status := strings.TrimSpace(fmt.Sprintf("%d %s", resp.StatusCode, http.StatusText(resp.StatusCode)))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		shown := text
		if len(shown) > maxErrorBody {
			shown = strings.ToValidUTF8(shown[:maxErrorBody], "") + " [cut]"
		}
		err := &StatusError{Status: resp.StatusCode, Body: shown}
		return toolnexus.Result{Output: err.Error(), IsError: true, Err: err, Metadata: meta}
	}
	out := text
	switch h.spec.Result {
	case ResultJSON:
		var b bytes.Buffer
		if cut || json.Compact(&b, []byte(text)) != nil {
			err := fmt.Errorf("HTTP %s: the response is not JSON (Content-Type %q)", status, ctype)
			return toolnexus.Result{Output: err.Error(), IsError: true, Err: err, Metadata: meta}
		}
		out = b.String()
	case ResultStatusText:
		out = "HTTP " + status + "\n\n" + text
	}
	if cut {
		out += fmt.Sprintf("\n\n[response cut at %d bytes]", h.maxBody)
	}
	return toolnexus.Result{Output: out, Metadata: meta}
}

// StatusError is the Err of a non-2xx answer.
type StatusError struct {
	Status int    // HTTP status code
	Body   string // the body text, cut at 2,048 bytes
}

// Error is "HTTP <code> <text>: <body>".
func (e *StatusError) Error() string {
	return strings.TrimSpace(fmt.Sprintf("HTTP %d %s", e.Status, http.StatusText(e.Status))) + ": " + e.Body
}

// callErr describes a failed request without the URL (its query may hold
// a secret).
func (h *handler) callErr(ctx context.Context, err error) error {
	what := h.method + " " + h.spec.URL
	var blocked *netguard.BlockedError
	switch {
	case errors.As(err, &blocked):
		return fmt.Errorf("%s refused: %v; requests to the local or private network are not allowed", what, blocked)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%s timed out after %s", what, h.timeout)
	case ctx.Err() != nil:
		return fmt.Errorf("%s was cancelled", what)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return fmt.Errorf("%s failed: host %q not found", what, dnsErr.Name)
	}
	return fmt.Errorf("%s failed: %v", what, err)
}

// request builds the request from checked arguments.
func (h *handler) request(ctx context.Context, args map[string]json.RawMessage) (*http.Request, error) {
	used := map[string]bool{}
	u := h.spec.URL
	for name, p := range h.pathArgs {
		v, ok := args[p.Arg]
		if !ok {
			return nil, fmt.Errorf("argument %q is required: it fills {%s} in the URL", p.Arg, name)
		}
		seg := p.pathValue(name, v)
		if seg == "" {
			return nil, fmt.Errorf("argument %q must not be empty: it fills {%s} in the URL", p.Arg, name)
		}
		if seg == "." || seg == ".." {
			// a dot segment would move the request to another path
			seg = strings.ReplaceAll(seg, ".", "%2E")
		}
		u = strings.ReplaceAll(u, "{"+name+"}", seg)
		used[p.Arg] = true
	}
	parsed, err := url.Parse(u)
	if err != nil {
		return nil, fmt.Errorf("URL: %v", err)
	}
	q := parsed.Query()
	header := http.Header{}
	for k, v := range h.spec.Headers {
		header.Set(k, h.expand(v))
	}
	for k, v := range h.spec.Query {
		q.Set(k, h.expand(v))
	}
	var body json.RawMessage
	hasBody := false
	if h.spec.Params != nil {
		for _, p := range h.spec.Params {
			v, ok := args[p.Arg]
			if !ok || p.In == "path" || isNull(v) {
				continue
			}
			wire := orName(p.Name, p.Arg)
			if p.In == "query" {
				p.addQuery(q, wire, v)
			} else {
				header.Set(wire, p.headerValue(v))
			}
		}
		if h.spec.BodyArg != "" {
			body, hasBody = args[h.spec.BodyArg]
		}
	} else {
		keys := make([]string, 0, len(args))
		for k := range args {
			if !used[k] {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		switch h.method {
		case http.MethodGet, http.MethodHead, http.MethodDelete:
			for _, k := range keys {
				addPlain(q, k, args[k])
			}
		default:
			rest := make(map[string]json.RawMessage, len(keys))
			for _, k := range keys {
				rest[k] = args[k]
			}
			body, _ = json.Marshal(rest)
			hasBody = true
		}
	}
	parsed.RawQuery = q.Encode()
	var rd io.Reader
	if hasBody {
		b, ctype, err := h.encodeBody(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
		if h.spec.ContentType != "" {
			ctype = h.spec.ContentType
		}
		header.Set("Content-Type", ctype)
	}
	req, err := http.NewRequestWithContext(ctx, h.method, parsed.String(), rd)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v", h.method, h.spec.URL, err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if h.spec.BasicAuth != "" {
		user, pass, _ := strings.Cut(h.expand(h.spec.BasicAuth), ":")
		req.SetBasicAuth(user, pass)
	}
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", "application/json, text/plain;q=0.9, */*;q=0.5")
	}
	return req, nil
}

func (h *handler) encodeBody(v json.RawMessage) ([]byte, string, error) {
	switch h.spec.Body {
	case BodyForm:
		var m map[string]json.RawMessage
		if err := json.Unmarshal(v, &m); err != nil {
			return nil, "", fmt.Errorf("argument %q: a form body must be an object", orName(h.spec.BodyArg, "body"))
		}
		f := url.Values{}
		for k, x := range m {
			addPlain(f, k, x)
		}
		return []byte(f.Encode()), "application/x-www-form-urlencoded", nil
	case BodyRaw:
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return []byte(v), "text/plain; charset=utf-8", nil
		}
		return []byte(s), "text/plain; charset=utf-8", nil
	}
	return []byte(v), "application/json", nil
}

// addPlain adds an argument no Param places: an array repeats the key, an
// object is its JSON text.
func addPlain(q url.Values, key string, v json.RawMessage) {
	if sv := splitValue(v); sv.isObject {
		q.Add(key, scalar(v))
		return
	}
	Param{In: "query"}.addQuery(q, key, v)
}

func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

// scalar is a string's value, or any other value's JSON text.
func scalar(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	var c bytes.Buffer
	if json.Compact(&c, v) == nil {
		return c.String()
	}
	return string(v)
}

// readCapped reads at most limit bytes; cut reports more were there.
func readCapped(r io.Reader, limit int64) (body []byte, cut bool, err error) {
	body, err = io.ReadAll(io.LimitReader(r, limit+1))
	if int64(len(body)) > limit {
		return body[:limit], true, err
	}
	return body, false, err
}

// toUTF8 decodes body from the charset its Content-Type declares (or
// sniffs); invalid bytes are replaced.
func toUTF8(body []byte, ctype string) string {
	if r, err := charset.NewReader(bytes.NewReader(body), ctype); err == nil {
		if b, err := io.ReadAll(r); err == nil {
			body = b
		}
	}
	return strings.ToValidUTF8(string(body), "\uFFFD")
}
