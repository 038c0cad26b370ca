package toolnexus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/toolnexus/toolnexus/internal/jsonx"
	"github.com/toolnexus/toolnexus/schema"
)

// ErrInvalidOutput is wrapped by the Result.Err of a typed-output tool
// call whose result does not match the tool's output schema (or cannot be
// marshalled). The *schema.ValidationError saying why is wrapped too.
var ErrInvalidOutput = errors.New("toolnexus: result does not match the output schema")

// NewOutputTool builds a typed tool whose function returns a structured
// value. In is the arguments type, as for [NewTool]; Out is the result
// type: any type whose JSON the schema engine can check (a struct or a
// pointer to one, with the same tags as arguments; a slice, array or map;
// a string, number or bool), not an interface.
//
//   - Tool.OutputSchema is Out's JSON Schema, reflected once per type by
//     the same rules as the input schema (renderers send it as MCP
//     "outputSchema", Gemini "responseJsonSchema"): an object schema for a
//     struct, {"type":"array","items":...} for []Row, {"type":"integer"}
//     for int, and so on.
//   - A nil slice or map is the empty list or object ([] or {}), not null.
//   - Every call checks arguments exactly as [NewTool] does, then runs fn.
//   - A non-nil error from fn is an error result whose Output is
//     err.Error(), as for NewTool.
//   - Otherwise the value is marshalled with encoding/json and checked
//     against the output schema with package schema. A value that does not
//     match (a nil pointer, a broken invariant, a custom MarshalJSON that
//     writes something else) never leaves: the result is an error whose
//     Output is `tool "x" failed: internal error: its result does not
//     match its output schema` and whose Err wraps [ErrInvalidOutput] and
//     the *schema.ValidationError naming each problem.
//   - A valid value is the Result's Structured JSON, and Output holds the
//     same JSON text.
//
// Errors are those of NewTool, plus ErrInvalidSchema for an Out that is
// an interface (or has an unsupported field type). NewOutputTool never
// panics.
func NewOutputTool[In, Out any](name, description string, fn func(context.Context, In) (Out, error)) (Tool, error) {
	if fn == nil {
		return Tool{}, fmt.Errorf("toolnexus: NewOutputTool %q: function is nil", name)
	}
	outSchema, check, err := outputSchemaFor(reflect.TypeFor[Out]())
	if err != nil {
		if err := CheckName(name); err != nil {
			return Tool{}, err
		}
		return Tool{}, &wrapError{msg: fmt.Sprintf("toolnexus: tool %q: invalid output schema: %v", name, err), target: ErrInvalidSchema}
	}
	t, err := newTyped[In](name, description, func(ctx context.Context, in In) Result {
		out, err := fn(ctx, in)
		if err != nil {
			return Result{Output: err.Error(), IsError: true, Err: err}
		}
		return structuredResult(name, out, check)
	})
	if err != nil {
		return Tool{}, err
	}
	t.OutputSchema = outSchema
	return t, nil
}

// RegisterOutput builds a typed-output tool with [NewOutputTool] and adds
// it to r. Errors as for NewOutputTool and [Registry.Add]; on error
// nothing is added.
func RegisterOutput[In, Out any](r *Registry, name, description string, fn func(context.Context, In) (Out, error)) error {
	t, err := NewOutputTool(name, description, fn)
	if err != nil {
		return err
	}
	return r.Add(t)
}

// outputSchemaFor returns the reflected schema of the output type t and
// its compiled validator. A struct (or pointer to one) is reflected as an
// arguments type is; any other type as the one field of a struct holding
// it, whose property schema (with the struct's $defs) is the result.
func outputSchemaFor(t reflect.Type) (json.RawMessage, *schema.Validator, error) {
	base := t
	for base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	var out json.RawMessage
	if base.Kind() == reflect.Struct {
		info, err := typeInfo(t)
		if err != nil {
			return nil, nil, err
		}
		out = info.Schema
	} else {
		var err error
		if out, err = valueSchema(t); err != nil {
			return nil, nil, err
		}
	}
	v, err := schema.Compile(out, nil)
	if err != nil {
		return nil, nil, err
	}
	return out, v, nil
}

// valueSchema is the schema of a value of the non-struct type t: the
// property "value" of struct{ Value t }'s schema, with that schema's $defs.
func valueSchema(t reflect.Type) (json.RawMessage, error) {
	if t.Kind() == reflect.Interface {
		return nil, fmt.Errorf("output type %s is an interface: give a concrete type, whose schema says what the result holds", t)
	}
	wrapper := reflect.StructOf([]reflect.StructField{{Name: "Value", Type: t, Tag: `json:"value"`}})
	info, err := typeInfo(wrapper)
	if err != nil {
		return nil, fmt.Errorf("output type %s: %s", t, strings.TrimPrefix(err.Error(), "field .Value: "))
	}
	tree, err := jsonx.Parse(info.Schema)
	if err != nil {
		return nil, err
	}
	root := tree.(*jsonx.Object)
	props, _ := root.Get("properties")
	v, _ := props.(*jsonx.Object).Get("value")
	obj, ok := v.(*jsonx.Object)
	if !ok { // the boolean schema true: any value
		obj = &jsonx.Object{}
	}
	if defs, ok := root.Get("$defs"); ok {
		obj.Set("$defs", defs)
	}
	return jsonx.Marshal(obj), nil
}

// structuredResult marshals out, checks it and builds the Result. A nil
// slice or map is sent as [] or {}, the empty list or object it stands
// for, not null.
func structuredResult(name string, out any, check *schema.Validator) Result {
	if v := reflect.ValueOf(out); v.IsValid() && (v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.IsNil() {
		out = reflect.MakeSlice(reflect.SliceOf(v.Type().Elem()), 0, 0).Interface()
		if v.Kind() == reflect.Map {
			out = reflect.MakeMap(v.Type()).Interface()
		}
	}
	b, err := json.Marshal(out)
	if err == nil {
		err = check.Validate(b)
	}
	if err != nil {
		return Result{
			Output:  fmt.Sprintf("tool %q failed: internal error: its result does not match its output schema", name),
			IsError: true,
			Err:     fmt.Errorf("%w: tool %q: %w", ErrInvalidOutput, name, err),
		}
	}
	return Result{Output: string(b), Structured: b}
}
