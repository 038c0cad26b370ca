package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// This file is Gemini's "parameters" rewrite: every rule listed on
// [Gemini] is written here (geminiRewriter.node, .ref and .dropped), with
// the description hints that state dropped rules.

// geminiKeywords is the one allowlist of schema keywords Gemini's
// "parameters" accepts: exactly the JSON fields of genai.Schema
// (google.golang.org/genai v1.77.0, types.go), Gemini's OpenAPI 3.0 subset.
// The proto parser behind the API rejects any other key ("Unknown name
// \"additionalProperties\" … Cannot find field"). Sorted.
var geminiKeywords = []string{
	"anyOf", "default", "description", "enum", "example", "format", "items",
	"maxItems", "maxLength", "maxProperties", "maximum", "minItems", "minLength",
	"minProperties", "minimum", "nullable", "pattern", "properties",
	"propertyOrdering", "required", "title", "type",
}

var geminiAllowed = func() map[string]bool {
	m := make(map[string]bool, len(geminiKeywords))
	for _, k := range geminiKeywords {
		m[k] = true
	}
	return m
}()

// GeminiKeywords returns the schema keywords [Gemini] may emit in
// "parameters", sorted: the JSON fields of genai.Schema. Every other
// keyword is rewritten or dropped. The slice is a copy.
func GeminiKeywords() []string { return slices.Clone(geminiKeywords) }

// ErrHiddenRule is the sentinel cause of the *SchemaError
// [GeminiWith] returns with GeminiOptions.RefuseHidden for a schema
// keyword Execute enforces that Gemini's "parameters" can neither keep nor
// state as a description hint (allOf, not, if/then/else, …; the list is on
// [Gemini]).
var ErrHiddenRule = errors.New("schema rule cannot be shown to the model")

// geminiHidden are the keywords Execute enforces that Gemini drops without
// a hint: GeminiOptions.RefuseHidden refuses them. "then" and "else" count
// only beside an "if", and contains also covers minContains/maxContains.
var geminiHidden = map[string]bool{
	"allOf": true, "not": true, "if": true, "then": true, "else": true,
	"contains": true, "prefixItems": true, "patternProperties": true,
	"propertyNames": true, "dependentSchemas": true,
	"unevaluatedProperties": true, "unevaluatedItems": true, "$dynamicRef": true,
}

// geminiSchema returns the "parameters" form of the schema in, or nil when
// the tool takes no parameters. depth is GeminiOptions.RecursionDepth,
// ordering GeminiOptions.PropertyOrdering; with refuse
// (GeminiOptions.RefuseHidden), a rule Execute enforces that the output
// cannot show is an error wrapping ErrHiddenRule.
func geminiSchema(in []byte, depth int, ordering, refuse bool) (json.RawMessage, error) {
	root, err := parseSchema(in)
	if err != nil {
		return nil, err
	}
	g := &geminiRewriter{root: root, depth: depth, ordering: ordering, refuse: refuse}
	out, err := g.node(root, "")
	if err != nil {
		return nil, err
	}
	if _, ok := out.Get("properties"); !ok {
		// No-argument tool: Gemini wants no "parameters".
		if refuse && rootRules(root, out) {
			return nil, &SchemaError{Msg: `the root has no properties, so Gemini gets no "parameters" and cannot be shown the rules Execute enforces on the root object (use GeminiOptions.JSONSchema)`, Err: ErrHiddenRule}
		}
		return nil, nil
	}
	return jsonx.Marshal(out), nil
}

// geminiMaxNodes bounds the schema nodes one rewrite may produce: inlining
// $refs can grow a schema exponentially (a definition that uses the next
// one twice, thirty times over), and tools loaded from MCP servers carry
// schemas nobody here wrote.
const geminiMaxNodes = 50000

type geminiRewriter struct {
	root     *jsonx.Object
	depth    int
	ordering bool
	refuse   bool // GeminiOptions.RefuseHidden
	nodes    int
	stack    []string // $refs being inlined
}

