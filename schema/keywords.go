package schema

import (
	"encoding/json"
	"net/url"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"

	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// fill compiles the keywords of schema object o into n.
func (c *compiler) fill(n *node, o *jsonx.Object, base *url.URL) error {
	ptr := n.ptr
	at := func(k string) string { return ptr + "/" + ptrEsc(k) }
	for i, k := range o.Keys {
		v := o.Vals[i]
		var err error
		switch k {
		case "$ref", "$dynamicRef":
			s, ok := v.(string)
			if !ok {
				return serr(ptr, k, "must be a string")
			}
			l, err := c.resolve(s, base, ptr, k)
			if err != nil {
				return err
			}
			target, err := c.compile(l)
			if err != nil {
				return err
			}
			if k == "$ref" {
				n.ref = target
				break
			}
			n.dynRef = target
			// Dynamic only when the fragment is a plain name that the
			// static target declares as its $dynamicAnchor.
			if _, frag, ok := strings.Cut(s, "#"); ok && frag != "" && !strings.HasPrefix(frag, "/") {
				if o, ok := l.v.(*jsonx.Object); ok {
					if a, ok := o.Get("$dynamicAnchor"); ok && a == frag {
						n.dynName = frag
						c.dynamic = true
					}
				}
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
			n.enum = newValueSet(a, false)
			n.kw |= kwEnum
		case "const":
			n.constV = newValueSet([]any{v}, true)
			n.kw |= kwEnum
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
			num, ok := v.(json.Number)
			if !ok {
				return serr(ptr, k, "must be a number")
			}
			b := &bound{n: parseNum([]byte(num)), text: cut(string(num))}
			b.i, b.isInt = smallInt([]byte(num))
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
		case "unevaluatedProperties":
			if n.unevalProps, err = c.sub(v, base, at(k)); err != nil {
				return err
			}
			n.kw |= kwObject
		case "unevaluatedItems":
			if n.unevalItems, err = c.sub(v, base, at(k)); err != nil {
				return err
			}
			n.kw |= kwArray
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
	n.intBounds = true
	for _, b := range []*bound{n.min, n.max, n.exMin, n.exMax} {
		if b != nil && !b.isInt {
			n.intBounds = false
		}
	}
	if n.contains != nil && n.minContains < 0 {
		n.minContains = 1
	}
	return nil
}

// unsupported are 2020-12 keywords that Strict refuses (others are unknown).
var unsupported = map[string]bool{"dependencies": true}

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

func compilePattern(src, ptr, kw string) (*pattern, error) {
	if len(src) > maxPatternLen {
		return nil, serr(ptr, kw, "pattern is longer than "+strconv.Itoa(maxPatternLen)+" bytes")
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, serr(ptr, kw, "pattern "+quote(src)+" is not supported by Go's regexp (RE2): "+err.Error())
	}
	// The work of a match is up to (input bytes) x (program size): bound
	// the program, and Validate bounds the product (maxMatchWork).
	tree, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil, serr(ptr, kw, "pattern "+quote(src)+": "+err.Error())
	}
	prog, err := syntax.Compile(tree.Simplify())
	if err != nil {
		return nil, serr(ptr, kw, "pattern "+quote(src)+": "+err.Error())
	}
	if len(prog.Inst) > maxPatternProg {
		return nil, serr(ptr, kw, "pattern "+quote(src)+" is too complex ("+strconv.Itoa(len(prog.Inst))+
			" RE2 instructions, the limit is "+strconv.Itoa(maxPatternProg)+")")
	}
	return &pattern{re: re, src: src, cost: len(prog.Inst)}, nil
}

func newValueSet(vals []any, isConst bool) *valueSet {
	vs := &valueSet{isConst: isConst, vals: make([][]byte, 0, len(vals)), hashes: make([]uint64, 0, len(vals))}
	allStr := true
	strs := make([]string, 0, len(vals))
	for _, v := range vals {
		b := jsonx.Marshal(v)
		vs.vals = append(vs.vals, b)
		_, h := hashValue(b, 0)
		vs.hashes = append(vs.hashes, h)
		if s, ok := v.(string); ok {
			strs = append(strs, s)
		} else {
			allStr = false
		}
	}
	var texts []string // the values' JSON, when not all are strings
	if !allStr || isConst {
		texts = make([]string, len(vs.vals))
		for i, b := range vs.vals {
			texts[i] = string(b)
		}
	}
	switch {
	case allStr && !isConst:
		vs.text = enumList(strs)
		if len(strs) > 8 {
			vs.strs = make(map[string]struct{}, len(strs))
			for _, s := range strs {
				vs.strs[s] = struct{}{}
			}
		}
	case len(strs) == 0:
		vs.text = strings.Join(texts, " ") // numbers, booleans, null: 1 2 3
	default:
		vs.text = strings.Join(texts, ", ") // "a", null
	}
	vs.text = cutN(vs.text, 256)
	return vs
}

// objectKeys compiles properties, required, dependentRequired and
// dependentSchemas, which share one table of property names.
func (c *compiler) objectKeys(n *node, o *jsonx.Object, base *url.URL) error {
	ptr := n.ptr
	props, hasProps := o.Get("properties")
	var idx map[string]int
	var names []string
	if m, ok := props.(*jsonx.Object); ok && len(m.Keys) > 0 {
		idx = make(map[string]int, len(m.Keys))
		names = make([]string, 0, len(m.Keys))
		n.keys = make([]keyInfo, 0, len(m.Keys))
	} else {
		idx = map[string]int{}
	}
	add := func(name string) int {
		if i, ok := idx[name]; ok {
			return i
		}
		idx[name] = len(n.keys)
		n.keys = append(n.keys, keyInfo{name: name})
		return len(n.keys) - 1
	}
	if hasProps {
		m, ok := props.(*jsonx.Object)
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
