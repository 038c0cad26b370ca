// Package rendertest checks that a tool renderer follows the conventions
// every toolnexus renderer shares, in the spirit of testing/slogtest: one
// shared case list ([Cases]) and one function ([TestRenderer]) that any
// renderer, including future ones, must pass.
//
// A renderer is adapted as a [Renderer] (tools in, the bytes sent to the
// provider out) plus an [Extract] function that reads the rendered bytes
// back into [Decl] values. TestRenderer then checks, for every case and for
// the whole list:
//   - the output is valid JSON and valid UTF-8, and is byte-identical on
//     every call, including concurrent calls
//   - there is one declaration per tool, in the order given (a reversed
//     slice renders reversed)
//   - each declaration has the tool's name and description; a description
//     "" is present as "", never null or missing
//   - each schema is a JSON object whose root type is "object" (any case);
//     it may be absent only for a tool that declares no properties; every
//     root property name of the tool survives (properties named "pattern",
//     "type", "items", … included)
//   - the input is not modified: tool fields and schema bytes are equal
//     before and after, and bytes past len(InputSchema), in the slice's
//     spare capacity, are not written
//   - an empty and a nil list both render, as the same bytes, with no
//     declarations
package rendertest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// Renderer renders tools into the exact bytes a provider request carries
// (for example func(ts) { return json.Marshal(render.OpenAI(ts)) }).
type Renderer func(tools []toolnexus.Tool) ([]byte, error)

// Decl is one rendered tool as read back by an [Extract] function.
type Decl struct {
	Name        string          // the rendered tool name
	Description *string         // nil when the key is missing or null
	Schema      json.RawMessage // nil when the renderer omitted the schema
}

// Extract reads rendered bytes back into declarations, in output order.
type Extract func(out []byte) ([]Decl, error)

