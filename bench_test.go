package toolnexus

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The benchmarks pair each Execute measurement with its physical limit,
// measured in the same run: json.Unmarshal into the struct, the same
// validator.Struct call, and a direct call of the function. Read the ratio
// Execute/Limit (goal: at most 1.3x time, at most 3 more allocations).

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

var weatherJSON = json.RawMessage(`{"city":"Paris","unit":"celsius","days":3}`)

func tripJSON() json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"name":"grand tour","stops":[`)
	for i := 0; i < 50; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"city":"City %d","lat":%d.25,"lon":%d.5,"nights":%d,"note":"stop number %d"}`, i, i%90, i%180, i%30+1, i)
	}
	b.WriteString(`]}`)
	return json.RawMessage(b.String())
}

var sink string

func weatherFn(_ context.Context, a weatherArgs) (string, error) { return a.City, nil }
func tripFn(_ context.Context, a tripArgs) (string, error)       { return a.Name, nil }

func BenchmarkExecute(b *testing.B) {
	ctx := context.Background()
	b.Run("weather/Execute", func(b *testing.B) {
		r := NewRegistry()
		MustRegister(r, "get_weather", "", weatherFn)
		b.ReportAllocs()
		for b.Loop() {
			res := r.Execute(ctx, "get_weather", weatherJSON)
			if res.IsError {
				b.Fatal(res.Output)
			}
			sink = res.Output
		}
	})
	b.Run("weather/Limit", func(b *testing.B) {
		b.ReportAllocs()
		v := validate()
		for b.Loop() {
			var a weatherArgs
			if err := json.Unmarshal(weatherJSON, &a); err != nil {
				b.Fatal(err)
			}
			if err := v.Struct(&a); err != nil {
				b.Fatal(err)
			}
			out, _ := weatherFn(ctx, a)
			sink = out
		}
	})
	trip := tripJSON()
	b.Run("trip50/Execute", func(b *testing.B) {
		r := NewRegistry()
		MustRegister(r, "plan_trip", "", tripFn)
		b.SetBytes(int64(len(trip)))
		b.ReportAllocs()
		for b.Loop() {
			res := r.Execute(ctx, "plan_trip", trip)
			if res.IsError {
				b.Fatal(res.Output)
			}
			sink = res.Output
		}
	})
	b.Run("trip50/Limit", func(b *testing.B) {
		b.SetBytes(int64(len(trip)))
		b.ReportAllocs()
		v := validate()
		for b.Loop() {
			var a tripArgs
			if err := json.Unmarshal(trip, &a); err != nil {
				b.Fatal(err)
			}
			if err := v.Struct(&a); err != nil {
				b.Fatal(err)
			}
			out, _ := tripFn(ctx, a)
			sink = out
		}
	})
	b.Run("weather/InvalidArgs", func(b *testing.B) {
		r := NewRegistry()
		MustRegister(r, "get_weather", "", weatherFn)
		bad := json.RawMessage(`{"city":"Paris","unit":"kelvin","days":30}`)
		b.ReportAllocs()
		for b.Loop() {
			sink = r.Execute(ctx, "get_weather", bad).Output
		}
	})
}

// validatedArgs has a rule the schema cannot express (numeric), so the
// validator runs on every call: the slow path's ratio to its limit.
type validatedArgs struct {
	City  string `json:"city" validate:"required"`
	Email string `json:"email" validate:"required,email"`
	Zip   string `json:"zip" validate:"numeric"`
	Days  int    `json:"days,omitempty" validate:"omitempty,min=1,max=14"`
}

var validatedJSON = json.RawMessage(`{"city":"Paris","email":"ops@example.com","zip":"75001","days":3}`)

func BenchmarkExecuteWithValidator(b *testing.B) {
	ctx := context.Background()
	fn := func(_ context.Context, a validatedArgs) (string, error) { return a.City, nil }
	b.Run("Execute", func(b *testing.B) {
		r := NewRegistry()
		MustRegister(r, "notify", "", fn)
		b.ReportAllocs()
		for b.Loop() {
			res := r.Execute(ctx, "notify", validatedJSON)
			if res.IsError {
				b.Fatal(res.Output)
			}
			sink = res.Output
		}
	})
	b.Run("Limit", func(b *testing.B) {
		b.ReportAllocs()
		v := validate()
		for b.Loop() {
			var a validatedArgs
			if err := json.Unmarshal(validatedJSON, &a); err != nil {
				b.Fatal(err)
			}
			if err := v.Struct(&a); err != nil {
				b.Fatal(err)
			}
			out, _ := fn(ctx, a)
			sink = out
		}
	})
}

func BenchmarkTypeInfoCache(b *testing.B) {
	b.Run("hit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := SchemaFor[tripArgs](); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The miss is measured in internal/argtype (BenchmarkForMiss).
}

func TestTripArgsValid(t *testing.T) {
	r := NewRegistry()
	MustRegister(r, "plan_trip", "", tripFn)
	res := r.Execute(context.Background(), "plan_trip", tripJSON())
	if res.IsError || res.Output != "grand tour" {
		t.Fatalf("got %+v", res)
	}
}

var typeOfTrip = reflectTypeFor[tripArgs]()

// BenchmarkCheckArgs is the compiled schema's check alone on trip50 (the
// first step of Execute).
func BenchmarkCheckArgs(b *testing.B) {
	info, err := typeInfoFor(typeOfTrip)
	if err != nil {
		b.Fatal(err)
	}
	trip := tripJSON()
	b.SetBytes(int64(len(trip)))
	b.ReportAllocs()
	for b.Loop() {
		if err := info.Check.Validate(trip); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAdd1000OneByOne registers 1000 raw tools with one Add each (the
// snapshot is copied per Add; the sorted list is merged, not re-sorted).
func BenchmarkAdd1000OneByOne(b *testing.B) {
	h := HandlerFunc(func(context.Context, json.RawMessage) (string, error) { return "", nil })
	names := make([]string, 1000)
	for i := range names {
		names[i] = fmt.Sprintf("tool_%04d", i)
	}
	for b.Loop() {
		r := NewRegistry()
		for _, n := range names {
			if err := r.Add(Tool{Name: n, Handler: h}); err != nil {
				b.Fatal(err)
			}
		}
	}
}
