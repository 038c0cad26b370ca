package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEqualAndHash(t *testing.T) {
	tests := []struct {
		a, b  string
		equal bool
	}{
		{`1`, `1.0`, true},
		{`1`, `1e0`, true},
		{`100`, `1e2`, true},
		{`-0`, `0.0`, true},
		{`0.1`, `0.10`, true},
		{`1`, `-1`, false},
		{`1`, `true`, false},
		{`"a"`, `"\u0061"`, true},
		{`"\ud83d\ude00"`, `"😀"`, true},
		{`"a"`, `"b"`, false},
		{`[1,[2]]`, `[1.0, [2.0]]`, true},
		{`[1,2]`, `[2,1]`, false},
		{`[]`, `[[]]`, false},
		{`{"a":1,"b":[true]}`, `{ "b" : [true] , "a" : 1.0 }`, true},
		{`{"a":1}`, `{"a":1,"b":2}`, false},
		{`{"a":1}`, `{"b":1}`, false},
		{`{}`, `[]`, false},
		{`null`, `false`, false},
	}
	for _, tc := range tests {
		got := equalT([]byte(tc.a), 0, []byte(tc.b), 0)
		assert.Equal(t, tc.equal, got, "equalT(%s, %s) = %v", tc.a, tc.b, got)
		ea, ha := hashValue([]byte(tc.a), 0)
		eb, hb := hashValue([]byte(tc.b), 0)
		if assert.Equal(t, len(tc.a), ea, "hashValue ends at %d/%d, want %d/%d", ea, eb, len(tc.a), len(tc.b)) {
			assert.Equal(t, len(tc.b), eb, "hashValue ends at %d/%d, want %d/%d", ea, eb, len(tc.a), len(tc.b))
		}
		assert.False(t, tc.equal && ha != hb, "equal values %s and %s hash differently", tc.a, tc.b)
		assert.False(t, !tc.equal && ha == hb, "different values %s and %s hash the same", tc.a, tc.b)
	}
}