// TestRenderer runs every check on render with the shared case list and
// returns all failures joined (nil when the renderer passes).
func TestRenderer(render Renderer, extract Extract) error {
	var errs []error
	for _, c := range Cases() {
		if err := checkOne(render, extract, c); err != nil {
			errs = append(errs, fmt.Errorf("case %s: %w", c.Name, err))
		}
	}
	if err := checkList(render, extract); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Run runs [TestRenderer]'s checks as subtests of t, one per case plus
// "list".
func Run(t *testing.T, render Renderer, extract Extract) {
	t.Helper()
	for _, c := range Cases() {
		t.Run(c.Name, func(t *testing.T) {
			if err := checkOne(render, extract, c); err != nil {
				t.Error(err)
			}
		})
	}
	t.Run("list", func(t *testing.T) {
		if err := checkList(render, extract); err != nil {
			t.Error(err)
		}
	})
}

// guarded returns tools whose schemas live in buffers with spare capacity
// filled with a sentinel, plus a snapshot to compare against.
func guarded(tools []toolnexus.Tool) (in []toolnexus.Tool, check func() error) {
	const pad = 16
	in = slices.Clone(tools)
	type snap struct {
		tool   toolnexus.Tool
		schema []byte
		buf    []byte
	}
	snaps := make([]snap, len(in))
	for i := range in {
		if in[i].InputSchema != nil {
			buf := make([]byte, len(in[i].InputSchema), len(in[i].InputSchema)+pad)
			copy(buf, in[i].InputSchema)
			full := buf[:cap(buf)]
			for j := len(buf); j < len(full); j++ {
				full[j] = '#'
			}
			in[i].InputSchema = buf
			snaps[i].buf = full
		}
		snaps[i].tool = in[i]
		snaps[i].schema = bytes.Clone(in[i].InputSchema)
	}
	return in, func() error {
		for i := range in {
			s := snaps[i]
			got := in[i]
			if got.Name != s.tool.Name || got.Description != s.tool.Description || got.Title != s.tool.Title ||
				got.Annotations != s.tool.Annotations || got.Source != s.tool.Source {
				return fmt.Errorf("tool %d (%s): the renderer modified the tool's fields", i, s.tool.Name)
			}
			if !bytes.Equal(got.InputSchema, s.schema) {
				return fmt.Errorf("tool %s: the renderer modified InputSchema:\nbefore %s\nafter  %s", s.tool.Name, s.schema, got.InputSchema)
			}
			if s.buf != nil && strings.Trim(string(s.buf[len(s.schema):]), "#") != "" {
				return fmt.Errorf("tool %s: the renderer wrote past len(InputSchema) into the slice's spare capacity", s.tool.Name)
			}
		}
		return nil
	}
}

func renderChecked(render Renderer, tools []toolnexus.Tool) ([]byte, error) {
	in, check := guarded(tools)
	out, err := render(in)
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	if !json.Valid(out) {
		return nil, fmt.Errorf("render output is not valid JSON: %s", out)
	}
	if !utf8.Valid(out) {
		return nil, fmt.Errorf("render output is not valid UTF-8: %q", out)
	}
	// The output must not alias the input: scribbling over it must leave
	// every tool intact.
	scribble := bytes.Clone(out)
	for i := range out {
		out[i] = 'x'
	}
	if err := check(); err != nil {
		return nil, err
	}
	return scribble, nil
}

func checkOne(render Renderer, extract Extract, c Case) error {
	out, err := renderChecked(render, []toolnexus.Tool{c.Tool})
	if err != nil {
		return err
	}
	again, err := render([]toolnexus.Tool{c.Tool})
	if err != nil {
		return fmt.Errorf("second render: %w", err)
	}
	if !bytes.Equal(out, again) {
		return fmt.Errorf("output differs between two calls:\n%s\n%s", out, again)
	}
	decls, err := extract(out)
	if err != nil {
		return fmt.Errorf("extract: %w (output %s)", err, out)
	}
	if len(decls) != 1 {
		return fmt.Errorf("got %d declarations, want 1: %s", len(decls), out)
	}
	return checkDecl(c.Tool, decls[0])
}

func checkDecl(t toolnexus.Tool, d Decl) error {
	if d.Name != t.Name {
		return fmt.Errorf("name %q, want %q", d.Name, t.Name)
	}
	if d.Description == nil {
		return fmt.Errorf("tool %s: description missing or null, want %q", t.Name, t.Description)
	}
	if *d.Description != t.Description {
		return fmt.Errorf("tool %s: description %q, want %q", t.Name, *d.Description, t.Description)
	}
	wantProps := rootProperties(t.InputSchema)
	if d.Schema == nil {
		if len(wantProps) > 0 {
			return fmt.Errorf("tool %s: schema omitted, but the tool declares properties %v", t.Name, wantProps)
		}
		return nil
	}
	tree, err := jsonx.Parse(d.Schema)
	if err != nil {
		return fmt.Errorf("tool %s: schema is not JSON: %v", t.Name, err)
	}
	root, ok := tree.(*jsonx.Object)
	if !ok {
		return fmt.Errorf("tool %s: schema is not a JSON object: %s", t.Name, d.Schema)
	}
	if typ, _ := root.Get("type"); typ == nil || !strings.EqualFold(fmt.Sprint(typ), "object") {
		return fmt.Errorf("tool %s: schema root type is %v, want object: %s", t.Name, typ, d.Schema)
	}
	got := rootProperties(d.Schema)
	for _, p := range wantProps {
		if !slices.Contains(got, p) {
			return fmt.Errorf("tool %s: property %q is missing from the rendered schema %s", t.Name, p, d.Schema)
		}
	}
	return nil
}

// rootProperties lists the property names at the root of a schema.
func rootProperties(schema []byte) []string {
	if len(schema) == 0 {
		return nil
	}
	tree, err := jsonx.Parse(schema)
	if err != nil {
		return nil
	}
	root, ok := tree.(*jsonx.Object)
	if !ok {
		return nil
	}
	p, _ := root.Get("properties")
	po, _ := p.(*jsonx.Object)
	if po == nil {
		return nil
	}
	return slices.Clone(po.Keys)
}

func checkList(render Renderer, extract Extract) error {
	tools := Tools()
	out, err := renderChecked(render, tools)
	if err != nil {
		return fmt.Errorf("whole list: %w", err)
	}
	decls, err := extract(out)
	if err != nil {
		return fmt.Errorf("whole list: extract: %w", err)
	}
	if len(decls) != len(tools) {
		return fmt.Errorf("whole list: %d declarations for %d tools", len(decls), len(tools))
	}
	for i := range tools {
		if decls[i].Name != tools[i].Name {
			return fmt.Errorf("whole list: position %d is %s, not %s: the renderer does not keep slice order", i, decls[i].Name, tools[i].Name)
		}
	}
	for i := range tools {
		if err := checkDecl(tools[i], decls[i]); err != nil {
			return fmt.Errorf("whole list, position %d: %w", i, err)
		}
	}

	rev := slices.Clone(tools)
	slices.Reverse(rev)
	rout, err := renderChecked(render, rev)
	if err != nil {
		return fmt.Errorf("reversed list: %w", err)
	}
	rdecls, err := extract(rout)
	if err != nil {
		return fmt.Errorf("reversed list: extract: %w", err)
	}
	for i := range rev {
		if i >= len(rdecls) || rdecls[i].Name != rev[i].Name {
			return fmt.Errorf("reversed list: position %d is not %s: the renderer does not keep slice order", i, rev[i].Name)
		}
	}

	// Concurrent renders give the same bytes (and let -race look).
	var wg sync.WaitGroup
	outs := make([][]byte, 4)
	errs := make([]error, 4)
	for g := range outs {
		wg.Go(func() { outs[g], errs[g] = render(tools) })
	}
	wg.Wait()
	for g := range outs {
		if errs[g] != nil {
			return fmt.Errorf("concurrent render: %w", errs[g])
		}
		if !bytes.Equal(outs[g], out) {
			return fmt.Errorf("concurrent render %d differs:\n%s\n%s", g, outs[g], out)
		}
	}

	empty, err := render(nil)
	if err != nil {
		return fmt.Errorf("nil list: %w", err)
	}
	empty2, err := render([]toolnexus.Tool{})
	if err != nil {
		return fmt.Errorf("empty list: %w", err)
	}
	if !bytes.Equal(empty, empty2) || !json.Valid(empty) {
		return fmt.Errorf("nil list renders %s, empty list %s: want the same valid JSON", empty, empty2)
	}
	if d, err := extract(empty); err != nil || len(d) != 0 {
		return fmt.Errorf("empty list: %d declarations (err %v), want 0: %s", len(d), err, empty)
	}
	return nil
}
