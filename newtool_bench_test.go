package toolnexus

import (
	"context"
	"reflect"
	"testing"

	"github.com/invopop/jsonschema"
)

// wideArgs is a larger argument type for the cold registration benchmark:
// descriptions, enums, bounds, formats, a nested struct, a slice of structs
// with dive rules and a map.
type wideArgs struct {
	Query    string            `json:"query" jsonschema:"description=What to search for" validate:"required,max=200"`
	Mode     string            `json:"mode,omitempty" jsonschema:"description=Search mode" validate:"omitempty,oneof=fast deep exact"`
	Limit    int               `json:"limit,omitempty" jsonschema:"description=Maximum results" validate:"omitempty,min=1,max=100"`
	Email    string            `json:"email,omitempty" validate:"omitempty,email"`
	Site     string            `json:"site,omitempty" jsonschema:"format=uri"`
	Tags     []string          `json:"tags,omitempty" validate:"omitempty,max=10,dive,min=1"`
	Window   wideWindow        `json:"window"`
	Filters  []wideFilter      `json:"filters,omitempty" validate:"omitempty,max=20,dive"`
	Labels   map[string]string `json:"labels,omitempty"`
	Verbose  bool              `json:"verbose,omitempty"`
	Score    float64           `json:"score,omitempty" validate:"omitempty,gte=0,lte=1"`
	Language string            `json:"language,omitempty" jsonschema:"enum=en,enum=fr,enum=de"`
}

type wideWindow struct {
	From string `json:"from" jsonschema:"description=Start date" validate:"required"`
	To   string `json:"to,omitempty"`
	Days int    `json:"days,omitempty" validate:"omitempty,min=1,max=365"`
}

type wideFilter struct {
	Field string   `json:"field" validate:"required"`
	Op    string   `json:"op" validate:"required,oneof=eq ne lt gt"`
	Value string   `json:"value"`
	Any   []string `json:"any,omitempty" validate:"omitempty,max=5"`
}

// BenchmarkNewToolCold measures NewTool on the first use of an argument
// type: the per-type cache is cleared before every iteration
// (forgetType), so each NewTool reflects, checks and compiles again.
// Limit, in the same run, is invopop's Reflector reflecting the same type
// with the settings NewTool uses (see docs/performance.md for the ratio).
// go-playground/validator keeps its own per-type cache, which the hook
// cannot clear; the types here need no validator run (every rule is
// mirrored by the schema), so NewTool does not probe it.
func BenchmarkNewToolCold(b *testing.B) {
	cases := []struct {
		name string
		typ  reflect.Type
		make func() error
	}{
		{"weather", reflect.TypeFor[weatherArgs](), func() error { _, err := NewTool("get_weather", "Weather.", weatherFn); return err }},
		{"trip", reflect.TypeFor[tripArgs](), func() error { _, err := NewTool("plan_trip", "Plan a trip.", tripFn); return err }},
		{"wide", reflect.TypeFor[wideArgs](), func() error {
			_, err := NewTool("search", "Search.", func(context.Context, wideArgs) (string, error) { return "", nil })
			return err
		}},
	}
	for _, c := range cases {
		b.Run(c.name+"/NewTool", func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				forgetType(c.typ)
				if err := c.make(); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
		b.Run(c.name+"/Limit", func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				r := &jsonschema.Reflector{DoNotReference: true, ExpandedStruct: true, Anonymous: true}
				if s := r.ReflectFromType(c.typ); s == nil {
					b.Fatal("nil schema")
				}
			}
			reportCPU(b, start)
		})
	}
}