func (g *geminiRewriter) node(v any, path string) (*jsonx.Object, error) {
	if g.nodes++; g.nodes > geminiMaxNodes {
		return nil, &SchemaError{Path: path, Msg: fmt.Sprintf("inlining $ref produces more than %d schema nodes", geminiMaxNodes), Err: ErrSchemaLimit}
	}
	o, ok := v.(*jsonx.Object)
	if !ok {
		switch v {
		case true:
			return anyValue(nil), nil
		case false:
			return nil, &SchemaError{Path: path, Msg: "the boolean schema false cannot be expressed for Gemini (no value is valid)", Err: ErrUnsupportedSchema}
		}
		return nil, notSchema(v, path, nil)
	}
	if ref, ok := o.Get("$ref"); ok {
		return g.ref(o, ref, path)
	}

	out := &jsonx.Object{}
	typ := ""       // upper-case single type, "" when none
	var multi []any // several non-null types -> anyOf
	nullable := false
	if t, ok := o.Get("type"); ok {
		var list []any
		switch t := t.(type) {
		case string:
			list = []any{t}
		case []any:
			list = t
		default:
			return nil, &SchemaError{Path: path + "/type", Msg: "type is neither a string nor an array", Err: ErrUnsupportedSchema}
		}
		for _, e := range list {
			if s, _ := e.(string); !jsonTypes[strings.ToLower(s)] {
				return nil, &SchemaError{Path: path + "/type", Msg: fmt.Sprintf("%s is not a JSON Schema type", jsonx.Marshal(e)), Err: ErrUnsupportedSchema}
			}
		}
		switch t := t.(type) {
		case string:
			typ = strings.ToUpper(t)
		case []any:
			var names []string
			for _, e := range t {
				s, _ := e.(string)
				if strings.EqualFold(s, "null") {
					nullable = true
					continue
				}
				names = append(names, strings.ToUpper(s))
			}
			switch len(names) {
			case 0:
				typ = "NULL"
			case 1:
				typ = names[0]
			default:
				for _, n := range names {
					multi = append(multi, &jsonx.Object{Keys: []string{"type"}, Vals: []any{n}})
				}
			}
		}
	}
	if n, ok := o.Get("nullable"); ok && n == true {
		nullable = true
	}
	var props *jsonx.Object
	var required []any
	hasRequired := false
	var enum []any
	hasEnum := false
	var inOrder []any // the input's propertyOrdering
	hasOrder := false
	var hints ruleHints // dropped rules Execute enforces
	for i, k := range o.Keys {
		val := o.Vals[i]
		p := path + "/" + pointerToken(k)
		switch k {
		case "type":
			if multi != nil {
				out.Keys, out.Vals = append(out.Keys, "anyOf"), append(out.Vals, multi)
			} else {
				out.Keys, out.Vals = append(out.Keys, "type"), append(out.Vals, typ)
			}
		case "nullable":
			// emitted once, after the type
		case "const":
			hasEnum, enum = true, append(enum, val)
		case "enum":
			arr, ok := val.([]any)
			if !ok {
				return nil, &SchemaError{Path: p, Msg: "enum is not an array", Err: ErrUnsupportedSchema}
			}
			hasEnum, enum = true, append(enum, arr...)
		case "anyOf", "oneOf":
			arr, ok := val.([]any)
			if !ok {
				return nil, &SchemaError{Path: p, Msg: k + " is not an array", Err: ErrUnsupportedSchema}
			}
			var alts []any
			for j, a := range arr {
				c, err := g.node(a, p+"/"+strconv.Itoa(j))
				if err != nil {
					return nil, err
				}
				if len(c.Keys) == 1 && c.Keys[0] == "type" && c.Vals[0] == "NULL" {
					nullable = true
					continue
				}
				alts = append(alts, c)
			}
			if k == "oneOf" && len(alts) > 1 && g.refuse && !disjointTypes(alts) {
				return nil, &SchemaError{Path: p, Msg: `"oneOf" with several alternatives is enforced by Execute (exactly one must match) but Gemini's "parameters" can only show anyOf (use GeminiOptions.JSONSchema)`, Err: ErrHiddenRule}
			}
			if len(alts) > 0 {
				out.Keys, out.Vals = append(out.Keys, "anyOf"), append(out.Vals, alts)
			}
		case "properties":
			po, ok := val.(*jsonx.Object)
			if !ok {
				return nil, &SchemaError{Path: p, Msg: "properties is not an object", Err: ErrUnsupportedSchema}
			}
			props = &jsonx.Object{}
			for j, name := range po.Keys {
				c, err := g.node(po.Vals[j], p+"/"+pointerToken(name))
				if err != nil {
					return nil, err
				}
				props.Keys, props.Vals = append(props.Keys, name), append(props.Vals, c)
			}
			if len(props.Keys) > 0 {
				out.Keys, out.Vals = append(out.Keys, "properties"), append(out.Vals, props)
			}
		case "propertyOrdering":
			if inOrder, ok = val.([]any); !ok {
				return nil, &SchemaError{Path: p, Msg: "propertyOrdering is not an array", Err: ErrUnsupportedSchema}
			}
			hasOrder = true
		case "required":
			hasRequired = true
			required, _ = val.([]any)
		case "items":
			if _, ok := val.([]any); ok {
				return nil, &SchemaError{Path: p, Msg: `"items" is an array of schemas (the tuple form of drafts before 2020-12), which Gemini cannot express`, Err: ErrUnsupportedSchema}
			}
			c, err := g.node(val, p)
			if err != nil {
				return nil, err
			}
			out.Keys, out.Vals = append(out.Keys, "items"), append(out.Vals, c)
		case "format":
			if f, _ := val.(string); f == "date-time" || f == "enum" {
				out.Keys, out.Vals = append(out.Keys, k), append(out.Vals, val)
			} else if assertedFormats[f] {
				hints.format = f
			}
		default:
			if geminiAllowed[k] {
				out.Keys, out.Vals = append(out.Keys, k), append(out.Vals, val)
			} else if err := g.dropped(o, k, val, p, &hints); err != nil {
				return nil, err
			}
			// anything else is not a Gemini keyword: dropped, stated in
			// the description when Execute enforces it (see dropped)
		}
	}

	if hasEnum {
		var strs []any
		var others []string
		for _, e := range enum {
			switch e := e.(type) {
			case nil:
				nullable = true
			case string:
				strs = append(strs, e)
			default:
				others = append(others, string(jsonx.Marshal(e)))
			}
		}
		switch {
		case len(others) == 0 && len(strs) > 0:
			if typ == "" && multi == nil {
				typ = "STRING"
				out.Keys, out.Vals = append([]string{"type"}, out.Keys...), append([]any{"STRING"}, out.Vals...)
			} else if typ != "STRING" {
				typ = "STRING"
				out.Set("type", "STRING")
			}
			out.Set("enum", strs)
		case len(others) > 0:
			all := others
			if len(strs) > 0 {
				all = nil
				for _, e := range enum {
					if e != nil {
						all = append(all, string(jsonx.Marshal(e)))
					}
				}
			}
			note := "Allowed values: " + strings.Join(all, ", ") + "."
			if d, ok := out.Get("description"); ok {
				if s, _ := d.(string); s != "" {
					note = sentence(s, note)
				}
			}
			if typ == "" && multi == nil {
				typ = inferType(enum)
				out.Keys, out.Vals = append([]string{"type"}, out.Keys...), append([]any{typ}, out.Vals...)
			}
			out.Set("description", note)
		}
	}

	if typ == "" && multi == nil {
		if _, ok := out.Get("anyOf"); !ok {
			switch {
			case props != nil:
				typ = "OBJECT"
			case hasKey(out, "items"):
				typ = "ARRAY"
			default:
				res := anyJSONValue(out, nullable)
				hints.apply(res)
				return res, nil
			}
			out.Keys, out.Vals = append([]string{"type"}, out.Keys...), append([]any{typ}, out.Vals...)
		}
	}
	if nullable {
		i := indexOf(out, "type") + 1 // 0 when there is no type: nullable goes first
		out.Keys = slices.Insert(out.Keys, i, "nullable")
		out.Vals = slices.Insert(out.Vals, i, any(true))
	}
	if typ == "ARRAY" && !hasKey(out, "items") {
		out.Set("items", anyValue(nil))
	}
	if props != nil && len(props.Keys) > 0 && (hasOrder || g.ordering) {
		if order := propertyOrder(props, inOrder, g.ordering); len(order) > 1 || (hasOrder && len(order) > 0) {
			i := indexOf(out, "properties") + 1
			out.Keys = slices.Insert(out.Keys, i, "propertyOrdering")
			out.Vals = slices.Insert(out.Vals, i, any(order))
		}
	}
	for _, r := range required {
		// Execute requires these too, but "required" may only name properties.
		if name, ok := r.(string); ok && (props == nil || !hasKey(props, name)) && !slices.Contains(hints.keys, cutHint(name, hintValueMax)) {
			hints.keys = append(hints.keys, cutHint(name, hintValueMax))
		}
	}
	if hasRequired && props != nil {
		var req []any
		for _, r := range required {
			if name, ok := r.(string); ok && hasKey(props, name) && !slices.Contains(req, any(name)) {
				req = append(req, name)
			}
		}
		if len(req) > 0 {
			out.Set("required", req)
		}
	}
	hints.apply(out)
	return out, nil
}

