package builtin_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus/builtin"
)

// TestEveryBuiltinHasAllFourHints walks every built-in tool and checks that
// readOnlyHint, destructiveHint, idempotentHint and openWorldHint are set
// to the chosen value: the two pointer hints are never left to the spec's
// default (true), and the two boolean hints match the table.
func TestEveryBuiltinHasAllFourHints(t *testing.T) {
	// name: readOnly, destructive, idempotent, openWorld
	want := map[string][4]bool{
		"apply_patch": {false, true, false, false},
		"bash":        {false, true, false, true},
		"edit":        {false, true, false, false},
		"glob":        {true, false, true, false},
		"grep":        {true, false, true, false},
		"question":    {true, false, false, false},
		"read":        {true, false, true, false},
		"todowrite":   {false, false, true, false},
		"webfetch":    {true, false, false, true},
		"write":       {false, true, true, false},
	}
	tools, err := builtin.Tools(&builtin.Options{Workspace: t.TempDir()})
	require.NoError(t, err)
	require.Len(t, tools, len(want))
	for _, tl := range tools {
		a := tl.Annotations
		require.NotNil(t, a, tl.Name)
		require.NotNil(t, a.DestructiveHint, "%s: destructiveHint left to the default", tl.Name)
		require.NotNil(t, a.OpenWorldHint, "%s: openWorldHint left to the default", tl.Name)
		assert.Equal(t, want[tl.Name], [4]bool{a.ReadOnlyHint, *a.DestructiveHint, a.IdempotentHint, *a.OpenWorldHint}, tl.Name)
	}
}
