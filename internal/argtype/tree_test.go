package argtype

import (
	"encoding/json"
	"math/big"
	"net/netip"
	"reflect"
	"testing"
	"time"

	"github.com/invopop/jsonschema"

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
	Count   uint8                        `json:"count,omitempty" validate:"omitempty,oneof=1 2 3"`
	Email   string                       `json:"email,omitempty" validate:"omitempty,email"`
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
	Arr     [2]int                       `json:"arr,omitzero"`
}

// TestSchemaTreeMatchesRoundTrip: the schema built from invopop's value
// directly is byte for byte the one the encoding/json round trip gives.
func TestSchemaTreeMatchesRoundTrip(t *testing.T) {
	types := []reflect.Type{
		reflect.TypeFor[treeArgs](), reflect.TypeFor[treeNode](), reflect.TypeFor[treeInner](),
		reflect.TypeFor[benchTrip](), reflect.TypeFor[struct{}](), reflect.TypeFor[struct {
			A treePair[int, treePair[string, bool]] `json:"a"`
		}](),
	}
	for _, typ := range types {
		Forget(typ)
		fast, err := For(typ)
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		Forget(typ)
		schemaRoundTrip = true
		slow, err := For(typ)
		schemaRoundTrip = false
		if err != nil {
			t.Fatalf("%s (round trip): %v", typ, err)
		}
		if string(fast.Schema) != string(slow.Schema) {
			t.Errorf("%s:\n tree:       %s\n round trip: %s", typ, fast.Schema, slow.Schema)
		}
	}
}

// TestSchemaTreeFallsBack: values whose encoding/json form the tree does
// not reproduce send the schema through the round trip.
func TestSchemaTreeFallsBack(t *testing.T) {
	for _, s := range []*jsonschema.Schema{
		{Type: "string", Description: "bad \xff utf-8"},
		{Type: "number", Minimum: "Inf"},
		{Type: "string", Default: json.Number("")},
		{Type: "string", Extras: map[string]any{"x": func() {}}},
		{Type: "string", Extras: map[string]any{"type": "number"}},
		{Type: "object", Extras: map[string]any{"required": []string{"a"}}},
		{Type: "string", ContentSchema: &jsonschema.Schema{Type: "array", Items: jsonschema.TrueSchema}},
	} {
		if _, ok := schemaTree(s); ok {
			t.Errorf("schemaTree(%+v) converted it; want the round trip", s)
		}
	}
}

// TestSchemaTreeShapes compares schemaTree with
// canonical(jsonx.Parse(json.Marshal)) on hand-built schemas: boolean and
// empty schemas, maps, extras, keywords canonical moves.
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
		{Description: "d", Type: "string", Title: "t", Ref: "#/$defs/x", Pattern: "^x", Format: "uri"},
		{PrefixItems: []*jsonschema.Schema{jsonschema.TrueSchema, nil}, If: &jsonschema.Schema{}, Then: jsonschema.FalseSchema, PropertyNames: &jsonschema.Schema{Pattern: "^a"}},
		{},
		jsonschema.TrueSchema,
	} {
		v, ok := schemaTree(s)
		if !ok {
			t.Errorf("%d: not converted", i)
			continue
		}
		raw, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		want, err := jsonx.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		want = canonical(want)
		if !reflect.DeepEqual(v, want) {
			t.Errorf("%d: got %s, want %s", i, jsonx.Marshal(v), raw)
		}
		// compileSchema hands the tree to the engine in place of its bytes.
		if again, err := jsonx.Parse(jsonx.Marshal(v)); err != nil || !reflect.DeepEqual(again, v) {
			t.Errorf("%d: jsonx.Parse(jsonx.Marshal(tree)) is not the tree: %s (%v)", i, jsonx.Marshal(again), err)
		}
	}
}