// ref inlines the target of a $ref node, keeping its sibling description
// and title.
func (g *geminiRewriter) ref(o *jsonx.Object, ref any, path string) (*jsonx.Object, error) {
	r, _ := ref.(string)
	target, _, err := followRefs(g.root, r, path+"/$ref")
	if err != nil {
		return nil, err
	}
	seen := 0
	for _, s := range g.stack {
		if s == r {
			seen++
		}
	}
	var out *jsonx.Object
	if seen >= g.depth {
		if g.refuse {
			return nil, &SchemaError{Path: path + "/$ref", Msg: fmt.Sprintf("the recursive $ref %q is cut after %d levels: Execute checks deeper levels that Gemini's \"parameters\" cannot show (use GeminiOptions.JSONSchema)", r, g.depth), Err: ErrHiddenRule}
		}
		// Recursion cut: an object the model cannot look into.
		out = &jsonx.Object{Keys: []string{"type"}, Vals: []any{"OBJECT"}}
		if to, ok := target.(*jsonx.Object); ok {
			if t, ok := to.Get("type"); ok {
				if s, ok := t.(string); ok {
					out.Vals[0] = strings.ToUpper(s)
				}
			}
			if d, ok := to.Get("description"); ok {
				out.Set("description", d)
			}
		}
	} else {
		g.stack = append(g.stack, r)
		out, err = g.node(target, path)
		g.stack = g.stack[:len(g.stack)-1]
		if err != nil {
			return nil, err
		}
	}
	for i, k := range o.Keys {
		switch k {
		case "title":
			out.Set(k, o.Vals[i])
		case "description":
			// The sibling description replaces the target's own, but not
			// the sentences the rewrite added to it (hints, "Allowed
			// values: …", "Any JSON value.").
			d := o.Vals[i]
			if add := addedText(target, out); add != "" {
				if s, ok := d.(string); ok && s != "" {
					d = sentence(s, add)
				} else {
					d = add
				}
			}
			out.Set(k, d)
		}
	}
	return out, nil
}

