package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/argtype"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// This file renames the property keys a provider refuses (its
// Profile.PropertyKey rule) in that provider's copy of a schema, and maps
// a model's arguments back to the keys the tool declared.

// renames are the keys one schema renames under one rule.
type renames struct {
	to   map[string]string // declared key -> new key
	back map[string]string // new key -> declared key
	root *jsonx.Object     // the declared schema, to follow arguments through
}

// keyCaches holds the renaming of each key rule, by schema bytes.
var keyCaches = map[string]*keyCache{
	anthropicKey.Regexp:   {rule: anthropicKey},
	geminiParamKey.Regexp: {rule: geminiParamKey},
}

// keyCache is the renaming of one key rule, cached by schema bytes.
type keyCache struct {
	rule  Pattern
	cache rewriteCache
}

// get returns the renaming of schema s.
func (c *keyCache) get(s []byte) rewritten { return c.cache.entry(s, c.rename) }

func (c *keyCache) rename(in []byte) rewritten { return renameSchema(in, c.rule) }

// renameKeys returns schema s with every property key outside rule
// renamed (rename) and the renames, or, without rename, a *SchemaError
// wrapping ErrPropertyKey naming the first such key. s itself and nil
// renames when every key follows the rule.
func renameKeys(s json.RawMessage, rule Pattern, rename bool) (json.RawMessage, *renames, error) {
	if rule.first == nil {
		return s, nil, nil
	}
	return renamed(s, keyCaches[rule.Regexp].get(s), rule, rename)
}

// renamed is renameKeys for the renaming r of s, cached by the caller.
func renamed(s json.RawMessage, r rewritten, rule Pattern, rename bool) (json.RawMessage, *renames, error) {
	switch {
	case r.err != nil:
		return nil, nil, r.err
	case r.keys == nil:
		return s, nil, nil
	case !rename:
		return nil, nil, r.keys.refusal(rule)
	}
	return r.out, r.keys, nil
}

// refusal is the error for the first renamed key, without RenameKeys.
func (k *renames) refusal(rule Pattern) error {
	var first string
	var path string
	walkSchema(k.root, "", func(o *jsonx.Object, p string) {
		if path != "" {
			return
		}
		if props, ok := o.Get("properties"); ok {
			if po, ok := props.(*jsonx.Object); ok {
				for _, key := range po.Keys {
					if !rule.Match(key) {
						first, path = key, p+"/properties/"+pointerToken(key)
						return
					}
				}
			}
		}
	})
	return &SchemaError{Path: path, Msg: fmt.Sprintf("the property key %q does not match %s (set RenameKeys to send it renamed, and CheckOptions.RenameKeys at registration; exec maps the model's arguments back)", first, rule.Regexp), Err: ErrPropertyKey}
}

// renameSchema is renameKeys uncached: out and keys are nil when no key
// needs renaming.
func renameSchema(in []byte, rule Pattern) rewritten {
	if err := checkSchemaBytes(in); err != nil {
		return rewritten{err: err}
	}
	tree, err := jsonx.Parse(in)
	root, ok := tree.(*jsonx.Object)
	if err != nil || !ok {
		return rewritten{err: &SchemaError{Msg: "the schema is not a JSON object", Err: ErrUnsupportedSchema}}
	}
	// every key declared anywhere is taken, so a new key never equals one
	taken := map[string]bool{}
	var bad []string // in schema order, each once
	walkSchema(root, "", func(o *jsonx.Object, _ string) {
		if po, ok := o.Get("properties"); ok {
			if po, ok := po.(*jsonx.Object); ok {
				for _, key := range po.Keys {
					if !taken[key] && !rule.Match(key) {
						bad = append(bad, key)
					}
					taken[key] = true
				}
			}
		}
	})
	if len(bad) == 0 {
		return rewritten{}
	}
	to := make(map[string]string, len(bad))
	back := make(map[string]string, len(bad))
	for _, key := range bad {
		n := newKey(key, rule, taken)
		taken[n] = true
		to[key], back[n] = n, key
	}
	declared := jsonx.Clone(root).(*jsonx.Object)
	var refErr error
	walkSchema(root, "", func(o *jsonx.Object, p string) {
		for i, k := range o.Keys {
			switch k {
			case "properties", "dependentRequired", "dependentSchemas":
				if m, ok := o.Vals[i].(*jsonx.Object); ok {
					for j, key := range m.Keys {
						if n, ok := to[key]; ok {
							m.Keys[j] = n
						}
					}
				}
			case "$ref":
				if ref, ok := o.Vals[i].(string); ok && refErr == nil && refThrough(ref, to) {
					refErr = &SchemaError{Path: p + "/$ref", Msg: fmt.Sprintf("the $ref %q points into a property whose key is renamed; point it at a definition under $defs", ref), Err: ErrPropertyKey}
				}
			}
			if k == "required" || k == "propertyOrdering" || k == "dependentRequired" {
				renameNames(o.Vals[i], to)
			}
		}
	})
	if refErr != nil {
		return rewritten{err: refErr}
	}
	return rewritten{out: jsonx.Marshal(root), keys: &renames{to: to, back: back, root: declared}}
}

