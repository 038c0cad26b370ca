package render

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/toolnexus/toolnexus"
)

func TestMCPAnnotationsMatchEncodingJSON(t *testing.T) {
	yes, no := true, false
	for _, a := range []*toolnexus.Annotations{
		{}, {Title: "T <x>"}, {ReadOnlyHint: true}, {DestructiveHint: &no}, {DestructiveHint: &yes, IdempotentHint: true},
		{Title: "all", ReadOnlyHint: true, DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &yes},
	} {
		want, _ := json.Marshal(a)
		got := appendAnnotations(nil, a)
		assert.Equal(t, string(want), string(got), "annotations %+v: got %s, want %s", a, got, want)
	}
}
