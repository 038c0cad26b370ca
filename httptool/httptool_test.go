package httptool

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolnexus/toolnexus"
)

// recorder is a stand-in API that records what arrives.
type recorder struct {
	mu   sync.Mutex
	reqs []seen
}

type seen struct {
	method, uri, body string
	header            http.Header
}

func (r *recorder) last(t *testing.T) seen {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	require.NotEmpty(t, r.reqs, "no request arrived")
	return r.reqs[len(r.reqs)-1]
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reqs)
}

func newAPI(t *testing.T, h http.HandlerFunc) (*httptest.Server, *recorder) {
	rec := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, seen{r.Method, r.URL.RequestURI(), string(b), r.Header.Clone()})
		rec.mu.Unlock()
		if h != nil {
			h(w, r)
			return
		}
		io.WriteString(w, "ok")
	}))
	t.Cleanup(srv.Close)
	return srv, rec
}

func local(srv *httptest.Server) *Options {
	u, _ := url.Parse(srv.URL)
	return &Options{AllowHosts: []string{u.Hostname()}, Getenv: func(k string) string {
		return map[string]string{"TOKEN": "s3cret"}[k]
	}}
}

func mustNew(t *testing.T, spec Spec, opts *Options) toolnexus.Tool {
	t.Helper()
	tool, _, err := New(spec, opts)
	require.NoError(t, err)
	return tool
}

func call(t *testing.T, tool toolnexus.Tool, args string) toolnexus.Result {
	t.Helper()
	return tool.Handler.Call(t.Context(), json.RawMessage(args))
}

func TestPlaceholdersQueryAndBody(t *testing.T) {
	srv, rec := newAPI(t, nil)
	schema := json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"q":{"type":"string"},"n":{"type":"integer"},"tags":{"type":"array","items":{"type":"string"}}},"required":["id"]}`)
	get := mustNew(t, Spec{Name: "get", URL: srv.URL + "/items/{id}", InputSchema: schema,
		Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"}}, local(srv))
	res := call(t, get, `{"id":"a/b c","q":"x&y","n":3,"tags":["p","q"]}`)
	require.False(t, res.IsError, "GET: %+v", res)
	require.Equal(t, "ok", res.Output, "GET: %+v", res)
	require.Equal(t, 200, res.Metadata["status"], "GET: %+v", res)
	r := rec.last(t)
	assert.Equal(t, "GET", r.method, "GET arrived as %s %s, Authorization %q", r.method, r.uri, r.header.Get("Authorization"))
	assert.Equal(t, "/items/a%2Fb%20c?n=3&q=x%26y&tags=p&tags=q", r.uri, "GET arrived as %s %s, Authorization %q", r.method, r.uri, r.header.Get("Authorization"))
	assert.Equal(t, "Bearer s3cret", r.header.Get("Authorization"), "GET arrived as %s %s, Authorization %q", r.method, r.uri, r.header.Get("Authorization"))

	call(t, get, `{"id":".."}`)
	r = rec.last(t)
	assert.Equal(t, "/items/%2E%2E", r.uri, "dot segment arrived as %s", r.uri)

	// a placeholder in the query stays one value: "&role=admin" cannot add
	// or override a fixed parameter
	search := mustNew(t, Spec{Name: "search", URL: srv.URL + "/v1/search?q={term}&role=viewer",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"term":{"type":"string"}},"required":["term"]}`)}, local(srv))
	res = call(t, search, `{"term":"x&role=admin=1+2@h:p$"}`)
	require.False(t, res.IsError, "search: %+v", res)
	r = rec.last(t)
	assert.Equal(t, "/v1/search?q=x%26role%3Dadmin%3D1%2B2%40h%3Ap%24&role=viewer", r.uri, "placeholder in the query arrived as %s", r.uri)

	post := mustNew(t, Spec{Name: "post", Method: "post", URL: srv.URL + "/items/{id}", InputSchema: schema}, local(srv))
	res = call(t, post, `{"id":"7","n":3,"q":"hi"}`)
	require.False(t, res.IsError, "POST: %+v", res)
	r = rec.last(t)
	assert.Equal(t, "POST", r.method, "POST arrived as %s %s %q (%s)", r.method, r.uri, r.body, r.header.Get("Content-Type"))
	assert.Equal(t, "/items/7", r.uri, "POST arrived as %s %s %q (%s)", r.method, r.uri, r.body, r.header.Get("Content-Type"))
	assert.Equal(t, `{"n":3,"q":"hi"}`, r.body, "POST arrived as %s %s %q (%s)", r.method, r.uri, r.body, r.header.Get("Content-Type"))
	assert.Equal(t, "application/json", r.header.Get("Content-Type"), "POST arrived as %s %s %q (%s)", r.method, r.uri, r.body, r.header.Get("Content-Type"))

	// a wrongly typed argument is refused before any request is sent
	n := rec.count()
	res = call(t, post, `{"id":"7","n":"three"}`)
	assert.True(t, res.IsError, "bad argument: %q, requests %d -> %d", res.Output, n, rec.count())
	assert.Equal(t, `invalid arguments for "post": "n" must be an integer, got a string`, res.Output, "bad argument: %q, requests %d -> %d", res.Output, n, rec.count())
	assert.Equal(t, n, rec.count(), "bad argument: %q, requests %d -> %d", res.Output, n, rec.count())
}

