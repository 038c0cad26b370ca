package schema

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// Compile limits on pathological schemas.
const (
	maxPatternLen  = 4096 // bytes of one pattern's source
	maxPatternProg = 5000 // instructions of one compiled pattern
	maxSchemaLen   = 8 << 20
)

// defaultBase is the base URI of a document without $id; it only serves
// to resolve relative references within the document.
const defaultBase = "https://schema.toolnexus.invalid/root.json"

type compiler struct {
	opts        *Options
	resources   map[string]loc // absolute URI without fragment -> resource root
	anchors     map[string]loc // absolute URI#anchor -> schema
	nodes       map[*jsonx.Object]*node
	all         []*node
	res         map[string]*resource      // by absolute URI: what nodes know of their resource
	dynLocs     map[string]map[string]loc // resource URI -> $dynamicAnchor name -> schema
	dynamic     bool                      // some $dynamicRef resolves dynamically
	hasDefaults bool
	// lastURL and lastURI memoize uri: most schemas share one base.
	lastURL *url.URL
	lastURI string
}

// uri is base.String(), computed once for a run of schemas with the same
// base (URLs are not modified once they serve as a base).
func (c *compiler) uri(base *url.URL) string {
	if base != c.lastURL {
		c.lastURL, c.lastURI = base, base.String()
	}
	return c.lastURI
}

// loc is a schema value at a place in the document.
type loc struct {
	v    any
	ptr  string
	base *url.URL
}

var (
	trueNode  = &node{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1, minContains: -1, maxContains: -1, minProps: -1, maxProps: -1}
	falseNode = &node{never: true, minLen: -1, maxLen: -1, minItems: -1, maxItems: -1, minContains: -1, maxContains: -1, minProps: -1, maxProps: -1}
)

func newCompiler(o *Options) *compiler {
	return &compiler{opts: o, resources: map[string]loc{}, anchors: map[string]loc{}, nodes: map[*jsonx.Object]*node{},
		res: map[string]*resource{}, dynLocs: map[string]map[string]loc{}}
}

func serr(ptr, kw, msg string) *SchemaError { return &SchemaError{Path: ptr, Keyword: kw, Msg: msg} }

// compileRoot compiles the document raw; doc, when not nil, is
// jsonx.Parse(raw) done by the caller.
func (c *compiler) compileRoot(raw []byte, doc any) (*node, error) {
	if len(raw) > maxSchemaLen {
		return nil, serr("", "", "schema is larger than "+strconv.Itoa(maxSchemaLen)+" bytes")
	}
	if doc == nil {
		var err error
		if doc, err = jsonx.Parse(raw); err != nil {
			return nil, serr("", "", "not valid JSON: "+strings.TrimPrefix(err.Error(), "jsonx: "))
		}
	}
	base, _ := url.Parse(defaultBase)
	c.resources[base.String()] = loc{doc, "", base}
	if o, ok := doc.(*jsonx.Object); ok {
		// the document is also reachable under its own $id
		if b, err := withID(o, base, ""); err == nil {
			c.resources[b.String()] = loc{doc, "", base}
		}
	}
	if err := c.index(doc, base, ""); err != nil {
		return nil, err
	}
	root, err := c.compile(loc{doc, "", base})
	if err != nil {
		return nil, err
	}
	if err := c.dynamicAnchors(); err != nil {
		return nil, err
	}
	if err := c.checkLoops(); err != nil {
		return nil, err
	}
	return root, nil
}

// subschema keywords, by shape.
var (
	kwSchema = map[string]bool{"additionalProperties": true, "items": true, "contains": true, "propertyNames": true,
		"not": true, "if": true, "then": true, "else": true, "unevaluatedItems": true, "unevaluatedProperties": true, "contentSchema": true}
	kwSchemaMap   = map[string]bool{"$defs": true, "definitions": true, "properties": true, "patternProperties": true, "dependentSchemas": true}
	kwSchemaArray = map[string]bool{"prefixItems": true, "allOf": true, "anyOf": true, "oneOf": true}
)

