package candidates

import (
	stdjson "encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	segjson "github.com/segmentio/encoding/json"

	"github.com/toolnexus/toolnexus/internal/argtype"
)

// The same argument types and bytes as the root package's BenchmarkExecute.

type weatherArgs struct {
	City string `json:"city" jsonschema:"description=City name" validate:"required"`
	Unit string `json:"unit,omitempty" validate:"omitempty,oneof=celsius fahrenheit"`
	Days int    `json:"days,omitempty" validate:"omitempty,min=1,max=14"`
}

type stop struct {
	City   string  `json:"city" validate:"required"`
	Lat    float64 `json:"lat" validate:"gte=-90,lte=90"`
	Lon    float64 `json:"lon" validate:"gte=-180,lte=180"`
	Nights int     `json:"nights,omitempty" validate:"omitempty,min=1,max=30"`
	Note   string  `json:"note,omitempty"`
}

type tripArgs struct {
	Name  string `json:"name" validate:"required"`
	Stops []stop `json:"stops" validate:"required,max=100,dive"`
}

var weatherJSON = []byte(`{"city":"Paris","unit":"celsius","days":3}`)

func tripJSON() []byte {
	var b strings.Builder
	b.WriteString(`{"name":"grand tour","stops":[`)
	for i := 0; i < 50; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"city":"City %d","lat":%d.25,"lon":%d.5,"nights":%d,"note":"stop number %d"}`, i, i%90, i%180, i%30+1, i)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// BenchmarkDecoders: each candidate decodes the small and the bulk
// arguments into their struct. "onepass" is toolnexus's one-pass path
// (argtype.Info.CheckDecode: every rule of the compiled schema checked
// while decoding); "checked+fast" is the compiled schema's check followed
// by the fast decoder (two scans); "fast-unchecked" is that decoder
// alone; the others check nothing but JSON syntax. "json.Valid" is the
// syntax check alone, a floor for any decoder.
func BenchmarkDecoders(b *testing.B) {
	run := func(name string, data []byte, newV func() any, dec func([]byte, any) error) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				if err := dec(data, newV()); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
	}
	for _, c := range []struct {
		name string
		data []byte
		t    reflect.Type
		newV func() any
	}{
		{"weather", weatherJSON, reflect.TypeFor[weatherArgs](), func() any { return new(weatherArgs) }},
		{"trip50", tripJSON(), reflect.TypeFor[tripArgs](), func() any { return new(tripArgs) }},
	} {
		info, err := argtype.For(c.t)
		if err != nil {
			b.Fatal(err)
		}
		run(c.name+"/json.Valid", c.data, c.newV, func(d []byte, _ any) error {
			if !stdjson.Valid(d) {
				return fmt.Errorf("invalid")
			}
			return nil
		})
		run(c.name+"/encoding-json", c.data, c.newV, stdjson.Unmarshal)
		run(c.name+"/go-json-experiment", c.data, c.newV, func(d []byte, v any) error { return jsonv2.Unmarshal(d, v) })
		run(c.name+"/segmentio", c.data, c.newV, segjson.Unmarshal)
		run(c.name+"/fast-unchecked", c.data, c.newV, func(d []byte, v any) error {
			if !info.Decode(d, v) {
				return fmt.Errorf("declined")
			}
			return nil
		})
		run(c.name+"/onepass", c.data, c.newV, func(d []byte, v any) error {
			if ok, _ := info.CheckDecode(d, v); !ok {
				return fmt.Errorf("declined")
			}
			return nil
		})
		run(c.name+"/checked+fast", c.data, c.newV, func(d []byte, v any) error {
			if err := info.Check.Validate(d); err != nil {
				return err
			}
			if !info.Decode(d, v) {
				return fmt.Errorf("declined")
			}
			return nil
		})
	}
}
