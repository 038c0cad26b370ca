// Package openapi imports an OpenAPI 3.0 or 3.1 document (JSON or YAML) as
// HTTP tools (package httptool), one tool per operation.
//
// # Tools
//
// A tool is named by its operationId, sanitised to the tool-name rule
// (characters other than letters, digits, '_' and '-' become '_', at most
// 64 bytes with Options.Prefix) and de-duplicated with a "_2", "_3", ...
// suffix in document order; an operation without operationId is named from
// its method and path ("get_pets_petId"). The description is the summary,
// a blank line and the description, cut at 1,024 bytes.
//
// # Input schema
//
// The input schema is an object whose properties are the path, query and
// header parameters by name, and the request body under "body" (required
// when the request body is). A name used twice (a path and a query "id",
// or a parameter named "body") is kept for the first in the order path,
// query, header, body; later ones get their location as prefix
// ("query_id", "request_body"). Unknown properties are refused. Parameter
// descriptions become property descriptions. Schema $refs to
// #/components/schemas are kept as $refs into the tool schema's "$defs"
// (so cycles survive); nullable (3.0) becomes a type list or an anyOf with
// {"type":"null"}; an allOf of one $ref becomes that $ref; format int32 becomes minimum and maximum bounds, and
// int64, float and double formats are dropped; oneOf, anyOf, allOf and not are kept, so the engine
// enforces them before any request is sent. OpenAPI-only keywords
// (discriminator, xml, example, externalDocs, x-*) are dropped.
//
// # What is reported
//
// Operations that cannot be expressed are never dropped silently: they are
// listed in Result.Skipped with the reason (a cookie parameter, a body
// media type other than JSON, form or text, a multipart upload, a $ref
// outside #/components/schemas, a parameter or request body whose $ref
// is cyclic, with the cycle). A document in which a component that is a
// $ref starts a chain of more than 64 $refs from component to component
// is an error of Import. Result.Notes lists what was imported with
// a caveat (schema keywords the engine leaves to the API, security schemes
// that cannot be sent, a cut description).
package openapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v3"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/httptool"
)

// MaxDocumentBytes caps the size of a document read by [Load].
const MaxDocumentBytes = 16 << 20

// Operation identifies one operation for [Options].Filter.
type Operation struct {
	ID     string   // operationId as written, "" when missing
	Method string   // upper case: GET, POST, ...
	Path   string   // path template as in the document: /pets/{petId}
	Tags   []string // the operation's tags
}

// Options tune an import; the zero value imports every operation against
// the document's first server.
type Options struct {
	// BaseURL overrides the document's servers: an absolute http or https
	// URL the operation paths are appended to.
	BaseURL string
	// Location is where the document was read from (a file path or URL);
	// relative server URLs are resolved against it when it is a URL.
	Location string
	// Prefix is put before every tool name.
	Prefix string
	// Filter, when non-nil, keeps the operations it returns true for.
	Filter func(Operation) bool
	// SecurityEnv maps a security scheme name to the environment variable
	// holding its credential (API key, bearer token, or "user:password"
	// for basic). A scheme not in the map reads the variable named by the
	// scheme name in upper case with other characters than letters and
	// digits as '_' ("api_key" reads API_KEY, "bearerAuth" BEARERAUTH).
	SecurityEnv map[string]string
	// HTTP are the options of the tools' shared HTTP client; nil means
	// zero httptool.Options (the private-network guard on).
	HTTP *httptool.Options
	// Timeout is each tool's timeout; zero means httptool.DefaultTimeout.
	Timeout time.Duration
}

// Skipped is an operation that was not imported, and why.
type Skipped struct {
	Method string // the HTTP method in upper case, "GET"
	Path   string // the path template as in the document, "/pets/{id}"
	ID     string // operationId, "" when missing
	Reason string // why it was not imported, for a person to read
}

