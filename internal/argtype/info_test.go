package argtype

import (
	"reflect"
	"testing"

	"github.com/invopop/jsonschema"
)

type benchStop struct {
	City   string  `json:"city" validate:"required"`
	Lat    float64 `json:"lat" validate:"gte=-90,lte=90"`
	Nights int     `json:"nights,omitempty" validate:"omitempty,min=1,max=30"`
}

type benchTrip struct {
	Name  string      `json:"name" validate:"required"`
	Stops []benchStop `json:"stops" validate:"required,max=100,dive"`
}

// BenchmarkForMiss reflects, checks and compiles an argument type from
// scratch (what the first registration of a type costs; For does not
// cache).
func BenchmarkForMiss(b *testing.B) {
	t := reflect.TypeFor[benchTrip]()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := For(t); err != nil {
			b.Fatal(err)
		}
	}
}

func TestIntegralText(t *testing.T) {
	for in, want := range map[string]string{
		"30.0": "30", "1e2": "100", "-0.0": "0", "2.56e2": "256", "0.5e1": "5", "-1.50e1": "-15",
		"12e-1": "", "1.5": "", "1e999": "", "0e-99999": "0", "100e-2": "1",
	} {
		got, ok := integralText([]byte(in))
		if want == "" {
			if ok {
				t.Errorf("integralText(%s) = %s, want not integral", in, got)
			}
			continue
		}
		if !ok || string(got) != want {
			t.Errorf("integralText(%s) = %s, %v; want %s", in, got, ok, want)
		}
	}
}

// BenchmarkInvopopReflect is invopop/jsonschema's own reflection of the
// type BenchmarkForMiss builds (issue 11: a cold For at most 2x this).
func BenchmarkInvopopReflect(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		r := &jsonschema.Reflector{}
		if s := r.Reflect(&benchTrip{}); s == nil {
			b.Fatal("nil schema")
		}
	}
}
