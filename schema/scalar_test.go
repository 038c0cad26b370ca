package schema

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIntBoundsFastPath: numbers with a fraction checked against integer
// bounds (smallDec) get the verdict and the messages of the exact decimal
// comparison, which bounds written 90.0 take.
func TestIntBoundsFastPath(t *testing.T) {
	values := []string{"0", "-0", "0.5", "-0.5", "89", "89.99", "90", "90.0", "90.000", "90.01", "-90", "-90.0", "-90.5",
		"-89.5", "6", "6.5", "7", "7.25", "-3", "-3.5", "-2.5", "-4", "12345678901234567.5", "1e1", "-1.5e1", "0.0000001"}
	for _, kw := range []struct{ name, a, b string }{
		{"minimum", "-90", "-90.0"}, {"maximum", "90", "90.0"}, {"exclusiveMinimum", "-3", "-3.0"}, {"exclusiveMaximum", "7", "7.0"},
	} {
		fast := mustCompile(t, fmt.Sprintf(`{"type":"number","%s":%s}`, kw.name, kw.a), nil)
		exact := mustCompile(t, fmt.Sprintf(`{"type":"number","%s":%s}`, kw.name, kw.b), nil)
		require.True(t, fast.root.intBounds, "%s: intBounds %v and %v", kw.name, fast.root.intBounds, exact.root.intBounds)
		require.False(t, exact.root.intBounds, "%s: intBounds %v and %v", kw.name, fast.root.intBounds, exact.root.intBounds)
		for _, v := range values {
			ef, ee := fast.Validate([]byte(v)), exact.Validate([]byte(v))
			assert.Equal(t, (ee == nil), (ef == nil), "%s %s, value %s: %v, exact comparison: %v", kw.name, kw.a, v, ef, ee)
		}
	}
	v := mustCompile(t, `{"type":"number","maximum":90}`, nil)
	ps := problems(t, v, `90.5`)
	if assert.Len(t, ps, 1, "got %+v", ps) {
		assert.Equal(t, "arguments must be at most 90", ps[0].Message, "got %+v", ps)
	}
}
