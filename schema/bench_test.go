package schema

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
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

func BenchmarkCompile(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile([]byte(bulkSchema), nil); err != nil {
			b.Fatal(err)
		}
	}
}
