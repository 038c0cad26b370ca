package schema

import (
	"errors"

	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// ApplyDefaults inserts the schema's "default" for every absent optional
// property of instance (and, with Options.NullAsAbsent, for an explicit
// null that Validate counts as absent), at every nesting
// level reachable from the root through properties, items, prefixItems and
// $ref. Defaults under allOf/anyOf/oneOf/not/if/then/else,
// patternProperties and additionalProperties are not applied: which branch
// applies is not known before validation.
//
// When the schema has no reachable default, ApplyDefaults returns instance
// itself, false and nil without allocating. Otherwise it returns the
// rewritten instance (compact JSON, inserted keys after the existing ones)
// and changed=true, or instance and changed=false when nothing was absent.
// A default is inserted as written in the schema. err is non-nil only when
// instance is not valid JSON. Run Validate on the result, not before.
func (v *Validator) ApplyDefaults(instance []byte) (out []byte, changed bool, err error) {
	if !v.hasDefaults {
		return instance, false, nil
	}
	doc, err := jsonx.Parse(instance)
	if err != nil {
		return instance, false, errors.New("schema: ApplyDefaults: instance is not valid JSON")
	}
	if !v.apply(v.root, doc, 0) {
		return instance, false, nil
	}
	return jsonx.Marshal(doc), true, nil
}

// defaultOf returns the default of n, following $ref.
func defaultOf(n *node) []byte {
	for k := 0; n != nil && k < 64; k++ {
		if n.def != nil {
			return n.def
		}
		n = n.ref
	}
	return nil
}

func (v *Validator) apply(n *node, val any, depth int) bool {
	if n == nil || depth > v.opts.MaxDepth {
		return false
	}
	changed := false
	if n.ref != nil {
		changed = v.apply(n.ref, val, depth+1)
	}
	switch x := val.(type) {
	case *jsonx.Object:
		for _, k := range n.keys {
			if k.schema == nil {
				continue
			}
			cur, ok := x.Get(k.name)
			absent := !ok || cur == nil && n.nullAbsent[k.name]
			if absent {
				if def := defaultOf(k.schema); def != nil {
					dv, err := jsonx.Parse(def)
					if err == nil {
						x.Set(k.name, dv)
						changed = true
					}
				}
				continue
			}
			if v.apply(k.schema, cur, depth+1) {
				changed = true
			}
		}
	case []any:
		for i, e := range x {
			sch := n.items
			if i < len(n.prefixItems) {
				sch = n.prefixItems[i]
			}
			if v.apply(sch, e, depth+1) {
				changed = true
			}
		}
	}
	return changed
}

// reachableDefaults reports whether ApplyDefaults can insert anything.
func reachableDefaults(root *node) bool {
	seen := map[*node]bool{}
	var walk func(n *node) bool
	walk = func(n *node) bool {
		if n == nil || seen[n] {
			return false
		}
		seen[n] = true
		if walk(n.ref) {
			return true
		}
		for _, k := range n.keys {
			if k.schema != nil && (defaultOf(k.schema) != nil || walk(k.schema)) {
				return true
			}
		}
		for _, p := range n.prefixItems {
			if walk(p) {
				return true
			}
		}
		return walk(n.items)
	}
	return walk(root)
}

// checkDefaults refuses, in Strict mode, a default that its own schema
// rejects: the model would be told a value that Validate refuses.
func (c *compiler) checkDefaults(v *Validator) error {
	v.hasDefaults = c.hasDefaults && reachableDefaults(v.root)
	if !c.opts.Strict {
		return nil
	}
	for _, e := range c.all {
		n := e.n
		if n.def == nil {
			continue
		}
		s := getState(v, n.def)
		s.run(n)
		var msg string
		if s.fatal != nil {
			msg = s.fatal.Message
		} else if len(s.problems) > 0 {
			msg = s.problems[0].Message
		}
		putState(s)
		if msg != "" {
			return serr(c.pointer(n), "default", "default "+cut(string(n.def))+" does not match its own schema: "+msg)
		}
	}
	return nil
}
