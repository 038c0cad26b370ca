package schema

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const bulkSchema = `{"type":"object","properties":{"items":{"type":"array","maxItems":100,"items":{
	"type":"object","properties":{
		"id":{"type":"integer","minimum":1},
		"name":{"type":"string","minLength":1,"maxLength":64},
		"price":{"type":"number","minimum":0},
		"tags":{"type":"array","items":{"type":"string","minLength":1},"maxItems":8},
		"where":{"type":"object","properties":{"city":{"type":"string","minLength":1},"zip":{"type":"string","pattern":"^[0-9]{5}$"}},"required":["city"],"additionalProperties":false}
	},"required":["id","name","price"],"additionalProperties":false}}},"required":["items"],"additionalProperties":false}`

func bulkInstance() []byte {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := 0; i < 50; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":` + strconv.Itoa(i+1) + `,"name":"item number ` + strconv.Itoa(i) + `","price":` + strconv.Itoa(i) + `.95,"tags":["red","large"],"where":{"city":"Springfield","zip":"12345"}}`)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

var smallInstance = []byte(`{"city":"Paris","days":3,"unit":"celsius"}`)

func benchValidate(b *testing.B, schema string, in []byte) {
	v := mustCompile(b, schema, nil)
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if err := v.Validate(in); err != nil {
			b.Fatal(err)
		}
	}
}

