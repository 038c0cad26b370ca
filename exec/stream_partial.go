package exec

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/toolnexus/toolnexus/render"
)

// This file holds the early report of streamed calls whose partial
// arguments can no longer be valid (Options.OnInvalidPartial).

// partialArgs follows one call's arguments as they stream in: argScan
// over the JSON text, kept between fragments, and the first-level keys
// it passes.
type partialArgs struct {
	done    bool // reported, or nothing more to check
	scan    argScan
	isKey   bool
	wantKey bool
	key     []byte
}

// maxKeyCheck is the longest key checked; longer ones are never
// reported (no schema names such a property).
const maxKeyCheck = 256

// feed scans frag and returns the first problem found, or "". known
// reports whether a first-level key is allowed ("" if so, else the
// problem).
func (p *partialArgs) feed(frag string, known func(key string) string) string {
	for i := 0; i < len(frag) && !p.done; i++ {
		c := frag[i]
		before := p.scan.state
		if p.scan.step(c) {
			p.done = true
		}
		switch after := p.scan.state; {
		case after == scanOther:
			p.done = true
			if c == '"' {
				return "" // a string holding the arguments: checked when complete
			}
			return "the arguments do not start with a JSON object"
		case before == scanStart && after == scanIn:
			p.wantKey = true
		case before == scanIn && after == scanString:
			p.isKey, p.key = p.scan.depth == 1 && p.wantKey, p.key[:0]
		case before == scanString && after == scanIn:
			if p.isKey {
				if problem := known(string(p.key)); problem != "" {
					p.done = true
					return problem
				}
			}
		case before == scanString && after == scanEscape:
			p.isKey = false // keys with escapes are not checked
		case before == scanString:
			if p.isKey && len(p.key) < maxKeyCheck {
				p.key = append(p.key, c)
			} else {
				p.isKey = false
			}
		case before == scanIn && p.scan.depth == 1 && c == ':':
			p.wantKey = false
		case before == scanIn && p.scan.depth == 1 && c == ',':
			p.wantKey = true
		}
	}
	return ""
}

// toolKeys is what the early report knows of a tool: whether it exists,
// and the first-level properties if its schema allows no others.
type toolKeys struct {
	exists bool
	closed bool // "additionalProperties": false
	props  map[string]bool
	list   string
}

// keysOf reads the tool's schema once per stream.
func (s *streamCalls) keysOf(name string) *toolKeys {
	if k, ok := s.tools[name]; ok {
		return k
	}
	k := &toolKeys{}
	schema, ok := json.RawMessage(nil), false
	if s.e.opts.ToolSearch != nil && name == toolSearchName {
		schema, ok = json.RawMessage(render.ToolSearchSchema), true // answered by the search, not the registry
	} else if t, found := s.e.registry().Get(name); found {
		schema, ok = t.InputSchema, true
	}
	if ok {
		k.exists = true
		var sch struct {
			Properties           map[string]json.RawMessage `json:"properties"`
			AdditionalProperties json.RawMessage            `json:"additionalProperties"`
		}
		if json.Unmarshal(schema, &sch) == nil && string(sch.AdditionalProperties) == "false" {
			k.closed, k.props = true, map[string]bool{}
			names := make([]string, 0, len(sch.Properties))
			for p := range sch.Properties {
				k.props[p] = true
				names = append(names, p)
			}
			sort.Strings(names)
			k.list = strings.Join(names, ", ")
		}
	}
	if s.tools == nil {
		s.tools = map[string]*toolKeys{}
	}
	s.tools[name] = k
	return k
}

// partial takes a fragment of call i's arguments (id and name as known so
// far, args the arguments so far, frag included) and calls
// Options.OnInvalidPartial once if they can no longer be valid.
func (s *streamCalls) partial(i int, id, name, frag string, args func() string) {
	hook := s.e.opts.OnInvalidPartial
	if hook == nil || name == "" {
		return
	}
	for len(s.partials) <= i {
		s.partials = append(s.partials, nil)
	}
	p := s.partials[i]
	if p == nil {
		p = &partialArgs{}
		s.partials[i] = p
	}
	if p.done {
		return
	}
	k := s.keysOf(name)
	problem := ""
	if !k.exists {
		p.done = true
		problem = fmt.Sprintf("unknown tool %q", name)
	} else {
		problem = p.feed(frag, func(key string) string {
			if k.closed && !k.props[key] {
				return fmt.Sprintf("unknown property %q; allowed: %s", key, k.list)
			}
			return ""
		})
	}
	if problem != "" {
		hook(Call{ID: id, Name: name, Arguments: json.RawMessage(args())}, problem)
	}
}
