package jsonx

import (
	"encoding/json"
	"errors"
	"strings"
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

// TestParseDepth: nesting past MaxDepth is an error, not a stack that
// grows with the input (4 MiB of "[" used to end the process).
func TestParseDepth(t *testing.T) {
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, err := Parse([]byte(ok)); err != nil {
		t.Fatalf("%d levels: %v", MaxDepth, err)
	}
	for _, n := range []int{MaxDepth + 1, 4 << 20} {
		deep := strings.Repeat("[", n) + strings.Repeat("]", n)
		if _, err := Parse([]byte(deep)); !errors.Is(err, ErrTooDeep) {
			t.Errorf("%d levels: err = %v, want ErrTooDeep", n, err)
		}
		deepObj := strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n)
		if _, err := Parse([]byte(deepObj)); !errors.Is(err, ErrTooDeep) {
			t.Errorf("%d object levels: err = %v, want ErrTooDeep", n, err)
		}
	}
}