// String is "GET /path (id): reason".
func (s Skipped) String() string {
	id := ""
	if s.ID != "" {
		id = " (" + s.ID + ")"
	}
	return s.Method + " " + s.Path + id + ": " + s.Reason
}

// Result is what an import produced.
type Result struct {
	// Tools are the imported tools in document order (paths sorted, then
	// methods in GET, PUT, POST, DELETE, OPTIONS, HEAD, PATCH, TRACE order).
	Tools []toolnexus.Tool
	// Skipped lists the operations that could not be expressed.
	Skipped []Skipped
	// Notes lists caveats on imported tools, each "name: note".
	Notes []string
}

// Load reads a document from a file path or an http(s) URL, at most
// MaxDocumentBytes; a URL is fetched with a 30-second timeout.
func Load(ctx context.Context, location string) ([]byte, error) {
	if strings.HasPrefix(location, "http://") || strings.HasPrefix(location, "https://") {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, location, nil)
		if err != nil {
			return nil, fmt.Errorf("openapi: %v", err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, fmt.Errorf("openapi: %v", err)
		}
		defer resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			return nil, fmt.Errorf("openapi: GET %s: HTTP %d", location, resp.StatusCode)
		}
		return readCapped(resp.Body, location)
	}
	f, err := os.Open(location)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	defer f.Close()
	return readCapped(f, location)
}

func readCapped(r io.Reader, location string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxDocumentBytes+1))
	if err != nil {
		return nil, fmt.Errorf("openapi: reading %s: %v", location, err)
	}
	if len(b) > MaxDocumentBytes {
		return nil, fmt.Errorf("openapi: %s is larger than %d bytes", location, MaxDocumentBytes)
	}
	return b, nil
}