func anyValue(desc any) *jsonx.Object {
	d := "Any JSON value."
	if s, ok := desc.(string); ok && s != "" {
		d = sentence(s, d)
	}
	return &jsonx.Object{Keys: []string{"type", "description"}, Vals: []any{"STRING", d}}
}

// anyJSONValue turns the keywords of an untyped node into the STRING schema
// Gemini gets for "any JSON value".
func anyJSONValue(kw *jsonx.Object, nullable bool) *jsonx.Object {
	res := &jsonx.Object{Keys: []string{"type"}, Vals: []any{"STRING"}}
	if nullable {
		res.Keys, res.Vals = append(res.Keys, "nullable"), append(res.Vals, true)
	}
	described := false
	for i, k := range kw.Keys {
		v := kw.Vals[i]
		if k == "description" {
			v, described = anyValue(v).Vals[1], true
		}
		res.Keys, res.Vals = append(res.Keys, k), append(res.Vals, v)
	}
	if !described {
		res.Keys, res.Vals = append(res.Keys, "description"), append(res.Vals, anyValue(nil).Vals[1])
	}
	return res
}

// inferType names the Gemini type of untyped enum values.
func inferType(vals []any) string {
	for _, v := range vals {
		switch v := v.(type) {
		case json.Number:
			if strings.ContainsAny(string(v), ".eE") {
				return "NUMBER"
			}
			return "INTEGER"
		case bool:
			return "BOOLEAN"
		case string:
			return "STRING"
		}
	}
	return "STRING"
}

// propertyOrder returns the propertyOrdering of an object with the
// rewritten properties props: the names of the input's propertyOrdering
// that are properties, each once, in its order; with all, followed by the
// remaining properties in schema order.
func propertyOrder(props *jsonx.Object, in []any, all bool) []string {
	order := make([]string, 0, len(props.Keys))
	for _, e := range in {
		if name, ok := e.(string); ok && hasKey(props, name) && !slices.Contains(order, name) {
			order = append(order, name)
		}
	}
	if all {
		for _, name := range props.Keys {
			if !slices.Contains(order, name) {
				order = append(order, name)
			}
		}
	}
	return order
}

// dropped records the hint for the keyword k (value v, at JSON Pointer p)
// of the node o, which Gemini does not take. With refuse, a keyword
// Execute enforces that no hint can state is an error wrapping
// ErrHiddenRule.
func (g *geminiRewriter) dropped(o *jsonx.Object, k string, v any, p string, h *ruleHints) error {
	switch k {
	case "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "uniqueItems", "contentEncoding":
		h.drop(k, v)
	case "additionalProperties":
		return g.valuesHint(o, v, p, h)
	case "dependentRequired":
		return g.dependsHint(v, p, h)
	case "then", "else":
		if _, ok := o.Get("if"); ok && g.refuse {
			return hidden(p, k)
		}
	default:
		if geminiHidden[k] && g.refuse {
			return hidden(p, k)
		}
	}
	return nil
}

