package suggest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClosest(t *testing.T) {
	assert.Equal(t, "tools", Closest("tols", []string{"call", "tools"}))
	assert.Equal(t, "bash", Closest("Bash", []string{"bash", "edit"}))
	assert.Equal(t, "write", Closest("wirte", []string{"read", "write"}))
	assert.Equal(t, "", Closest("frob", []string{"tools", "call", "skills"}))
	assert.Equal(t, "", Closest("x", nil))
}
