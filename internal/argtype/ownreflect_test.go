package argtype

import (
	"encoding/json"
	"math/rand/v2"
	"net/netip"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/invopop/jsonschema"
)

// Every type the tests of this package build is built a second time with
// invopop reflecting it (compareReflections panics on a difference).
func init() { VerifyOwnReflect(true) }

// typeGen makes struct types from a byte stream: fields of the kinds,
// standard types, nested structs and tags argument types use, including
// tags ownSchema declines and tags registration refuses, so both paths
// meet them.
type typeGen struct {
	data []byte
	n    int
}

func (g *typeGen) next(k int) int {
	if len(g.data) == 0 {
		return 0
	}
	b := g.data[g.n%len(g.data)]
	g.n++
	return int(b) % k
}

type genHooked struct{ V string }

func (genHooked) JSONSchema() *jsonschema.Schema { return &jsonschema.Schema{Type: "string"} }

type genNamed string

type genInner struct {
	From string `json:"from" jsonschema:"description=Start" validate:"required"`
	Days int    `json:"days,omitempty" validate:"omitempty,min=1,max=365"`
}

type genEmbeds struct {
	genInner
	Extra bool `json:"extra"`
}

var genLeaves = []reflect.Type{
	reflect.TypeFor[bool](), reflect.TypeFor[int](), reflect.TypeFor[int8](), reflect.TypeFor[uint16](),
	reflect.TypeFor[float32](), reflect.TypeFor[float64](), reflect.TypeFor[string](), reflect.TypeFor[genNamed](),
	reflect.TypeFor[any](), reflect.TypeFor[[]byte](), reflect.TypeFor[time.Time](), reflect.TypeFor[netip.Addr](),
	reflect.TypeFor[json.RawMessage](), reflect.TypeFor[genInner](), reflect.TypeFor[genHooked](), reflect.TypeFor[genEmbeds](),
	reflect.TypeFor[uintptr](), reflect.TypeFor[json.Number](), reflect.TypeFor[genHookIface](), reflect.TypeFor[genAliasIface](),
}

// Interfaces whose method sets hold invopop's methods.
type (
	genHookIface  interface{ JSONSchema() *jsonschema.Schema }
	genAliasIface interface{ JSONSchemaAlias() any }
)

var (
	genJSONOpts   = []string{"", ",omitempty", ",omitzero", ",string", ",inline"}
	genSchemaTags = []string{"", "description=A thing", "title=T", "minimum=1", "maximum=1=2", "minLength=2", "maxLength=x",
		"pattern=^a+$", "format=email", "enum=a", "enum=1", "default=3", "default=x", "example=e", "required", "nullable", "-",
		"minItems=1", "maxItems=4", "uniqueItems=true", "readOnly=true", "writeOnly=1", "type=string", "anchor=x",
		"oneof_type=string;integer", "multipleOf=0.5", "exclusiveMinimum=0", "exclusiveMaximum=1e3", " description=y",
		`pattern=a\,b`, "default=true", "enum=1.5", "minimum=abc"}
	genValidate = []string{"", "required", "omitempty,min=1", "omitempty,oneof=a b", "omitempty,dive,min=1", "max=5",
		"omitempty,email", "omitempty,gt=0,lt=10", "omitempty,len=2", "omitempty,oneof=1 2"}
)

// typ makes a field type, depth levels of nesting at most.
func (g *typeGen) typ(depth int) reflect.Type {
	switch k := g.next(10); {
	case k < 6 || depth == 0:
		return genLeaves[g.next(len(genLeaves))]
	case k == 6:
		return reflect.SliceOf(g.typ(depth - 1))
	case k == 7:
		if g.next(2) == 0 {
			return reflect.MapOf(reflect.TypeFor[string](), g.typ(depth-1))
		}
		return reflect.MapOf(reflect.TypeFor[int](), g.typ(depth-1))
	case k == 8:
		return reflect.PointerTo(g.typ(depth - 1))
	default:
		if g.next(2) == 0 {
			return reflect.ArrayOf(2, g.typ(depth-1))
		}
		return g.strct(depth - 1)
	}
}

