package argtype

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"

	"github.com/invopop/jsonschema"

	jschema "github.com/toolnexus/toolnexus/schema"
)

// Info is everything Execute needs about an argument type, computed once
// per type by [For] and never modified afterwards.
type Info struct {
	// Schema is the reflected input schema, compact JSON: exactly what the
	// renderers read and what Check enforces. Shared; never modified.
	Schema json.RawMessage
	// Check is Schema compiled by the schema engine (strict: every keyword
	// shown is enforced).
	Check *jschema.Validator
	// NeedValidator reports a validate rule the schema does not express, so
	// go-playground/validator must run after decoding (see RunValidator).
	NeedValidator bool

	spec *valSpec // the decoder's tables (root is kObject): Go types, ranges, text forms

	t      reflect.Type // the argument type (a struct)
	opOnce sync.Once    // compiles op on the first call, so NewTool does not pay for it
	op     *opNode      // the one-pass plan (onepass.go); nil: always the full path
}

// typedOptions compile a typed tool's schema: every keyword it shows is
// enforced or refused at registration (Strict), formats are asserted,
// repeated keys are refused, null for an optional property means absent
// (OpenAI strict mode sends null for "absent"), and nesting is bounded.
var typedOptions = &jschema.Options{AssertFormat: true, Strict: true, RejectDuplicateKeys: true, NullAsAbsent: true, MaxDepth: MaxDepth}

var (
	jsonUnmarshaler   = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler   = reflect.TypeFor[encoding.TextUnmarshaler]()
	schemaHookType    = reflect.TypeFor[interface{ JSONSchema() *jsonschema.Schema }]()
	schemaAliasType   = reflect.TypeFor[interface{ JSONSchemaAlias() any }]()
	errUnsupported    = errors.New("unsupported type")
	knownBareSchemaWs = map[string]bool{"required": true, "nullable": true, "-": true}
)

// For computes the Info of the argument type t (a struct or a pointer to
// a struct): its schema reflected and compiled, its checker and decoder
// plan. The error describes the first reason t cannot be a typed tool's
// arguments, naming the field and the fix. For does not cache; the root
// package keeps one Info per type.
func For(t reflect.Type) (*Info, error) {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("arguments type %s must be a struct or a pointer to a struct (a JSON object), not %s",
			t, kindWord(t))
	}
	if implements(t, jsonUnmarshaler) || implements(t, textUnmarshaler) {
		return nil, fmt.Errorf("arguments type %s has its own UnmarshalJSON or UnmarshalText, so its JSON form is not its fields; use a plain struct for the arguments", t)
	}
	w := &walker{}
	w.recursive = hasCycle(t)
	spec, err := w.value(t, place{owner: t})
	if err != nil {
		return nil, err
	}
	schema, err := w.reflectSchema(t)
	if err != nil {
		return nil, err
	}
	// The probe is needed only when the validator will run: a type whose
	// every rule the checker mirrors never reaches it (mirrored accepts
	// only rules and parameters the validator reads without panicking).
	if w.validate && w.needValidator {
		if err := checkValidateTags(w.structs); err != nil {
			return nil, err
		}
	}
	v, err := jschema.Compile(schema, typedOptions)
	if err != nil {
		return nil, fmt.Errorf("struct %s: %v", typeName(t), err)
	}
	return &Info{Schema: schema, Check: v, spec: spec, NeedValidator: w.needValidator, t: t}, nil
}

func typeName(t reflect.Type) string {
	if t.Name() != "" {
		return t.Name()
	}
	return "arguments"
}

func kindWord(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "a slice (a JSON array)"
	case reflect.Map:
		return "a map"
	case reflect.String:
		return "a string"
	case reflect.Interface:
		return "an interface"
	}
	return "a " + t.Kind().String()
}
