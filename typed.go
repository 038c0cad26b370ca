package toolnexus

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/toolnexus/toolnexus/internal/argtype"
)

// typedMarker marks handlers that check their arguments themselves, so the
// Registry skips its own object check.
type typedMarker interface{ typedArgs() }

// NewTool builds a typed tool from a function. A is the arguments type: a
// struct or a pointer to a struct. Its JSON Schema is reflected once (and
// cached per type) from the struct's tags and compiled by package schema:
//
//   - json: property names; a field is required unless its json tag has
//     omitempty or omitzero (or its jsonschema tag says required, or its
//     validate tag starts with required)
//   - jsonschema, jsonschema_description, jsonschema_extras:
//     invopop/jsonschema keywords (description=, enum=, default=,
//     minimum=, pattern=, format=, const=, ...), and JSONSchema /
//     JSONSchemaExtend methods on the types
//   - validate: go-playground/validator rules, shown in the schema where a
//     keyword says the same (oneof → enum, min/max/len → bounds or lengths,
//     email, url, uuid → format, unique → uniqueItems, required on a string
//     → minLength 1) and checked from it; the others (cross-field, ...)
//     run in the validator
//
// Every call of the tool then, before fn runs: requires one JSON object,
// applies the schema's defaults, checks the arguments against the compiled
// schema (unknown, repeated and case-mismatched keys, required properties,
// null only for optional properties, JSON types and every keyword, with
// their paths), decodes into A (integral numbers written 30.0 or 1e2 are
// integers), and runs the validator. All problems come back in one error
// result; fn is not called.
//
// Example inputs come from a method InputExamples() []A (or []T for A =
// *T) on the arguments type, if it has one: see [Tool.InputExamples].
//
// Errors (test with errors.Is): ErrInvalidName, ErrInvalidSchema (A is not a
// struct, a field has an unsupported type such as chan, func, complex,
// time.Duration or a type that decodes itself without a JSONSchema method,
// a jsonschema tag is prose, a keyword cannot be enforced, ...), and a
// description longer than 1024 characters. NewTool never panics.
func NewTool[A any](name, description string, fn func(context.Context, A) (string, error)) (Tool, error) {
	if fn == nil {
		return Tool{}, fmt.Errorf("toolnexus: NewTool %q: function is nil", name)
	}
	return newTyped[A](name, description, func(ctx context.Context, a A) Result {
		out, err := fn(ctx, a)
		if err != nil {
			return Result{Output: err.Error(), IsError: true, Err: err}
		}
		return Result{Output: out}
	})
}

// NewResultTool is [NewTool] for a function that builds its own [Result],
// for example to attach Metadata such as a pending request.
func NewResultTool[A any](name, description string, fn func(context.Context, A) Result) (Tool, error) {
	if fn == nil {
		return Tool{}, fmt.Errorf("toolnexus: NewResultTool %q: function is nil", name)
	}
	return newTyped[A](name, description, fn)
}

func newTyped[A any](name, description string, fn func(context.Context, A) Result) (Tool, error) {
	if err := CheckName(name); err != nil {
		return Tool{}, err
	}
	t := reflect.TypeFor[A]()
	info, err := typeInfo(t)
	if err != nil {
		return Tool{}, &wrapError{msg: fmt.Sprintf("toolnexus: tool %q: invalid input schema: %v", name, err), target: ErrInvalidSchema}
	}
	h := &typedHandler[A]{name: name, info: info, fn: fn}
	if t.Kind() == reflect.Pointer {
		h.elem = t.Elem()
	}
	// The schema was reflected and compiled by typeInfo (cached per
	// type), so only the other fields are checked here: a warm NewTool
	// does not parse the schema again.
	if err := checkTool(&Tool{Name: name, Description: description, Handler: h}); err != nil {
		return Tool{}, err
	}
	examples, err := inputExamples(h)
	if err != nil {
		return Tool{}, err
	}
	return Tool{Name: name, Description: description, InputSchema: info.Schema, InputExamples: examples, Source: "native", Handler: h}, nil
}

// Register builds a typed tool with [NewTool] and adds it to r. It returns
// the errors of NewTool and of [Registry.Add] (ErrDuplicateTool when the
// name is taken); on error nothing is added.
func Register[A any](r *Registry, name, description string, fn func(context.Context, A) (string, error)) error {
	t, err := NewTool(name, description, fn)
	if err != nil {
		return err
	}
	return r.Add(t)
}

