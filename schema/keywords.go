package schema

import (
	"bytes"
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
	objKeys := false // properties, required, dependentRequired or dependentSchemas
	for i, k := range o.Keys {
		v := o.Vals[i]
		var err error
		switch k {
		case "$ref", "$dynamicRef":
			s, ok := v.(string)
			if !ok {
				return c.nerr(n, k, "must be a string")
			}
			l, err := c.resolve(s, base, n, k)
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
				return c.nerr(n, k, "must be a boolean")
			}
			n.nullable = b
		case "enum":
			a, ok := v.([]any)
			if !ok {
				return c.nerr(n, k, "must be an array")
			}
			n.enum = newValueSet(a, false)
			n.kw |= kwEnum
		case "const":
			n.constV = newValueSet([]any{v}, true)
			n.kw |= kwEnum
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
			num, ok := v.(json.Number)
			if !ok {
				return c.nerr(n, k, "must be a number")
			}
			b := newBound(num)
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
					return c.nerr(n, k, "must be greater than 0")
				}
				n.multipleOf = b
			}
			n.kw |= kwNumber
		case "minLength", "maxLength", "minItems", "maxItems", "minContains", "maxContains", "minProperties", "maxProperties":
			cnt, err := c.count(v, n, k)
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
				return c.nerr(n, k, "must be a string")
			}
			if n.pattern, err = c.compilePattern(s, n, k); err != nil {
				return err
			}
			n.kw |= kwString
		case "format":
			s, ok := v.(string)
			if !ok {
				return c.nerr(n, k, "must be a string")
			}
			if c.opts.AssertFormat {
				fn := formats[s]
				if fn == nil && c.opts.Strict {
					return c.nerr(n, k, "format "+quote(s)+" is not checked by the validator")
				}
				if fn != nil {
					n.format, n.formatFn = s, fn
					n.kw |= kwString
				}
			}
		case "items":
			if _, isArr := v.([]any); isArr {
				return c.nerr(n, k, "must be a schema (use prefixItems for a tuple)")
			}
			if n.items, err = c.sub(v, base, n, k, "", false); err != nil {
				return err
			}
			n.kw |= kwArray
		case "prefixItems":
			if n.prefixItems, err = c.subs(v, base, n, k); err != nil {
				return err
			}
			n.kw |= kwArray
		case "contains":
			if n.contains, err = c.sub(v, base, n, k, "", false); err != nil {
				return err
			}
			n.kw |= kwArray
		case "uniqueItems":
			b, ok := v.(bool)
			if !ok {
				return c.nerr(n, k, "must be a boolean")
			}
			n.uniqueItems = b
			if b {
				n.kw |= kwArray
			}
		case "additionalProperties":
			if n.additional, err = c.sub(v, base, n, k, "", false); err != nil {
				return err
			}
			n.kw |= kwObject
		case "unevaluatedProperties":
			if n.unevalProps, err = c.sub(v, base, n, k, "", false); err != nil {
				return err
			}
			n.kw |= kwObject
		case "unevaluatedItems":
			if n.unevalItems, err = c.sub(v, base, n, k, "", false); err != nil {
				return err
			}
			n.kw |= kwArray
		case "propertyNames":
			if n.propertyNames, err = c.sub(v, base, n, k, "", false); err != nil {
				return err
			}
			n.kw |= kwObject
		case "patternProperties":
			m, ok := v.(*jsonx.Object)
			if !ok {
				return c.nerr(n, k, "must be an object")
			}
			for j, src := range m.Keys {
				re, err := c.compilePattern(src, n, k)
				if err != nil {
					return err
				}
				s, err := c.sub(m.Vals[j], base, n, k, src, true)
				if err != nil {
					return err
				}
				n.patternProps = append(n.patternProps, patternProp{re, s})
			}
			n.kw |= kwObject
		case "properties", "required", "dependentRequired", "dependentSchemas":
			n.kw |= kwObject // compiled below, together
			objKeys = true
		case "allOf", "anyOf", "oneOf":
			subs, err := c.subs(v, base, n, k)
			if err != nil {
				return err
			}
			if len(subs) == 0 {
				return c.nerr(n, k, "must not be empty")
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
			if n.not, err = c.sub(v, base, n, k, "", false); err != nil {
				return err
			}
			n.notText = cutN(string(jsonx.Marshal(v)), maxNotText)
			n.kw |= kwCombine
		case "if", "then", "else":
			s, err := c.sub(v, base, n, k, "", false)
			if err != nil {
				return err
			}
			switch k {
			case "if":
				n.ifText = cutN(string(jsonx.Marshal(v)), maxNotText)
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
				return c.nerr(n, k, "must be an object")
			}
			for j, name := range m.Keys {
				if _, err := c.sub(m.Vals[j], base, n, k, name, true); err != nil {
					return err
				}
			}
		default:
			if annotation(k) {
				continue
			}
			if c.opts.Strict {
				if k == "dependencies" { // 2020-12 moved it to dependentRequired/dependentSchemas
					return c.nerr(n, k, "is not enforced by the validator")
				}
				return c.nerr(n, k, "is not a known keyword")
			}
		}
		if err != nil {
			return err
		}
	}
	if objKeys {
		if err := c.objectKeys(n, o, base); err != nil {
			return err
		}
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

// newBound returns the bound written num.
func newBound(num json.Number) *bound {
	t := []byte(num)
	b := &bound{n: parseNum(t), text: cut(string(num))}
	b.i, b.isInt = smallInt(t)
	return b
}

// subs compiles the array of subschemas v that n holds under keyword kw.
func (c *compiler) subs(v any, base *url.URL, n *node, kw string) ([]*node, error) {
	a, ok := v.([]any)
	if !ok {
		return nil, serr(c.sitePointer(site{up: n, kw: kw}), "", "must be an array of schemas")
	}
	out := make([]*node, len(a))
	for i, e := range a {
		s, err := c.sub(e, base, n, kw, strconv.Itoa(i), true)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// typeBit is the bit of a "type" name, 0 for an unknown one.
func typeBit(s string) uint8 {
	switch s {
	case "null":
		return tNull
	case "boolean":
		return tBool
	case "object":
		return tObject
	case "array":
		return tArray
	case "number":
		return tNumber
	case "string":
		return tString
	case "integer":
		return tInteger
	}
	return 0
}

func (c *compiler) types(n *node, v any) error {
	if a, ok := v.([]any); ok {
		if len(a) == 0 {
			return c.nerr(n, "type", "must not be empty")
		}
		for _, e := range a {
			if err := c.addType(n, e); err != nil {
				return err
			}
		}
		return nil
	}
	return c.addType(n, v)
}

// addType adds the type named x to n.types.
func (c *compiler) addType(n *node, x any) error {
	s, _ := x.(string)
	b := typeBit(s)
	if b == 0 {
		return c.nerr(n, "type", "unknown type "+quote(s))
	}
	n.types |= b
	return nil
}

func (c *compiler) count(v any, n *node, kw string) (int, error) {
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
	return 0, c.nerr(n, kw, "must be a non-negative integer")
}

func (c *compiler) compilePattern(src string, n *node, kw string) (*pattern, error) {
	if len(src) > maxPatternLen {
		return nil, c.nerr(n, kw, "pattern is longer than "+strconv.Itoa(maxPatternLen)+" bytes")
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, c.nerr(n, kw, "pattern "+quote(src)+" is not supported by Go's regexp (RE2): "+err.Error())
	}
	// The work of a match is up to (input bytes) x (program size): bound
	// the program, and Validate bounds the product (maxMatchWork).
	tree, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil, c.nerr(n, kw, "pattern "+quote(src)+": "+err.Error())
	}
	prog, err := syntax.Compile(tree.Simplify())
	if err != nil {
		return nil, c.nerr(n, kw, "pattern "+quote(src)+": "+err.Error())
	}
	if len(prog.Inst) > maxPatternProg {
		return nil, c.nerr(n, kw, "pattern "+quote(src)+" is too complex ("+strconv.Itoa(len(prog.Inst))+
			" RE2 instructions, the limit is "+strconv.Itoa(maxPatternProg)+")")
	}
	return &pattern{re: re, src: src, cost: len(prog.Inst)}, nil
}

func newValueSet(vals []any, isConst bool) *valueSet {
	vs := &valueSet{isConst: isConst}
	var strs []string
	for _, v := range vals {
		b := jsonx.Append(nil, v)
		_, h := hashValue(b, 0)
		vs.vals, vs.hashes = append(vs.vals, b), append(vs.hashes, h)
		if s, ok := v.(string); ok {
			strs = append(strs, s)
		}
	}
	var t []byte
	switch {
	case len(strs) == len(vals) && !isConst:
		t = []byte(enumList(strs))
	case len(strs) == 0:
		t = bytes.Join(vs.vals, []byte(" ")) // numbers, booleans, null: 1 2 3
	default:
		t = bytes.Join(vs.vals, []byte(", ")) // "a", null
	}
	vs.text = cutN(string(t), 256)
	return vs
}

// objectKeys compiles properties, required, dependentRequired and
// dependentSchemas, which share one table of property names.
func (c *compiler) objectKeys(n *node, o *jsonx.Object, base *url.URL) error {
	props, hasProps := o.Get("properties")
	kt := keyTable{n: n, idx: map[string]int{}}
	if hasProps {
		m, ok := props.(*jsonx.Object)
		if !ok {
			return c.nerr(n, "properties", "must be an object")
		}
		for j, name := range m.Keys {
			s, err := c.sub(m.Vals[j], base, n, "properties", name, true)
			if err != nil {
				return err
			}
			n.keys[kt.add(name)].schema = s
		}
		n.propNames = cutN(strings.Join(m.Keys, ", "), 512)
	}
	if v, ok := o.Get("required"); ok {
		a, ok := v.([]any)
		if !ok {
			return c.nerr(n, "required", "must be an array of strings")
		}
		for _, e := range a {
			s, ok := e.(string)
			if !ok {
				return c.nerr(n, "required", "must be an array of strings")
			}
			i := kt.add(s)
			if !n.keys[i].required {
				n.keys[i].required = true
				n.required = append(n.required, i)
			}
		}
	}
	if v, ok := o.Get("dependentRequired"); ok {
		m, ok := v.(*jsonx.Object)
		if !ok {
			return c.nerr(n, "dependentRequired", "must be an object")
		}
		for j, name := range m.Keys {
			a, ok := m.Vals[j].([]any)
			if !ok {
				return serr(c.pointer(n)+"/dependentRequired", name, "must be an array of strings")
			}
			d := depReq{key: kt.add(name)}
			for _, e := range a {
				s, ok := e.(string)
				if !ok {
					return serr(c.pointer(n)+"/dependentRequired", name, "must be an array of strings")
				}
				d.need = append(d.need, kt.add(s))
			}
			n.depRequired = append(n.depRequired, d)
		}
	}
	if v, ok := o.Get("dependentSchemas"); ok {
		m, ok := v.(*jsonx.Object)
		if !ok {
			return c.nerr(n, "dependentSchemas", "must be an object")
		}
		for j, name := range m.Keys {
			s, err := c.sub(m.Vals[j], base, n, "dependentSchemas", name, true)
			if err != nil {
				return err
			}
			n.depSchemas = append(n.depSchemas, depSchema{key: kt.add(name), schema: s})
		}
	}
	n.keyIndex = kt.idx
	return nil
}

// keyTable adds names to n.keys once each; idx maps them to their index.
type keyTable struct {
	n   *node
	idx map[string]int
}

// add returns the index of name in n.keys, appending it when new.
func (kt *keyTable) add(name string) int {
	if i, ok := kt.idx[name]; ok {
		return i
	}
	kt.idx[name] = len(kt.n.keys)
	kt.n.keys = append(kt.n.keys, keyInfo{name: name})
	return len(kt.n.keys) - 1
}
