package argtype

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The scanner's syntax messages and offsets, pinned while its lexing moved
// to internal/jsonlex: escapes are reported at their backslash.
func TestSyntaxMessages(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":"\x"}`:          "invalid escape in a string at byte 6",
		`{"a":"\u12g4"}`:      "invalid \\u escape in a string at byte 6",
		`{"a":"b\u0"}`:        "unexpected end of input (truncated?)",
		`{"a":"\u83D\uDE00"}`: "invalid \\u escape in a string at byte 6",
		`{"a":"b\u0", "c":1}`: "invalid \\u escape in a string at byte 7",
		"{\"a\":\"b\x01\"}":   "control character in a string at byte 7",
		`{"a":"b`:             "unexpected end of input (truncated?)",
		`{"a":"b\u00`:         "unexpected end of input (truncated?)",
		`{"a":-}`:             "invalid number at byte 6",
		`{"a":1.}`:            "invalid number at byte 7",
		`{"a":1e`:             "unexpected end of input (truncated?)",
		`{"a":01}`:            "expected ',' or '}' after a property value at byte 6",
		`{"a":nul}`:           "unexpected end of input (truncated?)",
		`{"a":  nulx, "b":1}`: "invalid literal at byte 7",
		`{"a":[1 2]}`:         "expected ',' or ']' after an array item at byte 8",
	} {
		p := SyntaxProblem([]byte(in))
		require.NotNil(t, p, in)
		require.Equal(t, "arguments are not valid JSON: "+want, p.Msg, in)
	}
}