func benchUnmarshal(b *testing.B, in []byte) {
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		var m map[string]any
		if err := json.Unmarshal(in, &m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidate measures Validate on valid instances next to the
// limit measured in the same run: encoding/json Unmarshal of the same
// bytes into a map (which checks syntax only).
func BenchmarkValidate(b *testing.B) {
	bulk := bulkInstance()
	b.Run("small", func(b *testing.B) { benchValidate(b, weather, smallInstance) })
	b.Run("small/limit=json.Unmarshal", func(b *testing.B) { benchUnmarshal(b, smallInstance) })
	b.Run("bulk", func(b *testing.B) { benchValidate(b, bulkSchema, bulk) })
	b.Run("bulk/limit=json.Unmarshal", func(b *testing.B) { benchUnmarshal(b, bulk) })
}

// BenchmarkValidateInvalid measures an instance with three problems.
func BenchmarkValidateInvalid(b *testing.B) {
	v := mustCompile(b, weather, nil)
	in := []byte(`{"City":"Paris","days":30,"unit":"kelvin"}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if v.Validate(in) == nil {
			b.Fatal("valid")
		}
	}
}

// The schemas toolnexus reflects for the root package's benchmark argument
// types (newtool_bench_test.go: weatherArgs, tripArgs, wideArgs), as
// NewTool hands them to the engine.
const (
	typedWeatherSchema = `{"type":"object","properties":{"city":{"type":"string","description":"City name","minLength":1},"unit":{"type":"string","enum":["celsius","fahrenheit"]},"days":{"type":"integer","maximum":14,"minimum":1}},"required":["city"],"additionalProperties":false}`
	typedWideSchema    = `{"type":"object","properties":{"query":{"type":"string","description":"What to search for","maxLength":200,"minLength":1},"mode":{"type":"string","description":"Search mode","enum":["fast","deep","exact"]},"limit":{"type":"integer","description":"Maximum results","maximum":100,"minimum":1},"email":{"type":"string","format":"email"},"site":{"type":"string","format":"uri"},"tags":{"type":"array","items":{"type":"string","minLength":1},"maxItems":10},"window":{"type":"object","properties":{"from":{"type":"string","description":"Start date","minLength":1},"to":{"type":"string"},"days":{"type":"integer","maximum":365,"minimum":1}},"required":["from"],"additionalProperties":false},"filters":{"type":"array","items":{"type":"object","properties":{"field":{"type":"string","minLength":1},"op":{"type":"string","enum":["eq","ne","lt","gt"],"minLength":1},"value":{"type":"string"},"any":{"type":"array","items":{"type":"string"},"maxItems":5}},"required":["field","op","value"],"additionalProperties":false},"maxItems":20},"labels":{"type":"object","additionalProperties":{"type":"string"}},"verbose":{"type":"boolean"},"score":{"type":"number","maximum":1,"minimum":0},"language":{"type":"string","enum":["en","fr","de"]}},"required":["query","window"],"additionalProperties":false}`
)

// BenchmarkCompile measures compiling a schema. The typed/* cases are the
// weather, trip and wide schemas NewTool compiles, with the options typed
// tools use; bulk compiles with default options.
func BenchmarkCompile(b *testing.B) {
	for _, c := range []struct{ name, schema string }{
		{"weather", typedWeatherSchema}, {"trip", tripSchema}, {"wide", typedWideSchema},
	} {
		b.Run("typed/"+c.name, func(b *testing.B) {
			raw := []byte(c.schema)
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				if _, err := Compile(raw, typedOpts); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
	}
	b.Run("bulk", func(b *testing.B) {
		b.ReportAllocs()
		start := cpuTime()
		for b.Loop() {
			if _, err := Compile([]byte(bulkSchema), nil); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, start)
	})
}

// tripSchema is the schema toolnexus reflects for the root package's
// trip50 benchmark arguments (50 stops with required properties and
// bounds), compiled with the options typed tools use.
const tripSchema = `{"type":"object","properties":{"name":{"type":"string","minLength":1},"stops":{"type":"array","items":{"type":"object","properties":{"city":{"type":"string","minLength":1},"lat":{"type":"number","maximum":90,"minimum":-90},"lon":{"type":"number","maximum":180,"minimum":-180},"nights":{"type":"integer","maximum":30,"minimum":1},"note":{"type":"string"}},"required":["city","lat","lon"],"additionalProperties":false},"maxItems":100}},"required":["name","stops"],"additionalProperties":false}`

var typedOpts = &Options{AssertFormat: true, Strict: true, RejectDuplicateKeys: true, NullAsAbsent: true, MaxDepth: 512}

func tripInstance() []byte {
	var b strings.Builder
	b.WriteString(`{"name":"grand tour","stops":[`)
	for i := 0; i < 50; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"city":"City ` + strconv.Itoa(i) + `","lat":` + strconv.Itoa(i%90) + `.25,"lon":` + strconv.Itoa(i%180) +
			`.5,"nights":` + strconv.Itoa(i%30+1) + `,"note":"stop number ` + strconv.Itoa(i) + `"}`)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// BenchmarkValidateTrip50 is Validate on the trip50 arguments (issue 11:
// at least 200 MB/s, no allocation) next to its floor in the same run:
// json.Valid on the same bytes, which checks syntax only. cpu-ns/op (the
// process's CPU time per call) is steadier than ns/op on a loaded machine;
// MB/s there is len(in)*1000/cpu-ns.
func BenchmarkValidateTrip50(b *testing.B) {
	in := tripInstance()
	b.Run("Validate", func(b *testing.B) {
		v := mustCompile(b, tripSchema, typedOpts)
		b.ReportAllocs()
		b.SetBytes(int64(len(in)))
		start := cpuTime()
		for b.Loop() {
			if err := v.Validate(in); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, start)
	})
	b.Run("floor=json.Valid", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(in)))
		start := cpuTime()
		for b.Loop() {
			if !json.Valid(in) {
				b.Fatal("invalid")
			}
		}
		reportCPU(b, start)
	})
}

func TestValidateTrip50NoAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under -race")
	}
	v := mustCompile(t, tripSchema, typedOpts)
	in := tripInstance()
	n := testing.AllocsPerRun(50, func() {
		require.NoError(t, v.Validate(in))
	})
	assert.Zero(t, n, "Validate(trip50) allocates %v times", n)
	err := v.Validate([]byte(`{"name":"x","stops":[{"city":"a","lat":1,"lon":2,"lat":3}]}`))
	assert.ErrorContains(t, err, `"stops[0].lat" is given more than once`, "a repeated known key: %v", err)
}
