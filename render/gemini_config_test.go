package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/toolnexus/toolnexus"
)

func TestGeminiToolConfig(t *testing.T) {
	ts := []toolnexus.Tool{{Name: "a"}, {Name: "b"}}
	for _, c := range []struct {
		mode    string
		allowed []toolnexus.Tool
		want    string
	}{
		{"AUTO", nil, `{"functionCallingConfig":{"mode":"AUTO"}}`},
		{"VALIDATED", ts, `{"functionCallingConfig":{"allowedFunctionNames":["a","b"],"mode":"VALIDATED"}}`},
		{"ANY", ts[1:], `{"functionCallingConfig":{"allowedFunctionNames":["b"],"mode":"ANY"}}`},
		{"NONE", ts, "need mode ANY or VALIDATED, not NONE"},
		{"any", nil, `got "any"`},
	} {
		got, err := GeminiToolConfig(c.mode, c.allowed)
		if err != nil {
			got = []byte(err.Error())
		}
		assert.Contains(t, string(got), c.want, "%s: got %s, want %s", c.mode, got, c.want)
	}
}
