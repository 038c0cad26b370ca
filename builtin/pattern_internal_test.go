package builtin

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A pattern longer than 8 bytes per instruction of MaxPatternSize is
// refused by its length before it is parsed: refusing a 1 MiB literal or
// 100,000 alternations takes a handful of allocations, where parsing and
// compiling them takes hundreds of thousands.
func TestPatternLengthRefusedBeforeParsing(t *testing.T) {
	e := &env{opts: Options{MaxPatternSize: DefaultMaxPatternSize}}
	for _, pattern := range []string{strings.Repeat("a", 16001), strings.Repeat("a", 1<<20), strings.Repeat("(a|b)", 100_000)} {
		var err error
		allocs := testing.AllocsPerRun(3, func() { _, _, err = e.compilePattern(pattern) })
		assert.EqualError(t, err, fmt.Sprintf("pattern is too long: %d bytes, more than the limit of 16000; use a shorter pattern", len(pattern)))
		assert.LessOrEqual(t, allocs, 10.0, "allocations refusing a %d-byte pattern", len(pattern))
	}
	// At the limit, the pattern is parsed and its instructions counted.
	_, _, err := e.compilePattern(strings.Repeat("[[:alpha:]]", 16000/11))
	require.NoError(t, err)
	_, _, err = e.compilePattern(strings.Repeat("a", 16000))
	assert.EqualError(t, err, "pattern is too large: it compiles to 16002 instructions, more than the limit of 2000; use fewer or smaller repetitions (x{n} counts x n times)")
}