// renameNames renames the strings of a name list (required,
// propertyOrdering) or of each list of a dependentRequired object.
func renameNames(v any, to map[string]string) {
	switch v := v.(type) {
	case []any:
		for i, e := range v {
			if s, ok := e.(string); ok {
				if n, ok := to[s]; ok {
					v[i] = n
				}
			}
		}
	case *jsonx.Object:
		for _, e := range v.Vals {
			renameNames(e, to)
		}
	}
}

// refThrough reports whether the local $ref ref passes through a
// properties member whose key is renamed.
func refThrough(ref string, to map[string]string) bool {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return false
	}
	if u, err := url.PathUnescape(frag); err == nil {
		frag = u // as resolveRef reads it: "#/properties/a%20b" is "a b"
	}
	if frag, ok = strings.CutPrefix(frag, "/"); !ok {
		return false
	}
	// the tokens alternate between a keyword and, after a keyword that
	// holds a map or a list of schemas, a name or an index
	toks := strings.Split(frag, "/")
	for i := 0; i < len(toks); i++ {
		kw, err := unescapeToken(toks[i])
		if err != nil || i+1 >= len(toks) {
			return false
		}
		switch kw {
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
			i++
			name, err := unescapeToken(toks[i])
			if _, renamed := to[name]; err == nil && kw == "properties" && renamed {
				return true
			}
		case "anyOf", "oneOf", "allOf", "prefixItems":
			i++ // the index
		case "items":
			if _, err := strconv.Atoi(toks[i+1]); err == nil {
				i++ // items as an array (drafts before 2020-12)
			}
		}
	}
	return false
}

// newKey makes the provider's key for key: each character the rule
// refuses becomes "_", a first character it refuses gains a leading "_",
// a key too long is cut, and a key already taken gets "_2", "_3", … .
func newKey(key string, rule Pattern, taken map[string]bool) string {
	b := make([]byte, 0, len(key)+1)
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c >= 0x80 {
			_, size := utf8.DecodeRuneInString(key[i:])
			i += size - 1
			c = '_'
		}
		if !rule.rest[c] {
			c = '_'
		}
		b = append(b, c)
	}
	if len(b) == 0 || !rule.first[b[0]] {
		b = append([]byte{'_'}, b...)
	}
	for n := 1; ; n++ {
		suffix := ""
		if n > 1 {
			suffix = "_" + strconv.Itoa(n)
		}
		c := string(b[:min(len(b), rule.max-len(suffix))]) + suffix
		if len(c) >= rule.min && !taken[c] {
			return c
		}
	}
}

// walkSchema calls fn for every schema object reachable from o through
// the keywords that hold subschemas, with its JSON Pointer.
func walkSchema(o *jsonx.Object, path string, fn func(o *jsonx.Object, path string)) {
	fn(o, path)
	for i, k := range o.Keys {
		p := path + "/" + pointerToken(k)
		switch k {
		case "items", "additionalProperties", "not", "if", "then", "else", "contains",
			"propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems":
			if c, ok := o.Vals[i].(*jsonx.Object); ok {
				walkSchema(c, p, fn)
			}
			if arr, ok := o.Vals[i].([]any); ok && k == "items" {
				walkList(arr, p, fn)
			}
		case "anyOf", "oneOf", "allOf", "prefixItems":
			if arr, ok := o.Vals[i].([]any); ok {
				walkList(arr, p, fn)
			}
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
			if m, ok := o.Vals[i].(*jsonx.Object); ok {
				for j, name := range m.Keys {
					if c, ok := m.Vals[j].(*jsonx.Object); ok {
						walkSchema(c, p+"/"+pointerToken(name), fn)
					}
				}
			}
		}
	}
}