func hidden(p, k string) error {
	return &SchemaError{Path: p, Msg: fmt.Sprintf("%q is enforced by Execute but Gemini's \"parameters\" cannot show it (use GeminiOptions.JSONSchema)", k), Err: ErrHiddenRule}
}

// valuesHint states the type of an additionalProperties schema: "Each
// value must be of type integer." (an object without properties, a map) or
// "Any other property must be of type integer.". false and true carry no
// hint: an object's properties are the whole list the model is shown, and
// Execute refuses other keys anyway. With refuse, a value schema with more
// than one type, description and title is refused.
func (g *geminiRewriter) valuesHint(o *jsonx.Object, v any, p string, h *ruleHints) error {
	vo, ok := v.(*jsonx.Object)
	if !ok || len(vo.Keys) == 0 {
		return nil // true, false, {}
	}
	typ := ""
	plain := true
	for i, k := range vo.Keys {
		switch k {
		case "type":
			if s, ok := vo.Vals[i].(string); ok && jsonTypes[strings.ToLower(s)] {
				typ = strings.ToLower(s)
			} else {
				plain = false
			}
		case "description", "title":
		default:
			plain = false
		}
	}
	if g.refuse && (!plain || typ == "") {
		return &SchemaError{Path: p, Msg: `the schema of "additionalProperties" is enforced by Execute but Gemini's "parameters" can only show its type (use GeminiOptions.JSONSchema)`, Err: ErrHiddenRule}
	}
	if typ == "" {
		return nil
	}
	if po, ok := o.Get("properties"); ok {
		if po, ok := po.(*jsonx.Object); ok && len(po.Keys) > 0 {
			h.values = "Any other property must be of type " + typ + "."
			return nil
		}
	}
	h.values = "Each value must be of type " + typ + "."
	return nil
}

// dependsHint states dependentRequired, one sentence per property in key
// order: "If a is given, b and c must be given too.".
func (g *geminiRewriter) dependsHint(v any, p string, h *ruleHints) error {
	do, ok := v.(*jsonx.Object)
	if !ok {
		return nil // Execute cannot compile it either
	}
	for i, name := range do.Keys {
		arr, _ := do.Vals[i].([]any)
		var names []string
		for _, e := range arr {
			if s, ok := e.(string); ok {
				names = append(names, cutHint(s, hintValueMax))
			}
		}
		if len(names) == 0 {
			continue
		}
		h.depends = append(h.depends, capSentence("If "+cutHint(name, hintValueMax)+" is given, "+joinAnd(names)+" must be given too."))
	}
	return nil
}

// disjointTypes reports whether the rewritten alternatives alts each have
// one type no other has, so that at most one can match and anyOf means
// oneOf. INTEGER and NUMBER overlap.
func disjointTypes(alts []any) bool {
	seen := map[any]bool{}
	for _, a := range alts {
		t, ok := a.(*jsonx.Object).Get("type")
		if !ok || seen[t] {
			return false
		}
		seen[t] = true
	}
	return !(seen["INTEGER"] && seen["NUMBER"])
}

// rootRules reports whether out, the rewritten root in without properties,
// states a rule: a keyword other than type and title, or a description
// with hints.
func rootRules(in, out *jsonx.Object) bool {
	for i, k := range out.Keys {
		switch k {
		case "type", "title":
		case "description":
			if d, _ := in.Get("description"); d != out.Vals[i] {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// addedText returns the sentences the rewrite appended to the description
// of the schema target in its rewritten form out ("" when none).
func addedText(target any, out *jsonx.Object) string {
	d, _ := out.Get("description")
	rendered, _ := d.(string)
	orig := ""
	if to, ok := target.(*jsonx.Object); ok {
		if d, ok := to.Get("description"); ok {
			orig, _ = d.(string)
		}
	}
	if orig == "" || rendered == orig {
		if orig == "" {
			return rendered
		}
		return ""
	}
	base := strings.TrimRight(orig, " ")
	if rest, ok := strings.CutPrefix(rendered, base); ok {
		rest = strings.TrimPrefix(rest, ".")
		return strings.TrimPrefix(rest, " ")
	}
	return ""
}
