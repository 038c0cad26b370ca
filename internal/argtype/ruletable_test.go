package argtype

import (
	"reflect"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/require"
)

// A rule the checker enforces in the validator's place must be shown to the
// model: every mirrored row but omitempty has a schema mapping.
func TestRulesTableMirroredRulesAreShown(t *testing.T) {
	for name, spec := range validatorRules {
		if spec.mirror == nil || name == "omitempty" {
			continue
		}
		require.NotNil(t, spec.schema, "rule %s is mirrored but not shown", name)
	}
}

func TestRulesTableRows(t *testing.T) {
	str := reflect.TypeOf("")
	s := &jsonschema.Schema{}
	for _, r := range []string{"min=2", "max=5", "email"} {
		applyRule(s, str, r, true)
	}
	require.Equal(t, uint64(2), *s.MinLength)
	require.Equal(t, uint64(5), *s.MaxLength)
	require.Equal(t, "email", s.Format)

	require.True(t, mirrored("required,min=2,max=5,email", str, false))
	require.False(t, mirrored("email", str, true), "a jsonschema format= replaces the rule's format")
	require.False(t, mirrored("http_url", str, false))
	require.False(t, mirrored("lt=0", str, false))

	list := &jsonschema.Schema{}
	applyRule(list, reflect.TypeOf([]int{}), "unique", false)
	require.False(t, list.UniqueItems, "unique is shown only when enforced")
	applyRule(list, reflect.TypeOf([]int{}), "unique", true)
	require.True(t, list.UniqueItems)
}

func TestKeywordRule(t *testing.T) {
	for kw, want := range map[string]string{
		"enum": "oneof", "minimum": "min", "maxLength": "max", "minProperties": "min",
		"exclusiveMinimum": "gt", "exclusiveMaximum": "lt", "uniqueItems": "unique",
		"additionalProperties": "unknown", "duplicateKey": "duplicate", "type": "type", "pattern": "pattern",
	} {
		require.Equal(t, want, KeywordRule(kw), kw)
	}
}