func walkList(arr []any, path string, fn func(o *jsonx.Object, path string)) {
	for j, e := range arr {
		if c, ok := e.(*jsonx.Object); ok {
			walkSchema(c, path+"/"+strconv.Itoa(j), fn)
		}
	}
}

// RestoreKeys maps the arguments of one call of tool t back to the
// property keys t declared, for the provider of the named profile: a key
// the profile's renderer renamed (see Profile.PropertyKey and the
// RenameKeys options) is given its declared name again, at the place of
// the arguments where the schema declares it. Arguments without renamed
// keys are returned as they are (no copy); so are arguments that are not
// valid JSON, for Execute to report. Arguments of any size are read: the
// registry's Options.MaxArgumentBytes may allow more than
// toolnexus.DefaultMaxArgumentBytes. Package exec calls it for every call
// of the Anthropic and Gemini methods; call it yourself only for a loop
// of your own. A profile without a property key rule returns args.
//
// note, when keys were given back, is one sentence for the model that
// pairs each declared key with the one it sent, e.g.
//
//	(The tool's messages name its own keys: "$top" is the "_top" you sent.)
//
// exec appends it to an error result, whose messages name the declared
// keys ("$top" must be at most 50); "" when nothing was given back.
func RestoreKeys(profile string, t *toolnexus.Tool, args json.RawMessage) (restored json.RawMessage, note string) {
	p := profileNamed(profile)
	if p == nil || p.PropertyKey.first == nil || len(args) == 0 {
		return args, ""
	}
	r := keyCaches[p.PropertyKey.Regexp].get(schemaOf(t))
	if r.keys == nil {
		return args, ""
	}
	out, used := r.keys.restore(args, false)
	if len(used) == 0 {
		return out, ""
	}
	pairs := make([]string, len(used))
	for i, d := range used {
		pairs[i] = fmt.Sprintf("%q is the %q you sent", d, r.keys.to[d])
	}
	return out, "(The tool's messages name its own keys: " + strings.Join(pairs, ", ") + ".)"
}

// restore is RestoreKeys for the renames k: new keys back to declared
// ones, or with forward declared keys to new ones (a tool's input
// examples, rendered with the renamed schema).
func (k *renames) restore(args json.RawMessage, forward bool) (json.RawMessage, []string) {
	m := k.back
	if forward {
		m = k.to
	}
	// a key written with an escape ("a\u005fb") is not found by bytes
	found := bytes.IndexByte(args, '\\') >= 0
	for n := range m {
		if found {
			break
		}
		found = bytes.Contains(args, []byte(n))
	}
	if !found {
		return args, nil
	}
	v, err := jsonx.Parse(args)
	if err != nil {
		return args, nil
	}
	w := restorer{k: k, forward: forward, memo: map[*jsonx.Object][]*jsonx.Object{}}
	if !w.walk(v, []*jsonx.Object{k.root}, 0) {
		return args, nil
	}
	return jsonx.Marshal(v), w.used
}

// maxRestoreDepth bounds how deep restore follows arguments: as deep as
// the registry reads them.
const maxRestoreDepth = argtype.MaxDepth

// restorer is one restore: the renames, the direction, and the schemas
// that apply beside each schema met so far (expand), computed once.
type restorer struct {
	k       *renames
	forward bool
	memo    map[*jsonx.Object][]*jsonx.Object
	used    []string // the declared keys given back, in order met, each once
}

