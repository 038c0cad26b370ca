package schema

import (
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// Compile limits on pathological schemas.
const (
	maxPatternLen = 4096 // bytes of one pattern's source
	maxSchemaLen  = 8 << 20
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
	hasDefaults bool
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
	return &compiler{opts: o, resources: map[string]loc{}, anchors: map[string]loc{}, nodes: map[*jsonx.Object]*node{}}
}

func serr(ptr, kw, msg string) *SchemaError { return &SchemaError{Path: ptr, Keyword: kw, Msg: msg} }

func (c *compiler) compileRoot(raw []byte) (*node, error) {
	if len(raw) > maxSchemaLen {
		return nil, serr("", "", "schema is larger than "+strconv.Itoa(maxSchemaLen)+" bytes")
	}
	doc, err := jsonx.Parse(raw)
	if err != nil {
		return nil, serr("", "", "not valid JSON: "+strings.TrimPrefix(err.Error(), "jsonx: "))
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
		}
	}
	for i, k := range o.Keys {
		sub := o.Vals[i]
		p := ptr + "/" + ptrEsc(k)
		switch {
		case kwSchema[k]:
			if err := c.index(sub, base, p); err != nil {
				return err
			}
		case kwSchemaMap[k]:
			if m, ok := sub.(*jsonx.Object); ok {
				for j, name := range m.Keys {
					if err := c.index(m.Vals[j], base, p+"/"+ptrEsc(name)); err != nil {
						return err
					}
				}
			}
		case kwSchemaArray[k]:
			if a, ok := sub.([]any); ok {
				for j, e := range a {
					if err := c.index(e, base, p+"/"+strconv.Itoa(j)); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
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
		if err := c.fill(n, x, base); err != nil {
			return nil, err
		}
		return n, nil
	}
	return nil, serr(l.ptr, "", "a schema must be an object or a boolean")
}

func (c *compiler) sub(v any, base *url.URL, ptr string) (*node, error) {
	return c.compile(loc{v, ptr, base})
}

// fill compiles the keywords of schema object o into n.
func (c *compiler) fill(n *node, o *jsonx.Object, base *url.URL) error {
	ptr := n.ptr
	at := func(k string) string { return ptr + "/" + ptrEsc(k) }
	for i, k := range o.Keys {
		v := o.Vals[i]
		var err error
		switch k {
		case "$ref", "$dynamicRef":
			if k == "$dynamicRef" && c.opts.Strict {
				return serr(ptr, k, "is not supported")
			}
			s, ok := v.(string)
			if !ok {
				return serr(ptr, k, "must be a string")
			}
			l, err := c.resolve(s, base, ptr, k)
			if err != nil {
				return err
			}
			if n.ref, err = c.compile(l); err != nil {
				return err
			}
		case "type":
			err = c.types(n, v)
		case "nullable":
			b, ok := v.(bool)
			if !ok {
				return serr(ptr, k, "must be a boolean")
			}
			n.nullable = b
		case "enum":
			a, ok := v.([]any)
			if !ok {
				return serr(ptr, k, "must be an array")
			}
			c.enum(n, a, false)
			n.kw |= kwEnum
		case "const":
			c.enum(n, []any{v}, true)
			n.kw |= kwEnum
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
			num, ok := v.(json.Number)
			if !ok {
				return serr(ptr, k, "must be a number")
			}
			b := &bound{n: parseNum([]byte(num)), text: cut(string(num))}
			switch k {
			case "minimum":
				n.min = b
			case "maximum":
				n.max = b
			case "exclusiveMinimum":
				n.exMin = b
			case "exclusiveMaximum":
				n.exMax = b
			case "multipleOf":
				if b.n.isZero() || b.n.neg {
					return serr(ptr, k, "must be greater than 0")
				}
				n.multipleOf = b
			}
			n.kw |= kwNumber
		case "minLength", "maxLength", "minItems", "maxItems", "minContains", "maxContains", "minProperties", "maxProperties":
			cnt, err := count(v, ptr, k)
			if err != nil {
				return err
			}
			switch k {
			case "minLength":
				n.minLen, n.kw = cnt, n.kw|kwString
			case "maxLength":
				n.maxLen, n.kw = cnt, n.kw|kwString
			case "minItems":
				n.minItems, n.kw = cnt, n.kw|kwArray
			case "maxItems":
				n.maxItems, n.kw = cnt, n.kw|kwArray
			case "minContains":
				n.minContains = cnt
			case "maxContains":
				n.maxContains = cnt
			case "minProperties":
				n.minProps, n.kw = cnt, n.kw|kwObject
			case "maxProperties":
				n.maxProps, n.kw = cnt, n.kw|kwObject
			}
		case "pattern":
			s, ok := v.(string)
			if !ok {
				return serr(ptr, k, "must be a string")
			}
			if n.pattern, err = compilePattern(s, ptr, k); err != nil {
				return err
			}
			n.patternSrc = s
			n.kw |= kwString
		case "format":
			s, ok := v.(string)
			if !ok {
				return serr(ptr, k, "must be a string")
			}
			if c.opts.AssertFormat {
				fn := formats[s]
				if fn == nil && c.opts.Strict {
					return serr(ptr, k, "format "+quote(s)+" is not checked by the validator")
				}
				if fn != nil {
					n.format, n.formatFn = s, fn
					n.kw |= kwString
				}
			}
		case "items":
			if _, isArr := v.([]any); isArr {
				return serr(ptr, k, "must be a schema (use prefixItems for a tuple)")
			}
			if n.items, err = c.sub(v, base, at(k)); err != nil {
				return err
			}
			n.kw |= kwArray
		case "prefixItems":
			if n.prefixItems, err = c.subs(v, base, at(k)); err != nil {
				return err
			}
			n.kw |= kwArray
		case "contains":
			if n.contains, err = c.sub(v, base, at(k)); err != nil {
				return err
			}
			n.kw |= kwArray
		case "uniqueItems":
			b, ok := v.(bool)
			if !ok {
				return serr(ptr, k, "must be a boolean")
			}
			n.uniqueItems = b
			if b {
				n.kw |= kwArray
			}
		case "additionalProperties":
			if n.additional, err = c.sub(v, base, at(k)); err != nil {
				return err
			}
			n.kw |= kwObject
		case "propertyNames":
			if n.propertyNames, err = c.sub(v, base, at(k)); err != nil {
				return err
			}
			n.kw |= kwObject
		case "patternProperties":
			m, ok := v.(*jsonx.Object)
			if !ok {
				return serr(ptr, k, "must be an object")
			}
			for j, src := range m.Keys {
				re, err := compilePattern(src, ptr, k)
				if err != nil {
					return err
				}
				s, err := c.sub(m.Vals[j], base, at(k)+"/"+ptrEsc(src))
				if err != nil {
					return err
				}
				n.patternProps = append(n.patternProps, patternProp{re, s})
			}
			n.kw |= kwObject
		case "properties", "required", "dependentRequired", "dependentSchemas":
			n.kw |= kwObject // compiled below, together
		case "allOf", "anyOf", "oneOf":
			subs, err := c.subs(v, base, at(k))
			if err != nil {
				return err
			}
			if len(subs) == 0 {
				return serr(ptr, k, "must not be empty")
			}
			switch k {
			case "allOf":
				n.allOf = subs
			case "anyOf":
				n.anyOf = subs
			case "oneOf":
				n.oneOf = subs
			}
			n.kw |= kwCombine
		case "not":
			if n.not, err = c.sub(v, base, at(k)); err != nil {
				return err
			}
			n.kw |= kwCombine
		case "if", "then", "else":
			s, err := c.sub(v, base, at(k))
			if err != nil {
				return err
			}
			switch k {
			case "if":
				n.ifN = s
				n.kw |= kwCombine
			case "then":
				n.thenN = s
			case "else":
				n.elseN = s
			}
		case "default":
			n.def = jsonx.Marshal(v)
			c.hasDefaults = true
		case "$defs", "definitions":
			m, ok := v.(*jsonx.Object)
			if !ok {
				return serr(ptr, k, "must be an object")
			}
			for j, name := range m.Keys {
				if _, err := c.sub(m.Vals[j], base, at(k)+"/"+ptrEsc(name)); err != nil {
					return err
				}
			}
		default:
			if annotations[k] {
				continue
			}
			if c.opts.Strict {
				if unsupported[k] {
					return serr(ptr, k, "is not enforced by the validator")
				}
				return serr(ptr, k, "is not a known keyword")
			}
		}
		if err != nil {
			return err
		}
	}
	if err := c.objectKeys(n, o, base); err != nil {
		return err
	}
	if n.ifN == nil {
		n.thenN, n.elseN = nil, nil
	}
	if n.contains != nil && n.minContains < 0 {
		n.minContains = 1
	}
	return nil
}

// unsupported are 2020-12 keywords that Strict refuses (others are unknown).
var unsupported = map[string]bool{"unevaluatedItems": true, "unevaluatedProperties": true, "$dynamicRef": true, "dependencies": true}

func (c *compiler) subs(v any, base *url.URL, ptr string) ([]*node, error) {
	a, ok := v.([]any)
	if !ok {
		return nil, serr(ptr, "", "must be an array of schemas")
	}
	out := make([]*node, len(a))
	for i, e := range a {
		s, err := c.sub(e, base, ptr+"/"+strconv.Itoa(i))
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

var typeBits = map[string]uint8{"null": tNull, "boolean": tBool, "object": tObject, "array": tArray,
	"number": tNumber, "string": tString, "integer": tInteger}

func (c *compiler) types(n *node, v any) error {
	add := func(x any) error {
		s, _ := x.(string)
		b, ok := typeBits[s]
		if !ok {
			return serr(n.ptr, "type", "unknown type "+quote(s))
		}
		n.types |= b
		return nil
	}
	if a, ok := v.([]any); ok {
		if len(a) == 0 {
			return serr(n.ptr, "type", "must not be empty")
		}
		for _, e := range a {
			if err := add(e); err != nil {
				return err
			}
		}
		return nil
	}
	return add(v)
}

func count(v any, ptr, kw string) (int, error) {
	num, ok := v.(json.Number)
	if ok {
		d := parseNum([]byte(num))
		if !d.neg && d.isInteger() {
			if d.point > 18 {
				return 1 << 62, nil
			}
			m, e, _ := d.mantissa()
			for ; e > 0; e-- {
				m *= 10
			}
			return int(m), nil
		}
	}
	return 0, serr(ptr, kw, "must be a non-negative integer")
}

func compilePattern(src, ptr, kw string) (*regexp.Regexp, error) {
	if len(src) > maxPatternLen {
		return nil, serr(ptr, kw, "pattern is longer than "+strconv.Itoa(maxPatternLen)+" bytes")
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, serr(ptr, kw, "pattern "+quote(src)+" is not supported by Go's regexp (RE2): "+err.Error())
	}
	return re, nil
}

func (c *compiler) enum(n *node, vals []any, isConst bool) {
	n.isConst = isConst
	n.enumKw = "enum"
	if isConst {
		n.enumKw = "const"
	}
	n.enum = n.enum[:0]
	n.enumHash = n.enumHash[:0]
	allStr := true
	texts := make([]string, 0, len(vals))
	strs := make([]string, 0, len(vals))
	for _, v := range vals {
		b := jsonx.Marshal(v)
		n.enum = append(n.enum, b)
		_, h := hashValue(b, 0)
		n.enumHash = append(n.enumHash, h)
		if s, ok := v.(string); ok {
			strs = append(strs, s)
		} else {
			allStr = false
		}
		texts = append(texts, string(b))
	}
	if allStr && !isConst {
		n.enumText = enumList(strs)
		if len(strs) > 8 {
			n.enumStr = make(map[string]struct{}, len(strs))
			for _, s := range strs {
				n.enumStr[s] = struct{}{}
			}
		}
	} else if len(strs) == 0 {
		n.enumText = strings.Join(texts, " ") // numbers, booleans, null: 1 2 3
	} else {
		n.enumText = strings.Join(texts, ", ") // "a", null
	}
	n.enumText = cutN(n.enumText, 256)
}

// objectKeys compiles properties, required, dependentRequired and
// dependentSchemas, which share one table of property names.
func (c *compiler) objectKeys(n *node, o *jsonx.Object, base *url.URL) error {
	ptr := n.ptr
	idx := map[string]int{}
	var names []string
	add := func(name string) int {
		if i, ok := idx[name]; ok {
			return i
		}
		idx[name] = len(n.keys)
		n.keys = append(n.keys, keyInfo{name: name})
		return len(n.keys) - 1
	}
	if v, ok := o.Get("properties"); ok {
		m, ok := v.(*jsonx.Object)
		if !ok {
			return serr(ptr, "properties", "must be an object")
		}
		for j, name := range m.Keys {
			s, err := c.sub(m.Vals[j], base, ptr+"/properties/"+ptrEsc(name))
			if err != nil {
				return err
			}
			n.keys[add(name)].schema = s
			names = append(names, name)
		}
	}
	if v, ok := o.Get("required"); ok {
		a, ok := v.([]any)
		if !ok {
			return serr(ptr, "required", "must be an array of strings")
		}
		for _, e := range a {
			s, ok := e.(string)
			if !ok {
				return serr(ptr, "required", "must be an array of strings")
			}
			i := add(s)
			if !n.keys[i].required {
				n.keys[i].required = true
				n.required = append(n.required, i)
			}
		}
	}
	if v, ok := o.Get("dependentRequired"); ok {
		m, ok := v.(*jsonx.Object)
		if !ok {
			return serr(ptr, "dependentRequired", "must be an object")
		}
		for j, name := range m.Keys {
			a, ok := m.Vals[j].([]any)
			if !ok {
				return serr(ptr+"/dependentRequired", name, "must be an array of strings")
			}
			d := depReq{key: add(name)}
			for _, e := range a {
				s, ok := e.(string)
				if !ok {
					return serr(ptr+"/dependentRequired", name, "must be an array of strings")
				}
				d.need = append(d.need, add(s))
			}
			n.depRequired = append(n.depRequired, d)
		}
	}
	if v, ok := o.Get("dependentSchemas"); ok {
		m, ok := v.(*jsonx.Object)
		if !ok {
			return serr(ptr, "dependentSchemas", "must be an object")
		}
		for j, name := range m.Keys {
			s, err := c.sub(m.Vals[j], base, ptr+"/dependentSchemas/"+ptrEsc(name))
			if err != nil {
				return err
			}
			n.depSchemas = append(n.depSchemas, depSchema{key: add(name), schema: s})
		}
	}
	n.propNames = cutN(strings.Join(names, ", "), 512)
	if len(n.keys) > 8 {
		n.keyIndex = make(map[string]int, len(n.keys))
		for i, k := range n.keys {
			n.keyIndex[k.name] = i
		}
	}
	return nil
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
		var next []*node
		next = append(next, n.ref, n.not, n.ifN, n.thenN, n.elseN)
		next = append(next, n.allOf...)
		next = append(next, n.anyOf...)
		next = append(next, n.oneOf...)
		for _, d := range n.depSchemas {
			next = append(next, d.schema)
		}
		for _, m := range next {
			if m == nil {
				continue
			}
			if bad := visit(m); bad != nil {
				return bad
			}
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

var _ = slices.Sort[[]int]
