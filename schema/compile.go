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
	all         []compiled                // every node compiled, by node.id
	res         map[string]*resource      // by absolute URI: what nodes know of their resource
	dynLocs     map[string]map[string]loc // resource URI -> $dynamicAnchor name -> schema
	dynamic     bool                      // some $dynamicRef resolves dynamically
	hasDefaults bool
}

// loc is a schema value at a place in the document: its JSON Pointer is
// ptr, or, when at.up is set, the one at leads to.
type loc struct {
	v    any
	ptr  string
	base *url.URL
	at   site
}

// site is where a subschema stands: under keyword kw of the schema up,
// and under the member or element name there when named; or, when up is
// nil, at the JSON Pointer kw. Compile builds the JSON Pointers of sites
// only for errors.
type site struct {
	up    *node
	kw    string
	name  string
	named bool
}

// compiled is a node and where it stands.
type compiled struct {
	n  *node
	at site
}

// locPointer is the JSON Pointer of l.
func (c *compiler) locPointer(l loc) string {
	if l.at.up == nil {
		return l.ptr
	}
	return c.sitePointer(l.at)
}

// pointer is the JSON Pointer of the schema n, for errors.
func (c *compiler) pointer(n *node) string { return c.sitePointer(c.all[n.id].at) }

func (c *compiler) sitePointer(s site) string {
	if s.up == nil {
		return s.kw
	}
	p := c.pointer(s.up) + "/" + ptrEsc(s.kw)
	if s.named {
		p += "/" + ptrEsc(s.name)
	}
	return p
}

// nerr is a SchemaError at the schema n.
func (c *compiler) nerr(n *node, kw, msg string) *SchemaError { return serr(c.pointer(n), kw, msg) }

var (
	trueNode  = &node{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1, minContains: -1, maxContains: -1, minProps: -1, maxProps: -1}
	falseNode = &node{never: true, minLen: -1, maxLen: -1, minItems: -1, maxItems: -1, minContains: -1, maxContains: -1, minProps: -1, maxProps: -1}
)

// defaultBaseURL is defaultBase parsed; it is never modified (url.Parse
// and URL.Parse return new URLs).
var defaultBaseURL, _ = url.Parse(defaultBase)

func newCompiler(o *Options) *compiler {
	return &compiler{opts: o, resources: map[string]loc{}, anchors: map[string]loc{}, nodes: map[*jsonx.Object]*node{}}
}

func serr(ptr, kw, msg string) *SchemaError { return &SchemaError{Path: ptr, Keyword: kw, Msg: msg} }