func TestParamsFormRawAndResultModes(t *testing.T) {
	srv, rec := newAPI(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "{ \"ok\" : true }")
	})
	params := []Param{{Arg: "pet", In: "path", Name: "petId"}, {Arg: "trace", In: "header", Name: "X-Trace"}, {Arg: "v", In: "query", Name: "version"}}
	form := mustNew(t, Spec{Name: "form", Method: "PUT", URL: srv.URL + "/pets/{petId}", Params: params, BodyArg: "body", Body: BodyForm,
		Result: ResultJSON}, local(srv))
	res := call(t, form, `{"pet":5,"trace":"t1","v":null,"body":{"name":"Rex","n":2},"ignored":1}`)
	r := rec.last(t)
	assert.False(t, res.IsError, "json result: %+v", res)
	assert.Equal(t, `{"ok":true}`, res.Output, "json result: %+v", res)
	assert.Equal(t, "/pets/5", r.uri, "form arrived as %s %q %q %q", r.uri, r.header.Get("X-Trace"), r.body, r.header.Get("Content-Type"))
	assert.Equal(t, "t1", r.header.Get("X-Trace"), "form arrived as %s %q %q %q", r.uri, r.header.Get("X-Trace"), r.body, r.header.Get("Content-Type"))
	assert.Equal(t, "n=2&name=Rex", r.body, "form arrived as %s %q %q %q", r.uri, r.header.Get("X-Trace"), r.body, r.header.Get("Content-Type"))
	assert.Equal(t, "application/x-www-form-urlencoded", r.header.Get("Content-Type"), "form arrived as %s %q %q %q", r.uri, r.header.Get("X-Trace"), r.body, r.header.Get("Content-Type"))
	raw := mustNew(t, Spec{Name: "raw", Method: "POST", URL: srv.URL + "/notes", Params: []Param{}, BodyArg: "text", Body: BodyRaw,
		Result: ResultStatusText}, local(srv))
	res = call(t, raw, `{"text":"line one\nline two"}`)
	r = rec.last(t)
	assert.Equal(t, "line one\nline two", r.body, "raw: body %q, output %q", r.body, res.Output)
	assert.True(t, strings.HasPrefix(r.header.Get("Content-Type"), "text/plain"), "raw: body %q, output %q", r.body, res.Output)
	assert.Equal(t, "HTTP 200 OK\n\n{ \"ok\" : true }", res.Output, "raw: body %q, output %q", r.body, res.Output)
}

