package openapi

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxRefChain caps the $refs followed from one component to another.
const maxRefChain = 64

// componentRefs are the $refs of a document's components, by kind
// ("parameters") and name; a component that is not a $ref is "". Decoding
// ignores what is not an object, which the parser reports.
type componentRefs struct {
	Components map[string]refKind `json:"components" yaml:"components"`
}

type refKind map[string]refOnly

type refOnly string

func (k *refKind) UnmarshalJSON(b []byte) error {
	m := map[string]refOnly{}
	if json.Unmarshal(b, &m) == nil {
		*k = m
	}
	return nil
}

func (k *refKind) UnmarshalYAML(n *yaml.Node) error {
	m := map[string]refOnly{}
	if n.Decode(&m) == nil {
		*k = m
	}
	return nil
}

func (r *refOnly) UnmarshalJSON(b []byte) error {
	var v struct {
		Ref string `json:"$ref"`
	}
	if json.Unmarshal(b, &v) == nil {
		*r = refOnly(v.Ref)
	}
	return nil
}

func (r *refOnly) UnmarshalYAML(n *yaml.Node) error {
	var v struct {
		Ref string `yaml:"$ref"`
	}
	if n.Decode(&v) == nil {
		*r = refOnly(v.Ref)
	}
	return nil
}

// check follows the chain of $refs from every component, in kind and
// name order, at most maxRefChain+1 links or until it comes back to a
// component it passed; the first chain longer than maxRefChain is an
// error naming its start and first links.
func (c componentRefs) check() error {
	next := map[string]string{}
	for kind, comps := range c.Components {
		for name, ref := range comps {
			if ref != "" {
				// A $ref is a URI fragment: percent-escapes are decoded.
				to, err := url.PathUnescape(string(ref))
				if err != nil {
					to = string(ref)
				}
				next["#/components/"+kind+"/"+strings.NewReplacer("~", "~0", "/", "~1").Replace(name)] = to
			}
		}
	}
	starts := slices.Sorted(maps.Keys(next))
	for _, start := range starts {
		chain := []string{start}
		seen := map[string]bool{start: true}
		for r, ok := next[start]; ok && !seen[r]; r, ok = next[r] {
			seen[r] = true
			if chain = append(chain, r); len(chain) > maxRefChain+1 {
				return fmt.Errorf("$ref %q starts a chain of more than %d $refs: %s -> …", start, maxRefChain, strings.Join(chain[:3], " -> "))
			}
		}
	}
	return nil
}
