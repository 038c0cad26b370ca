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
	for typ, want := range map[reflect.Type]string{
		reflect.TypeFor[fracMin]():   `field fracMin.N: validate tag "omitempty,min=1.5": rule "min" cannot read its parameter "1.5" as a number for a Go int; fix the parameter`,
		reflect.TypeFor[emptyRule](): `field emptyRule.S: validate tag "min=1,,max=3": the tag is malformed (an empty rule, a stray comma or "|"); write rules as name or name=param separated by commas`,
		reflect.TypeFor[spaced]():    `field spaced.S: validate tag "omitempty, max=3": there is no rule " max"; write the rules separated by commas without spaces`,
		reflect.TypeFor[hexMax]():    `field hexMax.U: validate tag "omitempty,max=0xZZ": rule "max" cannot read its parameter "0xZZ" as a number for a Go uint8; fix the parameter`,
	} {
		_, err := For(typ)
		require.EqualError(t, err, want, typ.String())
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
		"startswith=ab":              `It must start with "ab".`,
		"excludesall=<>":             `It must not contain any of the characters "<>".`,
		"lowercase":                  `It must be all lower case.`,
		"iscolor":                    `It must pass the validate rule "iscolor".`,
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

// TestUnexportedTagged: a json tag on an unexported field is refused with the
// field and the fix, since encoding/json ignores the field. The field is made
// by hand: go vet refuses one written in source.
func TestUnexportedTagged(t *testing.T) {
	type limits struct{ Name string }
	sf := reflect.StructField{Name: "limit", PkgPath: "example.com/p", Type: reflect.TypeFor[int](), Tag: `json:"limit"`}
	require.EqualError(t, unexportedTagged(reflect.TypeFor[limits](), sf),
		`field limits.limit: it has a json tag but is unexported, so encoding/json ignores it and the model could not set it; export it (rename it Limit) or remove the tag`)
	sf.Tag = `json:"-"`
	require.NoError(t, unexportedTagged(reflect.TypeFor[limits](), sf))
	sf.Tag = `yaml:"limit"`
	require.NoError(t, unexportedTagged(reflect.TypeFor[limits](), sf))
}