// RegisterResult is [Register] for a function that builds its own [Result].
func RegisterResult[A any](r *Registry, name, description string, fn func(context.Context, A) Result) error {
	t, err := NewResultTool(name, description, fn)
	if err != nil {
		return err
	}
	return r.Add(t)
}

// MustRegister is like [Register] but panics on error. Use it only where a
// failure is a programming error, such as package initialisation.
func MustRegister[A any](r *Registry, name, description string, fn func(context.Context, A) (string, error)) {
	if err := Register(r, name, description, fn); err != nil {
		panic(err)
	}
}

type typedHandler[A any] struct {
	name string
	info *argtype.Info
	elem reflect.Type // non-nil when A is a pointer type
	fn   func(context.Context, A) Result
}

func (*typedHandler[A]) typedArgs() {}

// argSchema is the schema the handler checks against (see schemaIsHandlers).
func (h *typedHandler[A]) argSchema() json.RawMessage { return h.info.Schema }

// Call implements Handler: check and decode, validate, call.
//
// Valid arguments of ordinary types are checked and decoded in one pass
// (argtype.Info.CheckDecode). When that path declines (anything invalid,
// or anything it does not follow), the full path (fullPath) runs on a
// fresh value, so every problem is reported by it, in its words. The
// schema's defaults are applied to args for the full path and, when the
// one pass applied some, for the approval, which shows (and whose ID
// hashes) the arguments that run. The validator's own rules run last, on
// the decoded value.
func (h *typedHandler[A]) Call(ctx context.Context, args json.RawMessage) Result {
	args = normalizeArgs(args)
	info := h.info
	var a A
	target := h.target(&a)
	ok, defaulted := info.CheckDecode(args, target)
	if !ok || defaulted {
		if out, changed, err := info.Check.ApplyDefaults(args); err == nil && changed {
			args = out
		}
	}
	var errs []*argtype.Problem
	if !ok {
		a = *new(A)
		if target, errs, ok = h.fullPath(args, &a); !ok {
			return problemsResult(h.name, errs)
		}
	}
	if info.NeedValidator {
		errs = argtype.Merge(errs, info.RunValidator(target))
	}
	if len(errs) > 0 {
		return problemsResult(h.name, errs)
	}
	return h.run(ctx, args, a)
}

// fullPath checks args (defaults applied) with the compiled schema, which
// reports every problem, and decodes them into *a (a zero value) with
// encoding/json even when it found some, so that the validator's own rules
// (cross-field, ...) are reported in the same message. The decoder's
// tables explain what encoding/json refuses (a Go range, a text form), and
// rewrite integral numbers written 30.0 or 1e2, which JSON Schema counts
// as integers, for decoding. decoded reports that target (what *a was
// decoded through) holds the arguments; when it is false, errs is what the
// model is told.
func (h *typedHandler[A]) fullPath(args json.RawMessage, a *A) (target any, errs []*argtype.Problem, decoded bool) {
	info := h.info
	if err := info.Check.Validate(args); err != nil {
		var fatal bool
		if errs, fatal = engineProblems(err, args); fatal {
			return nil, errs, false
		}
	}
	target = h.target(a)
	derr := json.Unmarshal(args, target)
	if derr == nil {
		// also when the engine found nothing: the decoder's tables see a
		// key that encoding/json matched to a field ignoring case
		errs, _ = info.Diagnose(args, errs)
		return target, errs, true
	}
	errs, rewritten := info.Diagnose(args, errs)
	switch {
	case rewritten != nil:
		*a = *new(A)
		target = h.target(a)
		if derr = json.Unmarshal(rewritten, target); derr != nil {
			return nil, argtype.Merge(errs, []*argtype.Problem{argtype.DecodeProblem(derr)}), false
		}
		return target, errs, true
	case len(errs) == 0:
		return nil, []*argtype.Problem{argtype.DecodeProblem(derr)}, false
	}
	return nil, errs, false
}

// run asks for approval when the tool needs it (see [Tool.NeedsApproval]),
// then calls the function with the checked and decoded arguments. Every
// call that reaches fn goes through here, so none reaches it unapproved.
func (h *typedHandler[A]) run(ctx context.Context, args json.RawMessage, a A) Result {
	if g := gateFor(ctx); g != nil {
		if r, stop := g.approve(ctx, args, a); stop {
			return r
		}
	}
	return h.fn(ctx, a)
}

// target returns what encoding/json decodes into: a itself, or when A is a
// pointer type, a new value that *a is set to point to.
func (h *typedHandler[A]) target(a *A) any {
	if h.elem != nil {
		*a = reflect.New(h.elem).Interface().(A)
		return *a
	}
	return a
}