func (g *typeGen) strct(depth int) reflect.Type {
	n := g.next(5)
	fields := make([]reflect.StructField, 0, n)
	for i := range n {
		name := "F" + strconv.Itoa(i)
		jsonName := []string{strings.ToLower(name), "", "-", "dup", "x y", "F0", "F1"}[g.next(7)]
		tag := `json:"` + jsonName + genJSONOpts[g.next(len(genJSONOpts))] + `"`
		var schema []string
		for range g.next(4) {
			schema = append(schema, genSchemaTags[g.next(len(genSchemaTags))])
		}
		if len(schema) > 0 {
			tag += ` jsonschema:"` + strings.Join(schema, ",") + `"`
		}
		if v := genValidate[g.next(len(genValidate))]; v != "" {
			tag += ` validate:"` + v + `"`
		}
		switch g.next(8) {
		case 0:
			tag += ` jsonschema_description:"Described"`
		case 1:
			tag += ` jsonschema_extras:"minimum=3"`
		}
		fields = append(fields, reflect.StructField{Name: name, Type: g.typ(depth), Tag: reflect.StructTag(tag)})
	}
	return reflect.StructOf(fields)
}

// checkOwnReflect builds t both ways and reports a difference in the
// schema or the error. It reports whether ownSchema served t.
func checkOwnReflect(t *testing.T, typ reflect.Type) bool {
	t.Helper()
	own, ownErr := buildTypeInfo(typ, false)
	slow, slowErr := buildTypeInfo(typ, true)
	switch {
	case (ownErr == nil) != (slowErr == nil) || ownErr != nil && ownErr.Error() != slowErr.Error():
		t.Fatalf("%s: error %v, with invopop %v", typ, ownErr, slowErr)
	case ownErr == nil && string(own.Schema) != string(slow.Schema):
		t.Fatalf("%s: schema\n%s\nwith invopop\n%s", typ, own.Schema, slow.Schema)
	}
	if ownErr != nil {
		return false
	}
	w := &walker{}
	w.recursive = hasCycle(typ)
	if _, err := w.value(typ, place{owner: typ}); err != nil {
		return false
	}
	_, ok := w.ownSchema(typ)
	return ok
}

// TestOwnReflectMatchesInvopop: for 3,000 generated struct types, our own
// reflection gives the schema (after our rules) and the registration error
// that invopop's reflection gives, and it serves a good share of them.
func TestOwnReflectMatchesInvopop(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	served, built := 0, 0
	for range 3000 {
		data := make([]byte, 64)
		for i := range data {
			data[i] = byte(rng.UintN(256))
		}
		g := &typeGen{data: data}
		typ := g.strct(3)
		if _, err := buildTypeInfo(typ, false); err == nil {
			built++
		}
		if checkOwnReflect(t, typ) {
			served++
		}
	}
	t.Logf("%d types registered, %d of them reflected by ownSchema", built, served)
	if served < built/4 || built < 300 {
		t.Errorf("only %d of %d registered types were reflected by ownSchema", served, built)
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[benchTrip](), reflect.TypeFor[treeInner](), reflect.TypeFor[genInner]()} {
		if !checkOwnReflect(t, typ) {
			t.Errorf("%s: ownSchema declined a plain type", typ)
		}
	}
	// Found by review: an interface with invopop's methods, and two fields
	// of one JSON name (invopop writes the last one's schema at the first
	// one's place; encoding/json keeps the tagged one).
	for _, typ := range []reflect.Type{
		reflect.TypeFor[struct{ X genHookIface }](),
		reflect.TypeFor[struct{ X []genAliasIface }](),
		reflect.TypeFor[struct {
			B int `json:"A"`
			A string
		}](),
		reflect.TypeFor[struct {
			A string
			X int
			B string `json:"A"`
		}](),
		reflect.TypeFor[struct {
			A []int `json:"B" jsonschema:"default=x"`
			B string
		}](),
	} {
		checkOwnReflect(t, typ)
	}
}

// FuzzOwnReflect: for any type the generator makes from the input, our own
// reflection and invopop's give the same schema and error.
func FuzzOwnReflect(f *testing.F) {
	f.Add([]byte("\x01\x02\x03\x04\x05\x06\x07\x08\x09"))
	f.Add([]byte("\xff\x10\x20\x30\x40\x50\x60\x70\x80\x90\xa0"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &typeGen{data: data}
		checkOwnReflect(t, g.strct(3))
	})
}