// ImportFile is Load then Import, with opts.Location set to location when
// empty (opts itself is not changed). opts nil means the zero Options.
func ImportFile(ctx context.Context, location string, opts *Options) (*Result, error) {
	data, err := Load(ctx, location)
	if err != nil {
		return nil, err
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Location == "" {
		o.Location = location
	}
	return Import(data, &o)
}

var methodOrder = []string{"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"}

// Import parses an OpenAPI 3.0 or 3.1 document (JSON or YAML; external
// $refs are refused) and returns one tool per operation. Errors: a document
// the parser refuses, a chain of more than 64 $refs from component to
// component, no usable base URL (neither Options.BaseURL nor an
// absolute or resolvable server URL), a bad Options.BaseURL. opts nil
// means the zero Options.
func Import(data []byte, opts *Options) (*Result, error) {
	if opts == nil {
		opts = &Options{}
	}
	doc, err := parse(data)
	if err != nil {
		return nil, fmt.Errorf("openapi: %v", err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.") {
		return nil, fmt.Errorf("openapi: version %q: want 3.0 or 3.1", doc.OpenAPI)
	}
	base, err := baseURL(doc, *opts)
	if err != nil {
		return nil, err
	}
	hopts := opts.HTTP
	if hopts == nil {
		hopts = &httptool.Options{}
	}
	im := &importer{doc: doc, opts: *opts, hopts: hopts, client: hopts.Client(), base: base,
		names: map[string]bool{}, defs: map[string]any{}, deps: map[string][]string{}, res: &Result{}}
	var paths []string
	if doc.Paths != nil {
		for p := range doc.Paths.Map() {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		item := doc.Paths.Value(p)
		ops := item.Operations()
		for _, m := range methodOrder {
			op := ops[m]
			if op == nil {
				continue
			}
			if opts.Filter != nil && !opts.Filter(Operation{ID: op.OperationID, Method: m, Path: p, Tags: op.Tags}) {
				continue
			}
			if reason := im.add(m, p, item, op); reason != "" {
				im.res.Skipped = append(im.res.Skipped, Skipped{Method: m, Path: p, ID: op.OperationID, Reason: reason})
			}
		}
	}
	return im.res, nil
}

// parse loads a document. JSON goes through encoding/json, then the
// parser's reference resolution (BenchmarkImport1000: 73 MB allocated per
// import instead of 117 MB through the YAML path); YAML, and JSON that
// encoding/json refuses, through the parser's YAML loader.
//
// Before the parser resolves $refs, a component that is a $ref starting a
// chain of more than maxRefChain $refs from component to component is
// refused: the parser follows such a chain from every component and
// operation on it, at a cost growing with its length times theirs.
func parse(data []byte) (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	var refs componentRefs
	t := bytes.TrimLeft(data, " \t\r\n")
	isJSON := len(t) > 0 && t[0] == '{' && json.Unmarshal(data, &refs) == nil
	if !isJSON {
		refs = componentRefs{}
		_ = yaml.Unmarshal(data, &refs) // the parser reports what is wrong
	}
	if err := refs.check(); err != nil {
		return nil, err
	}
	if isJSON {
		doc := &openapi3.T{}
		if json.Unmarshal(data, doc) == nil {
			if err := loader.ResolveRefsIn(doc, nil); err != nil {
				return nil, err
			}
			return doc, nil
		}
	}
	return loader.LoadFromData(data)
}

// baseURL picks the URL operation paths are appended to.
func baseURL(doc *openapi3.T, opts Options) (string, error) {
	raw := opts.BaseURL
	if raw == "" {
		raw = "/"
		if len(doc.Servers) > 0 && doc.Servers[0] != nil {
			s := doc.Servers[0]
			raw = s.URL
			for name, v := range s.Variables {
				if v != nil {
					raw = strings.ReplaceAll(raw, "{"+name+"}", v.Default)
				}
			}
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("openapi: base URL %q: %v", raw, err)
	}
	if !u.IsAbs() {
		if opts.BaseURL != "" {
			return "", fmt.Errorf("openapi: base URL %q: want an absolute http or https URL", raw)
		}
		loc, lerr := url.Parse(opts.Location)
		if lerr != nil || (loc.Scheme != "http" && loc.Scheme != "https") {
			return "", fmt.Errorf("openapi: the document's server URL %q is relative and the document was not read from a URL: set the base URL", raw)
		}
		u = loc.ResolveReference(u)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("openapi: base URL %q: want http or https", u.String())
	}
	return strings.TrimRight(u.String(), "/"), nil
}

type importer struct {
	doc    *openapi3.T
	opts   Options
	hopts  *httptool.Options
	client *http.Client
	base   string
	names  map[string]bool
	defs   map[string]any      // converted component schemas, shared read-only
	deps   map[string][]string // component -> components it refers to
	res    *Result
}

// add imports one operation; it returns why it cannot, or "".
func (im *importer) add(method, path string, item *openapi3.PathItem, op *openapi3.Operation) string {
	name := im.name(method, path, op.OperationID)
	props := map[string]any{}
	var required []string
	var params []httptool.Param
	refs := map[string]bool{}
	taken := map[string]bool{}
	// Operation parameters override path-item ones with the same name and
	// location.
	all := map[string]*openapi3.Parameter{}
	var order []string
	for _, list := range []openapi3.Parameters{item.Parameters, op.Parameters} {
		for _, pr := range list {
			if pr == nil {
				continue
			}
			if pr.Value == nil {
				return "parameter " + im.unresolved(pr.Ref, "parameters")
			}
			key := pr.Value.In + "\x00" + pr.Value.Name
			if _, ok := all[key]; !ok {
				order = append(order, key)
			}
			all[key] = pr.Value
		}
	}
	for _, in := range []string{"path", "query", "header", "cookie"} {
		for _, key := range order {
			p := all[key]
			if p.In != in {
				continue
			}
			if in == "cookie" {
				if p.Required {
					return fmt.Sprintf("required cookie parameter %q: cookie parameters are not supported", p.Name)
				}
				im.note(name, fmt.Sprintf("optional cookie parameter %q is not offered", p.Name))
				continue
			}
			if in == "header" {
				switch strings.ToLower(p.Name) {
				case "accept", "content-type", "authorization":
					continue // OpenAPI: these header parameters are ignored
				}
			}
			sr := p.Schema
			if sr == nil {
				for mt, m := range p.Content {
					if isJSON(mt) && m != nil {
						sr = m.Schema
					}
				}
			}
			var s any = map[string]any{}
			if sr != nil {
				var reason string
				s, reason = im.convert(sr, refs)
				if reason != "" {
					return fmt.Sprintf("parameter %q: %s", p.Name, reason)
				}
			}
			if p.Description != "" {
				if m, ok := s.(map[string]any); ok {
					if _, has := m["description"]; !has {
						m["description"] = p.Description
					}
				}
			}
			arg := p.Name
			if taken[arg] {
				arg = in + "_" + p.Name
				if taken[arg] {
					return fmt.Sprintf("parameter %q: name %q is taken twice", p.Name, arg)
				}
			}
			taken[arg] = true
			props[arg] = s
			if p.Required || in == "path" {
				required = append(required, arg)
			}
			params = append(params, httptool.Param{Arg: arg, In: in, Name: p.Name, Style: p.Style, Explode: p.Explode})
		}
	}
	spec := httptool.Spec{Method: method, URL: im.base + path, Params: params, Timeout: im.opts.Timeout}
	if params == nil {
		spec.Params = []httptool.Param{}
	}
	if rb := op.RequestBody; rb != nil {
		if rb.Value == nil {
			return "request body " + im.unresolved(rb.Ref, "requestBodies")
		}
		mt, media, mode, reason := pickMedia(rb.Value.Content)
		if reason != "" {
			return reason
		}
		var s any = map[string]any{}
		if media != nil && media.Schema != nil {
			var reason string
			s, reason = im.convert(media.Schema, refs)
			if reason != "" {
				return "request body: " + reason
			}
		}
		if rb.Value.Description != "" {
			if m, ok := s.(map[string]any); ok {
				if _, has := m["description"]; !has {
					m["description"] = rb.Value.Description
				}
			}
		}
		arg := "body"
		if taken[arg] {
			arg = "request_body"
			if taken[arg] {
				return `request body: names "body" and "request_body" are taken by parameters`
			}
		}
		props[arg] = s
		if rb.Value.Required {
			required = append(required, arg)
		}
		spec.BodyArg, spec.Body, spec.ContentType = arg, mode, mt
	}
	security, reason := im.security(op)
	if reason != "" {
		im.note(name, reason)
	}
	spec.Headers, spec.Query, spec.BasicAuth = security.headers, security.query, security.basic
	root := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		root["required"] = required
	}
	if len(refs) > 0 {
		defs := map[string]any{}
		for n := range refs {
			defs[n] = im.defs[n]
		}
		root["$defs"] = defs
	}
	schema, err := json.Marshal(root)
	if err != nil {
		return "schema: " + err.Error()
	}
	spec.Name = name
	spec.InputSchema = schema
	spec.Description = description(op)
	if len(spec.Description) > 1024 {
		cut := strings.ToValidUTF8(spec.Description[:1020], "")
		spec.Description = cut + " ..."
		im.note(name, "description cut at 1,024 bytes")
	}
	ann := &toolnexus.Annotations{Title: op.Summary, OpenWorldHint: new(true)}
	switch method {
	case "GET", "HEAD", "OPTIONS":
		ann.ReadOnlyHint = true
	case "DELETE":
		ann.DestructiveHint = new(true)
	}
	if method == "PUT" || method == "DELETE" || method == "GET" || method == "HEAD" {
		ann.IdempotentHint = true
	}
	spec.Annotations = ann
	tool, unchecked, err := httptool.NewWithClient(spec, im.hopts, im.client)
	if err != nil {
		return err.Error()
	}
	if unchecked != "" {
		im.note(name, unchecked)
	}
	im.names[name] = true
	im.res.Tools = append(im.res.Tools, tool)
	return ""
}

func (im *importer) note(tool, msg string) { im.res.Notes = append(im.res.Notes, tool+": "+msg) }

func description(op *openapi3.Operation) string {
	s, d := strings.TrimSpace(op.Summary), strings.TrimSpace(op.Description)
	switch {
	case s == "":
		return d
	case d == "" || d == s:
		return s
	}
	return s + "\n\n" + d
}

// name makes a unique tool name.
func (im *importer) name(method, path, id string) string {
	raw := id
	if raw == "" {
		raw = strings.ToLower(method) + "_" + path
	}
	var b strings.Builder
	b.WriteString(im.opts.Prefix)
	lastUnderscore := false
	for _, r := range raw {
		ok := r < 128 && (r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		if !ok {
			r = '_'
		}
		if r == '_' && lastUnderscore && id == "" {
			continue
		}
		lastUnderscore = r == '_'
		b.WriteRune(r)
	}
	n := b.String()
	if id == "" {
		n = strings.TrimRight(n, "_")
	}
	n = clip(n, 64)
	if n == "" {
		n = "operation"
	}
	if !im.names[n] {
		return n
	}
	for i := 2; ; i++ {
		suffix := fmt.Sprintf("_%d", i)
		c := clip(n, 64-len(suffix)) + suffix
		if !im.names[c] {
			return c
		}
	}
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// isJSON reports a JSON media type (application/json, anything +json).
func isJSON(mt string) bool {
	mt = strings.ToLower(strings.TrimSpace(strings.SplitN(mt, ";", 2)[0]))
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// pickMedia chooses the request body media type: JSON first, then form,
// then text; anything else is a reason to skip the operation.
func pickMedia(content openapi3.Content) (mt string, media *openapi3.MediaType, mode, reason string) {
	keys := make([]string, 0, len(content))
	for k := range content {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, want := range []struct {
		match func(string) bool
		mode  string
	}{
		{isJSON, httptool.BodyJSON},
		{func(k string) bool { return strings.HasPrefix(strings.ToLower(k), "application/x-www-form-urlencoded") }, httptool.BodyForm},
		{func(k string) bool { return strings.HasPrefix(strings.ToLower(k), "text/plain") }, httptool.BodyRaw},
	} {
		for _, k := range keys {
			if want.match(k) {
				return k, content[k], want.mode, ""
			}
		}
	}
	if len(keys) == 0 {
		return "", nil, httptool.BodyJSON, ""
	}
	for _, k := range keys {
		if strings.HasPrefix(strings.ToLower(k), "multipart/") {
			return "", nil, "", fmt.Sprintf("request body media type %s (multipart upload) is not supported", k)
		}
	}
	return "", nil, "", fmt.Sprintf("request body media type %s is not supported (want JSON, form or text/plain)", strings.Join(keys, ", "))
}

type securityValues struct {
	headers, query map[string]string
	basic          string
}

// security maps the first requirement whose schemes are all supported to
// header, query or basic-auth values read from the environment.
func (im *importer) security(op *openapi3.Operation) (securityValues, string) {
	reqs := im.doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	if len(reqs) == 0 {
		return securityValues{}, ""
	}
	var why []string
	for _, req := range reqs {
		if len(req) == 0 {
			return securityValues{}, "" // an empty requirement: anonymous access allowed
		}
		v := securityValues{headers: map[string]string{}, query: map[string]string{}}
		ok := true
		names := make([]string, 0, len(req))
		for n := range req {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			var ss *openapi3.SecurityScheme
			if im.doc.Components != nil {
				if r := im.doc.Components.SecuritySchemes[n]; r != nil {
					ss = r.Value
				}
			}
			if ss == nil {
				why = append(why, fmt.Sprintf("security scheme %q is not defined", n))
				ok = false
				break
			}
			ref := "${" + im.envName(n) + "}"
			switch {
			case ss.Type == "apiKey" && ss.In == "header":
				v.headers[ss.Name] = ref
			case ss.Type == "apiKey" && ss.In == "query":
				v.query[ss.Name] = ref
			case ss.Type == "http" && strings.EqualFold(ss.Scheme, "bearer"):
				v.headers["Authorization"] = "Bearer " + ref
			case ss.Type == "http" && strings.EqualFold(ss.Scheme, "basic"):
				v.basic = ref
			default:
				why = append(why, fmt.Sprintf("security scheme %q (%s %s%s) is not supported", n, ss.Type, ss.In, ss.Scheme))
				ok = false
			}
			if !ok {
				break
			}
		}
		if ok {
			return v, ""
		}
	}
	return securityValues{}, strings.Join(slices.Compact(why), "; ") + ": requests are sent without credentials"
}

// envName is the environment variable of a security scheme.
func (im *importer) envName(scheme string) string {
	if v, ok := im.opts.SecurityEnv[scheme]; ok {
		return v
	}
	b := []byte(strings.ToUpper(scheme))
	for i, c := range b {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	return string(b)
}

const componentPrefix = "#/components/schemas/"

// unresolved says why ref, a $ref to a component of kind "parameters" or
// "requestBodies", has no value: the cycle of references it starts
// ("#/components/parameters/A -> ...B -> ...A"; a cycle of more than four
// links as its first three, "… ->", its last and its count of links),
// else that it does not resolve.
func (im *importer) unresolved(ref, kind string) string {
	refOf := func(name string) string {
		c := im.doc.Components
		switch {
		case c != nil && kind == "parameters" && c.Parameters[name] != nil:
			return c.Parameters[name].Ref
		case c != nil && kind == "requestBodies" && c.RequestBodies[name] != nil:
			return c.RequestBodies[name].Ref
		}
		return ""
	}
	chain := []string{ref}
	for seen, r := map[string]bool{}, ref; !seen[r] && len(chain) <= maxRefChain+1; chain = append(chain, r) {
		seen[r] = true
		if r = refOf(strings.TrimPrefix(r, "#/components/"+kind+"/")); r == "" {
			return fmt.Sprintf("$ref %q does not resolve", ref)
		}
	}
	if len(chain) > 5 {
		return fmt.Sprintf("$ref %q is cyclic: %s -> … -> %s (%d links)", ref, strings.Join(chain[:3], " -> "), chain[len(chain)-1], len(chain)-1)
	}
	return fmt.Sprintf("$ref %q is cyclic: %s", ref, strings.Join(chain, " -> "))
}

// convert turns a parser schema into a JSON Schema 2020-12 value; $refs to
// components are rewritten to $defs and collected (with their own refs)
// into refs and im.defs.
func (im *importer) convert(sr *openapi3.SchemaRef, refs map[string]bool) (any, string) {
	raw, err := json.Marshal(sr)
	if err != nil {
		return nil, err.Error()
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err.Error()
	}
	var pending []string
	if reason := fix(v, &pending); reason != "" {
		return nil, reason
	}
	for len(pending) > 0 {
		n := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		if refs[n] {
			continue
		}
		refs[n] = true
		if _, done := im.defs[n]; done {
			// Already converted: its transitive refs are needed too.
			pending = append(pending, im.deps[n]...)
			continue
		}
		var comp *openapi3.SchemaRef
		if im.doc.Components != nil {
			comp = im.doc.Components.Schemas[n]
		}
		if comp == nil || comp.Value == nil {
			return nil, fmt.Sprintf("$ref %q does not resolve", componentPrefix+n)
		}
		d, err := json.Marshal(comp.Value)
		if err != nil {
			return nil, err.Error()
		}
		dec := json.NewDecoder(bytes.NewReader(d))
		dec.UseNumber()
		var dv any
		if err := dec.Decode(&dv); err != nil {
			return nil, err.Error()
		}
		var deps []string
		if reason := fix(dv, &deps); reason != "" {
			return nil, fmt.Sprintf("schema %q: %s", n, reason)
		}
		im.defs[n] = dv
		im.deps[n] = deps
		pending = append(pending, deps...)
	}
	return v, ""
}

// dropped are OpenAPI keywords that are not JSON Schema validation.
var dropped = map[string]bool{"discriminator": true, "xml": true, "example": true, "externalDocs": true}

// fix rewrites one schema value in place: $refs to #/$defs (names added
// to refs), nullable, boolean exclusive bounds, OpenAPI-only keywords.
func fix(v any, refs *[]string) string {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if r := fix(e, refs); r != "" {
				return r
			}
		}
	case map[string]any:
		if all, ok := x["allOf"].([]any); ok && len(all) == 1 && x["$ref"] == nil {
			// allOf: [{$ref}] is the 3.0 way to put siblings (nullable,
			// description) next to a $ref; 2020-12 allows them directly.
			if m, ok := all[0].(map[string]any); ok && len(m) == 1 && m["$ref"] != nil {
				x["$ref"] = m["$ref"]
				delete(x, "allOf")
			}
		}
		if ref, ok := x["$ref"].(string); ok {
			if !strings.HasPrefix(ref, componentPrefix) {
				return fmt.Sprintf("$ref %q is not supported (only %s...)", ref, componentPrefix)
			}
			name := strings.SplitN(strings.TrimPrefix(ref, componentPrefix), "/", 2)[0]
			*refs = append(*refs, name)
			x["$ref"] = "#/$defs/" + strings.TrimPrefix(ref, componentPrefix)
		}
		for k, e := range x {
			if dropped[k] || strings.HasPrefix(k, "x-") {
				delete(x, k)
				continue
			}
			switch k {
			case "properties", "patternProperties", "dependentSchemas", "$defs":
				if m, ok := e.(map[string]any); ok {
					for _, s := range m {
						if r := fix(s, refs); r != "" {
							return r
						}
					}
				}
				continue
			case "enum", "const", "default", "examples", "required":
				continue
			}
			if r := fix(e, refs); r != "" {
				return r
			}
		}
		for _, k := range []string{"exclusiveMinimum", "exclusiveMaximum"} {
			if b, ok := x[k].(bool); ok {
				bound := "minimum"
				if k == "exclusiveMaximum" {
					bound = "maximum"
				}
				delete(x, k)
				if n, has := x[bound]; b && has {
					x[k] = n
					delete(x, bound)
				}
			}
		}
		switch x["format"] {
		case "int32":
			// The engine does not check this format: bounds say the same.
			if _, ok := x["minimum"]; !ok {
				if _, ok := x["exclusiveMinimum"]; !ok {
					x["minimum"] = json.Number("-2147483648")
				}
			}
			if _, ok := x["maximum"]; !ok {
				if _, ok := x["exclusiveMaximum"]; !ok {
					x["maximum"] = json.Number("2147483647")
				}
			}
			delete(x, "format")
		case "int64", "float", "double":
			delete(x, "format") // the JSON type says enough
		}
		if n, ok := x["nullable"].(bool); ok {
			delete(x, "nullable")
			if n {
				nullable(x)
			}
		}
	}
	return ""
}

// nullable lets a schema also accept null.
func nullable(x map[string]any) {
	switch t := x["type"].(type) {
	case string:
		x["type"] = []any{t, "null"}
		if e, ok := x["enum"].([]any); ok && !slices.Contains(e, nil) {
			x["enum"] = append(e, nil)
		}
		return
	case []any:
		if !slices.Contains(t, any("null")) {
			x["type"] = append(t, "null")
		}
		return
	}
	inner := map[string]any{}
	for k, v := range x {
		if k != "description" && k != "title" && k != "default" {
			inner[k] = v
			delete(x, k)
		}
	}
	x["anyOf"] = []any{inner, map[string]any{"type": "null"}}
}