func TestErrorsCapsAndCharset(t *testing.T) {
	srv, _ := newAPI(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/missing":
			w.WriteHeader(404)
			io.WriteString(w, strings.Repeat("n", 3000))
		case "/big":
			io.WriteString(w, strings.Repeat("b", 100))
		case "/latin1":
			w.Header().Set("Content-Type", "text/plain; charset=ISO-8859-1")
			w.Write([]byte{'c', 'a', 'f', 0xe9})
		}
	})
	opts := local(srv)
	opts.MaxResponseBytes = 10
	res := call(t, mustNew(t, Spec{Name: "m", URL: srv.URL + "/missing"}, local(srv)), `{}`)
	se, ok := res.Err.(*StatusError)
	assert.True(t, res.IsError, "404: %d bytes %q...", len(res.Output), res.Output[:min(40, len(res.Output))])
	if assert.True(t, ok, "404: %d bytes %q...", len(res.Output), res.Output[:min(40, len(res.Output))]) {
		assert.Equal(t, 404, se.Status, "404: %d bytes %q...", len(res.Output), res.Output[:min(40, len(res.Output))])
		assert.True(t, strings.HasPrefix(res.Output, "HTTP 404 Not Found: nnn"), "404: %d bytes %q...", len(res.Output), res.Output[:min(40, len(res.Output))])
		if assert.Len(t, res.Output, len("HTTP 404 Not Found: ")+2048+len(" [cut]"), "404: %d bytes %q...", len(res.Output), res.Output[:min(40, len(res.Output))]) {
			assert.Equal(t, 404, res.Metadata["status"], "404: %d bytes %q...", len(res.Output), res.Output[:min(40, len(res.Output))])
		}
	}
	res = call(t, mustNew(t, Spec{Name: "b", URL: srv.URL + "/big"}, opts), `{}`)
	assert.Equal(t, "bbbbbbbbbb\n\n[response cut at 10 bytes]", res.Output, "cap: %q", res.Output)
	res = call(t, mustNew(t, Spec{Name: "l", URL: srv.URL + "/latin1"}, local(srv)), `{}`)
	assert.Equal(t, "café", res.Output, "charset: %q", res.Output)
}

func TestGuardAndRedirects(t *testing.T) {
	other, _ := newAPI(t, nil)
	srv, _ := newAPI(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, other.URL+"/x", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/hop":
			http.Redirect(w, r, "/done", http.StatusFound)
		default:
			io.WriteString(w, "arrived "+r.URL.Path)
		}
	})
	// the zero Options refuse the loopback address, without echoing the secret query value
	res := call(t, mustNew(t, Spec{Name: "g", URL: srv.URL + "/x", Query: map[string]string{"key": "${TOKEN}"}},
		&Options{Getenv: func(string) string { return "s3cret" }}), `{}`)
	assert.True(t, res.IsError, "guard: %q", res.Output)
	assert.Equal(t, "GET "+srv.URL+"/x refused: 127.0.0.1 is a loopback address; requests to the local or private network are not allowed", res.Output, "guard: %q", res.Output)
	res = call(t, mustNew(t, Spec{Name: "h", URL: srv.URL + "/hop"}, local(srv)), `{}`)
	assert.False(t, res.Output != "arrived /done", "same-origin redirect: %+v", res)
	res = call(t, mustNew(t, Spec{Name: "a", URL: srv.URL + "/away"}, local(srv)), `{}`)
	u, _ := url.Parse(other.URL)
	assert.True(t, res.IsError, "cross-origin redirect: %q", res.Output)
	assert.True(t, strings.HasSuffix(res.Output, "redirect to another origin (http://"+u.Host+") refused"), "cross-origin redirect: %q", res.Output)
	res = call(t, mustNew(t, Spec{Name: "l", URL: srv.URL + "/loop"}, local(srv)), `{}`)
	assert.True(t, res.IsError, "redirect loop: %q", res.Output)
	assert.True(t, strings.HasSuffix(res.Output, "stopped after 5 redirects"), "redirect loop: %q", res.Output)
}

func TestNewErrors(t *testing.T) {
	for _, c := range []struct {
		spec Spec
		want string
	}{
		{Spec{Name: "a", URL: "/relative"}, `httptool "a": URL "/relative": want an absolute http or https URL`},
		{Spec{Name: "b", URL: "ftp://h/x"}, `httptool "b": URL "ftp://h/x": want an absolute http or https URL`},
		{Spec{Name: "c", URL: "http://h/{id"}, `httptool "c": URL "http://h/{id": unclosed {`},
		{Spec{Name: "d", URL: "http://h/", Method: "GE T"}, `httptool "d": Method "GE T" is not an HTTP method`},
		{Spec{Name: "e", URL: "http://h/", Body: "xml"}, `httptool "e": Body "xml": want json, form or raw`},
		{Spec{Name: "f", URL: "http://h/{id}", Params: []Param{}}, `httptool "f": URL placeholder {id} has no path Param`},
		{Spec{Name: "g", URL: "http://h/", Params: []Param{{Arg: "x", In: "cookie"}}}, `httptool "g": Params: "x": In "cookie", want path, query or header`},
	} {
		_, _, err := New(c.spec, nil)
		assert.EqualError(t, err, c.want, "New(%+v) = %v, want %q", c.spec, err, c.want)
	}
}
