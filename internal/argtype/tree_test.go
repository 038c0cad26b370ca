package argtype

import (
	"encoding/json"
	"math/big"
	"net/netip"
	"reflect"
	"testing"
	"time"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolnexus/toolnexus/internal/jsonx"
)

type treeInner struct {
	From string `json:"from" jsonschema:"description=Start <date> & time" validate:"required"`
	Days int    `json:"days,omitempty" validate:"omitempty,min=1,max=365"`
}

type treeHooked struct{ V string }

func (treeHooked) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Examples: []any{"a", "b"}, Default: "x"}
}

type treeNode struct {
	Name string      `json:"name"`
	Kids []*treeNode `json:"kids,omitempty"`
}

type treePair[K, V any] struct {
	K K `json:"k"`
	V V `json:"v"`
}

type treeEmbedded struct {
	Base string `json:"base" jsonschema:"title=Base,example=b1,example=b2"`
}

type treeArgs struct {
	treeEmbedded
	Query   string                       `json:"query" jsonschema:"description=What to search for,minLength=2,pattern=^[a-z]+$" validate:"required,max=200"`
	Mode    string                       `json:"mode,omitempty" jsonschema:"enum=fast,enum=deep,default=fast" validate:"omitempty"`
	Level   int                          `json:"level,omitempty" jsonschema:"minimum=1,maximum=5,default=2,enum=1,enum=2,enum=3" validate:"omitempty"`
	Ratio   float64                      `json:"ratio,omitempty" jsonschema:"exclusiveMinimum=0,exclusiveMaximum=1.5e0,multipleOf=0.25"`
	Pick    string                       `json:"pick,omitempty" validate:"omitempty,oneof=a b c"`
	Tags    []string                     `json:"tags,omitempty" jsonschema:"minItems=1,maxItems=3,uniqueItems=true" validate:"omitempty,dive,min=1"`
	Window  treeInner                    `json:"window"`
	Windows []treeInner                  `json:"windows,omitempty" validate:"omitempty,max=4,dive"`
	Labels  map[string]string            `json:"labels,omitempty"`
	Any     any                          `json:"any,omitempty"`
	Raw     json.RawMessage              `json:"raw,omitempty"`
	When    time.Time                    `json:"when,omitzero"`
	Addr    netip.Addr                   `json:"addr,omitzero"`
	Big     *big.Int                     `json:"big,omitempty"`
	Hook    treeHooked                   `json:"hook,omitzero"`
	Bytes   []byte                       `json:"bytes,omitempty"`
	Ptr     *treeInner                   `json:"ptr,omitempty" jsonschema:"nullable"`
	Pair    treePair[string, netip.Addr] `json:"pair,omitzero"`
	Desc    string                       `json:"desc,omitempty" jsonschema_description:"Described \u2028 here"`
	Extra   string                       `json:"extra,omitempty" jsonschema_extras:"const=fixed,x-a=1"`
	Arr     [2]int                       `json:"arr,omitzero"`
}

// roundTrip is what schemaTree stands for: jsonx.Parse(json.Marshal(s)).
func roundTrip(t *testing.T, s *jsonschema.Schema) any {
	t.Helper()
	raw, err := json.Marshal(s)
	require.NoError(t, err)
	tree, err := jsonx.Parse(raw)
	require.NoError(t, err)
	return tree
}

// TestSchemaTreeOfReflected: for schemas invopop reflects with NewTool's
// settings, schemaTree gives the tree of invopop's JSON.
func TestSchemaTreeOfReflected(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[treeArgs](), reflect.TypeFor[treeNode](), reflect.TypeFor[treeInner](),
		reflect.TypeFor[struct{}](), reflect.TypeFor[struct {
			A treePair[int, treePair[string, bool]] `json:"a"`
		}]()} {
		r := &jsonschema.Reflector{DoNotReference: !hasCycle(typ), ExpandedStruct: named(typ), Anonymous: true, Mapper: stdMapper}
		s := r.ReflectFromType(typ)
		got, err := schemaTree(s)
		require.NoError(t, err, typ)
		assert.Equal(t, roundTrip(t, s), got, typ)
	}
}

// TestSchemaTreeShapes compares schemaTree with jsonx.Parse(json.Marshal)
// on hand-built schemas: boolean and empty schemas, maps, extras (one
// repeating a keyword), a contentSchema, strings that are not UTF-8.
func TestSchemaTreeShapes(t *testing.T) {
	props := jsonschema.NewProperties()
	props.Set("b<&>", &jsonschema.Schema{Type: "integer", Const: 3})
	props.Set("a", nil)
	cp := *jsonschema.FalseSchema
	for i, s := range []*jsonschema.Schema{
		{Items: &jsonschema.Schema{}, AdditionalProperties: jsonschema.FalseSchema, Not: jsonschema.TrueSchema, Contains: &cp},
		{Properties: jsonschema.NewProperties()},
		{Properties: props, Required: []string{"a"}, DependentRequired: map[string][]string{"z": {"a"}, "y": nil},
			PatternProperties: map[string]*jsonschema.Schema{"^x": {Type: "string"}, "^a": nil},
			DependentSchemas:  map[string]*jsonschema.Schema{"a": {MinProperties: new(uint64)}},
			Definitions:       jsonschema.Definitions{"D": {Type: "object"}, "C": jsonschema.TrueSchema}},
		{Type: "string", Extras: map[string]any{"x-b": []int{1, 2}, "x-a": map[string]any{"k": 1.5}, "x-s": []string{"p", "q"}, "x-i": 7, "x-t": true}},
		{Extras: map[string]any{"only": "extras"}},
		{AnyOf: []*jsonschema.Schema{nil, {Format: "ipv4"}}, Enum: []any{1, "a", 2.5, int64(-4), json.Number("1e3"), nil, true}},
		{Const: "c", Default: []any{"x", 1}, Examples: []any{map[string]int{"a": 1}}, Deprecated: true, ReadOnly: true, WriteOnly: true},
		{Description: "d", Type: "string", Title: "t", Ref: "#/$defs/x", Pattern: "^x", Format: "uri", MaxLength: new(uint64)},
		{PrefixItems: []*jsonschema.Schema{jsonschema.TrueSchema, nil}, If: &jsonschema.Schema{}, Then: jsonschema.FalseSchema, PropertyNames: &jsonschema.Schema{Pattern: "^a"}},
		{Type: "string", Description: "bad \xff\xfe utf-8 \xe2\x82", Enum: []any{"\xff"}, Extras: map[string]any{"x-\xff": "\xc3"}},
		{Type: "string", Default: json.Number("")},
		{Type: "string", Extras: map[string]any{"type": "number"}},
		{Type: "object", Extras: map[string]any{"required": []string{"a"}}},
		{Type: "string", ContentSchema: &jsonschema.Schema{Type: "array", Items: jsonschema.TrueSchema}},
		{},
		jsonschema.TrueSchema,
		jsonschema.FalseSchema,
	} {
		got, err := schemaTree(s)
		require.NoError(t, err, i)
		assert.Equal(t, roundTrip(t, s), got, "%d: %s", i, jsonx.Marshal(got))
	}
}

// TestSchemaTreeErrors: a value json.Marshal refuses gives its error.
func TestSchemaTreeErrors(t *testing.T) {
	for _, s := range []*jsonschema.Schema{
		{Type: "number", Minimum: "Inf"},
		{Type: "string", Extras: map[string]any{"x": func() {}}},
	} {
		_, want := json.Marshal(s)
		require.Error(t, want)
		_, err := schemaTree(s)
		assert.EqualError(t, err, want.Error())
	}
}
