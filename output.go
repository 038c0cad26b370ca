package toolnexus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/toolnexus/toolnexus/schema"
)

// ErrInvalidOutput is wrapped by the Result.Err of a typed-output tool
// call whose result does not match the tool's output schema (or cannot be
// marshalled). The *schema.ValidationError saying why is wrapped too.
var ErrInvalidOutput = errors.New("toolnexus: result does not match the output schema")

// NewOutputTool builds a typed tool whose function returns a structured
// value. In is the arguments type, as for [NewTool]; Out is the result
// type: a struct or a pointer to a struct, with the same tags.
//
//   - Tool.OutputSchema is Out's JSON Schema, reflected once per type by
//     the same rules as the input schema (renderers send it as MCP
//     "outputSchema", Gemini "responseJsonSchema").
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
// not a struct (or has an unsupported field type). NewOutputTool never
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
// its compiled validator.
func outputSchemaFor(t reflect.Type) (json.RawMessage, *schema.Validator, error) {
	info, err := typeInfo(t)
	if err != nil {
		return nil, nil, err
	}
	v, err := schema.Compile(info.Schema, nil)
	if err != nil {
		return nil, nil, err
	}
	return info.Schema, v, nil
}

// structuredResult marshals out, checks it and builds the Result.
func structuredResult(name string, out any, check *schema.Validator) Result {
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