// annotations are keywords that never affect validation.
var annotations = map[string]bool{"title": true, "description": true, "default": true, "examples": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$comment": true, "$schema": true,
	"contentEncoding": true, "contentMediaType": true, "contentSchema": true,
	"$id": true, "$anchor": true, "$defs": true, "definitions": true, "$dynamicAnchor": true, "$vocabulary": true}

func ptrEsc(k string) string {
	if !strings.ContainsAny(k, "~/") {
		return k
	}
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// withID returns the base URI of schema o (its $id resolved against base).
func withID(o *jsonx.Object, base *url.URL, ptr string) (*url.URL, error) {
	id, ok := o.Get("$id")
	if !ok {
		return base, nil
	}
	s, ok := id.(string)
	if !ok {
		return nil, serr(ptr, "$id", "must be a string")
	}
	u, err := base.Parse(s)
	if err != nil {
		return nil, serr(ptr, "$id", "is not a valid URI reference: "+err.Error())
	}
	u.Fragment, u.RawFragment = "", ""
	return u, nil
}

// index records the resources ($id) and anchors of the document.
func (c *compiler) index(v any, base *url.URL, ptr string) error {
	o, ok := v.(*jsonx.Object)
	if !ok {
		return nil
	}
	parent := base
	base, err := withID(o, base, ptr)
	if err != nil {
		return err
	}
	if _, ok := o.Get("$id"); ok {
		c.resources[base.String()] = loc{o, ptr, parent}
	}
	for _, kw := range []string{"$anchor", "$dynamicAnchor"} {
		if a, ok := o.Get(kw); ok {
			s, ok := a.(string)
			if !ok {
				return serr(ptr, kw, "must be a string")
			}
			key := base.String() + "#" + s
			if _, dup := c.anchors[key]; !dup || kw == "$anchor" {
				c.anchors[key] = loc{o, ptr, parent}
			}
			if kw == "$dynamicAnchor" {
				m := c.dynLocs[base.String()]
				if m == nil {
					m = map[string]loc{}
					c.dynLocs[base.String()] = m
				}
				m[s] = loc{o, ptr, parent}
			}
		}
	}
	for i, k := range o.Keys {
		sub := o.Vals[i]
		switch {
		case kwSchema[k]:
			if needsIndex(sub) {
				if err := c.index(sub, base, ptr+"/"+ptrEsc(k)); err != nil {
					return err
				}
			}
		case kwSchemaMap[k]:
			if m, ok := sub.(*jsonx.Object); ok {
				for j, name := range m.Keys {
					if needsIndex(m.Vals[j]) {
						if err := c.index(m.Vals[j], base, ptr+"/"+ptrEsc(k)+"/"+ptrEsc(name)); err != nil {
							return err
						}
					}
				}
			}
		case kwSchemaArray[k]:
			if a, ok := sub.([]any); ok {
				for j, e := range a {
					if needsIndex(e) {
						if err := c.index(e, base, ptr+"/"+ptrEsc(k)+"/"+strconv.Itoa(j)); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	return nil
}

// needsIndex reports whether index has anything to record in v or below
// it: an object with a keyword that holds subschemas or names a resource
// or anchor. Most leaves ({"type":"string",...}) have none, and index then
// skips building their JSON Pointer.
func needsIndex(v any) bool {
	o, ok := v.(*jsonx.Object)
	if !ok {
		return false
	}
	for _, k := range o.Keys {
		switch k {
		case "$id", "$anchor", "$dynamicAnchor":
			return true
		}
		if kwSchema[k] || kwSchemaMap[k] || kwSchemaArray[k] {
			return true
		}
	}
	return false
}

// resolve finds the schema a $ref names.
func (c *compiler) resolve(ref string, base *url.URL, ptr, kw string) (loc, error) {
	u, err := base.Parse(ref)
	if err != nil {
		return loc{}, serr(ptr, kw, "is not a valid URI reference: "+err.Error())
	}
	frag := u.Fragment
	u.Fragment, u.RawFragment = "", ""
	doc := u.String()
	res, ok := c.resources[doc]
	if !ok {
		return loc{}, serr(ptr, kw, "cannot resolve "+quote(ref)+": only references within the document are supported")
	}
	if frag == "" {
		return res, nil
	}
	if !strings.HasPrefix(frag, "/") {
		a, ok := c.anchors[doc+"#"+frag]
		if !ok {
			return loc{}, serr(ptr, kw, "cannot resolve "+quote(ref)+": no such anchor")
		}
		return a, nil
	}
	cur := res
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := cur.v.(type) {
		case *jsonx.Object:
			b, err := withID(x, cur.base, cur.ptr)
			if err != nil {
				return loc{}, err
			}
			nv, ok := x.Get(tok)
			if !ok {
				return loc{}, serr(ptr, kw, "cannot resolve "+quote(ref)+": no "+quote(tok)+" in the document")
			}
			cur = loc{nv, cur.ptr + "/" + ptrEsc(tok), b}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return loc{}, serr(ptr, kw, "cannot resolve "+quote(ref)+": no element "+quote(tok))
			}
			cur = loc{x[i], cur.ptr + "/" + tok, cur.base}
		default:
			return loc{}, serr(ptr, kw, "cannot resolve "+quote(ref))
		}
	}
	return cur, nil
}

func newNode(ptr string) *node {
	return &node{ptr: ptr, minLen: -1, maxLen: -1, minItems: -1, maxItems: -1, minContains: -1, maxContains: -1, minProps: -1, maxProps: -1}
}

// compile turns the schema at l into a node (memoized by location, so
// references share nodes and recursion terminates).
func (c *compiler) compile(l loc) (*node, error) {
	switch x := l.v.(type) {
	case bool:
		if x {
			return trueNode, nil
		}
		return falseNode, nil
	case *jsonx.Object:
		if n, ok := c.nodes[x]; ok {
			return n, nil
		}
		n := newNode(l.ptr)
		c.nodes[x] = n
		c.all = append(c.all, n)
		base, err := withID(x, l.base, l.ptr)
		if err != nil {
			return nil, err
		}
		n.res = c.resource(c.uri(base))
		if err := c.fill(n, x, base); err != nil {
			return nil, err
		}
		return n, nil
	}
	return nil, serr(l.ptr, "", "a schema must be an object or a boolean")
}

// resource returns the dynamic-scope entry of the resource with this URI.
func (c *compiler) resource(uri string) *resource {
	r := c.res[uri]
	if r == nil {
		r = &resource{}
		c.res[uri] = r
	}
	return r
}

// dynamicAnchors compiles every $dynamicAnchor into its resource, for
// $dynamicRef resolution at validation.
func (c *compiler) dynamicAnchors() error {
	for uri, m := range c.dynLocs {
		r := c.resource(uri)
		for name, l := range m {
			n, err := c.compile(l)
			if err != nil {
				return err
			}
			if r.dyn == nil {
				r.dyn = map[string]*node{}
			}
			r.dyn[name] = n
		}
	}
	return nil
}

func (c *compiler) sub(v any, base *url.URL, ptr string) (*node, error) {
	return c.compile(loc{v, ptr, base})
}

// checkLoops refuses a schema whose references loop back to the same
// instance location without descending (e.g. {"$ref":"#"}): validating
// it would never end.
func (c *compiler) checkLoops() error {
	const (
		white = iota
		grey
		black
	)
	color := make(map[*node]int, len(c.all))
	var visit func(n *node) *node
	visit = func(n *node) *node {
		switch color[n] {
		case grey:
			return n
		case black:
			return nil
		}
		color[n] = grey
		var bad *node
		c.inPlace(n, func(m *node) bool {
			if m != nil {
				bad = visit(m)
			}
			return bad == nil
		})
		if bad != nil {
			return bad
		}
		color[n] = black
		return nil
	}
	for _, n := range c.all {
		if bad := visit(n); bad != nil {
			return serr(bad.ptr, "$ref", "references loop back to this schema without reaching into the instance")
		}
	}
	return nil
}
