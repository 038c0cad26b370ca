// Package argtype is the machinery behind toolnexus's typed tools: it
// reflects an argument type into the JSON Schema the model is shown
// (invopop/jsonschema's Reflector, patched by the json, jsonschema and
// validate tags), refuses at registration what the runtime would not
// honour, compiles the schema with package schema, checks and decodes a
// call's arguments in one pass where it can, and explains at call time
// what encoding/json refuses (a Go range, a text form) with JSON paths, in
// the model's words.
//
// Files by concern: api.go (what the root package calls), info.go (the
// per-type cache and registration), walk.go (Go types to the checker's
// tables, struct fields as encoding/json lists them), tags.go (tag grammar
// checks), reflect.go (the schema: the Reflector, the patcher, canonical
// order, $defs names), stdtypes.go (standard types that decode
// themselves), rules.go (validate rules shown as keywords), ruletable.go
// (the one table of validator rules: keywords, schema, mirroring,
// messages), validator.go (go-playground/validator), plan.go, layout.go
// and onepass.go (the one-pass path: its plan from the schema and the Go
// layout, and its reader), spec.go, scan.go, lex.go and numbers.go (the
// checker's tables and their reader, which words decode problems),
// diagnose.go (decode problems).
package argtype

import (
	"reflect"
)

// Problem is one problem with a call's arguments.
type Problem struct {
	Path  string // JSON path: "", "days", "stops[2].city"
	Rule  string // "type", "range", "format", "required", "unknown", "syntax", a validator tag, ...
	Param string // the rule's parameter, "" if none
	Msg   string // model-facing text, e.g. `"days" must be at most 14`
}

// CheckObject reports whether args is exactly one JSON object; nil when it
// is. Raw tools get this check only.
func CheckObject(args []byte) *Problem { return checkObject(args) }

// SyntaxProblem words malformed arguments as Execute always has ("not valid
// JSON", "data after the JSON object", ...); nil when args is one JSON
// value.
func SyntaxProblem(args []byte) *Problem {
	sc := scanner{data: args}
	sc.top(rawObjectSpec)
	if len(sc.errs) > 0 && sc.errs[0].Rule == "syntax" {
		return sc.errs[0]
	}
	return nil
}

// Diagnose explains, with the decoder's tables, what encoding/json refuses
// and the schema engine does not see, and rewords the engine's problems at
// values with a text form; see diagnose. rewritten is args with integral
// numbers written 30.0 or 1e2 rewritten as plain integers, for decoding,
// when nothing else is wrong with the Go types; nil otherwise.
func (info *Info) Diagnose(args []byte, engine []*Problem) (problems []*Problem, rewritten []byte) {
	return diagnose(args, info.spec, engine)
}

// CheckDecode checks args against the compiled schema and decodes them
// into target (a non-nil pointer to a zero value of the argument type) in
// one pass, from a plan compiled on the first call from Schema and the Go
// type (see onepass.go). ok reports that args are valid and target holds
// what json.Unmarshal gives for args with the schema's defaults applied;
// defaulted reports that a default was applied. ok false says nothing
// about args (they may be valid: null, an escape in a key, 30.0 for an
// integer, a type the plan cannot follow, ...): target is then partly
// written and the caller runs the full path (ApplyDefaults, Check,
// encoding/json, Diagnose) on a fresh value. The validator's own rules
// (NeedValidator) are not run.
func (info *Info) CheckDecode(args []byte, target any) (ok, defaulted bool) {
	info.opOnce.Do(func() { info.op = compileOnePass(info.t, info.Schema) })
	if info.op == nil {
		return false, false
	}
	return info.op.checkDecode(args, target)
}

// DecodeProblem turns an encoding/json error that Diagnose did not explain
// into a problem without Go type, package or method names.
func DecodeProblem(err error) *Problem { return decodeError(err) }

// RunValidator runs go-playground/validator on target (a pointer to the
// decoded arguments) and returns its failures as problems named by JSON
// path; nil when it passes.
func (info *Info) RunValidator(target any) []*Problem {
	err := validate().Struct(target)
	if err == nil {
		return nil
	}
	return validationErrors(reflect.TypeOf(target).Elem(), err)
}

// Cut shortens s to the bound every quoted value in a message has (64
// bytes, on a rune boundary) plus "…".
func Cut(s string) string { return cutText(s) }
