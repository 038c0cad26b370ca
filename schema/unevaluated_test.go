package schema

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// diamonds is a schema whose in-place subschemas form a chain of n
// anyOf diamonds (2^n paths to the bottom, validated in linear time as
// the first alternative matches), with unevaluated keyword kw false.
func diamonds(n int, bottom, kw string) string {
	var b strings.Builder
	b.WriteString(`{"$defs":{"d0":` + bottom)
	for i := 1; i <= n; i++ {
		prev := `{"$ref":"#/$defs/d` + strconv.Itoa(i-1) + `"}`
		b.WriteString(`,"d` + strconv.Itoa(i) + `":{"anyOf":[` + prev + `,` + prev + `]}`)
	}
	b.WriteString(`},"allOf":[{"$ref":"#/$defs/d` + strconv.Itoa(n) + `"}],"` + kw + `":false}`)
	return b.String()
}

// TestUnevaluatedHostile: unevaluatedItems and unevaluatedProperties cost
// time linear in the instance, not quadratic or exponential; the bound is the point of the
// test (the first two took minutes, the last two would never end).
func TestUnevaluatedHostile(t *testing.T) {
	const n = 40000
	arr := "[" + strings.Repeat("0,", n) + "0]"
	var ob strings.Builder
	ob.WriteString("{")
	for i := range n {
		if i > 0 {
			ob.WriteByte(',')
		}
		ob.WriteString(`"k` + strconv.Itoa(i) + `":0`)
	}
	ob.WriteString("}")
	obj := ob.String()
	tests := []struct {
		name, schema, in string
		want             string // the first problem's message
	}{
		{"anyOf, unevaluatedItems", `{"anyOf":[{"minItems":0}],"unevaluatedItems":false}`, arr, `"[0]" is not allowed (unevaluatedItems)`},
		{"anyOf, unevaluatedProperties", `{"anyOf":[{"minProperties":0}],"unevaluatedProperties":false}`, obj, `unknown property "k0" (unevaluatedProperties)`},
		{"diamonds, unevaluatedItems", diamonds(40, `{"prefixItems":[true]}`, "unevaluatedItems"), `[1,2,3]`, `"[1]" is not allowed (unevaluatedItems)`},
		{"diamonds, unevaluatedProperties", diamonds(40, `{"properties":{"a":true}}`, "unevaluatedProperties"), `{"a":1,"b":2}`, `unknown property "b" (unevaluatedProperties)`},
	}
	for _, tc := range tests {
		v := mustCompile(t, tc.schema, nil)
		start := time.Now()
		ps := problems(t, v, tc.in)
		d := time.Since(start)
		assert.LessOrEqual(t, d, 10*time.Second, "%s: took %v", tc.name, d)
		if assert.NotEmpty(t, ps, "%s: got %+v", tc.name, ps[:min(len(ps), 2)]) {
			assert.Equal(t, tc.want, ps[0].Message, "%s: got %+v", tc.name, ps[:min(len(ps), 2)])
		}
	}
}
