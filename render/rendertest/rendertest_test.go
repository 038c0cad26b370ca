package rendertest

import (
	"encoding/json"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolnexus/toolnexus"
)

// toy is a minimal correct renderer: [{"name","description","schema"}].
type toyDecl struct {
	Name        string          `json:"name"`
	Description *string         `json:"description"`
	Schema      json.RawMessage `json:"schema,omitempty"`
}

func toyRender(ts []toolnexus.Tool) ([]byte, error) {
	out := []toyDecl{}
	for _, t := range ts {
		d := t.Description
		s := t.InputSchema
		if s == nil {
			s = json.RawMessage(`{"type":"object"}`)
		}
		out = append(out, toyDecl{Name: t.Name, Description: &d, Schema: s})
	}
	return json.Marshal(out)
}

func toyExtract(b []byte) ([]Decl, error) {
	var ds []toyDecl
	if err := json.Unmarshal(b, &ds); err != nil {
		return nil, err
	}
	out := make([]Decl, len(ds))
	for i, d := range ds {
		out[i] = Decl{Name: d.Name, Description: d.Description, Schema: d.Schema}
	}
	return out, nil
}

func TestToyRendererPasses(t *testing.T) {
	if err := TestRenderer(toyRender, toyExtract); err != nil {
		t.Fatal(err)
	}
	Run(t, toyRender, toyExtract)
}

// Each broken renderer must be caught, with a message naming the problem.
func TestBrokenRenderersFail(t *testing.T) {
	var calls atomic.Int64
	for _, c := range []struct {
		name   string
		render Renderer
		want   string
	}{
		{"null description", func(ts []toolnexus.Tool) ([]byte, error) {
			b, _ := toyRender(ts)
			return []byte(strings.ReplaceAll(string(b), `"description":""`, `"description":null`)), nil
		}, "description missing or null"},
		{"sorted", func(ts []toolnexus.Tool) ([]byte, error) {
			s := slices.Clone(ts)
			slices.SortFunc(s, func(a, b toolnexus.Tool) int { return strings.Compare(a.Name, b.Name) })
			return toyRender(s)
		}, "does not keep slice order"},
		{"unstable", func(ts []toolnexus.Tool) ([]byte, error) {
			b, _ := toyRender(ts)
			if calls.Add(1)%2 == 0 {
				return append([]byte(" "), b...), nil
			}
			return b, nil
		}, "differs"},
		{"mutates schema", func(ts []toolnexus.Tool) ([]byte, error) {
			for i := range ts {
				if j := strings.Index(string(ts[i].InputSchema), "object"); j >= 0 {
					copy(ts[i].InputSchema[j:], "OBJECT")
				}
			}
			return toyRender(ts)
		}, "modified InputSchema"},
		{"writes spare capacity", func(ts []toolnexus.Tool) ([]byte, error) {
			for i := range ts {
				_ = append(ts[i].InputSchema, '!')
			}
			return toyRender(ts)
		}, "spare capacity"},
		{"drops a property", func(ts []toolnexus.Tool) ([]byte, error) {
			b, _ := toyRender(ts)
			return []byte(strings.ReplaceAll(string(b), `"pattern":`, `"patterN":`)), nil
		}, `property "pattern" is missing`},
		{"omits schemas", func(ts []toolnexus.Tool) ([]byte, error) {
			b, _ := toyRender(ts)
			var ds []toyDecl
			json.Unmarshal(b, &ds)
			for i := range ds {
				ds[i].Schema = nil
			}
			return json.Marshal(ds)
		}, "schema omitted"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := TestRenderer(c.render, toyExtract)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, c.want)
			}
		})
	}
}

func TestCasesAreFreshAndComplete(t *testing.T) {
	a, b := Cases(), Cases()
	want := []string{"weather", "no_args", "nil_schema", "nested_twice", "slice_of_structs", "nullable", "enums",
		"map_field", "time", "recursive", "raw", "pattern_property"}
	var names []string
	for i, c := range a {
		names = append(names, c.Name)
		if len(c.Tool.InputSchema) > 0 && &a[i].Tool.InputSchema[0] == &b[i].Tool.InputSchema[0] && c.Tool.Source != "native" {
			t.Errorf("%s: schema bytes shared between calls", c.Name)
		}
	}
	if !slices.Equal(names, want) {
		t.Fatalf("cases %v, want %v", names, want)
	}
}
