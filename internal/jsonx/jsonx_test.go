package jsonx

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "quote\" back\\", "<a&b>", "tab\tnl\ncr\r", "\x00\x1f", "bad\xffutf8", "ls\u2028ps\u2029", "héllo ✓"} {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		require.Equal(t, string(want), string(AppendString(nil, s)), "string %q", s)
	}
}

func TestParseKeepsOrderAndRoundTrips(t *testing.T) {
	in := `{"z":1,"a":[true,false,null,"x",1.50,{"k":{}}],"m":{"b":2,"a":1}}`
	v, err := Parse([]byte(in))
	require.NoError(t, err)
	require.Equal(t, in, string(Marshal(v)))
	c := Clone(v).(*Object)
	c.Set("z", "changed")
	require.True(t, c.Delete("a"))
	require.Equal(t, in, string(Marshal(v)), "Clone must not share state")
	require.Equal(t, `{"z":"changed","m":{"b":2,"a":1}}`, string(Marshal(c)))
	_, err = Parse([]byte(`{} {}`))
	require.Error(t, err)
}