// walk renames the keys of the argument value v, which the declared
// schemas nodes apply to, back (or with forward, to the new keys), and
// reports whether it changed anything.
func (w *restorer) walk(v any, nodes []*jsonx.Object, depth int) bool {
	if depth > maxRestoreDepth || len(nodes) == 0 {
		return false
	}
	k, forward := w.k, w.forward
	nodes = w.expand(nodes)
	changed := false
	switch v := v.(type) {
	case *jsonx.Object:
		for i, key := range v.Keys {
			declared := key
			// a key whose other name the object also holds stays as it
			// is: renaming it would make a duplicate key
			if n, ok := k.to[key]; forward && ok && declares(nodes, key) && !hasKey(v, n) {
				v.Keys[i], changed = n, true
			} else if old, ok := k.back[key]; !forward && ok && declares(nodes, old) && !declares(nodes, key) && !hasKey(v, old) {
				v.Keys[i], declared, changed = old, old, true
				if !slices.Contains(w.used, old) {
					w.used = append(w.used, old)
				}
			}
			if w.walk(v.Vals[i], member(nodes, declared), depth+1) {
				changed = true
			}
		}
	case []any:
		for i, e := range v {
			if w.walk(e, element(nodes, i), depth+1) {
				changed = true
			}
		}
	}
	return changed
}

// expand returns nodes with the schemas that apply beside them: the
// targets of their local $refs and their allOf, anyOf, oneOf, then and
// else alternatives, transitively, each once.
func (w *restorer) expand(nodes []*jsonx.Object) []*jsonx.Object {
	if len(nodes) == 1 {
		return w.expandOne(nodes[0])
	}
	var out []*jsonx.Object
	seen := map[*jsonx.Object]bool{}
	for _, n := range nodes {
		for _, o := range w.expandOne(n) {
			if !seen[o] {
				seen[o] = true
				out = append(out, o)
			}
		}
	}
	return out
}

// expandOne is expand for one schema, computed once per restore.
func (w *restorer) expandOne(n *jsonx.Object) []*jsonx.Object {
	if out, ok := w.memo[n]; ok {
		return out
	}
	out := []*jsonx.Object{n}
	seen := map[*jsonx.Object]bool{n: true}
	add := func(v any) {
		if c, ok := v.(*jsonx.Object); ok && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	for j := 0; j < len(out); j++ {
		o := out[j]
		for i, key := range o.Keys {
			switch key {
			case "$ref":
				if ref, ok := o.Vals[i].(string); ok {
					if t, err := resolveRef(w.k.root, ref); err == nil {
						add(t)
					}
				}
			case "allOf", "anyOf", "oneOf":
				arr, _ := o.Vals[i].([]any)
				for _, e := range arr {
					add(e)
				}
			case "then", "else":
				add(o.Vals[i])
			}
		}
	}
	out = slices.Clip(out)
	w.memo[n] = out
	return out
}

// declares reports whether one of nodes lists key among its properties.
func declares(nodes []*jsonx.Object, key string) bool {
	for _, o := range nodes {
		if po, ok := o.Get("properties"); ok {
			if po, ok := po.(*jsonx.Object); ok && hasKey(po, key) {
				return true
			}
		}
	}
	return false
}

// member returns the schemas that apply to the property key of an object
// the nodes apply to: its properties entries, or else the
// additionalProperties schemas.
func member(nodes []*jsonx.Object, key string) []*jsonx.Object {
	return applying(nodes, "additionalProperties", func(o *jsonx.Object) (any, bool) {
		props, _ := o.Get("properties")
		if po, ok := props.(*jsonx.Object); ok {
			return po.Get(key)
		}
		return nil, false
	})
}

// element returns the schemas that apply to item i of an array the nodes
// apply to: prefixItems[i], or else items.
func element(nodes []*jsonx.Object, i int) []*jsonx.Object {
	return applying(nodes, "items", func(o *jsonx.Object) (any, bool) {
		pi, _ := o.Get("prefixItems")
		if arr, ok := pi.([]any); ok && i < len(arr) {
			return arr[i], true
		}
		return nil, false
	})
}

// applying returns, for each of nodes, the schema specific finds in it,
// or else the schema of its keyword general (schemas only).
func applying(nodes []*jsonx.Object, general string, specific func(*jsonx.Object) (any, bool)) []*jsonx.Object {
	var out []*jsonx.Object
	for _, o := range nodes {
		c, ok := specific(o)
		if !ok {
			c, _ = o.Get(general)
		}
		if c, ok := c.(*jsonx.Object); ok {
			out = append(out, c)
		}
	}
	return out
}
