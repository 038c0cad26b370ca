package argtype

import (
	"reflect"
	"strings"
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
		applyRule(s, str, r, true, nil)
	}
	require.Equal(t, uint64(2), *s.MinLength)
	require.Equal(t, uint64(5), *s.MaxLength)
	require.Equal(t, "email", s.Format)

	require.True(t, mirrored("required,min=2,max=5,email", str, false))
	require.False(t, mirrored("email", str, true), "a jsonschema format= replaces the rule's format")
	require.False(t, mirrored("http_url", str, false))
	require.False(t, mirrored("lt=0", str, false))

	list := &jsonschema.Schema{}
	applyRule(list, reflect.TypeOf([]int{}), "unique", false, nil)
	require.False(t, list.UniqueItems, "unique is shown only when enforced")
	applyRule(list, reflect.TypeOf([]int{}), "unique", true, nil)
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

// TestProbeSkippedOnlyWhenSafe: registration probes the validator only for
// types it will run on; a rule the validator would panic on is never
// counted as mirrored, so it still fails registration.
func TestProbeSkippedOnlyWhenSafe(t *testing.T) {
	type fracMin struct {
		N int `json:"n,omitempty" validate:"omitempty,min=1.5"`
	}
	type emptyRule struct {
		S string `json:"s" validate:"min=1,,max=3"`
	}
	type spaced struct {
		S string `json:"s,omitempty" validate:"omitempty, max=3"`
	}
	type hexMax struct {
		U uint8 `json:"u,omitempty" validate:"omitempty,max=0xZZ"`
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[fracMin](), reflect.TypeFor[emptyRule](), reflect.TypeFor[spaced](), reflect.TypeFor[hexMax]()} {
		_, err := For(typ)
		if err == nil || !strings.Contains(err.Error(), "invalid validate tag") {
			t.Errorf("%s: err = %v, want an invalid validate tag", typ, err)
		}
	}
	type mirroredOnly struct {
		S string   `json:"s" validate:"required,max=3"`
		N float64  `json:"n,omitempty" validate:"omitempty,gte=-1.5,lt=2"`
		L []string `json:"l,omitempty" validate:"omitempty,max=2,dive,oneof=a b"`
	}
	info, err := For(reflect.TypeFor[mirroredOnly]())
	if err != nil {
		t.Fatal(err)
	}
	if info.NeedValidator {
		t.Error("NeedValidator = true for a type whose rules are all mirrored")
	}
}

func TestRuleHint(t *testing.T) {
	names := func(goName string) string { return map[string]string{"Kind": "kind", "A": "a", "B": "b"}[goName] }
	for rule, want := range map[string]string{
		"required_if=Kind pro":       `Required when "kind" is pro.`,
		"excluded_unless=Kind basic": `Must be left out unless "kind" is basic.`,
		"required_with=A B":          `Required when any of "a", "b" is given.`,
		"required_without_all=A B":   `Required when all of "a", "b" are missing.`,
		"ltefield=Other":             `It must be at most the "Other" property.`,
		"eq=7":                       `It must be 7.`,
		"startswith=ab":              `It must pass the validate rule "startswith=ab".`,
		"omitempty":                  ``,
	} {
		name, param, _ := strings.Cut(rule, "=")
		require.Equal(t, want, ruleHint(rule, name, param, names), rule)
	}
	s := &jsonschema.Schema{Description: "Kind of plan"}
	addHint(s, "It must be 7.")
	addHint(s, "It must be 7.")
	require.Equal(t, "Kind of plan. It must be 7.", s.Description)
}