// compileRoot compiles the document raw.
func (c *compiler) compileRoot(raw []byte) (*node, error) {
	if len(raw) > maxSchemaLen {
		return nil, serr("", "", "schema is larger than "+strconv.Itoa(maxSchemaLen)+" bytes")
	}
	doc, err := jsonx.Parse(raw)
	if err != nil {
		return nil, serr("", "", "not valid JSON: "+strings.TrimPrefix(err.Error(), "jsonx: "))
	}
	base := defaultBaseURL
	c.resources[base.String()] = loc{doc, "", base, site{}}
	if o, ok := doc.(*jsonx.Object); ok {
		// the document is also reachable under its own $id
		if b, err := withID(o, base, ""); err == nil {
			c.resources[b.String()] = loc{doc, "", base, site{}}
		}
	}
	if err := c.index(doc, base, ""); err != nil {
		return nil, err
	}
	root, err := c.compile(loc{doc, "", base, site{}})
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

// The shapes of keywords that hold subschemas.
const (
	shapeNone        = iota
	shapeSchema      // one schema: additionalProperties, items, not, ...
	shapeSchemaMap   // an object of schemas: properties, $defs, ...
	shapeSchemaArray // an array of schemas: prefixItems, allOf, anyOf, oneOf
)

// shape is the shape of keyword k.
func shape(k string) int {
	switch k {
	case "additionalProperties", "items", "contains", "propertyNames", "not", "if", "then", "else",
		"unevaluatedItems", "unevaluatedProperties", "contentSchema":
		return shapeSchema
	case "$defs", "definitions", "properties", "patternProperties", "dependentSchemas":
		return shapeSchemaMap
	case "prefixItems", "allOf", "anyOf", "oneOf":
		return shapeSchemaArray
	}
	return shapeNone
}

// annotation reports whether keyword k never affects validation.
func annotation(k string) bool {
	switch k {
	case "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment", "$schema",
		"contentEncoding", "contentMediaType", "contentSchema",
		"$id", "$anchor", "$defs", "definitions", "$dynamicAnchor", "$vocabulary":
		return true
	}
	return false
}

func ptrEsc(k string) string {
	for i := 0; i < len(k); i++ {
		if k[i] == '~' || k[i] == '/' {
			return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
		}
	}
	return k
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
		c.resources[base.String()] = loc{o, ptr, parent, site{}}
	}
	for _, kw := range []string{"$anchor", "$dynamicAnchor"} {
		if a, ok := o.Get(kw); ok {
			s, ok := a.(string)
			if !ok {
				return serr(ptr, kw, "must be a string")
			}
			key := base.String() + "#" + s
			if _, dup := c.anchors[key]; !dup || kw == "$anchor" {
				c.anchors[key] = loc{o, ptr, parent, site{}}
			}
			if kw == "$dynamicAnchor" {
				if c.dynLocs == nil {
					c.dynLocs = map[string]map[string]loc{}
				}
				m := c.dynLocs[base.String()]
				if m == nil {
					m = map[string]loc{}
					c.dynLocs[base.String()] = m
				}
				m[s] = loc{o, ptr, parent, site{}}
			}
		}
	}
	for i, k := range o.Keys {
		sub := o.Vals[i]
		switch shape(k) {
		case shapeSchema:
			if err := c.index(sub, base, ptr+"/"+ptrEsc(k)); err != nil {
				return err
			}
		case shapeSchemaMap:
			if m, ok := sub.(*jsonx.Object); ok {
				for j, name := range m.Keys {
					if err := c.index(m.Vals[j], base, ptr+"/"+ptrEsc(k)+"/"+ptrEsc(name)); err != nil {
						return err
					}
				}
			}
		case shapeSchemaArray:
			if a, ok := sub.([]any); ok {
				for j, e := range a {
					if err := c.index(e, base, ptr+"/"+ptrEsc(k)+"/"+strconv.Itoa(j)); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// resolve finds the schema a $ref of n names.
func (c *compiler) resolve(ref string, base *url.URL, n *node, kw string) (loc, error) {
	u, err := base.Parse(ref)
	if err != nil {
		return loc{}, c.nerr(n, kw, "is not a valid URI reference: "+err.Error())
	}
	frag := u.Fragment
	u.Fragment, u.RawFragment = "", ""
	doc := u.String()
	res, ok := c.resources[doc]
	if !ok {
		return loc{}, c.nerr(n, kw, "cannot resolve "+quote(ref)+": only references within the document are supported")
	}
	if frag == "" {
		return res, nil
	}
	if !strings.HasPrefix(frag, "/") {
		a, ok := c.anchors[doc+"#"+frag]
		if !ok {
			return loc{}, c.nerr(n, kw, "cannot resolve "+quote(ref)+": no such anchor")
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
				return loc{}, c.nerr(n, kw, "cannot resolve "+quote(ref)+": no "+quote(tok)+" in the document")
			}
			cur = loc{nv, cur.ptr + "/" + ptrEsc(tok), b, site{}}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return loc{}, c.nerr(n, kw, "cannot resolve "+quote(ref)+": no element "+quote(tok))
			}
			cur = loc{x[i], cur.ptr + "/" + tok, cur.base, site{}}
		default:
			return loc{}, c.nerr(n, kw, "cannot resolve "+quote(ref))
		}
	}
	return cur, nil
}

// newNode returns a node for the schema at l.
func (c *compiler) newNode(l loc) *node {
	n := new(node)
	n.id = int32(len(c.all))
	at := l.at
	if at.up == nil {
		at.kw = l.ptr
	}
	c.all = append(c.all, compiled{n, at})
	n.minLen, n.maxLen, n.minItems, n.maxItems, n.minProps, n.maxProps = -1, -1, -1, -1, -1, -1
	n.minContains, n.maxContains = -1, -1
	return n
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
		n := c.newNode(l)
		c.nodes[x] = n
		base := l.base
		if _, ok := x.Get("$id"); ok {
			var err error
			if base, err = withID(x, l.base, c.locPointer(l)); err != nil {
				return nil, err
			}
		}
		n.res = c.resourceAt(base.String())
		if err := c.fill(n, x, base); err != nil {
			return nil, err
		}
		return n, nil
	}
	return nil, serr(c.locPointer(l), "", "a schema must be an object or a boolean")
}

// resourceAt returns the dynamic-scope entry of the resource with this URI.
func (c *compiler) resourceAt(uri string) *resource {
	r := c.res[uri]
	if r == nil {
		r = &resource{}
		if c.res == nil {
			c.res = map[string]*resource{}
		}
		c.res[uri] = r
	}
	return r
}

// dynamicAnchors compiles every $dynamicAnchor into its resource, for
// $dynamicRef resolution at validation.
func (c *compiler) dynamicAnchors() error {
	for uri, m := range c.dynLocs {
		r := c.resourceAt(uri)
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

// sub compiles the subschema v that n holds under keyword kw (and, when
// named, under its member or element name).
func (c *compiler) sub(v any, base *url.URL, n *node, kw, name string, named bool) (*node, error) {
	return c.compile(loc{v: v, base: base, at: site{up: n, kw: kw, name: name, named: named}})
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
	for _, e := range c.all {
		if bad := visit(e.n); bad != nil {
			return serr(c.pointer(bad), "$ref", "references loop back to this schema without reaching into the instance")
		}
	}
	return nil
}
