package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestApplyDefaults(t *testing.T) {
	v := mustCompile(t, `{"type":"object","properties":{
		"unit":{"type":"string","default":"celsius"},
		"days":{"$ref":"#/$defs/days"},
		"opts":{"type":"object","properties":{"lang":{"default":"en"}}},
		"stops":{"type":"array","items":{"properties":{"n":{"default":1}}}},
		"city":{"type":"string","default":"Paris"}},
		"required":["city"],
		"$defs":{"days":{"type":"integer","default":3}}}`, &Options{NullAsAbsent: true, Strict: true})
	tests := []struct{ in, want string }{
		{`{"city":"Rome","unit":"kelvin","days":1,"opts":{"lang":"fr"},"stops":[]}`, ``},
		{`{"city":"Rome"}`, `{"city":"Rome","unit":"celsius","days":3}`},
		{`{"city":null,"unit":null,"opts":{},"stops":[{},{"n":2}]}`, `{"city":null,"unit":"celsius","opts":{"lang":"en"},"stops":[{"n":1},{"n":2}],"days":3}`},
	}
	for _, tc := range tests {
		out, changed, err := v.ApplyDefaults([]byte(tc.in))
		require.NoError(t, err)
		if tc.want == "" {
			assert.False(t, changed, "ApplyDefaults(%s) = %s, %v; want unchanged", tc.in, out, changed)
			assert.Equal(t, tc.in, string(out), "ApplyDefaults(%s) = %s, %v; want unchanged", tc.in, out, changed)
			continue
		}
		assert.True(t, changed, "ApplyDefaults(%s)\n got %s, %v\nwant %s", tc.in, out, changed, tc.want)
		assert.Equal(t, tc.want, string(out), "ApplyDefaults(%s)\n got %s, %v\nwant %s", tc.in, out, changed, tc.want)
	}
	_, _, err := v.ApplyDefaults([]byte(`{`))
	assert.Error(t, err, "no error for invalid JSON")
	plain := mustCompile(t, weather, nil)
	in := []byte(`{"city":"Paris"}`)
	n := testing.AllocsPerRun(100, func() {
		out, changed, err := plain.ApplyDefaults(in)
		require.NoError(t, err, "changed")
		require.False(t, changed, "changed")
		require.Same(t, &in[0], &out[0], "changed")
	})
	assert.Zero(t, n, "ApplyDefaults without defaults: %v allocs", n)
	// A default only under a combinator is not applied.
	v = mustCompile(t, `{"anyOf":[{"properties":{"a":{"default":1}}}]}`, nil)
	out, changed, _ := v.ApplyDefaults([]byte(`{}`))
	assert.False(t, changed, "combinator default applied: %s", out)
	assert.Equal(t, `{}`, string(out), "combinator default applied: %s", out)
}
